package tablefile

import (
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
)

// Writing Arrow IPC files with Arrow's ipc.FileWriter: the records of
// report frames as they are (WriteFrame), table records through coder
// (Stream).

// ipcFileWriter writes records to an Arrow IPC file.
type ipcFileWriter struct {
	fw     *ipc.FileWriter
	schema *arrow.Schema
}

// newIPCFileWriter starts an Arrow IPC file with schema (its metadata
// included) on w, its buffers compressed with codec ("" or one of
// ArrowCodecs).
func newIPCFileWriter(w io.Writer, schema *arrow.Schema, codec string) (*ipcFileWriter, error) {
	opts := []ipc.Option{ipc.WithSchema(schema)}
	switch codec {
	case "", "none":
	case "zstd":
		opts = append(opts, ipc.WithZstd())
	case "lz4":
		opts = append(opts, ipc.WithLZ4())
	default:
		return nil, fmt.Errorf("tablefile: unknown IPC compression %q (want none, zstd or lz4)", codec)
	}
	fw, err := ipc.NewFileWriter(&positionWriter{w: w}, opts...)
	if err != nil {
		return nil, err
	}
	return &ipcFileWriter{fw: fw, schema: schema}, nil
}

// Write writes r's columns under the file's schema (r's metadata may
// differ); the caller keeps ownership of r.
func (f *ipcFileWriter) Write(r arrow.Record) error {
	rec := array.NewRecord(f.schema, r.Columns(), r.NumRows())
	defer rec.Release()
	return f.fw.Write(rec)
}

// Close writes the footer.
func (f *ipcFileWriter) Close() error { return f.fw.Close() }

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
	return 0, errors.New("tablefile: the IPC writer may only ask for the current position")
}
