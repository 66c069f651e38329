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
// chosen by extension (Arrow IPC and Parquet through tablefile.ReadFrame).
// Cells are formatted as Frame.WriteCSV formats them: integers in decimal,
// floats in the shortest exact form, nulls empty, bools as true/false,
// integer lists ";"-joined. A corrupt file is an error naming path, never
// a panic.
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
	var pq bool
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return ReadCSVRows(f, path)
	case ".arrow", ".ipc", ".feather":
	case ".parquet", ".pq":
		pq = true
	default:
		return nil, fmt.Errorf("%s: unknown extension %q (want .csv, .arrow or .parquet)", path, filepath.Ext(path))
	}
	out := &Rows{File: path}
	var next []int // next[j]: the row column j's next piece starts at
	header := func(names []string, rows int) {
		out.Header, next = names, make([]int, len(names))
		if rows >= 0 {
			out.Cells = make([][]string, rows)
			for i := range out.Cells {
				out.Cells[i] = make([]string, len(names))
			}
		}
	}
	col := func(j int, a arrow.Array) error {
		for i := 0; i < a.Len(); i++ {
			if next[j] == len(out.Cells) {
				out.Cells = append(out.Cells, make([]string, len(out.Header)))
			}
			cell, err := cellText(a, i)
			if err != nil {
				return err
			}
			out.Cells[next[j]][j] = cell
			next[j]++
		}
		return nil
	}
	if err := tablefile.ReadFrame(f, path, pq, header, col); err != nil {
		return nil, err
	}
	return out, nil
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
