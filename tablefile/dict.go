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
// one growing dictionary per column, an array.DictionaryUnifier each:
// encode gives a record's codes, its indices through the unifier's
// transpose map (UnifyAndTranspose, array.TransposeDictIndices, which
// shares the indices when the map is the identity: a record whose
// dictionary begins the column's, in its order, as table.Builder's
// growing dictionaries do). Every code stays valid as the dictionaries
// grow (a unifier appends new values, in the order of the record's
// dictionary), so records encoded early decode with the dictionaries of
// the end. The zero value is ready to use.
type coder struct {
	dicts [len(stringColumns)]array.DictionaryUnifier
}

// encode returns rec (with schema) as a record with codedSchema; the
// caller keeps ownership of rec and releases the result.
func (c *coder) encode(rec arrow.Record) arrow.Record {
	mem := memory.DefaultAllocator
	cols := make([]arrow.Array, numColumns)
	copy(cols, rec.Columns())
	made := make([]arrow.Array, 0, len(stringColumns))
	for k, i := range stringColumns {
		col := rec.Column(i).(*array.Dictionary)
		m := must(c.unifier(k).UnifyAndTranspose(col.Dictionary()))
		d := must(array.TransposeDictIndices(mem, col.Data(), stringType, stringType, col.Dictionary().Data(), arrow.Int32Traits.CastFromBytes(m.Bytes())))
		m.Release()
		a := array.MakeFromData(d).(*array.Dictionary)
		d.Release()
		cols[i] = a.Indices()
		made = append(made, a)
	}
	out := array.NewRecord(codedSchema, cols, rec.NumRows())
	releaseAll(made)
	return out
}

// unifier is column k's dictionary, made on first use.
func (c *coder) unifier(k int) array.DictionaryUnifier {
	if c.dicts[k] == nil {
		c.dicts[k] = must(array.NewDictionaryUnifier(memory.DefaultAllocator, arrow.BinaryTypes.String))
	}
	return c.dicts[k]
}

// dictionaries returns the dictionaries of the values encoded so far, one
// per string column; the caller releases them. The unifiers keep their
// values: GetResult empties a unifier, so each is given its result back
// (Unify adds the values again at the same codes).
func (c *coder) dictionaries() []arrow.Array {
	out := make([]arrow.Array, len(stringColumns))
	for k := range c.dicts {
		u := c.unifier(k)
		out[k] = must(u.GetResultWithIndexType(arrow.PrimitiveTypes.Int32))
		if err := u.Unify(out[k]); err != nil {
			panic(err)
		}
	}
	return out
}

// must returns v, panicking on err: for calls of the Arrow library that
// fail only on types other than coder's (string values, int32 indices)
// or on a dictionary of more than 2³¹-1 values, which int32 codes cannot
// reach.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
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
