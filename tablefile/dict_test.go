package tablefile

import (
	"reflect"
	"slices"
	"testing"

	"github.com/benchtrim/benchtrim/table"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// TestCoderSharesMappedIndices: a record whose dictionary and the
// column's agree where both have values (the builder's, which grows from
// record to record: the second record's metrics, known, and benchmarks,
// new) is coded with its own indices, shared, not copied; one whose
// dictionary does not (benchmarks, when the coder already holds another
// value at index 0) is transposed; decoding gives the rows back either way.
func TestCoderSharesMappedIndices(t *testing.T) {
	b := table.NewBuilder(memory.DefaultAllocator, 4)
	defer b.Release()
	var rows []table.Row
	for i, bench := range []string{"b.A", "b.A", "b.B", "b.B", "b.C", "b.C", "b.D", "b.D"} {
		r := table.Row{Project: "p", Version: "v", Benchmark: bench, Mode: "avgt", Metric: []string{"", "gc.alloc.rate"}[i%2],
			Unit: "ns/op", Value: float64(i), NsPerOp: float64(i), Count: 1, Instance: 1, Trial: 1, Fork: 1, Iteration: int32(1 + i/2), Slice: 1}
		if err := b.Append(&r); err != nil {
			t.Fatal(err)
		}
		r.Metric = []string{table.Primary, "gc.alloc.rate"}[i%2]
		rows = append(rows, r)
	}
	tab := b.Finish()
	defer tab.Release()
	if len(tab.Records) != 2 {
		t.Fatalf("%d records, want 2", len(tab.Records))
	}
	for _, primed := range []bool{false, true} {
		c := &coder{}
		if primed {
			z := array.NewStringBuilder(memory.DefaultAllocator)
			z.Append("b.Z")
			prime := z.NewStringArray()
			if err := c.unifier(slices.Index(stringColumns[:], idxBenchmark)).Unify(prime); err != nil {
				t.Fatal(err)
			}
			prime.Release()
			z.Release()
		}
		var got []table.Row
		for k, rec := range tab.Records {
			enc := c.encode(rec)
			defer enc.Release()
			metric, bench := enc.Column(idxMetric).(*array.Int32), enc.Column(idxBenchmark).(*array.Int32)
			if !sameBuffer(metric, rec.Column(idxMetric)) {
				t.Errorf("primed %v, record %d: the metric codes were copied, not shared", primed, k)
			}
			shared := sameBuffer(bench, rec.Column(idxBenchmark))
			if first := int32(2 * k); primed {
				if shared || bench.Value(0) != first+1 {
					t.Errorf("primed, record %d: benchmark codes shared %v, first code %d, want copied, %d", k, shared, bench.Value(0), first+1)
				}
			} else if !shared || bench.Value(0) != first {
				t.Errorf("record %d: benchmark codes shared %v, first code %d, want shared, %d", k, shared, bench.Value(0), first)
			}
			dicts := c.dictionaries()
			dec, err := decode(enc, dicts, true)
			releaseAll(dicts)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, rowsOf(t, &table.Table{Records: []arrow.Record{dec}})...)
			dec.Release()
		}
		if !reflect.DeepEqual(got, rows) {
			t.Errorf("primed %v: decoded rows\n%v\nwant\n%v", primed, got, rows)
		}
	}
}

// sameBuffer reports whether codes are the indices of dict, shared (the
// same buffer), not copied.
func sameBuffer(codes *array.Int32, dict arrow.Array) bool {
	return codes.Data().Buffers()[1] == dict.(*array.Dictionary).Indices().Data().Buffers()[1]
}
