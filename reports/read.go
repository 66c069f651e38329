package reports

import (
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
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/file"

	"github.com/benchtrim/benchtrim/internal/arrowio"
	"github.com/benchtrim/benchtrim/tablefile"
)

// Rows is a data file read back as text cells: what Frame.WriteFile wrote,
// in any of its formats, so one parser serves CSV, Arrow and Parquet.
type Rows struct {
	// File is the path read, for messages.
	File   string
	Header []string
	Cells  [][]string
	// lines[i] is the 1-based line of row i in a CSV file; nil otherwise.
	lines []int
}

// Line is the 1-based line of row i (0-based, after the header) in a CSV
// file, 0 for other formats.
func (r *Rows) Line(i int) int {
	if r.lines == nil {
		return 0
	}
	return r.lines[i]
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
		if err := tablefile.CheckIPCFile(f); err != nil {
			return nil, fmt.Errorf("%s: corrupt file: %w", path, err)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		r, err := ipc.NewFileReader(f, ipc.WithAllocator(boundedAllocator{}))
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
		return readParquetRows(f, path)
	}
	return nil, fmt.Errorf("%s: unknown extension %q (want .csv, .arrow or .parquet)", path, filepath.Ext(path))
}

// ReadCSVRows reads CSV with a header line from r; path names it in
// messages. Rows may differ in length (the caller checks).
// readParquetRows reads a Parquet file column by column in this goroutine
// (arrowio.ParquetColumn), after the checks tablefile.CheckParquetFooter and
// tablefile.CheckParquetFile make.
func readParquetRows(f *os.File, path string) (*Rows, error) {
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, err
	}
	if err := tablefile.CheckParquetFooter(f, size); err != nil {
		return nil, fmt.Errorf("%s: corrupt file: %w", path, err)
	}
	mem := boundedAllocator{}
	pf, err := file.NewParquetReader(f, file.WithReadProps(parquet.NewReaderProperties(mem)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer pf.Close()
	if err := tablefile.CheckParquetFile(pf, size); err != nil {
		return nil, fmt.Errorf("%s: corrupt file: %w", path, err)
	}
	schema, err := arrowio.ParquetSchema(pf)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := &Rows{File: path, Header: fieldNames(schema)}
	rowGroups := make([]int, pf.NumRowGroups())
	for i := range rowGroups {
		rowGroups[i] = i
	}
	rows := int(pf.NumRows())
	if rows < 0 || rows > 1<<26 {
		return nil, fmt.Errorf("%s: corrupt file: %d rows", path, rows)
	}
	out.Cells = make([][]string, rows)
	for i := range out.Cells {
		out.Cells[i] = make([]string, len(out.Header))
	}
	for j := range out.Header {
		cr, err := arrowio.NewParquetColumn(pf, j, schema.Field(j).Type, rowGroups)
		if err != nil {
			return nil, fmt.Errorf("%s: column %d: %w", path, j+1, err)
		}
		i := 0
		for {
			ch, err := cr.Next(max(rows, 1))
			if err != nil {
				return nil, fmt.Errorf("%s: column %d: %w", path, j+1, err)
			}
			if ch == nil {
				break
			}
			for k := 0; k < ch.Len(); k++ {
				if i >= rows {
					ch.Release()
					return nil, fmt.Errorf("%s: corrupt file: column %s has more than %d rows", path, out.Header[j], rows)
				}
				cell, err := cellText(ch, k)
				if err != nil {
					ch.Release()
					return nil, fmt.Errorf("%s: column %s: %w", path, out.Header[j], err)
				}
				out.Cells[i][j] = cell
				i++
			}
			ch.Release()
		}
		if i != rows {
			return nil, fmt.Errorf("%s: corrupt file: column %s has %d of %d rows", path, out.Header[j], i, rows)
		}
	}
	return out, nil
}

// boundedAllocator allocates from the Go heap and panics (recovered by
// ReadRows) on a request above tablefile.MaxAllocation, which only a damaged
// length in a file asks for.
type boundedAllocator struct{}

func (boundedAllocator) Allocate(size int) []byte {
	checkSize(size)
	return memory.DefaultAllocator.Allocate(size)
}

func (boundedAllocator) Reallocate(size int, b []byte) []byte {
	checkSize(size)
	return memory.DefaultAllocator.Reallocate(size, b)
}

func (boundedAllocator) Free(b []byte) { memory.DefaultAllocator.Free(b) }

func checkSize(size int) {
	if size < 0 || size > tablefile.MaxAllocation() {
		panic(fmt.Sprintf("a buffer of %d bytes is asked for (a damaged length?)", size))
	}
}

// ReadCSVRows reads a data frame written as CSV from r (path names it in
// errors): the header, then every record with its line number.
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
		out.lines = append(out.lines, line)
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
			cell, err := cellText(col, i)
			if err != nil {
				return fmt.Errorf("column %s: %w", rec.ColumnName(j), err)
			}
			out.Cells[start+i][j] = cell
		}
	}
	return nil
}

// cellText formats cell i of col as Frame.WriteCSV writes it ("" for null).
func cellText(col arrow.Array, i int) (string, error) {
	if col.IsNull(i) {
		return "", nil
	}
	switch a := col.(type) {
	case *array.String:
		return a.Value(i), nil
	case *array.Int64:
		return strconv.FormatInt(a.Value(i), 10), nil
	case *array.Int32:
		return strconv.FormatInt(int64(a.Value(i)), 10), nil
	case *array.Float64:
		return formatFloatCell(a.Value(i)), nil
	case *array.Boolean:
		return strconv.FormatBool(a.Value(i)), nil
	case *array.List:
		vals := a.ListValues()
		ints, isInt := vals.(*array.Int64)
		strs, isString := vals.(*array.String)
		if !isInt && !isString {
			return "", fmt.Errorf("list of %s, want list of int64 or utf8", vals.DataType())
		}
		lo, hi := a.ValueOffsets(i)
		if lo < 0 || hi < lo || int(hi) > vals.Len() {
			return "", fmt.Errorf("list offsets [%d, %d) outside the %d values", lo, hi, vals.Len())
		}
		parts := make([]string, 0, hi-lo)
		for k := lo; k < hi; k++ {
			if isInt {
				parts = append(parts, strconv.FormatInt(ints.Value(int(k)), 10))
			} else {
				parts = append(parts, strs.Value(int(k)))
			}
		}
		return strings.Join(parts, ";"), nil
	}
	return "", fmt.Errorf("unsupported type %s", col.DataType())
}
