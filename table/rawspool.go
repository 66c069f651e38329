package table

import (
	"fmt"
	"io"
	"os"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
)

// rawSpool holds the coded records (codedSchema) of an .arrow Stream that
// outgrew arrowHoldBytes in a scratch file next to the output: each
// record's column buffers one after another, each at an offset that is a
// multiple of 8 from the record's start, those of atomicfile.DirectBytes
// or more that hold zeros only as holes, with their places in memory
// (spooledRecord, a few hundred bytes a record).
//
// writeTo writes the records into the Arrow file once the setups and
// dictionaries are known. Uncompressed, it does not read their large
// buffers back: the records it gives the IPC writer have those buffers
// in an arena (a slice as long as the longest record, never written and
// never read), and the writer below the IPC writer (spoolCopier) turns
// each write of arena bytes into a copy from the scratch file in the
// kernel (atomicfile.Copier.CopyFrom) or a hole. The bytes of the file
// are those written from records held in memory.
type rawSpool struct {
	f         *os.File
	w         atomicfile.Copier
	done      func() error // writes out what w buffers
	remove    func()
	off       int64 // bytes written to f
	recs      []spooledRecord
	maxExtent int64 // bytes of the longest record
}

// spooledRecord is the place of one record in the scratch file.
type spooledRecord struct {
	rows int64
	base int64 // offset of its first buffer
	cols [numColumns]spooledColumn
}

// spooledColumn is one column of a spooled record: its null count and
// its buffers (as arrow.ArrayData.Buffers).
type spooledColumn struct {
	nulls int
	bufs  []spooledBuffer
}

// spooledBuffer is one buffer of a spooled column: n bytes at offset off
// from its record's base (n < 0: a nil buffer), a hole when zero.
type spooledBuffer struct {
	off, n int64
	zero   bool
}

// newRawSpool creates the scratch file of the .arrow file path.
func newRawSpool(path string) (*rawSpool, error) {
	f, remove, err := atomicfile.Scratch(path)
	if err != nil {
		return nil, err
	}
	w, done := atomicfile.SparseWriter(f)
	return &rawSpool{f: f, w: w, done: done, remove: remove}, nil
}

var zeros8 [8]byte

// add writes rec, a record of codedSchema, to the scratch file.
func (s *rawSpool) add(rec arrow.Record) error {
	r := spooledRecord{rows: rec.NumRows(), base: s.off}
	for i, col := range rec.Columns() {
		d := col.Data()
		if d.Offset() != 0 {
			// A slice: its buffers begin before its first value.
			c, err := array.Concatenate([]arrow.Array{col}, memory.DefaultAllocator)
			if err != nil {
				return err
			}
			defer c.Release()
			d = c.Data()
		}
		c := &r.cols[i]
		c.nulls = d.NullN()
		c.bufs = make([]spooledBuffer, len(d.Buffers()))
		for j, buf := range d.Buffers() {
			if buf == nil {
				c.bufs[j] = spooledBuffer{n: -1}
				continue
			}
			b := buf.Bytes()
			sb := spooledBuffer{off: s.off - r.base, n: int64(len(b))}
			var err error
			if len(b) >= atomicfile.DirectBytes && atomicfile.AllZero(b) {
				sb.zero = true
				err = s.w.Skip(sb.n)
			} else {
				_, err = s.w.Write(b)
			}
			if err != nil {
				return err
			}
			s.off += sb.n
			if pad := -s.off & 7; pad != 0 {
				if _, err := s.w.Write(zeros8[:pad]); err != nil {
					return err
				}
				s.off += pad
			}
			c.bufs[j] = sb
		}
	}
	s.maxExtent = max(s.maxExtent, s.off-r.base)
	s.recs = append(s.recs, r)
	return nil
}

// inArena reports whether buffer j of a column of type t goes into the
// arena: a buffer of atomicfile.DirectBytes or more that the IPC writer
// passes on without reading it. Bitmaps (validity, booleans) are read
// back, as the writer may copy them.
func inArena(t arrow.DataType, j int, b spooledBuffer) bool {
	return b.n >= atomicfile.DirectBytes && j != 0 && t.ID() != arrow.BOOL
}

// record rebuilds spooled record r: the buffers inArena as slices of
// arena when arena is not nil, the others read back from the scratch file.
func (s *rawSpool) record(r *spooledRecord, arena []byte) (arrow.Record, error) {
	cols := make([]arrow.Array, numColumns)
	defer releaseAll(cols)
	for i := range r.cols {
		c := &r.cols[i]
		t := codedSchema.Field(i).Type
		bufs := make([]*memory.Buffer, len(c.bufs))
		for j, b := range c.bufs {
			switch {
			case b.n < 0:
			case arena != nil && inArena(t, j, b):
				bufs[j] = memory.NewBufferBytes(arena[b.off : b.off+b.n])
			default:
				data := make([]byte, b.n)
				if !b.zero {
					if _, err := s.f.ReadAt(data, r.base+b.off); err != nil {
						return nil, fmt.Errorf("reading back the scratch file: %w", err)
					}
				}
				bufs[j] = memory.NewBufferBytes(data)
			}
		}
		d := array.NewData(t, int(r.rows), bufs, nil, c.nulls, 0)
		cols[i] = array.MakeFromData(d)
		d.Release()
	}
	return array.NewRecord(codedSchema, cols, r.rows), nil
}

// writeTo writes the spooled records to w as the Arrow IPC file of schema
// (see writeCodedIPC) with dictionaries dicts and compression codec:
// through a spoolCopier when w is an atomicfile.Copier and the file is
// uncompressed, else from records read back whole (and their codes
// checked against the dictionaries).
func (s *rawSpool) writeTo(w io.Writer, schema *arrow.Schema, dicts []arrow.Array, codec string) error {
	if err := s.done(); err != nil {
		return err
	}
	var sc *spoolCopier
	if cw, ok := w.(atomicfile.Copier); ok && (codec == "" || codec == "none") && s.maxExtent > 0 {
		sc = &spoolCopier{w: cw, src: s.f, arena: make([]byte, s.maxExtent)}
		w = sc
	}
	return writeCodedIPC(w, schema, dicts, codec, sc == nil, func(yield func(arrow.Record) error) error {
		for i := range s.recs {
			r := &s.recs[i]
			var arena []byte
			if sc != nil {
				arena, sc.rec = sc.arena, r
			}
			rec, err := s.record(r, arena)
			if err != nil {
				return err
			}
			err = yield(rec)
			rec.Release()
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// spoolCopier is the writer below the IPC writer of rawSpool.writeTo: a
// write of bytes of arena, which stand for those of the record rec at
// the same offset from its base in the scratch file src, becomes a copy
// of those (or a hole where they are zeros); other writes pass to w.
type spoolCopier struct {
	w     atomicfile.Copier
	src   *os.File
	arena []byte
	rec   *spooledRecord
}

func (c *spoolCopier) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	d := uintptr(unsafe.Pointer(unsafe.SliceData(p))) - uintptr(unsafe.Pointer(unsafe.SliceData(c.arena)))
	if d >= uintptr(len(c.arena)) {
		return c.w.Write(p)
	}
	off, n := int64(d), int64(len(p))
	b := c.rec.bufferAt(off, n)
	switch {
	case b == nil:
		return 0, fmt.Errorf("table: %d bytes at offset %d of a spooled record are in none of its buffers", n, off)
	case b.zero:
		return len(p), c.w.Skip(n)
	}
	return len(p), c.w.CopyFrom(c.src, c.rec.base+off, n)
}

// bufferAt is the buffer of r that holds the n bytes at offset off from
// r's base, or nil.
func (r *spooledRecord) bufferAt(off, n int64) *spooledBuffer {
	for i := range r.cols {
		for j := range r.cols[i].bufs {
			if b := &r.cols[i].bufs[j]; b.n >= 0 && off >= b.off && off+n <= b.off+b.n {
				return b
			}
		}
	}
	return nil
}
