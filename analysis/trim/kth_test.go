package trim

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestKthRatio: kthRatio is the u-th smallest ratio a_i/b_j, exactly,
// from a cold start and from guesses near, far and on the wrong side.
func TestKthRatio(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 300; trial++ {
		n, m := 1+rng.IntN(40), 1+rng.IntN(40)
		a, b := make([]float64, n), make([]float64, m)
		for i := range a {
			a[i] = 100 * math.Exp(0.1*rng.NormFloat64())
			if trial%3 == 0 {
				a[i] = math.Round(a[i] / 5) // ties
			}
		}
		for j := range b {
			b[j] = 100 * math.Exp(0.1*rng.NormFloat64()+0.02)
			if trial%3 == 0 {
				b[j] = math.Round(b[j] / 5)
			}
		}
		slices.Sort(a)
		slices.Sort(b)
		var r []float64
		for _, x := range a {
			for _, y := range b {
				r = append(r, x/y)
			}
		}
		slices.Sort(r)
		u := 1 + rng.IntN(n*m)
		want := r[u-1]
		for _, g := range []float64{0, want, want * 1.01, want * 0.7, want * 3, 1e-9} {
			got := kthRatio(a, b, u, g)
			if got != want {
				t.Fatalf("n %d m %d u %d guess %v: kthRatio %v, the u-th ratio %v", n, m, u, g, got, want)
			}
		}
	}
}
