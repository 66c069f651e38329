package table

import (
	"fmt"
	"strings"
)

// The Thrift compact protocol (Apache Thrift, "Thrift Compact Protocol
// encoding", doc/specs/thrift-compact-protocol.md) as checkParquetFooter
// walks it: field headers with delta ids, zigzag varints, lengths checked
// against the bytes left before anything is allocated.

// Thrift compact protocol types.
const (
	tcTrue   = 1
	tcFalse  = 2
	tcByte   = 3
	tcI16    = 4
	tcI32    = 5
	tcI64    = 6
	tcDouble = 7
	tcBinary = 8
	tcList   = 9
	tcSet    = 10
	tcMap    = 11
	tcStruct = 12
)

// footerWalker reads Thrift compact-protocol bytes with every length
// checked against the bytes left. The first error sticks; reads after it
// return zero values.
type footerWalker struct {
	b     []byte
	pos   int
	depth int
	path  []string // the fields being read, e.g. "row_groups[2]", "columns[1]"
	err   error
	site  func(footerSite)
}

// field is the path of the named field of the struct being read.
func (w *footerWalker) field(name string) string {
	p := strings.Join(w.path, ".")
	switch {
	case name == "":
		return p
	case p == "":
		return name
	}
	return p + "." + name
}

func (w *footerWalker) fail(name, format string, args ...any) {
	if w.err == nil {
		w.err = &footerError{w.field(name), fmt.Sprintf(format, args...)}
	}
}

func (w *footerWalker) left() int { return len(w.b) - w.pos }

func (w *footerWalker) byte1(name string) byte {
	if w.err != nil {
		return 0
	}
	if w.pos >= len(w.b) {
		w.fail(name, "the footer ends inside it")
		return 0
	}
	c := w.b[w.pos]
	w.pos++
	return c
}

// uvarint reads an unsigned varint of at most bits bits.
func (w *footerWalker) uvarint(name string, bits uint) uint64 {
	var v uint64
	for shift := uint(0); w.err == nil; shift += 7 {
		c := w.byte1(name)
		if shift >= 64 || shift == 63 && c > 1 {
			w.fail(name, "varint longer than 64 bits")
			return 0
		}
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			if bits < 64 && v>>bits != 0 {
				w.fail(name, "value %d does not fit in %d bits", v, bits)
				return 0
			}
			return v
		}
	}
	return 0
}

// int reads an integer field of Thrift type typ (i8, i16, i32, i64).
func (w *footerWalker) int(name string, typ byte) int64 {
	start := w.pos
	var v int64
	kind := siteZigzag
	switch typ {
	case tcByte:
		v, kind = int64(int8(w.byte1(name))), siteByte
	case tcI16, tcI32, tcI64:
		bits := map[byte]uint{tcI16: 16, tcI32: 32, tcI64: 64}[typ]
		u := w.uvarint(name, bits)
		v = int64(u>>1) ^ -int64(u&1)
	default:
		w.fail(name, "thrift type %d, want an integer", typ)
	}
	if w.site != nil && w.err == nil {
		w.site(footerSite{Field: w.field(name), Start: start, End: w.pos, Kind: kind})
	}
	return v
}

// between reads an integer field and checks that lo ≤ v ≤ hi.
func (w *footerWalker) between(name string, typ byte, lo, hi int64) int64 {
	v := w.int(name, typ)
	if w.err == nil && (v < lo || v > hi) {
		w.fail(name, "%d, outside [%d, %d]", v, lo, hi)
	}
	return v
}

// binary reads a string or binary field.
func (w *footerWalker) binary(name string, typ byte) []byte {
	if typ != tcBinary {
		w.fail(name, "thrift type %d, want binary", typ)
		return nil
	}
	start := w.pos
	n := w.uvarint(name, 32)
	if w.err != nil {
		return nil
	}
	if n > uint64(w.left()) {
		w.fail(name, "length %d, but %d bytes of the footer are left", n, w.left())
		return nil
	}
	if w.site != nil {
		w.site(footerSite{Field: w.field(name) + ".length", Start: start, End: w.pos, Kind: siteLength})
	}
	b := w.b[w.pos : w.pos+int(n)]
	w.pos += int(n)
	return b
}

// list reads a list header: each element takes at least one byte, so the
// size is bounded by the bytes left.
func (w *footerWalker) list(name string, typ byte, want byte) int {
	if typ != tcList && typ != tcSet {
		w.fail(name, "thrift type %d, want a list", typ)
		return 0
	}
	start := w.pos
	h := w.byte1(name)
	n, elem := uint64(h>>4), h&0x0f
	if n == 15 {
		n = w.uvarint(name, 32)
	}
	switch {
	case w.err != nil:
		return 0
	case n > uint64(w.left()):
		w.fail(name, "%d elements, but %d bytes of the footer are left", n, w.left())
		return 0
	case want != 0 && n > 0 && elem != want && !(want == tcTrue && elem == tcFalse):
		w.fail(name, "elements of thrift type %d, want %d", elem, want)
		return 0
	}
	if w.site != nil {
		w.site(footerSite{Field: w.field(name) + ".size", Start: start, End: w.pos, Kind: siteList, ListElem: elem})
	}
	return int(n)
}

// each reads the list field name of structs, calling fn for each element
// with the element's path pushed.
func (w *footerWalker) each(name string, typ byte, fn func(i int)) int {
	n := w.list(name, typ, tcStruct)
	for i := 0; i < n && w.err == nil; i++ {
		w.path = append(w.path, fmt.Sprintf("%s[%d]", name, i))
		fn(i)
		w.path = w.path[:len(w.path)-1]
	}
	return n
}

// structure reads a struct's fields, calling fn with each field's id and
// type; fn reads the value (or calls skip). name is pushed on the path
// while the fields are read (none for elements of each).
func (w *footerWalker) structure(name string, typ byte, fn func(id int16, typ byte)) {
	if typ != tcStruct {
		w.fail(name, "thrift type %d, want a struct", typ)
		return
	}
	if w.depth++; w.depth > maxThriftNesting {
		w.fail(name, "structs nested more than %d deep", maxThriftNesting)
		return
	}
	if name != "" {
		w.path = append(w.path, name)
		defer func() { w.path = w.path[:len(w.path)-1] }()
	}
	var last int16
	for w.err == nil {
		h := w.byte1("")
		if h == 0 || w.err != nil {
			break
		}
		ft := h & 0x0f
		id := last + int16(h>>4)
		if h>>4 == 0 {
			id = int16(w.int("field id", tcI16))
		}
		last = id
		if ft == 0 || ft > tcStruct {
			w.fail("", "field %d of thrift type %d", id, ft)
			break
		}
		fn(id, ft)
	}
	w.depth--
}

// skip reads and drops a value of type typ (an unknown field).
func (w *footerWalker) skip(name string, typ byte) {
	switch typ {
	case tcTrue, tcFalse:
	case tcByte, tcI16, tcI32, tcI64:
		w.int(name, typ)
	case tcDouble:
		if w.left() < 8 {
			w.fail(name, "the footer ends inside it")
		}
		w.pos += min(8, w.left())
	case tcBinary:
		w.binary(name, typ)
	case tcList, tcSet:
		start := w.pos
		n := w.list(name, typ, 0)
		if w.err != nil {
			return
		}
		elem := w.b[start] & 0x0f
		if w.depth++; w.depth > maxThriftNesting {
			w.fail(name, "values nested more than %d deep", maxThriftNesting)
		}
		for i := 0; i < n && w.err == nil; i++ {
			if elem == tcTrue || elem == tcFalse {
				w.byte1(name) // a bool in a list is a byte
				continue
			}
			w.skip(name, elem)
		}
		w.depth--
	case tcMap:
		n := w.uvarint(name, 32)
		if w.err == nil && n > uint64(w.left())/2 {
			w.fail(name, "%d map entries, but %d bytes of the footer are left", n, w.left())
		}
		if n == 0 || w.err != nil {
			return
		}
		kv := w.byte1(name)
		if w.depth++; w.depth > maxThriftNesting {
			w.fail(name, "values nested more than %d deep", maxThriftNesting)
		}
		for i := uint64(0); i < n && w.err == nil; i++ {
			w.skip(name, kv>>4)
			w.skip(name, kv&0x0f)
		}
		w.depth--
	case tcStruct:
		w.structure(name, typ, func(id int16, typ byte) { w.skip(fmt.Sprint("field ", id), typ) })
	default:
		w.fail(name, "thrift type %d", typ)
	}
}
