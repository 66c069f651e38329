// Package thrift is the Thrift compact protocol (Apache Thrift, "Thrift
// Compact Protocol encoding", doc/specs/thrift-compact-protocol.md) as
// benchtrim reads and writes Parquet footers and page headers: field
// headers with delta ids, zigzag varints, and on reading every length
// checked against the bytes left before anything is allocated. Writer
// writes the footers and page headers tablefile/internal/parquetenc makes; Reader
// walks the footers of untrusted files (tablefile's footer check).
//
// It is hand-written rather than Arrow Go's parquet/internal/gen-go code
// (Apache Thrift's generated structs): that package is internal to the
// Arrow module, and it decodes a whole FileMetaData, allocating every list
// a header declares, before any bound can be checked.
package thrift

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// Thrift compact protocol types.
const (
	True   = 1
	False  = 2
	Byte   = 3
	I16    = 4
	I32    = 5
	I64    = 6
	Double = 7
	Binary = 8
	List   = 9
	Set    = 10
	Map    = 11
	Struct = 12
)

// MaxNesting bounds the structs and values within structs a Reader walks
// (parquet's own footers nest 5 deep).
const MaxNesting = 32

// Error is a value that breaks a bound, with the path of its field
// ("row_groups[2].columns[1].meta_data"). Its text is a Parquet
// footer's: the one reader of untrusted Thrift is the footer check.
type Error struct {
	Path, Msg string
}

// Error is "Parquet footer: PATH: MSG".
func (e *Error) Error() string { return "Parquet footer: " + e.Path + ": " + e.Msg }

// Site is where an integer of the bytes read is: its field, its bytes
// [Start, End), and how it is encoded.
type Site struct {
	Field      string
	Start, End int
	Kind       SiteKind
	ListElem   byte // the element type of a list size
}

// SiteKind is how the integer at a Site is encoded.
type SiteKind int

// The encodings of a Site.
const (
	SiteZigzag SiteKind = iota + 1 // i16, i32, i64: a zigzag varint
	SiteByte                       // i8: one byte
	SiteLength                     // a string's length: a varint
	SiteList                       // a list's header: size and element type
)

// Reader reads Thrift compact-protocol bytes with every length
// checked against the bytes left. The first error sticks; reads after it
// return zero values.
type Reader struct {
	// B is the bytes read, Pos the next one; Err is the first error
	// (an *Error).
	B     []byte
	Pos   int
	Err   error
	depth int
	path  []string // the fields being read, e.g. "row_groups[2]", "columns[1]"
	// Site, when set, is called with the place of every integer, length
	// and list header read (tests change a footer's numbers with it).
	Site func(Site)
}

// field is the path of the named field of the struct being read.
func (w *Reader) Field(name string) string {
	p := strings.Join(w.path, ".")
	switch {
	case name == "":
		return p
	case p == "":
		return name
	}
	return p + "." + name
}

// Fail sets Err (unless set) to an *Error at field name of the struct
// being read.
func (w *Reader) Fail(name, format string, args ...any) {
	if w.Err == nil {
		w.Err = &Error{Path: w.Field(name), Msg: fmt.Sprintf(format, args...)}
	}
}

// Left is the number of bytes not yet read.
func (w *Reader) Left() int { return len(w.B) - w.Pos }

// Byte1 reads one byte of field name.
func (w *Reader) Byte1(name string) byte {
	if w.Err != nil {
		return 0
	}
	if w.Pos >= len(w.B) {
		w.Fail(name, "the footer ends inside it")
		return 0
	}
	c := w.B[w.Pos]
	w.Pos++
	return c
}

// uvarint reads an unsigned varint of at most bits bits.
func (w *Reader) Uvarint(name string, bits uint) uint64 {
	var v uint64
	for shift := uint(0); w.Err == nil; shift += 7 {
		c := w.Byte1(name)
		if shift >= 64 || shift == 63 && c > 1 {
			w.Fail(name, "varint longer than 64 bits")
			return 0
		}
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			if bits < 64 && v>>bits != 0 {
				w.Fail(name, "value %d does not fit in %d bits", v, bits)
				return 0
			}
			return v
		}
	}
	return 0
}

// int reads an integer field of Thrift type typ (i8, i16, i32, i64).
func (w *Reader) Int(name string, typ byte) int64 {
	start := w.Pos
	var v int64
	kind := SiteZigzag
	switch typ {
	case Byte:
		v, kind = int64(int8(w.Byte1(name))), SiteByte
	case I16, I32, I64:
		bits := map[byte]uint{I16: 16, I32: 32, I64: 64}[typ]
		u := w.Uvarint(name, bits)
		v = int64(u>>1) ^ -int64(u&1)
	default:
		w.Fail(name, "thrift type %d, want an integer", typ)
	}
	if w.Site != nil && w.Err == nil {
		w.Site(Site{Field: w.Field(name), Start: start, End: w.Pos, Kind: kind})
	}
	return v
}

// between reads an integer field and checks that lo ≤ v ≤ hi.
func (w *Reader) Between(name string, typ byte, lo, hi int64) int64 {
	v := w.Int(name, typ)
	if w.Err == nil && (v < lo || v > hi) {
		w.Fail(name, "%d, outside [%d, %d]", v, lo, hi)
	}
	return v
}

// binary reads a string or binary field.
func (w *Reader) Binary(name string, typ byte) []byte {
	if typ != Binary {
		w.Fail(name, "thrift type %d, want binary", typ)
		return nil
	}
	start := w.Pos
	n := w.Uvarint(name, 32)
	if w.Err != nil {
		return nil
	}
	if n > uint64(w.Left()) {
		w.Fail(name, "length %d, but %d bytes of the footer are left", n, w.Left())
		return nil
	}
	if w.Site != nil {
		w.Site(Site{Field: w.Field(name) + ".length", Start: start, End: w.Pos, Kind: SiteLength})
	}
	b := w.B[w.Pos : w.Pos+int(n)]
	w.Pos += int(n)
	return b
}

// list reads a list header: each element takes at least one byte, so the
// size is bounded by the bytes left.
func (w *Reader) List(name string, typ byte, want byte) int {
	if typ != List && typ != Set {
		w.Fail(name, "thrift type %d, want a list", typ)
		return 0
	}
	start := w.Pos
	h := w.Byte1(name)
	n, elem := uint64(h>>4), h&0x0f
	if n == 15 {
		n = w.Uvarint(name, 32)
	}
	switch {
	case w.Err != nil:
		return 0
	case n > uint64(w.Left()):
		w.Fail(name, "%d elements, but %d bytes of the footer are left", n, w.Left())
		return 0
	case want != 0 && n > 0 && elem != want && !(want == True && elem == False):
		w.Fail(name, "elements of thrift type %d, want %d", elem, want)
		return 0
	}
	if w.Site != nil {
		w.Site(Site{Field: w.Field(name) + ".size", Start: start, End: w.Pos, Kind: SiteList, ListElem: elem})
	}
	return int(n)
}

// each reads the list field name of structs, calling fn for each element
// with the element's path pushed.
func (w *Reader) Each(name string, typ byte, fn func(i int)) int {
	n := w.List(name, typ, Struct)
	for i := 0; i < n && w.Err == nil; i++ {
		w.path = append(w.path, fmt.Sprintf("%s[%d]", name, i))
		fn(i)
		w.path = w.path[:len(w.path)-1]
	}
	return n
}

// structure reads a struct's fields, calling fn with each field's id and
// type; fn reads the value (or calls skip). name is pushed on the path
// while the fields are read (none for elements of each).
func (w *Reader) Struct(name string, typ byte, fn func(id int16, typ byte)) {
	if typ != Struct {
		w.Fail(name, "thrift type %d, want a struct", typ)
		return
	}
	if w.depth++; w.depth > MaxNesting {
		w.Fail(name, "structs nested more than %d deep", MaxNesting)
		return
	}
	if name != "" {
		w.path = append(w.path, name)
		defer func() { w.path = w.path[:len(w.path)-1] }()
	}
	var last int16
	for w.Err == nil {
		h := w.Byte1("")
		if h == 0 || w.Err != nil {
			break
		}
		ft := h & 0x0f
		id := last + int16(h>>4)
		if h>>4 == 0 {
			id = int16(w.Int("field id", I16))
		}
		last = id
		if ft == 0 || ft > Struct {
			w.Fail("", "field %d of thrift type %d", id, ft)
			break
		}
		fn(id, ft)
	}
	w.depth--
}

// skip reads and drops a value of type typ (an unknown field).
func (w *Reader) Skip(name string, typ byte) {
	switch typ {
	case True, False:
	case Byte, I16, I32, I64:
		w.Int(name, typ)
	case Double:
		if w.Left() < 8 {
			w.Fail(name, "the footer ends inside it")
		}
		w.Pos += min(8, w.Left())
	case Binary:
		w.Binary(name, typ)
	case List, Set:
		start := w.Pos
		n := w.List(name, typ, 0)
		if w.Err != nil {
			return
		}
		elem := w.B[start] & 0x0f
		if w.depth++; w.depth > MaxNesting {
			w.Fail(name, "values nested more than %d deep", MaxNesting)
		}
		for i := 0; i < n && w.Err == nil; i++ {
			if elem == True || elem == False {
				w.Byte1(name) // a bool in a list is a byte
				continue
			}
			w.Skip(name, elem)
		}
		w.depth--
	case Map:
		n := w.Uvarint(name, 32)
		if w.Err == nil && n > uint64(w.Left())/2 {
			w.Fail(name, "%d map entries, but %d bytes of the footer are left", n, w.Left())
		}
		if n == 0 || w.Err != nil {
			return
		}
		kv := w.Byte1(name)
		if w.depth++; w.depth > MaxNesting {
			w.Fail(name, "values nested more than %d deep", MaxNesting)
		}
		for i := uint64(0); i < n && w.Err == nil; i++ {
			w.Skip(name, kv>>4)
			w.Skip(name, kv&0x0f)
		}
		w.depth--
	case Struct:
		w.Struct(name, typ, func(id int16, typ byte) { w.Skip(fmt.Sprint("field ", id), typ) })
	default:
		w.Fail(name, "thrift type %d", typ)
	}
}

// Writer appends Thrift compact-protocol values to b. Field headers
// carry the difference to the previous field id of the same struct, so
// the writer keeps the last id of every open struct.
type Writer struct {
	// B is the bytes written.
	B    []byte
	last int16   // last field id of the innermost open struct
	outs []int16 // last ids of the enclosing structs
}

// field writes the header of field id of type typ: one byte when the id
// is 1 to 15 above the previous one, else the type and the zigzag id.
func (t *Writer) Field(id int16, typ byte) {
	if d := id - t.last; d > 0 && d <= 15 {
		t.B = append(t.B, byte(d)<<4|typ)
	} else {
		t.B = append(t.B, typ)
		t.B = binary.AppendVarint(t.B, int64(id))
	}
	t.last = id
}

// I32 writes field id, an i32 (a zigzag varint).
func (t *Writer) I32(id int16, v int32) {
	t.Field(id, I32)
	t.B = binary.AppendVarint(t.B, int64(v))
}

// I64 writes field id, an i64 (a zigzag varint).
func (t *Writer) I64(id int16, v int64) {
	t.Field(id, I64)
	t.B = binary.AppendVarint(t.B, v)
}

// Binary writes field id, a binary value: its length and bytes.
func (t *Writer) Binary(id int16, v []byte) {
	t.Field(id, Binary)
	t.B = binary.AppendUvarint(t.B, uint64(len(v)))
	t.B = append(t.B, v...)
}

// String writes field id, a string: its length and bytes.
func (t *Writer) String(id int16, v string) {
	t.Field(id, Binary)
	t.B = binary.AppendUvarint(t.B, uint64(len(v)))
	t.B = append(t.B, v...)
}

// Bool writes field id, a bool (its value is the field's type).
func (t *Writer) Bool(id int16, v bool) {
	if v {
		t.Field(id, True)
	} else {
		t.Field(id, False)
	}
}

// begin opens a struct: as field id of the enclosing struct when id > 0,
// else as an element of a list.
func (t *Writer) Begin(id int16) {
	if id > 0 {
		t.Field(id, Struct)
	}
	t.outs = append(t.outs, t.last)
	t.last = 0
}

// end closes the innermost struct with the stop byte.
func (t *Writer) End() {
	t.B = append(t.B, 0)
	t.last = t.outs[len(t.outs)-1]
	t.outs = t.outs[:len(t.outs)-1]
}

// list writes the header of field id, a list of n elements of type elem.
func (t *Writer) List(id int16, elem byte, n int) {
	t.Field(id, List)
	if n < 15 {
		t.B = append(t.B, byte(n)<<4|elem)
		return
	}
	t.B = append(t.B, 0xf0|elem)
	t.B = binary.AppendUvarint(t.B, uint64(n))
}

// listI32 writes field id, a list of i32 values (enums).
func (t *Writer) ListI32(id int16, v []int32) {
	t.List(id, I32, len(v))
	for _, x := range v {
		t.B = binary.AppendVarint(t.B, int64(x))
	}
}

// listString writes field id, a list of strings.
func (t *Writer) ListString(id int16, v []string) {
	t.List(id, Binary, len(v))
	for _, x := range v {
		t.B = binary.AppendUvarint(t.B, uint64(len(x)))
		t.B = append(t.B, x...)
	}
}
