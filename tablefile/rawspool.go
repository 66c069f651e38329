package tablefile

import (
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
)

// rawSpool holds the coded records (codedSchema) of a compressed .arrow
// Stream that outgrew arrowHoldBytes in a scratch file next to the
// output: each record's column buffers one after another, those of
// atomicfile.DirectBytes or more that hold zeros only as holes, with
// their places in memory (spooledRecord, a few hundred bytes a record).
// writeTo reads the records back one at a time and writes them into the
// Arrow file once the setups and dictionaries are known. (Uncompressed
// files are written in one pass instead: directIPC.)
type rawSpool struct {
	f      *os.File
	w      atomicfile.FileWriter
	done   func() error // writes out what w buffers
	remove func()
	off    int64 // bytes written to f
	recs   []spooledRecord
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
			c.bufs[j] = sb
		}
	}
	s.recs = append(s.recs, r)
	return nil
}

// record reads spooled record r back from the scratch file.
func (s *rawSpool) record(r *spooledRecord) (arrow.Record, error) {
	cols := make([]arrow.Array, numColumns)
	defer releaseAll(cols)
	for i := range r.cols {
		c := &r.cols[i]
		t := codedSchema.Field(i).Type
		bufs := make([]*memory.Buffer, len(c.bufs))
		for j, b := range c.bufs {
			if b.n < 0 {
				continue
			}
			data := make([]byte, b.n)
			if !b.zero {
				if _, err := s.f.ReadAt(data, r.base+b.off); err != nil {
					return nil, fmt.Errorf("reading back the scratch file: %w", err)
				}
			}
			bufs[j] = memory.NewBufferBytes(data)
		}
		d := array.NewData(t, int(r.rows), bufs, nil, c.nulls, 0)
		cols[i] = array.MakeFromData(d)
		d.Release()
	}
	return array.NewRecord(codedSchema, cols, r.rows), nil
}

// writeTo writes the spooled records to w as the Arrow IPC file of schema
// (see writeCodedIPC) with dictionaries dicts and compression codec,
// their codes checked against the dictionaries.
func (s *rawSpool) writeTo(w io.Writer, schema *arrow.Schema, dicts []arrow.Array, codec string) error {
	if err := s.done(); err != nil {
		return err
	}
	return writeCodedIPC(w, schema, dicts, codec, true, func(yield func(arrow.Record) error) error {
		for i := range s.recs {
			rec, err := s.record(&s.recs[i])
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
