// Package arrowio writes Arrow records as Arrow IPC files and Parquet files
// on any io.Writer; the canonical table (package table) and report frames
// (package reports) both use it.
package arrowio

import (
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/compress"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

// IPC buffer compression codecs for WriteIPCCompressed.
const (
	// NoCompression writes plain buffers, which every Arrow implementation
	// reads (the JavaScript library, for one, has no codecs built in).
	NoCompression = "none"
	Zstd          = "zstd"
	LZ4           = "lz4"
)

// Codecs lists the IPC compression codecs WriteIPCCompressed accepts.
var Codecs = []string{NoCompression, Zstd, LZ4}

// WriteIPC writes records as one uncompressed Arrow IPC file with schema
// (whose metadata is kept). Records whose schema differs from schema only
// in metadata are rewrapped.
func WriteIPC(w io.Writer, schema *arrow.Schema, records []arrow.Record) error {
	return WriteIPCCompressed(w, schema, records, NoCompression)
}

// WriteIPCCompressed is WriteIPC with buffers compressed by codec (one of
// Codecs; "" means NoCompression).
func WriteIPCCompressed(w io.Writer, schema *arrow.Schema, records []arrow.Record, codec string) error {
	i := -1
	next := func() bool { i++; return i < len(records) }
	return WriteIPCFrom(w, schema, next, func() arrow.Record { return records[i] }, func() error { return nil }, codec)
}

// WriteIPCFrom is WriteIPCCompressed with the records coming from a
// reader (as array.RecordReader gives them: next advances, record is the
// current record, borrowed, err the reader's error once next is false), so
// only one record need be in memory.
func WriteIPCFrom(w io.Writer, schema *arrow.Schema, next func() bool, record func() arrow.Record, readErr func() error, codec string) error {
	opts := []ipc.Option{ipc.WithSchema(schema)}
	switch codec {
	case "", NoCompression:
	case Zstd:
		opts = append(opts, ipc.WithZstd())
	case LZ4:
		opts = append(opts, ipc.WithLZ4())
	default:
		return fmt.Errorf("arrowio: unknown IPC compression %q (want none, zstd or lz4)", codec)
	}
	fw, err := ipc.NewFileWriter(&positionWriter{w: w}, opts...)
	if err != nil {
		return err
	}
	for next() {
		r := record()
		rec := array.NewRecord(schema, r.Columns(), r.NumRows())
		err := fw.Write(rec)
		rec.Release()
		if err != nil {
			fw.Close()
			return err
		}
	}
	if err := readErr(); err != nil {
		fw.Close()
		return err
	}
	return fw.Close()
}

// WriteParquet writes records as one zstd-compressed Parquet file; the
// Arrow schema (with its metadata) is stored in the file so readers get the
// same types back.
func WriteParquet(w io.Writer, schema *arrow.Schema, records []arrow.Record) error {
	pw, err := NewParquetWriter(w, schema)
	if err != nil {
		return err
	}
	for _, r := range records {
		if err := pw.Write(r); err != nil {
			pw.Close()
			return err
		}
	}
	return pw.Close()
}

// ParquetRowGroupRows is the number of rows per Parquet row group: the
// writer keeps one row group's encoded pages in memory, so this bounds its
// memory (about 20 MB for the canonical table) whatever the file's size.
const ParquetRowGroupRows = 1 << 20

// ParquetWriter writes records to a zstd-compressed Parquet file as they
// come, in row groups of ParquetRowGroupRows rows, with string columns
// dictionary-encoded (falling back to plain pages when a column's
// dictionary outgrows 1 MB), and the Arrow schema stored in the file.
type ParquetWriter struct {
	fw     *pqarrow.FileWriter
	schema *arrow.Schema
}

// NewParquetWriter starts a Parquet file with schema on w.
func NewParquetWriter(w io.Writer, schema *arrow.Schema) (*ParquetWriter, error) {
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Zstd), parquet.WithDictionaryDefault(true),
		parquet.WithMaxRowGroupLength(ParquetRowGroupRows))
	fw, err := pqarrow.NewFileWriter(schema, w, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return nil, err
	}
	return &ParquetWriter{fw: fw, schema: schema}, nil
}

// Write adds r's rows (r's schema may differ from the writer's in metadata
// only). The caller keeps ownership of r.
func (p *ParquetWriter) Write(r arrow.Record) error {
	rec := array.NewRecord(p.schema, r.Columns(), r.NumRows())
	defer rec.Release()
	return p.fw.WriteBuffered(rec)
}

// SetMetadata adds a key-value pair to the file's metadata, which Parquet
// writes in the footer at Close: for values known only once every row is
// written.
func (p *ParquetWriter) SetMetadata(key, value string) error {
	return p.fw.AppendKeyValueMetadata(key, value)
}

// Close writes the last row group and the footer.
func (p *ParquetWriter) Close() error { return p.fw.Close() }

// positionWriter adapts an io.Writer to the io.WriteSeeker that
// ipc.NewFileWriter asks for; the IPC writer only ever asks for the current
// position (Seek(0, io.SeekCurrent)).
type positionWriter struct {
	w   io.Writer
	pos int64
}

func (p *positionWriter) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	p.pos += int64(n)
	return n, err
}

func (p *positionWriter) Seek(offset int64, whence int) (int64, error) {
	if offset == 0 && whence == io.SeekCurrent {
		return p.pos, nil
	}
	return 0, errors.New("arrowio: the IPC writer may only ask for the current position")
}
