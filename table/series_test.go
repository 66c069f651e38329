package table

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// countsChangingValue returns counts c > 1 for which v·c/c, computed in
// float64, is not v.
func countsChangingValue(v float64, want int) []int64 {
	var out []int64
	for c := int64(2); c < 1e6 && len(out) < want; c++ {
		if v*float64(c)/float64(c) != v {
			out = append(out, c)
		}
	}
	return out
}

// TestWeightedMeanOneRowExact checks that the weighted mean of a one-row
// span is the row's ns/op exactly: µOpTime data has one row per slice with
// n = the slice's operations, and ns·n/n moves some values by one unit in
// the last place, so that equal values (a RMAD of 0) would look unequal.
func TestWeightedMeanOneRowExact(t *testing.T) {
	const v = 105.3
	counts := countsChangingValue(v, 3)
	if len(counts) < 3 {
		t.Fatalf("no counts found that change %v", v)
	}
	s := &Series{NsPerOp: []float64{v, v, v}, Count: counts}
	for i := range counts {
		if got := s.WeightedMean(Span{i, i + 1}); got != v {
			t.Errorf("count %d: WeightedMean = %.17g, want %v", counts[i], got, v)
		}
	}
	// Several rows: total time over total operations.
	s = &Series{NsPerOp: []float64{100, 200}, Count: []int64{1, 3}}
	if got := s.WeightedMean(Span{0, 2}); got != 175 {
		t.Errorf("two rows: WeightedMean = %v, want (100·1 + 200·3)/4 = 175", got)
	}
}

// TestShards: the shards of a split partition the benchmark runs (every
// run in exactly one shard, whatever n), keep every version of a benchmark
// together, and do not depend on the order of the table's rows.
func TestShards(t *testing.T) {
	b := NewBuilder(memory.DefaultAllocator, 0)
	for i := 0; i < 40; i++ {
		for _, v := range []string{"v1", "v2"} {
			r := Row{Project: "p", Version: v, Benchmark: fmt.Sprintf("B%02d", i), Mode: "avgt", Metric: Primary,
				Unit: "ns/op", Value: 1, NsPerOp: 1, Count: 1}
			if err := b.Append(&r); err != nil {
				t.Fatal(err)
			}
		}
	}
	tab := b.Finish()
	b.Release()
	defer tab.Release()
	all := tab.Collect(Filter{})
	for _, n := range []int{1, 3, 7} {
		seen := map[Key]int{}
		for k := 0; k < n; k++ {
			for _, s := range tab.Collect(Filter{Shard: k, Shards: n}) {
				seen[s.Key]++
				if got := s.Key.Shard(n); got != k && n > 1 {
					t.Errorf("n=%d: %s in shard %d, Key.Shard says %d", n, s.Key, k, got)
				}
				other := s.Key
				other.Version = map[string]string{"v1": "v2", "v2": "v1"}[s.Version]
				if other.Shard(n) != s.Key.Shard(n) {
					t.Errorf("n=%d: versions of %s in different shards", n, s.Benchmark)
				}
			}
		}
		if len(seen) != len(all) {
			t.Errorf("n=%d: shards hold %d runs, the table %d", n, len(seen), len(all))
		}
		for k, c := range seen {
			if c != 1 {
				t.Errorf("n=%d: %s in %d shards", n, k, c)
			}
		}
	}
	if got := (Key{Project: "p", Benchmark: "B00", Mode: "avgt"}).Shard(7); got != (Key{Project: "p", Version: "x", Benchmark: "B00", Mode: "avgt"}).Shard(7) {
		t.Error("Key.Shard depends on the version")
	}
	_, err := tab.Select(Filter{Shard: 0, Shards: 1000})
	var empty *EmptyShardError
	if err == nil || !strings.Contains(err.Error(), "shard 0/1000 holds none of the 80 benchmark runs") {
		t.Errorf("empty shard: %v", err)
	} else if !errors.As(err, &empty) || *empty != (EmptyShardError{Shard: 0, Shards: 1000, Runs: 80}) {
		t.Errorf("empty shard: error %T %+v, want *EmptyShardError{0, 1000, 80}", err, empty)
	}
}
