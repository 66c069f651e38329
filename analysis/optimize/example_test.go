package optimize_test

import (
	"fmt"

	"github.com/benchtrim/benchtrim/analysis/optimize"
	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
)

// The flow of every analysis: result files are read into the canonical
// table (ingest.ReadFiles with the readers of format/all), the analyzer's
// Run takes the table and its options and returns a report, whose
// WriteText, Frame and fields answer people, notebooks and programs. Here
// µOpTime finds, for each benchmark of a small µOpTime Go CSV, the
// cheapest configuration whose RMAD stays below 1 %.
func Example_flow() {
	t, _, _, err := ingest.ReadFiles([]string{"../../testdata/uoptime/small.csv"}, ingest.ReadOptions{Formats: all.Formats()})
	if err != nil {
		panic(err)
	}
	defer t.Release()
	opt := optimize.DefaultOptions
	opt.Metrics = []optimize.Metric{optimize.RMAD}
	opt.Bootstrap.Resamples = 1000
	rep, err := optimize.Run(t, opt)
	if err != nil {
		panic(err)
	}
	for _, r := range rep.Results {
		fmt.Printf("%s: %s, %s of %s kept, time saved %.0f %%\n", r.Key.Benchmark, r.Status,
			r.Chosen.Config.Format(&r.Varied), r.Full.Config.Format(&r.Varied), 100*(1-float64(r.Chosen.TimeNs)/float64(r.Full.TimeNs)))
	}
	// Output:
	// BenchmarkJsonEncodeSmall: not reduced, instance=2 trial=2 iteration=3 slice=5 of instance=2 trial=2 iteration=3 slice=5 kept, time saved 0 %
	// BenchmarkJsonLookupNested: not reduced, instance=2 trial=2 iteration=3 slice=5 of instance=2 trial=2 iteration=3 slice=5 kept, time saved 0 %
	// BenchmarkJsonReadLarge: reduced, instance=2 trial=2 iteration=1 slice=1 of instance=2 trial=2 iteration=3 slice=5 kept, time saved 93 %
}
