package changepoint

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/benchtrim/benchtrim/internal/testenv"
)

// Speed anchors (README "Timing", R 4.2.2 + changepoint 2.3, median
// elapsed seconds on a 2-vCPU VM):
//
//	PELT meanvar 15·log n:   n=3000 0.030 s   n=30000 2.56 s
//	PELT mean 15·log n:      n=3000 0.026 s   n=30000 1.62 s
//	CROPS Traini range:      n=3000 0.83 s    n=30000 263 s (260 s user)
//	CROPS [4, 1e5]:          n=3000 1.67 s    n=30000 327 s (320 s user)
//
// Run (the n=30000 CROPS benchmarks take minutes each; run them once;
// sub-benchmark patterns match unanchored, hence the $):
//
//	go test -run XXX -bench 'PELT|CROPS/n=3000$' ./changepoint
//	go test -run XXX -bench 'CROPS/n=30000$' -benchtime 1x ./changepoint
//
// Measured here (cpu-ns/op, shared 2-core AMD EPYC 2.6 GHz, AVX2):
// PELT meanvar 9.3 ms / 1.15 s, PELT mean 3.1–3.4 ms / 0.27 s (2026-11-24),
// CROPS Traini range 0.24 s (s02) / 114 s, CROPS [4, 1e5] 0.74 s / 156 s.

// benchSeries is the warm-up shape of the README's timing series,
// 0.1·(1 + 3·exp(-t/(n/25))) + 1e-3·N(0,1), seeded.
func benchSeries(n int) []float64 { return warmupSeries(202, n, float64(n)/25) }

// reportCPU adds the process CPU time per op (the machine is shared, so
// wall time is noisy) and the throughput in points per second.
func reportCPU(b *testing.B, start func() int64, n int) {
	b.Helper()
	cpu := float64(start()) / float64(b.N)
	b.ReportMetric(cpu, "cpu-ns/op")
	b.ReportMetric(float64(n)/(cpu*1e-9), "cpu-points/s")
}

func cpuTimer() func() int64 {
	t0 := testenv.CPUSeconds()
	return func() int64 { return int64((testenv.CPUSeconds() - t0) * 1e9) }
}

func BenchmarkPELT(b *testing.B) {
	for _, n := range []int{3000, 30000} {
		x := benchSeries(n)
		for _, c := range []Cost{MeanVar, Mean} {
			for _, simd := range []bool{true, false} {
				if simd && !haveSIMD {
					continue
				}
				name := fmt.Sprintf("n=%d/%v/simd=%v", n, c, simd)
				b.Run(name, func(b *testing.B) {
					defer func(old bool) { useSIMD = old }(useSIMD)
					useSIMD = simd
					opt := Options{Cost: c, Penalty: BarrettPenalty(n)}
					b.ReportAllocs()
					b.ResetTimer()
					elapsed := cpuTimer()
					for i := 0; i < b.N; i++ {
						if _, err := PELT(x, opt); err != nil {
							b.Fatal(err)
						}
					}
					reportCPU(b, elapsed, n)
				})
			}
		}
	}
}

func BenchmarkCROPS(b *testing.B) {
	for _, n := range []int{3000, 30000} {
		x := benchSeries(n)
		for _, rg := range []struct {
			name   string
			lo, hi float64
		}{{"traini", 0, 0}, {"4_1e5", 4, 1e5}} {
			b.Run(fmt.Sprintf("n=%d/%s", n, rg.name), func(b *testing.B) {
				opt := cropsOptions{cost: MeanVar, PenMin: rg.lo, PenMax: rg.hi}
				b.ReportAllocs()
				b.ResetTimer()
				elapsed := cpuTimer()
				var r *CROPSResult
				for i := 0; i < b.N; i++ {
					var err error
					if r, err = crops(x, opt); err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, elapsed, n)
				b.ReportMetric(float64(len(r.Runs)), "pelt-runs")
				b.ReportMetric(float64(len(r.PenValueFull)), "pen.value.full")
			})
		}
	}
}

// BenchmarkReferenceSeries times the exact series R was timed on
// (s02_warmup_exp.csv, n = 3000; timing_n30000_warmup.csv) when
// ../shared/reference is present; R's pen.value.full lengths (29 and 98
// for the Traini range) double as a check.
func BenchmarkReferenceSeries(b *testing.B) {
	dir := timingDir(b)
	for _, f := range []struct {
		file   string
		rTrain int
	}{{"s02_warmup_exp.csv", 29}, {"timing_n30000_warmup.csv", 98}} {
		x := readSeriesCSV(b, filepath.Join(dir, f.file))
		n := len(x)
		b.Run(fmt.Sprintf("n=%d/PELT-meanvar", n), func(b *testing.B) {
			elapsed := cpuTimer()
			for i := 0; i < b.N; i++ {
				if _, err := PELT(x, DefaultOptions(n)); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, elapsed, n)
		})
		b.Run(fmt.Sprintf("n=%d/PELT-mean", n), func(b *testing.B) {
			elapsed := cpuTimer()
			for i := 0; i < b.N; i++ {
				if _, err := PELT(x, Options{Cost: Mean, Penalty: BarrettPenalty(n)}); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, elapsed, n)
		})
		b.Run(fmt.Sprintf("n=%d/CROPS-traini", n), func(b *testing.B) {
			elapsed := cpuTimer()
			for i := 0; i < b.N; i++ {
				r, err := crops(x, defaultCROPSOptions)
				if err != nil {
					b.Fatal(err)
				}
				if len(r.PenValueFull) != f.rTrain {
					b.Fatalf("pen.value.full has %d entries, R %d", len(r.PenValueFull), f.rTrain)
				}
			}
			reportCPU(b, elapsed, n)
		})
	}
}

// BenchmarkNoChangepoint times PELT and BinSeg (Q = 5) with the Barrett
// setting on series without a change point (seeded Gaussian noise around
// one level), where PELT prunes almost nothing and grows as n²; BinSeg
// grows as Q·n. Each BinSeg sub-benchmark also reports its CPU time as a
// ratio to PELT's at the same n, measured in the same run
// ("binseg/pelt").
func BenchmarkNoChangepoint(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, n := range []int{10000, 30000, 100000} {
		x := make([]float64, n)
		for i := range x {
			x[i] = 100 + rng.NormFloat64()
		}
		var pelt float64
		b.Run(fmt.Sprintf("n=%d/PELT", n), func(b *testing.B) {
			elapsed := cpuTimer()
			for i := 0; i < b.N; i++ {
				if _, err := PELT(x, DefaultOptions(n)); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, elapsed, n)
			pelt = float64(elapsed()) / float64(b.N)
		})
		b.Run(fmt.Sprintf("n=%d/BinSeg", n), func(b *testing.B) {
			elapsed := cpuTimer()
			for i := 0; i < b.N; i++ {
				if _, err := binSeg(x, binSegOptions{Cost: MeanVar, Penalty: BarrettPenalty(n), Q: 5}); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, elapsed, n)
			if pelt > 0 {
				b.ReportMetric(float64(elapsed())/float64(b.N)/pelt, "binseg/pelt")
			}
		})
	}
}
