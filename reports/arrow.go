package reports

import (
	"io"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/tablefile"
)

// columnType infers a column's Arrow type from its cells: int64 when every
// non-nil cell is an integer, float64 when they are numbers (Percent and
// Seconds keep their fraction and seconds), bool when all are bools, and
// string otherwise (cells then use exact). A column of nils is a string
// column of nulls.
func (t *Table) columnType(j int) arrow.DataType {
	ints, nums, bools, seen := true, true, true, false
	for _, r := range t.rows {
		switch r[j].(type) {
		case nil:
			continue
		case int, int32, int64:
			bools = false
		case float64, Percent, Seconds:
			ints, bools = false, false
		case bool:
			ints, nums = false, false
		default:
			ints, nums, bools = false, false, false
		}
		seen = true
	}
	switch {
	case !seen:
		return arrow.BinaryTypes.String
	case ints:
		return arrow.PrimitiveTypes.Int64
	case nums:
		return arrow.PrimitiveTypes.Float64
	case bools:
		return arrow.FixedWidthTypes.Boolean
	}
	return arrow.BinaryTypes.String
}

func asFloat(v any) float64 {
	switch x := v.(type) {
	case int:
		return float64(x)
	case int32:
		return float64(x)
	case int64:
		return float64(x)
	case float64:
		return x
	case Percent:
		return float64(x)
	case Seconds:
		return float64(x)
	}
	return 0
}

func asInt(v any) int64 {
	switch x := v.(type) {
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case int64:
		return x
	}
	return 0
}

// record converts the table to one Arrow record (types from columnType,
// nil cells null). The caller releases it.
func (t *Table) record(mem memory.Allocator) arrow.Record {
	fields := make([]arrow.Field, len(t.Columns))
	for j, c := range t.Columns {
		fields[j] = arrow.Field{Name: c, Type: t.columnType(j), Nullable: true}
	}
	schema := arrow.NewSchema(fields, nil)
	rb := array.NewRecordBuilder(mem, schema)
	defer rb.Release()
	rb.Reserve(len(t.rows))
	for _, r := range t.rows {
		for j, v := range r {
			if v == nil {
				rb.Field(j).AppendNull()
				continue
			}
			switch b := rb.Field(j).(type) {
			case *array.Int64Builder:
				b.Append(asInt(v))
			case *array.Float64Builder:
				b.Append(asFloat(v))
			case *array.BooleanBuilder:
				b.Append(v.(bool))
			case *array.StringBuilder:
				b.Append(exact(v))
			}
		}
	}
	return rb.NewRecord()
}

// writeArrow writes the table as an Arrow IPC file.
func (t *Table) writeArrow(w io.Writer) error {
	rec := t.record(memory.DefaultAllocator)
	defer rec.Release()
	return tablefile.WriteFrame(w, rec, false)
}

// writeParquet writes the table as a Parquet file.
func (t *Table) writeParquet(w io.Writer) error {
	rec := t.record(memory.DefaultAllocator)
	defer rec.Release()
	return tablefile.WriteFrame(w, rec, true)
}
