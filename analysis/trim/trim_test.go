package trim

import (
	"testing"
	"time"
)

func testRunTimingProbe(t *testing.T) {
	tab, s := suiteTable(t, jmhSuite(8, 5, 1000, 7), "jmh")
	start := time.Now()
	rep, err := Run(tab, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("took %v", time.Since(start))
	tr := truthOf(s)
	for _, b := range rep.Benchmarks {
		x := tr[[2]string{b.Key.Benchmark, b.Key.Params}]
		t.Logf("%s kind=%s L=%d st=%d | %s W=%d ends=%v f=%d i=%d est=%.4g ref=%.4g true=%.4g", b.Key.Benchmark, x.Kind, x.WarmupIterations, x.SteadyStart, b.Status, b.Recommended.WarmupIterations, b.WarmupEnds, b.Recommended.Forks, b.Recommended.Iterations, b.Estimate, b.Reference, x.FinalMean)
	}
}
