package trim

import (
	"os"
	"testing"
	"time"

	"github.com/benchtrim/benchtrim/analysis/steady"
	"github.com/benchtrim/benchtrim/internal/synth"
)

// BenchmarkTrimSuite times Run on a generated JMH avgt suite recorded with
// -wi 0 (default mix of kinds, 1,000 bootstrap resamples): by default 20
// benchmarks × 5 forks × 1,000 iterations; with BENCHTRIM_TRIM_SCALE=1 the
// size of the steady-state study's data, 500 benchmarks × 10 forks × 3,000
// iterations (BENCHTRIM_TRIM_SCALE=0.1: 50 benchmarks). It reports benchmarks/s and iterations/s of the whole run,
// and steady_s, the seconds steady-state detection alone takes on the same
// table (timed once, outside the loop); the rest is µOpTime.
func BenchmarkTrimSuite(b *testing.B) {
	n, forks, iters := 20, 5, 1000
	switch os.Getenv("BENCHTRIM_TRIM_SCALE") {
	case "1":
		n, forks, iters = 500, 10, 3000
	case "0.1":
		n, forks, iters = 50, 10, 3000
	}
	tab, _ := suiteTable(b, jmhSuite(n, forks, iters, 11), synth.FormatJMH)
	opt := DefaultOptions
	opt.Optimize.Bootstrap.Resamples = 1000
	opt.Steady.Bootstrap.Resamples = 1000
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		if _, err := Run(tab, opt); err != nil {
			b.Fatal(err)
		}
	}
	sec := time.Since(start).Seconds() / float64(b.N)
	b.StopTimer()
	t0 := time.Now()
	if _, err := steady.Run(tab, opt.Steady); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(time.Since(t0).Seconds(), "steady_s")
	b.ReportMetric(float64(n)/sec, "benchmarks/s")
	b.ReportMetric(float64(n*forks*iters)/sec, "iterations/s")
}
