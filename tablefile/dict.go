package tablefile

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile/internal/parquetio"
)

// canonicalRecord returns rec with schema, taking ownership of rec: a
// record of format version 1 (plain string columns, see checkSchema) has
// its string columns dictionary-encoded; schema metadata is dropped. rec
// must be valid (validateRecord).
func canonicalRecord(rec arrow.Record) arrow.Record {
	cols := make([]arrow.Array, numColumns)
	copy(cols, rec.Columns())
	var made []arrow.Array
	for _, i := range stringColumns {
		if s, ok := cols[i].(*array.String); ok {
			cols[i] = dictArray(s.Len(), s.Value)
			made = append(made, cols[i])
		}
	}
	out := array.NewRecord(schema, cols, rec.NumRows())
	releaseAll(made)
	rec.Release()
	return out
}

// dictArray returns the n values value(0) … value(n-1) as a column of
// stringType whose dictionary holds just the distinct ones.
func dictArray(n int, value func(int) string) arrow.Array {
	var d parquetio.StringDict
	codes := make([]int32, n)
	for j := range codes {
		codes[j] = d.Index(value(j))
	}
	ind, dict := parquetio.Int32Array(codes), d.Array(memory.DefaultAllocator)
	out := array.NewDictionaryArray(stringType, ind, dict)
	ind.Release()
	dict.Release()
	return out
}

// strCol reads one string column of a record with schema: row i's value
// is dict[idx[i]].
type strCol struct {
	idx  []int32
	dict *array.String
}

func strColOf(a arrow.Array) strCol {
	d := a.(*array.Dictionary)
	return strCol{idx: d.Indices().(*array.Int32).Int32Values(), dict: d.Dictionary().(*array.String)}
}

// Value is row i's string.
func (c strCol) Value(i int) string { return c.dict.Value(int(c.idx[i])) }

// codedSchema is schema with each string column replaced by int32 codes
// into dictionaries held apart (see coder): the form in which records go
// to an Arrow IPC file that holds records built with different
// dictionaries (the IPC file format allows one dictionary per column).
var codedSchema = func() *arrow.Schema {
	fields := schema.Fields()
	for _, i := range stringColumns {
		fields[i].Type = arrow.PrimitiveTypes.Int32
	}
	return arrow.NewSchema(fields, nil)
}()

// coder maps the string columns of records with any dictionaries onto
// one growing dictionary per column: encode gives a record's codes, and
// every code stays valid as the dictionaries grow, so records encoded
// early decode with the dictionaries of the end. The zero value is ready
// to use.
type coder struct {
	dicts [len(stringColumns)]parquetio.StringDict
	zero  []int32 // read-only zeros: the codes of a column of its dictionary's first value
}

// encode returns rec (with schema) as a record with codedSchema; the
// caller keeps ownership of rec and releases the result.
func (c *coder) encode(rec arrow.Record) arrow.Record {
	cols := make([]arrow.Array, numColumns)
	copy(cols, rec.Columns())
	made := make([]arrow.Array, 0, len(stringColumns))
	for k, i := range stringColumns {
		s := strColOf(rec.Column(i))
		switch {
		case len(s.idx) > 0 && (s.dict.Len() == 1 || oneValue(s.idx)) && c.dicts[k].Index(s.dict.Value(int(s.idx[0]))) == 0:
			// Most records hold one project, version, mode and pair:
			// their codes are all 0 and need no memory of their own. A
			// dictionary of one value needs no look at the indices, which
			// can only be 0.
			if len(c.zero) < len(s.idx) {
				c.zero = make([]int32, len(s.idx))
			}
			cols[i] = parquetio.Int32Array(c.zero[:len(s.idx)])
			made = append(made, cols[i])
		case c.dicts[k].Extends(s.dict):
			// The record's dictionary begins the column's, in its order
			// (metric and unit, whose values come in the same order in
			// every record): its indices are the codes; the coded record
			// shares (retains) them.
			cols[i] = rec.Column(i).(*array.Dictionary).Indices()
		default:
			cols[i] = parquetio.Int32Array(c.dicts[k].Transpose(s.idx, s.dict))
			made = append(made, cols[i])
		}
	}
	out := array.NewRecord(codedSchema, cols, rec.NumRows())
	releaseAll(made)
	return out
}

// oneValue reports whether v holds one value (at least once).
func oneValue(v []int32) bool {
	if len(v) == 0 {
		return false
	}
	for _, x := range v[1:] {
		if x != v[0] {
			return false
		}
	}
	return true
}

// dictionaries returns the dictionaries of the values encoded so far, one
// per string column; the caller releases them.
func (c *coder) dictionaries() []arrow.Array {
	out := make([]arrow.Array, len(stringColumns))
	for k := range c.dicts {
		out[k] = c.dicts[k].Array(memory.DefaultAllocator)
	}
	return out
}

// decode returns the record with schema that coded (a record encode
// returned, or a slice of one) stands for, with dicts from dictionaries;
// the caller keeps ownership of coded and releases the result. With check
// it refuses a code outside its dictionary (coded was read from a file);
// encode's own records need no such check.
func decode(coded arrow.Record, dicts []arrow.Array, check bool) (arrow.Record, error) {
	cols := make([]arrow.Array, numColumns)
	copy(cols, coded.Columns())
	made := make([]arrow.Array, 0, len(stringColumns))
	defer func() { releaseAll(made) }()
	for k, i := range stringColumns {
		codes, ok := cols[i].(*array.Int32)
		if !ok {
			return nil, fmt.Errorf("column %s: %s, want int32 codes", schema.Field(i).Name, cols[i].DataType())
		}
		if m := int32(dicts[k].Len()); check {
			for _, v := range codes.Int32Values() {
				if v < 0 || v >= m {
					return nil, fmt.Errorf("column %s: code %d outside a dictionary of %d values", schema.Field(i).Name, v, m)
				}
			}
		}
		cols[i] = array.NewDictionaryArray(stringType, codes, dicts[k])
		made = append(made, cols[i])
	}
	return array.NewRecord(schema, cols, coded.NumRows()), nil
}

// cols reads a record with schema: its keys and rows (table.Columns), and
// the dictionary indices of its key and metric columns.
type cols struct {
	table.Columns
	codes [6]strCol // project, version, benchmark, params, mode, metric
	inst  []int32
}

func colsOf(rec arrow.Record) cols {
	c := cols{Columns: table.ColumnsOf(rec), inst: rec.Column(idxInstance).(*array.Int32).Int32Values()}
	for k, i := range [...]int{idxProject, idxVersion, idxBenchmark, idxParams, idxMode, idxMetric} {
		c.codes[k] = strColOf(rec.Column(i))
	}
	return c
}

// keyIndices are row i's dictionary indices in the project, version,
// benchmark, params, mode and metric columns: rows with equal indices hold
// equal strings (the converse holds within one record only).
func (c *cols) keyIndices(i int) [6]int32 {
	var x [6]int32
	for k := range x {
		x[k] = c.codes[k].idx[i]
	}
	return x
}

// metric is row i's metric.
func (c *cols) metric(i int) string { return c.codes[5].Value(i) }

// sameKey reports whether rows i and j hold the same key indices (and so
// the same key; false means "compare the keys").
func (c *cols) sameKey(i, j int) bool {
	for _, s := range c.codes[:5] {
		if s.idx[i] != s.idx[j] {
			return false
		}
	}
	return true
}
