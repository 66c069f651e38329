package parquetio

import (
	"strings"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/benchtrim/benchtrim/tablefile/internal/parquetenc"
)

// StringDict maps strings to indices into a growing list of distinct
// values: the dictionary of a dictionary-encoded string column that
// records with dictionaries of their own are written under (a Parquet row
// group). Indices stay valid as it grows. The zero value is ready to use.
type StringDict struct {
	memo   map[string]int32
	values []string
	trans  []int32 // scratch for transposeRuns
}

// Index returns v's index, adding v (copied: v may point into a buffer
// the caller reuses) when it is new.
func (d *StringDict) Index(v string) int32 {
	if j, ok := d.memo[v]; ok {
		return j
	}
	if d.memo == nil {
		d.memo = map[string]int32{}
	}
	v = strings.Clone(v)
	j := int32(len(d.values))
	d.memo[v] = j
	d.values = append(d.values, v)
	return j
}

// transposeRuns appends to runs the indices into d of the values idx
// points to in dict (a dictionary array's indices and dictionary), as
// runs (see appendRun), looking each value of dict up once however many
// rows use it.
func (d *StringDict) transposeRuns(runs []parquetenc.Run, idx []int32, dict *array.String) []parquetenc.Run {
	t := d.trans[:0]
	for j := 0; j < dict.Len(); j++ {
		t = append(t, -1)
	}
	d.trans = t
	for i := 0; i < len(idx); {
		j := idx[i]
		if t[j] < 0 {
			t[j] = d.Index(dict.Value(int(j)))
		}
		k := runEnd(idx, i)
		runs = appendRun(runs, t[j], k-i)
		i = k
	}
	return runs
}

// runEnd returns the end of the run of v[i]'s value that starts at i.
// It compares four values at a time, as two 64-bit words.
func runEnd(v []int32, i int) int {
	x := v[i]
	pair := uint64(uint32(x)) * (1<<32 + 1)
	j := i + 1
	for ; j+4 <= len(v); j += 4 {
		w := (*[2]uint64)(unsafe.Pointer(&v[j]))
		if w[0] != pair || w[1] != pair {
			break
		}
	}
	for j < len(v) && v[j] == x {
		j++
	}
	return j
}

// Array returns the values as a string array, allocated from mem; the
// caller releases it.
func (d *StringDict) Array(mem memory.Allocator) arrow.Array {
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.AppendValues(d.values, nil)
	return b.NewArray()
}

// Int32Array returns v as an int32 array without nulls whose data buffer
// is v itself (no copy); v must not change afterwards. The caller
// releases it.
func Int32Array(v []int32) arrow.Array {
	data := array.NewData(arrow.PrimitiveTypes.Int32, len(v), []*memory.Buffer{nil, memory.NewBufferBytes(arrow.GetBytes(v))}, nil, 0, 0)
	defer data.Release()
	return array.MakeFromData(data)
}
