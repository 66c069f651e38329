package tablefile

import (
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/file"

	"github.com/benchtrim/benchtrim/tablefile/internal/parquetio"
)

// Frame files: the data tables of package reports (flat columns and lists
// of int64 or strings), written as Arrow IPC or Parquet (WriteFrame) and
// read back from those bytes (ReadFrame), which are untrusted: the footer
// checks of ReadFile come first (checkIPCFooterWith, checkParquetFooter
// and checkParquetWith with nested fields allowed), and no allocation
// exceeds maxAllocation.

// ReadFrame reads the frame file f (named path in errors) as Arrow IPC, or
// as Parquet when parquet is set. It calls header with the column names
// and the number of rows (-1 when not known before the rows: Arrow IPC),
// then col with each piece of column j, in row order within a column: a
// record's columns in turn for Arrow IPC, each column whole in chunks for
// Parquet. col must not keep a. An error of col is returned as
// "path: column NAME: err"; a corrupt file is an error naming path, never
// a panic.
func ReadFrame(f *os.File, path string, parquet bool, header func(names []string, rows int), col func(j int, a arrow.Array) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: corrupt file: %v", path, r)
		}
	}()
	if parquet {
		return readParquetFrame(f, path, header, col)
	}
	if err := checkIPCFooterWith(f, true); err != nil {
		return fmt.Errorf("%s: corrupt file: %w", path, err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(boundedGoAllocator{memory.DefaultAllocator}))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer r.Close()
	header(fieldNames(r.Schema()), -1)
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.Record(i)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		for j, c := range rec.Columns() {
			if err := col(j, c); err != nil {
				return fmt.Errorf("%s: column %s: %w", path, rec.ColumnName(j), err)
			}
		}
	}
	return nil
}

// WriteFrame writes rec, a report frame (flat columns, and lists of int64
// or strings), to w as one Arrow IPC file, uncompressed, or as a Parquet
// file (zstd pages) when parquet is set; the schema's metadata is kept,
// and in Parquet the Arrow schema is stored in the footer so that readers
// get the same types back. ReadFrame reads either.
func WriteFrame(w io.Writer, rec arrow.Record, parquet bool) error {
	if parquet {
		return parquetio.Write(w, rec.Schema(), []arrow.Record{rec})
	}
	fw, err := newIPCFileWriter(w, rec.Schema(), "")
	if err != nil {
		return err
	}
	if err := fw.Write(rec); err != nil {
		fw.Close()
		return err
	}
	return fw.Close()
}

// readParquetFrame is ReadFrame of a Parquet file, read column by column
// in this goroutine (parquetio.Column).
func readParquetFrame(f *os.File, path string, header func([]string, int), col func(int, arrow.Array) error) error {
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	if err := checkParquetFooter(f, size, nil); err != nil {
		return fmt.Errorf("%s: corrupt file: %w", path, err)
	}
	mem := boundedGoAllocator{memory.DefaultAllocator}
	pf, err := file.NewParquetReader(f, file.WithReadProps(parquet.NewReaderProperties(mem)))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer pf.Close()
	if err := checkParquetWith(pf, size, true); err != nil {
		return fmt.Errorf("%s: corrupt file: %w", path, err)
	}
	schema, err := parquetio.Schema(pf)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	names := fieldNames(schema)
	rowGroups := make([]int, pf.NumRowGroups())
	for i := range rowGroups {
		rowGroups[i] = i
	}
	rows := int(pf.NumRows())
	if rows < 0 || rows > 1<<26 {
		return fmt.Errorf("%s: corrupt file: %d rows", path, rows)
	}
	header(names, rows)
	for j := range names {
		cr, err := parquetio.NewColumn(pf, j, schema.Field(j).Type, rowGroups)
		if err != nil {
			return fmt.Errorf("%s: column %d: %w", path, j+1, err)
		}
		i := 0
		for {
			ch, err := cr.Next(max(rows, 1))
			if err != nil {
				return fmt.Errorf("%s: column %d: %w", path, j+1, err)
			}
			if ch == nil {
				break
			}
			piece, over := ch, i+ch.Len() > rows
			if over {
				// The cells up to the row count come first, as they are read.
				piece = array.NewSlice(ch, 0, int64(rows-i))
				ch.Release()
			}
			err = col(j, piece)
			i += piece.Len()
			piece.Release()
			if err != nil {
				return fmt.Errorf("%s: column %s: %w", path, names[j], err)
			}
			if over {
				return fmt.Errorf("%s: corrupt file: column %s has more than %d rows", path, names[j], rows)
			}
		}
		if i != rows {
			return fmt.Errorf("%s: corrupt file: column %s has %d of %d rows", path, names[j], i, rows)
		}
	}
	return nil
}

func fieldNames(s *arrow.Schema) []string {
	names := make([]string, s.NumFields())
	for i, f := range s.Fields() {
		names[i] = f.Name
	}
	return names
}
