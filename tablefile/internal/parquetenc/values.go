package parquetenc

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/bitutil"
)

var typeNames = [...]string{Boolean: "boolean", Int32: "int32", Int64: "int64", Double: "double", String: "string"}

// pageBuilder collects a data page of a column written from arrays, and
// the statistics of the column chunk it belongs to.
type pageBuilder struct {
	col   Column
	delta bool

	// The page.
	rows      int
	pageNulls int
	levels    []Run   // optional columns: the definition levels (1 value, 0 null)
	values    []byte  // PLAIN values
	ints      []int64 // DELTA_BINARY_PACKED values
	bools     []byte  // booleans, PLAIN: bit-packed
	nbools    int

	// The chunk's statistics: min and max of integers and booleans (ok
	// when counted > 0), of doubles (ok when minF <= maxF: NaN compares
	// false and is left out), of strings (ok when has).
	nulls      int64
	counted    int64
	minI, maxI int64
	minF, maxF float64
	has        bool
	minS, maxS string
}

// reset starts the chunk of col.
func (pg *pageBuilder) reset(col Column, delta bool) {
	*pg = pageBuilder{col: col, delta: delta, levels: pg.levels[:0], values: pg.values[:0], ints: pg.ints[:0], bools: pg.bools[:0],
		minI: math.MaxInt64, maxI: math.MinInt64, minF: math.Inf(1), maxF: math.Inf(-1)}
}

// next starts the chunk's next page.
func (pg *pageBuilder) next() {
	pg.rows, pg.pageNulls = 0, 0
	pg.levels, pg.values, pg.ints = pg.levels[:0], pg.values[:0], pg.ints[:0]
	pg.bools, pg.nbools = pg.bools[:0], 0
}

// add adds up to n rows of a from row from; it returns how many it added
// (fewer than n only for strings, when the page's bytes would pass
// maxPageBytes: at least one when the page is empty).
func (pg *pageBuilder) add(a arrow.Array, from, n int) int {
	if s, ok := a.(*array.String); ok {
		budget := maxPageBytes - len(pg.values)
		for k := 0; k < n; k++ {
			if budget <= 0 {
				n = k
				break
			}
			if s.IsValid(from + k) {
				budget -= 4 + s.ValueLen(from+k)
			}
		}
	}
	if pg.col.Optional {
		switch a.NullN() {
		case 0:
			pg.levels = appendLevels(pg.levels, 1, n)
		case a.Len():
			pg.levels = appendLevels(pg.levels, 0, n)
			pg.pageNulls += n
			pg.nulls += int64(n)
		default:
			for j := from; j < from+n; j++ {
				if a.IsNull(j) {
					pg.levels = appendLevels(pg.levels, 0, 1)
					pg.pageNulls++
					pg.nulls++
				} else {
					pg.levels = appendLevels(pg.levels, 1, 1)
				}
			}
		}
	}
	nulls := a.NullN() > 0
	switch a := a.(type) {
	case *array.Float64:
		v := a.Float64Values()[from : from+n]
		if !nulls {
			pg.values = append(pg.values, arrow.Float64Traits.CastToBytes(v)...)
			pg.minF, pg.maxF = minMaxFloat(v, pg.minF, pg.maxF)
			break
		}
		for j, x := range v {
			if a.IsValid(from + j) {
				pg.values = binary.LittleEndian.AppendUint64(pg.values, math.Float64bits(x))
				pg.minF, pg.maxF = minMaxFloat(v[j:j+1], pg.minF, pg.maxF)
			}
		}
	case *array.Int64:
		v := a.Int64Values()[from : from+n]
		if nulls {
			v = validValues(a, v, from)
		}
		if len(v) == 0 {
			break
		}
		if pg.delta {
			pg.ints = append(pg.ints, v...)
		} else {
			pg.values = append(pg.values, arrow.Int64Traits.CastToBytes(v)...)
		}
		pg.minI, pg.maxI = minMaxInt(v, pg.minI, pg.maxI)
		pg.counted += int64(len(v))
	case *array.Int32:
		v := a.Int32Values()[from : from+n]
		if nulls {
			v = validValues(a, v, from)
		}
		if len(v) == 0 {
			break
		}
		pg.values = append(pg.values, arrow.Int32Traits.CastToBytes(v)...)
		pg.minI, pg.maxI = minMaxInt(v, pg.minI, pg.maxI)
		pg.counted += int64(len(v))
	case *array.Boolean:
		if !nulls {
			// Arrow's bitmap is PLAIN's bit order: copied a word at a time.
			data := a.Data()
			pg.growBools(n)
			bitutil.CopyBitmap(data.Buffers()[1].Bytes(), data.Offset()+from, n, pg.bools, pg.nbools)
			pg.nbools += n
			if set := bitutil.CountSetBits(data.Buffers()[1].Bytes(), data.Offset()+from, n); n > 0 {
				pg.minI = min(pg.minI, int64(b2i(set == n)))
				pg.maxI = max(pg.maxI, int64(b2i(set > 0)))
				pg.counted += int64(n)
			}
			break
		}
		for j := from; j < from+n; j++ {
			if a.IsNull(j) {
				continue
			}
			x := int64(b2i(a.Value(j)))
			pg.growBools(1)
			if x == 1 {
				bitutil.SetBit(pg.bools, pg.nbools)
			} else {
				bitutil.ClearBit(pg.bools, pg.nbools)
			}
			pg.nbools++
			pg.minI, pg.maxI = min(pg.minI, x), max(pg.maxI, x)
			pg.counted++
		}
	case *array.String:
		for j := from; j < from+n; j++ {
			if nulls && a.IsNull(j) {
				continue
			}
			v := a.Value(j)
			pg.values = binary.LittleEndian.AppendUint32(pg.values, uint32(len(v)))
			pg.values = append(pg.values, v...)
			if !pg.has || v < pg.minS {
				pg.minS = v
			}
			if !pg.has || v > pg.maxS {
				pg.maxS = v
			}
			pg.has = true
		}
	}
	pg.rows += n
	return n
}

// rawPage returns the PLAIN encoding of a's rows from row from to row
// to, the array's own bytes, when they are that (a fixed-width array
// without nulls), and adds them to the chunk's statistics.
func (pg *pageBuilder) rawPage(a arrow.Array, from, to int) ([]byte, bool) {
	if a.NullN() > 0 || pg.delta {
		return nil, false
	}
	switch a := a.(type) {
	case *array.Float64:
		v := a.Float64Values()[from:to]
		pg.minF, pg.maxF = minMaxFloat(v, pg.minF, pg.maxF)
		return arrow.Float64Traits.CastToBytes(v), true
	case *array.Int64:
		v := a.Int64Values()[from:to]
		pg.minI, pg.maxI = minMaxInt(v, pg.minI, pg.maxI)
		pg.counted += int64(len(v))
		return arrow.Int64Traits.CastToBytes(v), true
	case *array.Int32:
		v := a.Int32Values()[from:to]
		pg.minI, pg.maxI = minMaxInt(v, pg.minI, pg.maxI)
		pg.counted += int64(len(v))
		return arrow.Int32Traits.CastToBytes(v), true
	}
	return nil, false
}

// growBools makes room for n more booleans (new bytes zero: the last
// byte's padding is zeros).
func (pg *pageBuilder) growBools(n int) {
	for len(pg.bools) < (pg.nbools+n+7)/8 {
		pg.bools = append(pg.bools, 0)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// minMaxFloat returns the least and greatest of lo, hi and v's values,
// NaN left out (it compares false).
func minMaxFloat(v []float64, lo, hi float64) (float64, float64) {
	for _, x := range v {
		if x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		}
	}
	return lo, hi
}

// minMaxInt returns the least and greatest of lo, hi and v's values.
func minMaxInt[T int32 | int64](v []T, lo, hi int64) (int64, int64) {
	for _, x := range v {
		lo = min(lo, int64(x))
		hi = max(hi, int64(x))
	}
	return lo, hi
}

// validValues returns the values of v (a's rows from row from on) that
// are not null, in a new slice.
func validValues[T int32 | int64](a arrow.Array, v []T, from int) []T {
	if a.NullN() == a.Len() {
		return nil
	}
	out := make([]T, 0, len(v))
	for j, x := range v {
		if a.IsValid(from + j) {
			out = append(out, x)
		}
	}
	return out
}

// appendLevels appends n rows of definition level x to runs.
func appendLevels(runs []Run, x int32, n int) []Run {
	if n == 0 {
		return runs
	}
	if k := len(runs); k > 0 && runs[k-1].Index == x {
		runs[k-1].Len += int32(n)
		return runs
	}
	return append(runs, Run{Index: x, Len: int32(n)})
}

// appendRepeat appends n copies of x to v.
func appendRepeat(v []int32, x int32, n int) []int32 {
	v = slices.Grow(v, n)
	for range n {
		v = append(v, x)
	}
	return v
}

// stats returns the chunk's statistics, PLAIN-encoded.
func (pg *pageBuilder) stats() stats {
	st := stats{nulls: pg.nulls}
	switch pg.col.Type {
	case Double:
		st.ok = pg.minF <= pg.maxF
	case String:
		st.ok = pg.has
	default:
		st.ok = pg.counted > 0
	}
	if !st.ok {
		return st
	}
	switch pg.col.Type {
	case Boolean:
		st.min, st.max = []byte{byte(pg.minI)}, []byte{byte(pg.maxI)}
	case Int32:
		st.min = binary.LittleEndian.AppendUint32(nil, uint32(pg.minI))
		st.max = binary.LittleEndian.AppendUint32(nil, uint32(pg.maxI))
	case Int64:
		st.min = binary.LittleEndian.AppendUint64(nil, uint64(pg.minI))
		st.max = binary.LittleEndian.AppendUint64(nil, uint64(pg.maxI))
	case Double:
		lo, hi := pg.minF, pg.maxF
		if lo == 0 {
			lo = math.Copysign(0, -1)
		}
		if hi == 0 {
			hi = 0 // +0
		}
		st.min = binary.LittleEndian.AppendUint64(nil, math.Float64bits(lo))
		st.max = binary.LittleEndian.AppendUint64(nil, math.Float64bits(hi))
	case String:
		if len(pg.minS) > maxStatisticBytes || len(pg.maxS) > maxStatisticBytes {
			return stats{nulls: pg.nulls}
		}
		st.min, st.max = []byte(strings.Clone(pg.minS)), []byte(strings.Clone(pg.maxS))
	}
	return st
}
