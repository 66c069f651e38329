package reports

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

// Rows is a data file read back as text cells: what Frame.WriteFile wrote,
// in any of its formats, so one parser serves CSV, Arrow and Parquet.
type Rows struct {
	// File is the path read, for messages.
	File   string
	Header []string
	Cells  [][]string
	// Lines[i] is the 1-based line of row i in a CSV file; nil otherwise.
	Lines []int
}

// Line is the 1-based line of row i (0-based, after the header) in a CSV
// file, 0 for other formats.
func (r *Rows) Line(i int) int {
	if r.Lines == nil {
		return 0
	}
	return r.Lines[i]
}

// Place names row i for messages: "file:line" for CSV, "file: row N"
// (1-based) otherwise.
func (r *Rows) Place(i int) string {
	if l := r.Line(i); l > 0 {
		return fmt.Sprintf("%s:%d", r.File, l)
	}
	return fmt.Sprintf("%s: row %d", r.File, i+1)
}

// ReadRows reads a CSV (with a header line), Arrow IPC or Parquet file,
// chosen by extension. Cells are formatted as Frame.WriteCSV formats them:
// integers in decimal, floats in the shortest exact form, nulls empty, bools
// as true/false, integer lists ";"-joined. A corrupt file is an error
// naming path, never a panic.
func ReadRows(path string) (rows *Rows, err error) {
	defer func() {
		if r := recover(); r != nil {
			rows, err = nil, fmt.Errorf("%s: corrupt file: %v", path, r)
		}
	}()
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return ReadCSVRows(f, path)
	case ".arrow", ".ipc", ".feather":
		r, err := ipc.NewFileReader(f, ipc.WithAllocator(memory.DefaultAllocator))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		defer r.Close()
		out := &Rows{File: path, Header: fieldNames(r.Schema())}
		for i := 0; i < r.NumRecords(); i++ {
			rec, err := r.Record(i)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			if err := appendRecord(out, rec); err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
		}
		return out, nil
	case ".parquet", ".pq":
		pf, err := file.NewParquetReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		defer pf.Close()
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		tab, err := fr.ReadTable(context.Background())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		defer tab.Release()
		out := &Rows{File: path, Header: fieldNames(tab.Schema())}
		tr := array.NewTableReader(tab, -1)
		defer tr.Release()
		for tr.Next() {
			if err := appendRecord(out, tr.Record()); err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s: unknown extension %q (want .csv, .arrow or .parquet)", path, filepath.Ext(path))
}

// ReadCSVRows reads CSV with a header line from r; path names it in
// messages. Rows may differ in length (the caller checks).
func ReadCSVRows(r io.Reader, path string) (*Rows, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	out := &Rows{File: path}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		line, _ := cr.FieldPos(0)
		if out.Header == nil {
			out.Header = append([]string(nil), rec...)
			continue
		}
		out.Cells = append(out.Cells, append([]string(nil), rec...))
		out.Lines = append(out.Lines, line)
	}
	return out, nil
}

func fieldNames(s *arrow.Schema) []string {
	names := make([]string, s.NumFields())
	for i, f := range s.Fields() {
		names[i] = f.Name
	}
	return names
}

// appendRecord formats rec's cells as text rows.
func appendRecord(out *Rows, rec arrow.Record) error {
	n := int(rec.NumRows())
	start := len(out.Cells)
	for i := 0; i < n; i++ {
		out.Cells = append(out.Cells, make([]string, rec.NumCols()))
	}
	for j, col := range rec.Columns() {
		for i := 0; i < n; i++ {
			if col.IsNull(i) {
				continue
			}
			var cell string
			switch a := col.(type) {
			case *array.String:
				cell = a.Value(i)
			case *array.Int64:
				cell = strconv.FormatInt(a.Value(i), 10)
			case *array.Int32:
				cell = strconv.FormatInt(int64(a.Value(i)), 10)
			case *array.Float64:
				cell = formatFloatCell(a.Value(i))
			case *array.Boolean:
				cell = strconv.FormatBool(a.Value(i))
			case *array.List:
				vals, ok := a.ListValues().(*array.Int64)
				if !ok {
					return fmt.Errorf("column %s: list of %s, want list of int64", rec.ColumnName(j), a.ListValues().DataType())
				}
				lo, hi := a.ValueOffsets(i)
				parts := make([]string, 0, hi-lo)
				for k := lo; k < hi; k++ {
					parts = append(parts, strconv.FormatInt(vals.Value(int(k)), 10))
				}
				cell = strings.Join(parts, ";")
			default:
				return fmt.Errorf("column %s: unsupported type %s", rec.ColumnName(j), col.DataType())
			}
			out.Cells[start+i][j] = cell
		}
	}
	return nil
}
