package verdict

import (
	"math"
	"testing"

	"github.com/benchtrim/benchtrim/estimate"
)

// TestMeanError checks the Student t interval against scipy
// (testdata/reference.py): t_{0.975, 4} = 2.7764451051977987, the
// half-width of {1, …, 5} at α = 0.05 is 1.9632431614775607, and JMH's
// 99.9 % quantile for 20 iterations t_{0.9995, 19} = 3.8834058494834194.
func TestMeanError(t *testing.T) {
	for _, c := range []struct {
		got, want float64
	}{
		{TQuantile(0.975, 4), 2.7764451051977987},
		{TQuantile(0.9995, 19), 3.8834058494834194},
	} {
		if math.Abs(c.got-c.want) > 1e-8 { // gonum's quantile: 3e-9 off at 0.9995
			t.Errorf("t quantile %v, scipy %v", c.got, c.want)
		}
	}
	m, hw := MeanError([]float64{1, 2, 3, 4, 5}, 0.05)
	if m != 3 || math.Abs(hw-1.9632431614775607) > 1e-9 {
		t.Errorf("MeanError = %v ± %v, want 3 ± 1.9632431614775607", m, hw)
	}
	if _, hw := MeanError([]float64{7}, 0.05); !math.IsInf(hw, 1) {
		t.Errorf("one value: half-width %v, want +Inf", hw)
	}
}

// TestFlat decides by hand-made samples: the U test finds 4 + 4 values
// apart (p = 2/70 ≤ 0.05) and not 3 + 3 (p = 0.1); the overlap rule
// finds intervals apart and not overlapping ones; medians and means
// give the ratio.
func TestFlat(t *testing.T) {
	a, b := []float64{10, 11, 12, 13}, []float64{20, 21, 22, 23}
	if o := Flat(estimate.TestU, 0.05, a, b); o.Change != 1 || math.Abs(o.P-2.0/70) > 1e-12 || o.Ratio != 21.5/11.5 {
		t.Errorf("U, 4 + 4 apart: %+v", o)
	}
	if o := Flat(estimate.TestU, 0.05, b, a); o.Change != -1 {
		t.Errorf("U, faster: %+v", o)
	}
	if o := Flat(estimate.TestU, 0.05, a[:3], b[:3]); o.Change != 0 || math.Abs(o.P-0.1) > 1e-12 {
		t.Errorf("U, 3 + 3: %+v, want no change at p = 0.1", o)
	}
	if o := Flat(estimate.TestOverlap, 0.05, a, b); o.Change != 1 || !math.IsNaN(o.P) {
		t.Errorf("overlap, apart: %+v", o)
	}
	if o := Flat(estimate.TestOverlap, 0.05, []float64{10, 12, 14}, []float64{11, 13, 15}); o.Change != 0 {
		t.Errorf("overlap, overlapping: %+v", o)
	}
	if MinSamples(estimate.TestU, 0.05) != 4 || MinSamples(estimate.TestU, 0.005) != 6 || MinSamples(estimate.TestOverlap, 0.05) != 2 {
		t.Errorf("MinSamples: %d %d %d", MinSamples(estimate.TestU, 0.05), MinSamples(estimate.TestU, 0.005), MinSamples(estimate.TestOverlap, 0.05))
	}
}
