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
)

// IPC buffer compression codecs for NewIPCFileWriter.
const (
	// noCompression writes plain buffers, which every Arrow implementation
	// reads (the JavaScript library, for one, has no codecs built in).
	noCompression = "none"
	Zstd          = "zstd"
	lZ4           = "lz4"
)

// Codecs lists the IPC compression codecs NewIPCFileWriter accepts.
var Codecs = []string{noCompression, Zstd, lZ4}

// WriteIPC writes records as one uncompressed Arrow IPC file with schema
// (whose metadata is kept). Records whose schema differs from schema only
// in metadata are rewrapped.
func WriteIPC(w io.Writer, schema *arrow.Schema, records []arrow.Record) error {
	fw, err := NewIPCFileWriter(w, schema, noCompression)
	if err != nil {
		return err
	}
	for _, r := range records {
		if err := fw.Write(r); err != nil {
			fw.Close()
			return err
		}
	}
	return fw.Close()
}

// IPCFileWriter writes records to an Arrow IPC file.
type IPCFileWriter struct {
	fw     *ipc.FileWriter
	schema *arrow.Schema
}

// NewIPCFileWriter starts an Arrow IPC file with schema (its metadata
// included) on w, its buffers compressed with codec ("" or none, zstd, lz4).
func NewIPCFileWriter(w io.Writer, schema *arrow.Schema, codec string) (*IPCFileWriter, error) {
	opts := []ipc.Option{ipc.WithSchema(schema)}
	switch codec {
	case "", noCompression:
	case Zstd:
		opts = append(opts, ipc.WithZstd())
	case lZ4:
		opts = append(opts, ipc.WithLZ4())
	default:
		return nil, fmt.Errorf("arrowio: unknown IPC compression %q (want none, zstd or lz4)", codec)
	}
	fw, err := ipc.NewFileWriter(&positionWriter{w: w}, opts...)
	if err != nil {
		return nil, err
	}
	return &IPCFileWriter{fw: fw, schema: schema}, nil
}

// Write writes r's columns under the file's schema (r's metadata may
// differ); the caller keeps ownership of r.
func (f *IPCFileWriter) Write(r arrow.Record) error {
	rec := array.NewRecord(f.schema, r.Columns(), r.NumRows())
	defer rec.Release()
	return f.fw.Write(rec)
}

// Close writes the footer.
func (f *IPCFileWriter) Close() error { return f.fw.Close() }

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
