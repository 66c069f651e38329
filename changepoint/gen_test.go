package changepoint

import (
	"math"
	"math/rand/v2"
)

// warmupSeries is the generator of the README's timing series,
// 0.1·(1 + 3·exp(-t/tau)) + 1e-3·N(0,1), t = 0..n-1, from a seeded PCG
// stream (not numpy's, so the values differ from the reference CSVs).
func warmupSeries(seed uint64, n int, tau float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 0x3a3a))
	x := make([]float64, n)
	for i := range x {
		x[i] = 0.1*(1+3*math.Exp(-float64(i)/tau)) + 1e-3*rng.NormFloat64()
	}
	return x
}
