package nonparam

import (
	"fmt"
	"testing"
)

// benchSizes are the per-sample sizes n = m of the benchmarks.
var benchSizes = []int{1000, 10000}

func benchSamples(n int) (x, y []float64) {
	r := newRand(uint64(n))
	return normalSample(r, n, 0.05), normalSample(r, n, 0)
}

// BenchmarkMannWhitneyU measures the asymptotic U test; values/s counts the
// n + m values of one test.
func BenchmarkMannWhitneyU(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=m=%d", n), func(b *testing.B) {
			x, y := benchSamples(n)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := mannWhitneyU(x, y, mannWhitneyOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(2*n)*float64(b.N)/b.Elapsed().Seconds(), "values/s")
		})
	}
}

// BenchmarkMannWhitneyUExact measures the exact test where methodAuto picks
// it for large data: one sample of 8 against n.
func BenchmarkMannWhitneyUExact(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=8,m=%d", n), func(b *testing.B) {
			x, y := benchSamples(n)
			x = x[:8]
			b.ReportAllocs()
			for b.Loop() {
				res, err := mannWhitneyU(x, y, mannWhitneyOptions{})
				if err != nil || res.Method != MethodExact {
					b.Fatal(err, res.Method)
				}
			}
		})
	}
}

// BenchmarkCliffsDelta measures Cliff's δ; values/s counts the n + m values.
func BenchmarkCliffsDelta(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=m=%d", n), func(b *testing.B) {
			x, y := benchSamples(n)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := CliffsDelta(x, y); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(2*n)*float64(b.N)/b.Elapsed().Seconds(), "values/s")
		})
	}
}

// BenchmarkKruskalDunn measures Kruskal-Wallis plus Dunn on five groups of
// n values, the shape of µOpTime's metric comparison.
func BenchmarkKruskalDunn(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("k=5,n=%d", n), func(b *testing.B) {
			r := newRand(uint64(n) + 1)
			groups := make([][]float64, 5)
			for i := range groups {
				groups[i] = normalSample(r, n, 0.01*float64(i))
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := KruskalWallis(groups); err != nil {
					b.Fatal(err)
				}
				if _, err := Dunn(groups, DunnOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
