package compare

import (
	"fmt"
	"testing"

	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/table"
)

// BenchmarkCompare measures A/B comparisons on one core: ratio resamples
// per second (each is one hierarchical resample of both sides) and
// comparisons per second, at 10,000 resamples per comparison for iteration
// means and 1,000 when invocations are drawn (a sample-mode side then draws
// up to 500,000 invocations per resample).
//
//	go test -run '^$' -bench Compare -benchtime 3x ./analysis/compare/
func BenchmarkCompare(b *testing.B) {
	avgt := flatConfig(4, 10, 50, 1)
	sample := flatConfig(1, 5, 100, 1)
	sample.Mode, sample.Unit = "sample", "us/op"
	sample.MinMean, sample.MaxMean = 1e5, 2e5 // 1 s iterations hold the full 1,000 samples
	sample.Sample.MaxPerIteration = 1000
	for _, tc := range []struct {
		name      string
		cfg       synth.SuiteConfig
		is        int
		resamples int
	}{
		{"avgt-10forks-50iter", avgt, 0, 10000},
		{"sample-5forks-100iter-1000inv-is0", sample, 0, 10000},
		{"sample-5forks-100iter-1000inv-is100", sample, 100, 1000},
		{"sample-5forks-100iter-1000inv-is-1", sample, -1, 1000},
	} {
		b.Run(tc.name, func(b *testing.B) {
			base := readSuite(b, suite(b, tc.cfg), synth.FormatJMH, "bench")
			opt := DefaultOptions
			opt.Workers = 1
			opt.Bootstrap.InvocationSamples = tc.is
			opt.Bootstrap.Resamples = tc.resamples
			rows := 0
			for _, s := range base {
				rows += s.Len()
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				rep, err := compareSets(runSet{Series: base}, runSet{Series: base}, opt)
				if err != nil || rep.Results[0].Err != nil {
					b.Fatal(err, rep.Results[0].Err)
				}
			}
			cmp := float64(b.N * len(base))
			b.ReportMetric(cmp/b.Elapsed().Seconds(), "comparisons/s")
			b.ReportMetric(cmp*float64(opt.Bootstrap.Resamples)/b.Elapsed().Seconds(), "resamples/s")
			b.ReportMetric(float64(rows)/float64(len(base)), "rows/benchmark")
		})
	}
}

// BenchmarkAA measures A/A tests by fork with 10 splits per benchmark.
func BenchmarkAA(b *testing.B) {
	series := readSuite(b, suite(b, flatConfig(8, 10, 50, 2)), synth.FormatJMH, "aa")
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			opt := aaOptions()
			opt.Repeats, opt.Workers, opt.Split = 10, workers, table.LevelFork
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := aaSeries(series, opt); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*len(series)*opt.Repeats)/b.Elapsed().Seconds(), "comparisons/s")
		})
	}
}
