package parquetenc

import (
	"io"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// BenchmarkWriter encodes row groups shaped like the canonical table's
// (2¹⁷ rows: two dictionary string columns in runs, two of doubles, a
// DELTA_BINARY_PACKED counter, a boolean and an all-null int64) with
// Snappy, and reports rows per second and ns per row.
func BenchmarkWriter(b *testing.B) {
	const rows = 1 << 17
	r := rand.New(rand.NewPCG(1, 1))
	mem := memory.NewGoAllocator()
	names := []string{"org.example.A.run", "org.example.B.run", "org.example.C.run"}
	var runs []Run
	for n := 0; n < rows; {
		k := min(rows-n, 1+r.IntN(5000))
		runs = append(runs, Run{Index: int32(len(runs) % len(names)), Len: int32(k)})
		n += k
	}
	fb := array.NewFloat64Builder(mem)
	ib := array.NewInt64Builder(mem)
	bb := array.NewBooleanBuilder(mem)
	nb := array.NewInt64Builder(mem)
	for j := range rows {
		fb.Append(r.ExpFloat64() * 1000)
		ib.Append(int64(j/7 + 1))
		bb.Append(j%50 < 5)
		nb.AppendNull()
	}
	f, counts, flags, nulls := fb.NewArray(), ib.NewArray(), bb.NewArray(), nb.NewArray()
	cols := []Column{{Name: "benchmark", Type: String}, {Name: "metric", Type: String}, {Name: "value", Type: Double},
		{Name: "ns_per_op", Type: Double}, {Name: "count", Type: Int64}, {Name: "warmup", Type: Boolean}, {Name: "start_ns", Type: Int64, Optional: true}}
	w, err := NewWriter(io.Discard, cols, []Codec{Snappy}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		must2(b, w.BeginRowGroup(rows))
		must2(b, w.WriteStringDict(names, runs))
		must2(b, w.WriteStringDict(names, []Run{{Index: 1, Len: rows}}))
		must2(b, w.WriteArrays([]arrow.Array{f}, false))
		must2(b, w.WriteArrays([]arrow.Array{f}, false))
		must2(b, w.WriteArrays([]arrow.Array{counts}, true))
		must2(b, w.WriteArrays([]arrow.Array{flags}, false))
		must2(b, w.WriteArrays([]arrow.Array{nulls}, false))
		must2(b, w.EndRowGroup())
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(rows)/float64(b.N), "ns/row")
}

func must2(b *testing.B, err error) {
	b.Helper()
	if err != nil {
		b.Fatal(err)
	}
}
