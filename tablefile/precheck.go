package tablefile

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow/go/v15/parquet/file"

	"github.com/benchtrim/benchtrim/tablefile/internal/parquetio"
)

// The Arrow decoders trust lengths they read from a file and allocate by
// them before anything checks them against the file: a damaged Arrow IPC
// footer that claims 4·10⁹ schema fields, or a Parquet column chunk that
// claims 10¹¹ bytes, makes them ask the Go runtime for more memory than
// the machine has, which is a fatal error, not a panic that guardedRead
// could recover. The checks here bound those lengths by the file's size
// before the decoders see them. Allocations through the allocator are
// bounded by maxAllocation (see trackingAllocator).

// ipcMagic ends (and starts) an Arrow IPC file.
const ipcMagic = "ARROW1"

// checkIPCFooter checks the footer of the Arrow IPC file r: that every
// vector the reader sizes an allocation by (schema fields and their
// children, custom metadata, dictionary and record batch blocks) fits in
// the footer's bytes, and that every block lies inside the file.
func checkIPCFooter(r readerAtSeeker) error { return checkIPCFooterWith(r, false) }

// checkIPCFooterWith is checkIPCFooter; nested also allows list fields (a
// field with one flat child).
func checkIPCFooterWith(r readerAtSeeker, nested bool) error {
	size, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return err
	}
	tail := int64(len(ipcMagic) + 4)
	if size < 2*tail {
		return fmt.Errorf("arrow file of %d bytes is too small", size)
	}
	buf := make([]byte, tail)
	if _, err := r.ReadAt(buf, size-tail); err != nil {
		return err
	}
	if string(buf[4:]) != ipcMagic {
		return errors.New("not an Arrow IPC file (no ARROW1 at the end)")
	}
	n := int64(binary.LittleEndian.Uint32(buf))
	if n <= 0 || n > size-2*tail {
		return fmt.Errorf("footer of %d bytes in a file of %d bytes", n, size)
	}
	fb := flatBuf(make([]byte, n))
	if _, err := r.ReadAt(fb, size-tail-n); err != nil {
		return err
	}
	root, ok := fb.root()
	if !ok {
		return errBadFooter
	}
	// Footer: version, schema, dictionaries, recordBatches, custom_metadata.
	if schema, ok := fb.table(root, 1); ok && !fb.schemaOK(schema, nested) {
		return errBadFooter
	}
	for _, f := range []int{2, 3} {
		start, count, ok := fb.vector(root, f, 24) // Block: offset, metaDataLength (padded), bodyLength
		if !ok {
			return errBadFooter
		}
		for i := int64(0); i < count; i++ {
			p := start + 24*i
			off := int64(binary.LittleEndian.Uint64(fb[p:]))
			meta := int64(int32(binary.LittleEndian.Uint32(fb[p+8:])))
			body := int64(binary.LittleEndian.Uint64(fb[p+16:]))
			if off < 0 || meta < 0 || body < 0 || off > size || meta > size-off || body > size-off-meta {
				return fmt.Errorf("block %d (offset %d, %d + %d bytes) outside the file of %d bytes", i+1, off, meta, body, size)
			}
		}
	}
	if !fb.keyValuesOK(root, 4) {
		return errBadFooter
	}
	return nil
}

var errBadFooter = errors.New("malformed Arrow IPC footer")

// schemaMessageOK checks an encapsulated IPC message holding a schema:
// an optional continuation token, the metadata length, and a Message
// table (version, header_type, header, bodyLength, custom_metadata) whose
// header is a schema.
func schemaMessageOK(b []byte, nested bool) bool {
	if len(b) >= 4 && binary.LittleEndian.Uint32(b) == 0xFFFFFFFF {
		b = b[4:]
	}
	if len(b) < 4 {
		return false
	}
	n := int64(binary.LittleEndian.Uint32(b))
	if n <= 0 || n > int64(len(b))-4 {
		return false
	}
	fb := flatBuf(b[4 : 4+n])
	msg, ok := fb.root()
	if !ok || !fb.keyValuesOK(msg, 4) {
		return false
	}
	if p, ok := fb.field(msg, 3); !ok || p != 0 && (p+8 > n || int64(binary.LittleEndian.Uint64(fb[p:])) != 0) {
		return false // a schema message has no body
	}
	schema, ok := fb.table(msg, 2)
	return ok && fb.schemaOK(schema, nested)
}

// flatBuf reads a FlatBuffers buffer with every offset and length checked
// against the buffer.
type flatBuf []byte

func (b flatBuf) u32(p int64) (int64, bool) {
	if p < 0 || p+4 > int64(len(b)) {
		return 0, false
	}
	return int64(binary.LittleEndian.Uint32(b[p:])), true
}

func (b flatBuf) u16(p int64) (int64, bool) {
	if p < 0 || p+2 > int64(len(b)) {
		return 0, false
	}
	return int64(binary.LittleEndian.Uint16(b[p:])), true
}

// root is the position of the root table.
func (b flatBuf) root() (int64, bool) {
	p, ok := b.u32(0)
	return p, ok && b.tableOK(p)
}

// tableOK checks the table at t and its vtable.
func (b flatBuf) tableOK(t int64) bool {
	so, ok := b.u32(t)
	if !ok {
		return false
	}
	vt := t - int64(int32(so))
	vsize, ok := b.u16(vt)
	return ok && vsize >= 4 && vt+vsize <= int64(len(b))
}

// field is the position of field i of the table at t, or 0 when absent.
func (b flatBuf) field(t int64, i int) (int64, bool) {
	so, _ := b.u32(t)
	vt := t - int64(int32(so))
	vsize, _ := b.u16(vt)
	slot := 4 + 2*int64(i)
	if slot+2 > vsize {
		return 0, true
	}
	off, ok := b.u16(vt + slot)
	if !ok || off == 0 {
		return 0, ok
	}
	return t + off, true
}

// ref follows the offset stored in field i of the table at t: the
// position of the table, vector or string it refers to, or 0 when absent.
func (b flatBuf) ref(t int64, i int) (int64, bool) {
	p, ok := b.field(t, i)
	if !ok || p == 0 {
		return 0, ok
	}
	o, ok := b.u32(p)
	if !ok {
		return 0, false
	}
	return p + o, true
}

// table is the table in field i of the table at t (ok false when the
// field is absent or malformed).
func (b flatBuf) table(t int64, i int) (int64, bool) {
	p, ok := b.ref(t, i)
	return p, ok && p != 0 && b.tableOK(p)
}

// vector returns the start and length of the vector in field i of the
// table at t whose elements are elem bytes; an absent vector is empty.
func (b flatBuf) vector(t int64, i int, elem int64) (start, n int64, ok bool) {
	p, ok := b.ref(t, i)
	if !ok || p == 0 {
		return 0, 0, ok
	}
	n, ok = b.u32(p)
	if !ok || n > (int64(len(b))-p-4)/elem {
		return 0, 0, false
	}
	return p + 4, n, true
}

// tables checks that each element of the vector of tables in field i of t
// is a table, and calls each (when not nil) on it.
func (b flatBuf) tables(t int64, i int, each func(int64) bool) bool {
	start, n, ok := b.vector(t, i, 4)
	for j := int64(0); ok && j < n; j++ {
		p := start + 4*j
		o, _ := b.u32(p)
		ok = b.tableOK(p+o) && (each == nil || each(p+o))
	}
	return ok
}

// keyValuesOK checks the custom_metadata vector in field i of t.
func (b flatBuf) keyValuesOK(t int64, i int) bool {
	return b.tables(t, i, func(kv int64) bool {
		_, _, ok1 := b.vector(kv, 0, 1)
		_, _, ok2 := b.vector(kv, 1, 1)
		return ok1 && ok2
	})
}

// schemaOK checks a schema table: fields, custom_metadata, features.
func (b flatBuf) schemaOK(s int64, nested bool) bool {
	_, _, ok := b.vector(s, 3, 8)
	field := b.fieldOK
	if nested {
		field = b.listFieldOK
	}
	return ok && b.keyValuesOK(s, 2) && b.tables(s, 1, field)
}

// listFieldOK is fieldOK that also allows one flat child (a list column),
// so the decoder's work stays linear in the number of fields.
func (b flatBuf) listFieldOK(f int64) bool {
	_, _, ok := b.vector(f, 0, 1)
	dict, okd := b.field(f, 4)
	_, n, okc := b.vector(f, 5, 4)
	return ok && okd && dict == 0 && okc && n <= 1 && b.keyValuesOK(f, 6) && (n == 0 || b.tables(f, 5, b.fieldOK))
}

// fieldOK checks a Field table: name, custom_metadata, a well-formed
// dictionary encoding if any, and no children. The canonical table has
// only flat columns (its string columns dictionary-encoded), and children
// could refer to one table many times over, which costs the decoder time
// exponential in the nesting depth.
func (b flatBuf) fieldOK(f int64) bool {
	_, _, ok := b.vector(f, 0, 1)
	_, n, okc := b.vector(f, 5, 4)
	return ok && b.dictionaryOK(f) && okc && n == 0 && b.keyValuesOK(f, 6)
}

// dictionaryOK checks the DictionaryEncoding table of Field f, when
// present: the table and its indexType (an Int table).
func (b flatBuf) dictionaryOK(f int64) bool {
	p, ok := b.field(f, 4)
	if !ok || p == 0 {
		return ok
	}
	d, ok := b.table(f, 4)
	if !ok {
		return false
	}
	if q, ok := b.field(d, 1); !ok || q != 0 && !func() bool { _, ok := b.table(d, 1); return ok }() {
		return false
	}
	return true
}

// checkParquet checks the serialized Arrow schema that parquetio.Schema decodes from
// the key-value metadata of pf (ARROW:schema, an IPC schema message) as
// checkIPCFooter checks a footer, and that every column chunk lies inside
// the file of size bytes, as the reader allocates a chunk's length.
func checkParquet(pf *file.Reader, size int64) error { return checkParquetWith(pf, size, false) }

// checkParquetWith is checkParquet; nested also allows list fields.
func checkParquetWith(pf *file.Reader, size int64, nested bool) error {
	md := pf.MetaData()
	for _, e := range md.KeyValueMetadata() {
		if e == nil || e.Key != parquetio.StoredSchemaKey || e.Value == nil {
			continue
		}
		// Decoded as ParquetSchema (and pqarrow) does: standard, else unpadded base64.
		msg, err := base64.StdEncoding.DecodeString(*e.Value)
		if len(msg) == 0 || err != nil {
			msg, err = base64.RawStdEncoding.DecodeString(*e.Value)
		}
		if err != nil {
			return fmt.Errorf("ARROW:schema: %w", err)
		}
		if !schemaMessageOK(msg, nested) {
			return errors.New("malformed ARROW:schema metadata")
		}
	}
	for g := 0; g < pf.NumRowGroups(); g++ {
		rg := md.RowGroup(g)
		for c := 0; c < rg.NumColumns(); c++ {
			col, err := rg.ColumnChunk(c)
			if err != nil {
				return err
			}
			start := col.DataPageOffset()
			if col.HasDictionaryPage() && col.DictionaryPageOffset() > 0 && start > col.DictionaryPageOffset() {
				start = col.DictionaryPageOffset()
			}
			n := col.TotalCompressedSize()
			if start < 0 || n < 0 || start > size || n > size-start {
				return fmt.Errorf("row group %d column %d: chunk at %d of %d bytes outside the file of %d bytes", g+1, c+1, start, n, size)
			}
		}
	}
	return nil
}
