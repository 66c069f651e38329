package parquetio

import (
	"slices"
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
// group, an Arrow IPC file, which allows one dictionary per column).
// Indices stay valid as it grows. The zero value is ready to use.
type StringDict struct {
	memo   map[string]int32
	values []string
	trans  []int32 // scratch for Transpose
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

// Extends reports whether d's values and dict's agree at every index
// both have (value j of each at index j), so that indices into dict are
// indices into d; it then adds dict's values past d's end to d, in dict's
// order. A dictionary that grows from record to record, each record's
// dictionary a prefix of the next one's (table.Builder's), extends d at
// every record. It returns false when the values differ at an index or a
// value past d's end is one d holds at another index; d is then
// unchanged, except when dict repeats a value past d's end (a dictionary
// read from a file): the values before the repeat stay added.
func (d *StringDict) Extends(dict *array.String) bool {
	n := min(dict.Len(), len(d.values))
	for j := 0; j < n; j++ {
		if d.values[j] != dict.Value(j) {
			return false
		}
	}
	for j := n; j < dict.Len(); j++ {
		if _, ok := d.memo[dict.Value(j)]; ok {
			return false
		}
	}
	for j := n; j < dict.Len(); j++ {
		if d.Index(dict.Value(j)) != int32(j) {
			return false
		}
	}
	return true
}

// Transpose returns the indices into d of the values idx points to in
// dict (a dictionary array's indices and dictionary), looking each value
// of dict up once however many rows use it.
func (d *StringDict) Transpose(idx []int32, dict *array.String) []int32 {
	return d.transposeAppend(make([]int32, 0, len(idx)), idx, dict)
}

// transposeAppend is Transpose appending to dst.
func (d *StringDict) transposeAppend(dst, idx []int32, dict *array.String) []int32 {
	t := d.trans[:0]
	for j := 0; j < dict.Len(); j++ {
		t = append(t, -1)
	}
	d.trans = t
	n := len(dst)
	dst = slices.Grow(dst, len(idx))[:n+len(idx)]
	out := dst[n:]
	// Indices come in runs of one value: each run is looked up once.
	for i := 0; i < len(idx); {
		j := idx[i]
		if t[j] < 0 {
			t[j] = d.Index(dict.Value(int(j)))
		}
		v := t[j]
		out[i] = v
		for i++; i < len(idx) && idx[i] == j; i++ {
			out[i] = v
		}
	}
	return dst
}

// transposeRuns is Transpose appending the indices as runs (see
// appendRun) to runs.
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
