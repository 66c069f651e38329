package parquetenc

import (
	"encoding/binary"
	"math"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
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
	levels    []int32 // optional columns: the definition level of every row
	values    []byte  // PLAIN values
	ints      []int64 // DELTA_BINARY_PACKED values
	bits      bitWriter

	// The chunk's statistics.
	nulls      int64
	has        bool // a value (not NaN) was seen
	minI, maxI int64
	minF, maxF float64
	minS, maxS string
}

// reset starts the chunk of col.
func (pg *pageBuilder) reset(col Column, delta bool) {
	*pg = pageBuilder{col: col, delta: delta, levels: pg.levels[:0], values: pg.values[:0], ints: pg.ints[:0], bits: bitWriter{b: pg.bits.b[:0]}}
}

// next starts the chunk's next page.
func (pg *pageBuilder) next() {
	pg.rows, pg.pageNulls = 0, 0
	pg.levels, pg.values, pg.ints = pg.levels[:0], pg.values[:0], pg.ints[:0]
	pg.bits = bitWriter{b: pg.bits.b[:0]}
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
		for j := from; j < from+n; j++ {
			if a.IsNull(j) {
				pg.levels = append(pg.levels, 0)
				pg.pageNulls++
				pg.nulls++
			} else {
				pg.levels = append(pg.levels, 1)
			}
		}
	}
	nulls := a.NullN() > 0
	switch a := a.(type) {
	case *array.Float64:
		v := a.Float64Values()[from : from+n]
		if !nulls {
			pg.values = append(pg.values, arrow.Float64Traits.CastToBytes(v)...)
			for _, x := range v {
				pg.float(x)
			}
			break
		}
		for j, x := range v {
			if a.IsValid(from + j) {
				pg.values = binary.LittleEndian.AppendUint64(pg.values, math.Float64bits(x))
				pg.float(x)
			}
		}
	case *array.Int64:
		v := a.Int64Values()[from : from+n]
		for j, x := range v {
			if nulls && a.IsNull(from+j) {
				continue
			}
			if pg.delta {
				pg.ints = append(pg.ints, x)
			} else {
				pg.values = binary.LittleEndian.AppendUint64(pg.values, uint64(x))
			}
			pg.int(x)
		}
	case *array.Int32:
		v := a.Int32Values()[from : from+n]
		if !nulls {
			pg.values = append(pg.values, arrow.Int32Traits.CastToBytes(v)...)
			for _, x := range v {
				pg.int(int64(x))
			}
			break
		}
		for j, x := range v {
			if a.IsValid(from + j) {
				pg.values = binary.LittleEndian.AppendUint32(pg.values, uint32(x))
				pg.int(int64(x))
			}
		}
	case *array.Boolean:
		for j := from; j < from+n; j++ {
			if nulls && a.IsNull(j) {
				continue
			}
			var x int64
			if a.Value(j) {
				x = 1
			}
			pg.bits.put(uint64(x), 1)
			pg.int(x)
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

func (pg *pageBuilder) int(x int64) {
	if !pg.has || x < pg.minI {
		pg.minI = x
	}
	if !pg.has || x > pg.maxI {
		pg.maxI = x
	}
	pg.has = true
}

func (pg *pageBuilder) float(x float64) {
	if x != x {
		return
	}
	if !pg.has || x < pg.minF {
		pg.minF = x
	}
	if !pg.has || x > pg.maxF {
		pg.maxF = x
	}
	pg.has = true
}

// stats returns the chunk's statistics, PLAIN-encoded.
func (pg *pageBuilder) stats() stats {
	st := stats{nulls: pg.nulls, ok: pg.has}
	if !pg.has {
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
