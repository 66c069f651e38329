package synth

import (
	"math"
	"math/bits"
	"testing"
)

func closeRel(a, b, tol float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))
}

// The reference values below were written by JMH itself (Apache Commons
// Math t distribution and legacy percentiles), copied from two real result
// files: countsquares (JMH 1.37, record 1, CountSquaresBench.longSet
// dist=RANDOM n=24, avgt us/op) and pgclient (JMH 1.21, record 1,
// ClientBenchmark.jdbcBurstQuery, sample s/op, 10 single-sample
// iterations). Tolerance 1e-12 relative (printing round trip only).

func TestAvgStatsAgainstJMH(t *testing.T) {
	raw := []float64{0.9997769248964715, 1.0163805159883228, 0.9999833984244831, 0.9976211655268941,
		0.9981219723125844, 0.99762240979797, 0.9961548430788025, 1.0017238204602659}
	st := avgStats(raw)
	check := func(name string, got, want float64) {
		t.Helper()
		if !closeRel(got, want, 1e-12) {
			t.Errorf("%s = %.17g, want %.17g", name, got, want)
		}
	}
	check("score", st.score, 1.000923131310724)
	// Commons Math inverts the t CDF with a solver of absolute accuracy
	// 1e-9, so JMH's error agrees with gonum's exact quantile to ~1e-10.
	checkTol := func(name string, got, want float64) {
		t.Helper()
		if !closeRel(got, want, 1e-9) {
			t.Errorf("%s = %.17g, want %.17g", name, got, want)
		}
	}
	checkTol("scoreError", st.err, 0.012394166298506112)
	checkTol("lo", st.lo, 0.988528965012218)
	checkTol("hi", st.hi, 1.0133172976092302)
	check("p0", st.pct[0], 0.9961548430788025)
	check("p50", st.pct[1], 0.998949448604528)
	check("p90", st.pct[2], 1.0163805159883228)
	check("p100", st.pct[9], 1.0163805159883228)
	if raw[0] != 0.9997769248964715 {
		t.Error("avgStats modified its input")
	}
}

func TestHistStatsAgainstJMH(t *testing.T) {
	values := []float64{3.435134976, 3.464495104, 3.5651584, 3.619684352, 3.69098752,
		3.8335938560000002, 3.8629539840000002, 3.909091328, 3.9468400640000003, 3.955228672}
	h := make([]bucket, len(values))
	for j := range h {
		h[j] = bucket{idx: uint32(j), count: 1}
	}
	st := histStats(h, func(idx uint32) float64 { return values[idx] })
	check := func(name string, got, want float64) {
		t.Helper()
		if !closeRel(got, want, 1e-12) {
			t.Errorf("%s = %.17g, want %.17g", name, got, want)
		}
	}
	check("score", st.score, 3.7283168255999994)
	if !closeRel(st.err, 0.3008996520424797, 1e-9) { // see TestAvgStatsAgainstJMH
		t.Errorf("scoreError = %.17g, want 0.3008996520424797", st.err)
	}
	check("p50", st.pct[1], 3.762290688)
	check("p90", st.pct[2], 3.9543898112)
	check("p95", st.pct[3], 3.955228672)
	check("p0", st.pct[0], 3.435134976)

	// Counts weight the samples: one bucket of count 3 equals three buckets.
	a := histStats([]bucket{{0, 3}, {1, 1}}, func(idx uint32) float64 { return []float64{1, 5}[idx] })
	b := avgStats([]float64{1, 1, 1, 5})
	if !closeRel(a.score, b.score, 1e-15) || !closeRel(a.err, b.err, 1e-12) || a.pct != b.pct {
		t.Errorf("weighted %+v != expanded %+v", a, b)
	}
}

func TestStatsSmallN(t *testing.T) {
	st := avgStats([]float64{1, 2})
	if !math.IsNaN(st.err) || !math.IsNaN(st.lo) || !math.IsNaN(st.hi) {
		t.Errorf("N=2: error %v, confidence [%v, %v], want NaN (JMH: N ≤ 2)", st.err, st.lo, st.hi)
	}
	if st.score != 1.5 {
		t.Errorf("score %v, want 1.5", st.score)
	}
	// SUM policy with implicit zeros: rows [2] of 4 iterations → p0 = 0.
	su := sumStats([]float64{3, 1}, 4)
	if su.score != 4 || !math.IsNaN(su.err) || su.lo != 4 || su.hi != 4 || su.pct[0] != 0 || su.pct[9] != 3 {
		t.Errorf("sumStats = %+v", su)
	}
}

func TestBucketQuantisation(t *testing.T) {
	prev := -1
	for _, tv := range []int64{0, 1, 1023, 1024, 1025, 1026, 2047, 2048, 17856, 17887, 17888, 1 << 40, 1<<62 + 12345} {
		idx := bucketIndex(tv)
		b := max(0, bits.Len64(uint64(tv))-10)
		want := (tv >> b) << b
		if got := bucketValue(idx); got != want {
			t.Errorf("t=%d: bucket value %d, want (t>>%d)<<%d = %d", tv, got, b, b, want)
		}
		if idx < prev {
			t.Errorf("t=%d: index %d not monotone", tv, idx)
		}
		prev = idx
		if idx >= maxBucket {
			t.Errorf("t=%d: index %d ≥ maxBucket", tv, idx)
		}
	}
	// hollow's grid: 17856 and 17888 ns are adjacent buckets (step 32).
	if bucketIndex(17888)-bucketIndex(17856) != 1 {
		t.Errorf("17856 and 17888 ns not adjacent buckets")
	}
	// Every index is the index of its value.
	for idx := 0; idx < maxBucket; idx++ {
		if got := bucketIndex(bucketValue(idx)); got != idx {
			t.Fatalf("bucketIndex(bucketValue(%d)) = %d", idx, got)
		}
	}
}

func TestLegacyPercentile(t *testing.T) {
	x := []float64{1, 2, 3, 4}
	at := func(k int64) float64 { return x[k-1] }
	// pos = p(n+1)/100: p50 → 2.5 → 2.5; p10 → 0.5 → x1; p90 → 4.5 → x4; p25 → 1.25 → 1.25.
	for _, c := range []struct{ p, want float64 }{{0, 1}, {10, 1}, {25, 1.25}, {50, 2.5}, {90, 4}, {100, 4}} {
		if got := legacyPercentile(4, at, c.p); got != c.want {
			t.Errorf("p%v = %v, want %v", c.p, got, c.want)
		}
	}
	if !math.IsNaN(legacyPercentile(0, at, 50)) {
		t.Error("empty: want NaN")
	}
}
