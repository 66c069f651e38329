package compare_test

import (
	"fmt"

	"github.com/benchtrim/benchtrim/analysis/compare"
	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
)

// Compare two sides held in one table, chosen by labels (as benchtrim
// compare --base-pair A --test-pair B does): here pair A against pair B of
// a real Renaissance duet recording (two runs of chi-square, run one after
// the other and as an asynchronous duet, A and B the same version). Each
// benchmark run gets the ratio of means test/base with its
// hierarchical-bootstrap CI (runs as forks) and a verdict. With two runs of
// two iterations per pair the intervals are wide; the duet analysis
// (analysis/duet) pairs the iterations instead.
func ExampleRun() {
	fixture := "../duet/testdata/fixtures/chi-square_duet_seqn_2runs_2022-05-15.csv"
	t, _, _, err := ingest.ReadFiles([]string{fixture}, ingest.ReadOptions{Formats: all.Formats()})
	if err != nil {
		panic(err)
	}
	defer t.Release()
	opt := compare.DefaultOptions
	opt.Bootstrap.Resamples = 2000
	opt.Metrics = []string{"primary"}
	opt.DiscardWarmup = 2 // of 4 iterations per run, as the duet warm-up rule
	opt.Base = compare.Side{Label: "A", Select: compare.Selector{Pair: "A"}}
	opt.Test = compare.Side{Label: "B", Select: compare.Selector{Pair: "B"}}
	rep, err := compare.Run(t, opt)
	if err != nil {
		panic(err)
	}
	for _, r := range rep.Rows {
		fmt.Printf("%s (%s): B/A %.3f [%.3f, %.3f], %s\n", r.Benchmark, r.Mode, r.Ratio.Estimate, r.Ratio.Lower, r.Ratio.Upper, r.Verdict)
	}
	// Output:
	// chi-square (duet): B/A 0.911 [0.698, 1.305], no change
	// chi-square (seqn): B/A 1.148 [0.961, 1.399], no change
}
