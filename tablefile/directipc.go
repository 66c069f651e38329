package tablefile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"sync"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
)

// directIPC writes the coded records of an uncompressed .arrow Stream
// straight into the output file, in one pass, although the file's schema
// (with the setups) and its dictionaries, which come first, are known
// only at the end.
//
// The records go in as record batch messages behind a region of
// reserve bytes left as a hole: an IPC stream writer of codedSchema makes
// them, and a record batch message does not name its columns' types, so
// int32 codes give the bytes that dictionary indices of the same values
// give. finish then writes into the region the start of an Arrow file
// that Arrow's file writer makes for the final schema and dictionaries
// and as many zero-row records (its magic, schema message and dictionary
// messages), the rest of the region as padding inside the schema message
// (whose length counts padding; file readers take the schema from the
// footer), and after the records that file's footer, its blocks patched
// to the records' places (Footer.recordBatches and .dictionaries are
// vectors of fixed-size Block structs). A start longer than the region
// moves the records back by the difference first.
//
// Reference: the Arrow IPC file format,
// https://arrow.apache.org/docs/format/Columnar.html#ipc-file-format, and
// format/File.fbs, format/Message.fbs of apache/arrow.
type directIPC struct {
	w       atomicfile.FileWriter
	cw      *messageCounter
	ipcw    *ipc.Writer
	reserve int64
	blocks  []ipcBlock
}

// ipcBlock is the place of one record batch message: at offset off from
// the first record's, meta bytes of prefix and metadata, then body bytes.
type ipcBlock struct {
	off, meta, body int64
}

// directReserve is the region directIPC leaves for the file's start:
// about 3,000 benchmark runs' setups (a variable for the tests).
var directReserve int64 = 1 << 20

// newDirectIPC starts writing records to w, which nothing has been
// written to yet.
func newDirectIPC(w atomicfile.FileWriter) (*directIPC, error) {
	n, err := codedSchemaMessageLen()
	if err != nil {
		return nil, err
	}
	if err := w.Skip(directReserve); err != nil {
		return nil, err
	}
	cw := &messageCounter{w: w, skip: n}
	return &directIPC{w: w, cw: cw, ipcw: ipc.NewWriter(cw, ipc.WithSchema(codedSchema)), reserve: directReserve}, nil
}

var codedSchemaLen struct {
	once sync.Once
	n    int64
	err  error
}

// codedSchemaMessageLen is the length of the schema message an IPC
// stream writer of codedSchema writes first: the bytes of a stream of no
// records but its end-of-stream marker (8 bytes).
func codedSchemaMessageLen() (int64, error) {
	c := &codedSchemaLen
	c.once.Do(func() {
		var buf bytes.Buffer
		w := ipc.NewWriter(&buf, ipc.WithSchema(codedSchema))
		if c.err = w.Close(); c.err == nil {
			c.n = int64(buf.Len()) - 8
		}
	})
	return c.n, c.err
}

// messageCounter passes writes on to w but the first skip bytes, counts
// the bytes passed on (pos) and keeps the first 8 of them since head was
// last emptied.
type messageCounter struct {
	w     io.Writer
	skip  int64
	pos   int64
	head  [8]byte
	nhead int
}

func (c *messageCounter) Write(p []byte) (int, error) {
	n := len(p)
	if c.skip > 0 {
		k := min(int64(len(p)), c.skip)
		c.skip -= k
		p = p[k:]
	}
	if len(p) == 0 {
		return n, nil
	}
	if c.nhead < len(c.head) {
		c.nhead += copy(c.head[c.nhead:], p)
	}
	if _, err := c.w.Write(p); err != nil {
		return 0, err
	}
	c.pos += int64(len(p))
	return n, nil
}

// add writes coded record rec.
func (d *directIPC) add(rec arrow.Record) error {
	start := d.cw.pos
	d.cw.nhead = 0
	if err := d.ipcw.Write(rec); err != nil {
		return err
	}
	h := d.cw.head
	if d.cw.nhead < 8 || binary.LittleEndian.Uint32(h[:4]) != 0xFFFFFFFF {
		return fmt.Errorf("table: record batch message without its prefix")
	}
	meta := 8 + int64(binary.LittleEndian.Uint32(h[4:]))
	d.blocks = append(d.blocks, ipcBlock{off: start, meta: meta, body: d.cw.pos - start - meta})
	return nil
}

// Footer fields (vtable slots) and the Block struct (format/File.fbs).
const (
	footerDictionaries  = 8
	footerRecordBatches = 10
	blockBytes          = 24 // offset int64, metaDataLength int32, padding, bodyLength int64
)

// finish writes the file's start and footer for schema and dicts.
func (d *directIPC) finish(schema *arrow.Schema, dicts []arrow.Array) error {
	defer releaseAll(dicts)
	tpl, err := zeroRowFile(schema, dicts, len(d.blocks))
	if err != nil {
		return err
	}
	n := len(tpl)
	flen := int(binary.LittleEndian.Uint32(tpl[n-10:]))
	fstart := n - 10 - flen
	footer := tpl[fstart : n-10]
	dictAt, ndict := blockVector(footer, footerDictionaries)
	recAt, nrec := blockVector(footer, footerRecordBatches)
	if nrec != len(d.blocks) || nrec == 0 {
		return fmt.Errorf("table: the footer of %d zero-row records lists %d", len(d.blocks), nrec)
	}
	block := func(at, i int) []byte { return footer[at+i*blockBytes : at+(i+1)*blockBytes] }
	last := block(recAt, nrec-1)
	start := int64(binary.LittleEndian.Uint64(block(recAt, 0))) // the file's start: magic, schema, dictionaries
	end := int64(binary.LittleEndian.Uint64(last)) + int64(int32(binary.LittleEndian.Uint32(last[8:]))) + int64(binary.LittleEndian.Uint64(last[16:]))
	tail := bytes.Clone(tpl[end:]) // the footer, its length, the magic
	footer = tail[int64(fstart)-end : len(tail)-10]

	// The records begin at base; the padding fills the region.
	base, pad := d.reserve, d.reserve-start
	if pad < 0 {
		base, pad = start, 0
		if err := d.moveRecords(start - d.reserve); err != nil {
			return err
		}
	}
	const schemaAt = 8 // after the magic and its padding
	size := int64(binary.LittleEndian.Uint32(tpl[schemaAt+4:]))
	head := bytes.Clone(tpl[:start])
	binary.LittleEndian.PutUint32(head[schemaAt+4:], uint32(size+pad))
	schemaEnd := schemaAt + 8 + size
	if _, err := d.w.WriteAt(head[:schemaEnd], 0); err != nil {
		return err
	}
	if _, err := d.w.WriteAt(head[schemaEnd:], schemaEnd+pad); err != nil {
		return err
	}
	for i := 0; i < ndict; i++ {
		b := block(dictAt, i)
		binary.LittleEndian.PutUint64(b, binary.LittleEndian.Uint64(b)+uint64(pad))
	}
	for i, r := range d.blocks {
		b := block(recAt, i)
		binary.LittleEndian.PutUint64(b, uint64(base+r.off))
		binary.LittleEndian.PutUint32(b[8:], uint32(r.meta))
		binary.LittleEndian.PutUint64(b[16:], uint64(r.body))
	}
	if base != d.reserve {
		// Write's offset is at the records' old end.
		if err := d.w.Skip(base - d.reserve); err != nil {
			return err
		}
	}
	_, err = d.w.Write(tail)
	return err
}

// moveRecords moves the records by by bytes towards the end of the file,
// a chunk at a time from the last one.
func (d *directIPC) moveRecords(by int64) error {
	buf := make([]byte, 1<<20)
	from, n := d.reserve, d.cw.pos
	for n > 0 {
		k := min(n, int64(len(buf)))
		n -= k
		if _, err := d.w.ReadAt(buf[:k], from+n); err != nil {
			return err
		}
		if _, err := d.w.WriteAt(buf[:k], from+n+by); err != nil {
			return err
		}
	}
	return nil
}

// blockVector is the offset in footer (a Footer flatbuffer) of the
// vector of Block structs in vtable slot slot, and its length.
func blockVector(footer []byte, slot flatbuffers.VOffsetT) (at, n int) {
	t := flatbuffers.Table{Bytes: footer, Pos: flatbuffers.GetUOffsetT(footer)}
	o := flatbuffers.UOffsetT(t.Offset(slot))
	if o == 0 {
		return 0, 0
	}
	return int(t.Vector(o)), t.VectorLen(o)
}

// zeroRowFile is the Arrow IPC file of schema, dictionaries dicts and n
// records of no rows, as newIPCFileWriter writes it.
func zeroRowFile(schema *arrow.Schema, dicts []arrow.Array, n int) ([]byte, error) {
	cols := make([]arrow.Array, numColumns)
	for i, f := range codedSchema.Fields() {
		cols[i] = array.MakeArrayOfNull(memory.DefaultAllocator, f.Type, 0)
	}
	coded := array.NewRecord(codedSchema, cols, 0)
	releaseAll(cols)
	defer coded.Release()
	rec, err := decode(coded, dicts, false)
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	var buf bytes.Buffer
	fw, err := newIPCFileWriter(&buf, schema, "")
	if err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		if err := fw.Write(rec); err != nil {
			return nil, err
		}
	}
	if err := fw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
