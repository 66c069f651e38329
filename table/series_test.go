package table

import "testing"

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
