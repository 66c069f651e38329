package duet

import (
	"fmt"
	"testing"
)

// BenchmarkAnalyze runs the full analysis (warm-up, pairing, CI and U
// tests, the 9 overlap ratios of the duet type and the 16-point MDS grid,
// 9,999 BCa resamples per CI) on a generated set the size of the thesis's:
// 200 benchmarks × 3 types × 20 runs × 50 iterations × 2 pairs = 1.2 M
// iterations ("thesis"), and on a tenth of it ("small"). It reports
// iterations/s and bootstrap resamples/s.
//
//	go test -run '^$' -bench Analyze/thesis -benchtime 1x ./analysis/duet
func BenchmarkAnalyze(b *testing.B) {
	for _, size := range []struct {
		name       string
		benchmarks int
	}{{"small", 20}, {"thesis", 200}} {
		b.Run(size.name, func(b *testing.B) {
			gs := genGroups(genConfig{Benchmarks: size.benchmarks, Runs: 20, Iterations: 50, Types: types, Env: "gen", NoiseCV: 0.03, Seed: 1})
			var iterations int
			for _, g := range gs {
				iterations += len(g.records)
			}
			opt := DefaultOptions()
			b.ReportAllocs()
			b.ResetTimer()
			var resamples int
			for i := 0; i < b.N; i++ {
				res, err := analyze(gs, opt)
				if err != nil {
					b.Fatal(err)
				}
				resamples = 0
				for _, m := range res.MDS {
					if m.HasCI && m.Slowdown != 0 {
						resamples += opt.Resamples
					}
				}
				for _, x := range res.Benchmarks {
					if x.HasCI {
						resamples += opt.Resamples
					}
				}
				for _, o := range res.Overlaps {
					if o.HasCI {
						resamples += opt.Resamples
					}
				}
			}
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(float64(iterations)/sec, "iterations/s")
			b.ReportMetric(float64(resamples)/sec, "resamples/s")
		})
	}
}

// BenchmarkOverlaps times the overlap enumeration of one duet run with n
// iterations per pair (A's iterations 1 ms long, B's 1.3 ms, both with
// gaps), for n = 1,000, 10,000 and 100,000. It reports ns per iteration,
// which stays flat up to the log n of the sort when the enumeration is
// O(n log n).
func BenchmarkOverlaps(b *testing.B) {
	mk := func(n int, length, gap int64, offset int64) []Record {
		recs := make([]Record, n)
		t := offset
		for i := range recs {
			recs[i] = Record{Pair: 'A', Iteration: int32(i), StartNs: t, EndNs: t + length, TimeNs: float64(length)}
			t += length + gap
		}
		return recs
	}
	for _, n := range []int{1000, 10000, 100000} {
		a := mk(n, 1_000_000, 50_000, 0)
		bb := mk(n, 1_300_000, 20_000, 400_000)
		for i := range bb {
			bb[i].Pair = 'B'
		}
		for _, e := range []struct {
			name string
			f    func(a, b []Record) []Overlap
		}{{"sweep", sweepOverlaps}, {"all", allPairsOverlaps}} {
			b.Run(fmt.Sprintf("%s/n=%d", e.name, n), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					e.f(a, bb)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(2*n), "ns/iteration")
			})
		}
	}
}
