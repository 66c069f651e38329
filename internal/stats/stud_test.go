package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestStudentizeAll checks that studentizeAll gives studentized's bits
// for every element, at every length (the kernel's groups of four and
// the tail in Go), on ordinary sums and on the cases that take the other
// branches: no distinct value, zero, negative and NaN variance, zero,
// negative zero and NaN means, infinite sums.
func TestStudentizeAll(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	special := []float64{0, math.Copysign(0, -1), 1e-300, -1e-300, 3, -3, 1e300, math.Inf(1), math.Inf(-1), math.NaN()}
	pick := func() float64 {
		if r.IntN(4) == 0 {
			return special[r.IntN(len(special))]
		}
		return r.NormFloat64() * math.Pow(10, float64(r.IntN(7)-3))
	}
	for _, n := range []float64{2, 3, 75, 1e4} {
		for size := 0; size <= 70; size++ {
			s := make([]float64, size)
			q := make([]float64, size)
			diff := make([]uint64, size)
			for i := range s {
				s[i] = pick()
				q[i] = math.Abs(pick())
				if r.IntN(3) == 0 {
					q[i] = s[i] * s[i] / n // variance about 0, either sign
				}
				if r.IntN(5) != 0 {
					diff[i] = r.Uint64() | 1
				}
			}
			out := make([]float64, size)
			studentizeAll(s, q, diff, n, out)
			for i := range out {
				want := studentized(s[i], q[i], n, diff[i] != 0)
				if math.Float64bits(out[i]) != math.Float64bits(want) {
					t.Fatalf("n=%g size %d [%d]: s=%g q=%g diff=%d: got %g (%#x), studentized %g (%#x)", n, size, i, s[i], q[i], diff[i], out[i], math.Float64bits(out[i]), want, math.Float64bits(want))
				}
			}
		}
	}
}

// BenchmarkStudentizeAll times studentizeAll against the loop of
// studentized it replaces, on 64 resamples of 75 values (a batch of
// resampleT); ns/t is the time per t statistic.
func BenchmarkStudentizeAll(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	var s, q, out [64]float64
	var diff [64]uint64
	for i := range s {
		s[i] = r.NormFloat64()
		q[i] = 75 + r.Float64()
		diff[i] = 1
	}
	for _, kernel := range []bool{false, true} {
		name := "loop"
		if kernel {
			name = "studentizeAll"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if kernel {
					studentizeAll(s[:], q[:], diff[:], 75, out[:])
				} else {
					for i := range out {
						out[i] = studentized(s[i], q[i], 75, diff[i] != 0)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(out)), "ns/t")
		})
	}
}
