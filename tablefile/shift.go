package tablefile

import (
	"fmt"
	"math"

	"github.com/benchtrim/benchtrim/table"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// ShiftInstances returns rec with the instance of every row of run k
// increased by by(k): how ingest reads several files of one run as its
// instances (ReadOptions.RunsAs). by is called once per stretch of rows of
// one run. When every offset is 0 it returns rec itself, retained; the
// caller releases what it returns. An instance past MaxInt32 is an error.
func ShiftInstances(rec arrow.Record, by func(table.Key) int32, mem memory.Allocator) (arrow.Record, error) {
	c := colsOf(rec)
	n := int(rec.NumRows())
	inst := c.inst
	var out []int32
	var off int32
	for i := 0; i < n; i++ {
		if i == 0 || !c.sameKey(i, i-1) {
			off = by(c.Key(i))
		}
		if off != 0 && out == nil {
			out = make([]int32, n)
			copy(out, inst[:i])
		}
		if out != nil {
			v := int64(inst[i]) + int64(off)
			if v > math.MaxInt32 {
				return nil, fmt.Errorf("%s: instance %d + %d is past %d", c.Key(i), inst[i], off, math.MaxInt32)
			}
			out[i] = int32(v)
		}
	}
	if out == nil {
		rec.Retain()
		return rec, nil
	}
	b := array.NewInt32Builder(mem)
	defer b.Release()
	b.AppendValues(out, nil)
	col := b.NewArray()
	defer col.Release()
	cols := append([]arrow.Array(nil), rec.Columns()...)
	cols[idxInstance] = col
	return array.NewRecord(rec.Schema(), cols, int64(n)), nil
}
