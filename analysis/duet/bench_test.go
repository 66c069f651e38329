package duet

import (
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
			gs := genGroups(genConfig{Benchmarks: size.benchmarks, Runs: 20, Iterations: 50, Types: Types, Env: "gen", NoiseCV: 0.03, Seed: 1})
			var iterations int
			for _, g := range gs {
				iterations += len(g.Records)
			}
			opt := DefaultOptions()
			b.ReportAllocs()
			b.ResetTimer()
			var resamples int
			for i := 0; i < b.N; i++ {
				res, err := Analyze(gs, opt)
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
