package reports

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/tablefile"
)

// Frame is a column-typed result table for machines (notebooks, scripts):
// each column is a []string, []int64, []float64, []bool, [][]int64 or
// [][]string of equal length, so the schema does not depend on the values.
// It is written as CSV, Arrow IPC or Parquet; NaN floats and invalid
// optional ints are empty CSV cells and Arrow nulls; lists are Arrow
// list<int64> and list<utf8> columns and ";"-joined CSV cells. Column
// names are snake_case. Table is the human-facing counterpart.
type Frame struct {
	fields []arrow.Field
	cols   []any
	// valid[j] marks the set cells of an optional int column j (nil: all set).
	valid map[int][]bool
}

// String adds a string column.
func (f *Frame) String(name string, v []string) { f.add(name, arrow.BinaryTypes.String, v) }

// Int adds an int64 column.
func (f *Frame) Int(name string, v []int64) { f.add(name, arrow.PrimitiveTypes.Int64, v) }

// Float adds a float64 column.
func (f *Frame) Float(name string, v []float64) { f.add(name, arrow.PrimitiveTypes.Float64, v) }

// Bool adds a bool column.
func (f *Frame) Bool(name string, v []bool) { f.add(name, arrow.FixedWidthTypes.Boolean, v) }

// OptionalInt adds an int64 column whose cell i is null unless valid[i].
func (f *Frame) OptionalInt(name string, v []int64, valid []bool) {
	if len(valid) != len(v) {
		panic(fmt.Sprintf("reports: optional column %s has %d values and %d flags", name, len(v), len(valid)))
	}
	f.add(name, arrow.PrimitiveTypes.Int64, v)
	if f.valid == nil {
		f.valid = map[int][]bool{}
	}
	f.valid[len(f.cols)-1] = valid
}

// IntList adds a column of integer lists (list<int64>; ";"-joined in CSV).
func (f *Frame) IntList(name string, v [][]int64) {
	f.add(name, arrow.ListOf(arrow.PrimitiveTypes.Int64), v)
}

// StringList adds a column of string lists (list<utf8>; ";"-joined in CSV,
// so the strings must not hold ";").
func (f *Frame) StringList(name string, v [][]string) {
	f.add(name, arrow.ListOf(arrow.BinaryTypes.String), v)
}

func (f *Frame) add(name string, t arrow.DataType, v any) {
	f.fields = append(f.fields, arrow.Field{Name: name, Type: t})
	f.cols = append(f.cols, v)
}

func colLen(c any) int {
	switch x := c.(type) {
	case []string:
		return len(x)
	case []int64:
		return len(x)
	case []float64:
		return len(x)
	case []bool:
		return len(x)
	case [][]int64:
		return len(x)
	case [][]string:
		return len(x)
	}
	panic(fmt.Sprintf("reports: frame column of type %T", c))
}

// Rows is the number of rows; it panics when columns differ in length.
func (f *Frame) Rows() int {
	if len(f.cols) == 0 {
		return 0
	}
	n := colLen(f.cols[0])
	for j, c := range f.cols {
		if colLen(c) != n {
			panic(fmt.Sprintf("reports: frame column %s has %d rows, want %d", f.fields[j].Name, colLen(c), n))
		}
	}
	return n
}

// CheckFramePath returns an error unless path has an extension
// Frame.WriteFile writes (.csv, .arrow, .ipc, .feather, .parquet, .pq).
func CheckFramePath(path string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv", ".arrow", ".ipc", ".feather", ".parquet", ".pq":
		return nil
	}
	return fmt.Errorf("%s: unknown output extension %q (want .csv, .arrow or .parquet)", path, filepath.Ext(path))
}

// WriteFile writes f atomically as CSV (.csv), Arrow IPC (.arrow, .ipc,
// .feather) or Parquet (.parquet, .pq), chosen by the extension.
func (f *Frame) WriteFile(path string) error {
	if err := CheckFramePath(path); err != nil {
		return err
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return atomicfile.Write(path, f.WriteCSV)
	case ".parquet", ".pq":
		return atomicfile.Write(path, f.writeParquet)
	}
	return atomicfile.Write(path, f.writeArrow)
}

// formatFloatCell is x in the shortest form that reads back exactly: NaN
// (not computed) as an empty cell, ±Inf as "inf" and "-inf", which
// DuckDB's CSV sniffer, pandas, R and Go all read as a double (a column
// holding strconv's "+Inf" is typed VARCHAR by DuckDB).
func formatFloatCell(x float64) string {
	switch {
	case math.IsNaN(x):
		return ""
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// WriteCSV writes a header of column names and one line per row; floats in
// the shortest form that reads back exactly, NaN as an empty cell, ±Inf as
// inf and -inf (formatFloatCell).
func (f *Frame) WriteCSV(w io.Writer) error {
	n := f.Rows()
	cw := csv.NewWriter(w)
	cw.Write(f.Columns())
	rec := make([]string, len(f.fields))
	for i := 0; i < n; i++ {
		for j := range f.cols {
			rec[j] = f.cell(j, i)
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

// Columns are the frame's column names in order.
func (f *Frame) Columns() []string {
	names := make([]string, len(f.fields))
	for j, fl := range f.fields {
		names[j] = fl.Name
	}
	return names
}

// TextRows is the frame as the text cells of its CSV form (WriteCSV) without
// writing CSV: what ReadRows gives back for the frame's CSV file (whose
// reader turns a quoted "\r\n" into "\n", as here); file names it in
// messages.
func (f *Frame) TextRows(file string) *Rows {
	n := f.Rows()
	out := &Rows{File: file, Header: f.Columns(), Cells: make([][]string, n)}
	cells := make([]string, n*len(f.cols))
	for i := range out.Cells {
		row := cells[i*len(f.cols) : (i+1)*len(f.cols) : (i+1)*len(f.cols)]
		for j := range f.cols {
			row[j] = f.cell(j, i)
			if strings.Contains(row[j], "\r\n") {
				row[j] = strings.ReplaceAll(row[j], "\r\n", "\n")
			}
		}
		out.Cells[i] = row
	}
	return out
}

// cell is the CSV text of column j's row i.
func (f *Frame) cell(j, i int) string {
	switch x := f.cols[j].(type) {
	case []string:
		return x[i]
	case []int64:
		if v := f.valid[j]; v != nil && !v[i] {
			return ""
		}
		return strconv.FormatInt(x[i], 10)
	case []float64:
		return formatFloatCell(x[i])
	case []bool:
		return strconv.FormatBool(x[i])
	case [][]int64:
		parts := make([]string, len(x[i]))
		for k, n := range x[i] {
			parts[k] = strconv.FormatInt(n, 10)
		}
		return strings.Join(parts, ";")
	case [][]string:
		return strings.Join(x[i], ";")
	}
	panic(fmt.Sprintf("reports: frame column of type %T", f.cols[j]))
}

// record builds one Arrow record of the frame; NaN floats become nulls.
// The caller releases it.
func (f *Frame) record(mem memory.Allocator) arrow.Record {
	n := f.Rows()
	fields := make([]arrow.Field, len(f.fields))
	copy(fields, f.fields)
	for j := range fields {
		_, isFloat := f.cols[j].([]float64)
		fields[j].Nullable = isFloat || f.valid[j] != nil
	}
	rb := array.NewRecordBuilder(mem, arrow.NewSchema(fields, nil))
	defer rb.Release()
	rb.Reserve(n)
	for j, c := range f.cols {
		switch x := c.(type) {
		case []string:
			rb.Field(j).(*array.StringBuilder).AppendValues(x, nil)
		case []int64:
			rb.Field(j).(*array.Int64Builder).AppendValues(x, f.valid[j])
		case [][]int64:
			appendLists(rb.Field(j), x, func(vb array.Builder, v []int64) { vb.(*array.Int64Builder).AppendValues(v, nil) })
		case [][]string:
			appendLists(rb.Field(j), x, func(vb array.Builder, v []string) { vb.(*array.StringBuilder).AppendValues(v, nil) })
		case []float64:
			valid := make([]bool, len(x))
			for i, v := range x {
				valid[i] = !math.IsNaN(v)
			}
			rb.Field(j).(*array.Float64Builder).AppendValues(x, valid)
		case []bool:
			rb.Field(j).(*array.BooleanBuilder).AppendValues(x, nil)
		}
	}
	return rb.NewRecord()
}

// appendLists appends one list per element of lists to the list builder b,
// the values through appendValues on its value builder.
func appendLists[T any](b array.Builder, lists [][]T, appendValues func(vb array.Builder, v []T)) {
	lb := b.(*array.ListBuilder)
	for _, l := range lists {
		lb.Append(true)
		appendValues(lb.ValueBuilder(), l)
	}
}

// writeArrow writes the frame as an Arrow IPC file.
func (f *Frame) writeArrow(w io.Writer) error {
	rec := f.record(memory.DefaultAllocator)
	defer rec.Release()
	return tablefile.WriteFrame(w, rec, false)
}

// writeParquet writes the frame as a Parquet file.
func (f *Frame) writeParquet(w io.Writer) error {
	rec := f.record(memory.DefaultAllocator)
	defer rec.Release()
	return tablefile.WriteFrame(w, rec, true)
}
