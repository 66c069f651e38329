package compare

import (
	"fmt"
	"math"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/table"
)

// Options configures Run.
type Options struct {
	// Bootstrap holds the resamples, the confidence level of every interval
	// and the invocation samples per iteration (pa's -is: 0 iteration means,
	// -1 all invocations, k k draws). Invocation samples apply to sample-mode
	// iterations, whose rows are histogram buckets with invocation counts; in
	// other modes the rows inside an iteration (µOpTime 1-s slices) are drawn
	// uniformly as the invocation level when InvocationSamples != 0.
	Bootstrap estimate.HierarchicalOptions
	// Rule is the test the verdict rests on (estimate.Test): benchstat's
	// U test on the iteration values (TestU, the medians shown), the
	// hierarchical bootstrap interval of the ratio of means (TestRatio,
	// at Bootstrap.Confidence: the command line sets it to 1 − Alpha
	// unless --confidence is given) or JMH's interval overlap
	// (TestOverlap, t intervals at 1 − Alpha). trim's checks use the same
	// rule.
	Rule estimate.Test
	// Alpha is the significance level of the rule (and of the U test's
	// p-value shown beside every rule): p ≤ Alpha is reported as a
	// difference (in A/A, as a false positive), as benchstat does. In (0, 1).
	Alpha float64
	// DiscardWarmup drops the first DiscardWarmup iterations of every fork
	// on both sides, for data recorded without warmup iterations (-wi 0).
	DiscardWarmup int
	// Seed selects the bootstrap streams (and the A/A splits).
	Seed uint64
	// MinEffect is a practical-significance threshold in percent: a change
	// |Δ| < MinEffect is "~" (no change) even when statistically
	// significant. 0 keeps every significant change.
	MinEffect float64
	// Col says what the two sides are, as benchstat's -col: colFile ("")
	// the sides given (files or label selectors), colConfig the two
	// project@version labels of one input, "/KEY" the two values of
	// parameter KEY (colSides finds the sides of the last two). With
	// "/KEY" benchmarks are matched with that parameter left out.
	Col string
	// Row says what names a row, as benchstat's -row: comma-separated
	// elements .fullname (the benchmark with its params; "" is .fullname),
	// .name (the benchmark without sub-benchmark parts), /KEY (parameter
	// KEY's value) and .file or .config (the runs' project@version label).
	// The runs of a side whose keys agree on these (and on the mode) are
	// pooled as top-level units, as benchstat pools a cell's results.
	Row string
	// Wide makes WriteText print every row on one line, however wide the
	// table gets (by default a name too long for its row stands on lines
	// of its own above the row's cells, so lines fit width).
	Wide bool
	// Workers is the number of benchmarks compared in parallel;
	// 0 means GOMAXPROCS. The results do not depend on it.
	Workers int
	// Metrics are the metrics to compare: the primary metric (times) and
	// secondary ones by name (B/op, gc.alloc.rate.norm, …); nil means every
	// metric the input holds (see Metrics).
	Metrics []string
	// Filter keeps benchmarks by name and params (nil keeps all); a filter
	// that keeps nothing is an error.
	Filter *Filter
	// Progress, when not nil, is called once per finished benchmark with
	// the number of benchmarks in all, from several goroutines at once.
	Progress func(total int)

	// Base and Test are the sides Run compares: their labels, the
	// selectors that choose their runs and, for a side read from files of
	// its own, its table (nil: the table Run gets). A zero Test makes
	// Run describe Base without comparing; with Col colConfig or /KEY
	// it finds both sides (colSides). Inputs sets them as a command line
	// names them.
	Base, Test Side
	// AA makes Run an A/A test of the table's runs (aaSeries): each
	// run is split Repeats times at random into two halves of its units at
	// level Split (table.LevelInstance, LevelTrial or LevelFork; a unit is
	// one distinct prefix of level ids down to Split, as
	// table.Series.Units, so on data with one fork per trial, µOpTime's,
	// splitting by fork is splitting by trial).
	AA      bool
	Split   table.Level
	Repeats int
	// Part marks a run on one part of an input split by benchmark name
	// (every run of a name, on every side, in one part: the chunks of
	// tablefile.NameGroupOf): the checks on the whole input (a filter that
	// keeps nothing, a selector that matches no run, a wanted metric no
	// part holds) are left to Merge.
	Part bool
}

// DefaultOptions are pa's and µOpTime's settings: 10,000 resamples, 99 %
// intervals, iteration means (InvocationSamples 0), U test at α = 0.01,
// nothing skipped, seed 1, the statistic the mean (the command's default
// is StatisticMedian, benchstat's), no minimum effect; an A/A test splits
// by fork once.
var DefaultOptions = Options{Bootstrap: estimate.DefaultHierarchical, Rule: estimate.TestU, Alpha: estimate.DefaultAlpha, Seed: 1,
	Split: table.LevelFork, Repeats: 1}

// The statistics a Rule shows: the medians for the U test, the means
// for the others.
const (
	statisticMean   = "mean"
	StatisticMedian = "median"
)

// statistic is the statistic the table shows and the change is computed
// from: StatisticMedian under TestU (benchstat's), statisticMean otherwise.
func (o *Options) statistic() string {
	if o.median() {
		return StatisticMedian
	}
	return statisticMean
}

// median reports whether the rule is the U test, whose change is the
// ratio of the medians.
func (o *Options) median() bool { return o.Rule == estimate.TestU }

// Validate reports whether o is usable.
func (o Options) Validate() error {
	if o.Rule < estimate.TestU || o.Rule > estimate.TestOverlap {
		return fmt.Errorf("compare: unknown test %v", o.Rule)
	}
	if err := checkProjections(o.Row, o.Col); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	if !(o.MinEffect >= 0) || math.IsInf(o.MinEffect, 0) {
		return fmt.Errorf("compare: minimum effect must be a percentage >= 0, got %v", o.MinEffect)
	}
	if err := o.Bootstrap.Validate(); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	if !(o.Alpha > 0 && o.Alpha < 1) {
		return fmt.Errorf("compare: alpha must be in (0, 1), got %v", o.Alpha)
	}
	if o.DiscardWarmup < 0 {
		return fmt.Errorf("compare: skip iterations must be >= 0, got %d", o.DiscardWarmup)
	}
	if o.Workers < 0 {
		return fmt.Errorf("compare: workers must be >= 0, got %d", o.Workers)
	}
	if !o.AA {
		return nil
	}
	switch o.Split {
	case table.LevelInstance, table.LevelTrial, table.LevelFork:
	default:
		return fmt.Errorf("compare: A/A split level must be instance, trial or fork, got %v", o.Split)
	}
	if o.Repeats < 1 {
		return fmt.Errorf("compare: A/A repeats must be at least 1, got %d", o.Repeats)
	}
	return nil
}
