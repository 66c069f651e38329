package tablefile

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/benchtrim/benchtrim/table"
)

// The layout of a table file: the canonical schema (table.Schema), its
// column indices (TestColumnIndices ties them to the schema's names), the
// schema metadata keys and the format version.

// Column indices in schema.
const (
	idxProject = iota
	idxVersion
	idxBenchmark
	idxParams
	idxMode
	idxMetric
	idxUnit
	idxValue
	idxNsPerOp
	idxCount
	idxInstance
	idxTrial
	idxFork
	idxIteration
	idxSlice
	idxWarmup
	idxStartNs
	idxEndNs
	idxPair
	idxSource
	idxLine
	numColumns
)

// schema is the canonical table's Arrow schema (without metadata).
var schema = table.Schema()

// stringType is the type of the table's string columns: dictionary-encoded
// UTF-8 with int32 indices.
var stringType = schema.Field(idxProject).Type.(*arrow.DictionaryType)

// stringColumns are the indices of the string columns, in schema order.
var stringColumns = [...]int{idxProject, idxVersion, idxBenchmark, idxParams, idxMode, idxMetric, idxUnit, idxPair, idxSource}

// metadataSetups is the schema metadata key that holds the JSON-encoded
// []Setup of a table written to Arrow IPC or Parquet.
const metadataSetups = "benchtrim.setups"

// metadataVersion is the schema metadata key holding the table format version.
const metadataVersion = "benchtrim.table_version"

// formatVersion is the version of the canonical table layout written by this
// package: "2", whose string columns are dictionary-encoded (stringType).
// Readers also take version "1" files, whose string columns are plain
// strings, and dictionary-encode them as they read; other versions are
// rejected.
const formatVersion = "2"

// schemaV1 is schema of formatVersion "1": the string columns plain strings.
var schemaV1 = func() *arrow.Schema {
	fields := schema.Fields()
	for _, i := range stringColumns {
		fields[i].Type = arrow.BinaryTypes.String
	}
	return arrow.NewSchema(fields, nil)
}()

// checkSchema reports whether s has the canonical columns in order, with
// nulls allowed only where schema allows them: the columns of schema, or
// of format version 1 (plain string columns; see canonicalRecord).
func checkSchema(s *arrow.Schema) error {
	if len(s.Fields()) != numColumns {
		return fmt.Errorf("not a benchtrim table: %d columns, want %d", len(s.Fields()), numColumns)
	}
	v1 := arrow.TypeEqual(s.Field(idxProject).Type, arrow.BinaryTypes.String)
	for i, f := range schema.Fields() {
		if v1 {
			f = schemaV1.Field(i)
		}
		g := s.Field(i)
		if g.Name != f.Name || !arrow.TypeEqual(g.Type, f.Type) {
			return fmt.Errorf("not a benchtrim table: column %d is %s %s, want %s %s", i+1, g.Name, g.Type, f.Name, f.Type)
		}
		if g.Nullable && !f.Nullable {
			return fmt.Errorf("not a benchtrim table: column %d (%s) is nullable", i+1, g.Name)
		}
	}
	return nil
}

// validateRecord checks that rec's arrays are well-formed for schema (or
// the version 1 schema, see checkSchema): the column types, lengths, null
// counts and buffer sizes, that string offsets ascend within their data,
// and that dictionary indices lie within their dictionary; Arrow's
// accessors index these buffers without checks, so a damaged file would
// otherwise panic later.
func validateRecord(rec arrow.Record) error {
	if err := checkSchema(rec.Schema()); err != nil {
		return err
	}
	n := rec.NumRows()
	if n < 0 || int(rec.NumCols()) != numColumns {
		return fmt.Errorf("record of %d rows and %d columns", n, rec.NumCols())
	}
	for i, col := range rec.Columns() {
		f := rec.Schema().Field(i)
		bad := func(format string, args ...any) error {
			return fmt.Errorf("column %s: %s", f.Name, fmt.Sprintf(format, args...))
		}
		if err := validateData(col.Data(), f.Type, f.Nullable, n); err != nil {
			return bad("%s", err)
		}
	}
	return nil
}

// validateData checks d (see validateRecord) against type t with length
// n (-1: any length).
func validateData(d arrow.ArrayData, t arrow.DataType, nullable bool, n int64) error {
	if !arrow.TypeEqual(d.DataType(), t) {
		return fmt.Errorf("type %s, want %s", d.DataType(), t)
	}
	length, off := int64(d.Len()), int64(d.Offset())
	if n >= 0 && length != n {
		return fmt.Errorf("%d values in a record of %d rows", length, n)
	}
	if length < 0 || off < 0 {
		return fmt.Errorf("negative length %d or offset %d", length, off)
	}
	bufs := d.Buffers()
	bufLen := func(j int) int64 {
		if j >= len(bufs) || bufs[j] == nil {
			return 0
		}
		return int64(bufs[j].Len())
	}
	if len(bufs) > 0 && bufs[0] != nil && bufLen(0)*8 < off+length {
		return fmt.Errorf("validity bitmap of %d bytes for %d values", bufLen(0), off+length)
	}
	nulls := int64(d.NullN())
	if nulls < 0 || nulls > length {
		return fmt.Errorf("null count %d of %d values", nulls, length)
	}
	if nulls > 0 && (!nullable || bufLen(0) == 0) {
		return fmt.Errorf("%d nulls in a column without nulls", nulls)
	}
	switch t := t.(type) {
	case *arrow.DictionaryType:
		dict := d.Dictionary()
		if dict == nil {
			return fmt.Errorf("dictionary array without a dictionary")
		}
		if err := validateData(dict, t.ValueType, false, -1); err != nil {
			return fmt.Errorf("dictionary: %w", err)
		}
		if length == 0 {
			return nil
		}
		if bufLen(1) < (off+length)*4 {
			return fmt.Errorf("indices buffer of %d bytes for %d values", bufLen(1), off+length)
		}
		m := int32(dict.Len())
		for j, v := range arrow.Int32Traits.CastFromBytes(bufs[1].Bytes())[off : off+length] {
			if v < 0 || v >= m {
				return fmt.Errorf("value %d: dictionary index %d outside a dictionary of %d values", j+1, v, m)
			}
		}
	case *arrow.StringType:
		if length == 0 {
			return nil
		}
		if bufLen(1) < (off+length+1)*4 {
			return fmt.Errorf("offsets buffer of %d bytes for %d values", bufLen(1), length)
		}
		offs := arrow.Int32Traits.CastFromBytes(bufs[1].Bytes())[off : off+length+1]
		data := bufLen(2)
		if offs[0] < 0 {
			return fmt.Errorf("string offset %d is negative", offs[0])
		}
		for j := 1; j < len(offs); j++ {
			if offs[j] < offs[j-1] {
				return fmt.Errorf("string offsets descend at value %d", j-1)
			}
		}
		if int64(offs[len(offs)-1]) > data {
			return fmt.Errorf("string offsets reach %d beyond %d data bytes", offs[len(offs)-1], data)
		}
	case *arrow.BooleanType:
		if length > 0 && bufLen(1)*8 < off+length {
			return fmt.Errorf("data buffer of %d bytes for %d values", bufLen(1), off+length)
		}
	case arrow.FixedWidthDataType:
		if w := int64(t.BitWidth() / 8); length > 0 && bufLen(1) < (off+length)*w {
			return fmt.Errorf("data buffer of %d bytes for %d values of %d bytes", bufLen(1), off+length, w)
		}
	default:
		return fmt.Errorf("unexpected type %s", t)
	}
	return nil
}
