package table

import (
	"testing"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
)

// TestBuilderRecycles: a record handed to a sink and released gives its
// column memory back to the Builder, whose next batch writes into it,
// while a record the sink retains keeps its values whatever the batches
// after it hold.
func TestBuilderRecycles(t *testing.T) {
	const rows = 1024
	b := NewBuilder(nil, rows)
	defer b.Release()
	var kept arrow.Record     // the first record, retained
	var seen []unsafe.Pointer // data of the value column of released records
	reused := 0
	b.SetSink(func(rec arrow.Record) error {
		p := unsafe.Pointer(unsafe.SliceData(rec.Column(idxValue).(*array.Float64).Float64Values()))
		for _, q := range seen {
			if p == q {
				reused++
			}
		}
		if kept == nil {
			rec.Retain()
			kept = rec
			return nil
		}
		seen = append(seen, p)
		return nil
	})
	for i := 0; i < 6*rows; i++ {
		r := goodRow(int32(i%rows + 1))
		r.Value, r.Fork, r.Line = float64(i), int32(2+i/rows), int64(i)
		if err := b.Append(&r); err != nil {
			t.Fatal(err)
		}
	}
	b.Finish().Release()
	defer kept.Release()
	// Records 3 to 6 can reuse the buffers of records 2 to 5 (the first
	// batch grows as rows come and is kept).
	if reused < 3 {
		t.Errorf("value buffers reused %d times in 5 released records, want at least 3", reused)
	}
	v := kept.Column(idxValue).(*array.Float64).Float64Values()
	fork := kept.Column(idxFork).(*array.Int32).Int32Values()
	line := kept.Column(idxLine).(*array.Int64).Int64Values()
	for i := range v {
		if v[i] != float64(i) || fork[i] != 2 || line[i] != int64(i) {
			t.Fatalf("kept record row %d: value %v fork %d line %d, want %d, 2, %d", i, v[i], fork[i], line[i], i, i)
		}
	}
}
