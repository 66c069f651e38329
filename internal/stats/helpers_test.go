package stats

import (
	"math"
	"testing"
)

// checkClose fails t unless got is within tol of want, relatively
// (|got − want| <= tol·max(1, |want|)).
func checkClose(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.IsInf(want, 0) || math.IsNaN(want) {
		if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
		return
	}
	if d := math.Abs(got - want); !(d <= tol*math.Max(1, math.Abs(want))) {
		t.Errorf("%s = %.17g, want %.17g (diff %.3g, tol %.3g)", name, got, want, d, tol)
	}
}

// checkRel fails t unless got is within relative tolerance tol of want.
func checkRel(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if d := math.Abs(got - want); !(d <= tol*math.Abs(want)) {
		t.Errorf("%s = %.17g, want %.17g (rel diff %.3g, tol %.3g)", name, got, want, d/math.Abs(want), tol)
	}
}

// normals returns n seeded N(mu, sigma²) values.
func normals(s *Stream, n int, mu, sigma float64) []float64 {
	r := newRandFrom(s)
	x := make([]float64, n)
	for i := range x {
		x[i] = mu + sigma*r.NormFloat64()
	}
	return x
}
