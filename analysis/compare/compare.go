package compare

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"sync"

	"github.com/benchtrim/benchtrim/analysis/internal/verdict"
	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/nonparam"
	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/internal/workpool"
	"github.com/benchtrim/benchtrim/table"
)

// Change is the direction of a verdict.
type Change int8

// Changes. Faster and Slower refer to time per operation.
const (
	NoChange Change = 0
	Slower   Change = 1
	Faster   Change = -1
)

// String returns "no change", "slower" or "faster".
func (c Change) String() string {
	switch c {
	case NoChange:
		return "no change"
	case Slower:
		return "slower"
	case Faster:
		return "faster"
	}
	return fmt.Sprintf("Change(%d)", int(c))
}

// Verdict is the outcome of one comparison.
type Verdict struct {
	Change Change
	// Percent is the size of the change, 100·(ratio − 1): positive when the
	// test is slower. It is kept for NoChange too (the point estimate).
	Percent float64
}

// verdictOf decides from the interval of the ratio of means test/base:
//
//	Lower ≤ 1 ≤ Upper  no change
//	Lower > 1          slower by 100·(Estimate − 1) %
//	Upper < 1          faster by 100·(Estimate − 1) %
//
// the rule of Kalibera and Jones (2012) and Laaber et al. (ESEC/FSE 2020).
// An interval with a NaN bound gives NoChange.
func verdictOf(ratio estimate.Interval) Verdict {
	v := Verdict{Percent: 100 * (ratio.Estimate - 1)}
	switch {
	case ratio.Lower > 1:
		v.Change = Slower
	case ratio.Upper < 1:
		v.Change = Faster
	}
	return v
}

// String formats the verdict as "no change", "+4.2 % slower" or
// "-3.1 % faster": one decimal from 1 % on, two significant digits below.
func (v Verdict) String() string {
	if v.Change == NoChange {
		return "no change"
	}
	return formatPercent(v.Percent) + " " + v.Change.String()
}

// formatPercent formats a signed percentage: "+4.2 %", "-0.083 %".
func formatPercent(p float64) string {
	var s string
	if math.Abs(p) >= 0.95 || p == 0 {
		s = strconv.FormatFloat(p, 'f', 1, 64)
	} else {
		s = strconv.FormatFloat(p, 'g', 2, 64)
	}
	if p >= 0 {
		s = "+" + s
	}
	return s + " %"
}

// SideStats summarises one side of a comparison.
type SideStats struct {
	// Median is the median of the iteration values (iteration means).
	Median float64
	// MedianCI is Median with its distribution-free interval at
	// MedianConfidence, as benchstat prints it (± of its center): bounds
	// are order statistics of the iteration values
	// (nonparam.BenchstatMedian), −Inf or +Inf with too few values.
	MedianCI estimate.Interval
	// Mean is the mean time per operation in ns with its bootstrap interval
	// (from the same resamples as the ratio). For InvocationSamples 0 it is
	// the mean of the iteration means.
	Mean estimate.Interval
	// Iterations is the number of iterations compared.
	Iterations int
	// Units counts the units per level: runs, instances, trials, forks,
	// iterations (totals over the side, e.g. 6 forks for 2 trials × 3 forks).
	Units [5]int
}

// topUnits is the number of units at the outermost level with more than
// one unit (1 when no level has more): the units the bootstrap's
// uncertainty mostly rests on, e.g. 3 for 3 instances × 3 trials.
func (s *SideStats) topUnits() int {
	for _, n := range s.Units {
		if n > 1 {
			return n
		}
	}
	return 1
}

// fewUnits is the number of top-level units below which WriteText warns
// that percentile intervals are too narrow: the bootstrap variance of a mean
// of n units is (n−1)/n of the plug-in variance and its tails are normal
// rather than t-like, so with 3 units a nominal 99 % interval covers far
// less (Kalibera and Jones 2013 recommend enough repetitions at the highest
// level that varies).
const fewUnits = 5

// Row is one benchmark (or row of Options.Row) of one metric of an A/B
// Report: its name, metric and runs, and for a benchmark both sides have
// the statistics of test against base (zero for a row of
// Report.Unmatched, or when Err says why it could not be compared).
type Row struct {
	Name
	// Metric is the metric compared: table.Primary (time per operation in
	// ns) or a secondary metric (B/op, allocs/op, gc.alloc.rate.norm, …)
	// compared in Unit, its unit as recorded.
	Metric, Unit string
	// BaseRuns and TestRuns are the runs pooled on each side (one of them
	// empty for a benchmark only the other side has).
	BaseRuns, TestRuns []table.Key
	Base, Test         SideStats
	// Ratio is mean(test)/mean(base) with its hierarchical bootstrap interval.
	Ratio estimate.Interval
	// ChangeRate is the change the verdict reads, signed, as a fraction:
	// Verdict.Percent/100 (median_test/median_base − 1 for the U test,
	// ratio − 1 for the others).
	ChangeRate float64
	// U and P are the Mann-Whitney U statistic of the test's iteration means
	// and the two-sided p-value as benchstat computes it
	// (nonparam.BenchstatU: exact for up to 50 values a side, or 25 with
	// ties, else normal with tie and continuity correction).
	U, P float64
	// UWarning is benchstat's footnote to its U test, "" for none: "all
	// samples are equal", or "need >= 4 samples to detect a difference at
	// alpha level 0.05" (nonparam.BenchstatUWarning).
	UWarning string
	// CliffsDelta is Cliff's δ of the test's iteration means against the
	// base's (positive: test tends to be slower); Magnitude its label.
	CliffsDelta float64
	Magnitude   estimate.Magnitude
	Verdict     Verdict
	// Resampled names the levels with more than one unit on either side
	// (those the bootstrap actually resamples), outermost first.
	Resampled []string
	// Err says why the benchmark could not be compared; the statistics
	// are then zero.
	Err error
	// pos is where the input first shows the row (firstPos), the order
	// of the tables and data files.
	pos position
	// procs is the GOMAXPROCS all the row's runs ran with, "" when they
	// differ or it is unknown (the -N of benchstat's names).
	procs string
	// score is the unit the text shows the row's times in (JMH's score
	// unit), zero for time per operation.
	score scoreUnit
}

// only is the side of a row of Report.Unmatched: "base" or "test".
func (r *Row) only() string {
	if len(r.TestRuns) == 0 {
		return "base"
	}
	return "test"
}

// excludesOne reports whether the ratio's interval lies entirely above or
// below 1.
func (c *Row) excludesOne() bool { return c.Ratio.Lower > 1 || c.Ratio.Upper < 1 }

// decide sets c.Verdict by opt's rule (Options.Rule) and minimum effect:
// for TestU, p ≤ Alpha with Δ = 100·(median_test/median_base − 1) %
// (benchstat's rule: benchmath prints "~" only for p > α); for TestRatio,
// the ratio's interval (verdictOf); for TestOverlap, the two sides'
// (1 − α) t intervals of the iteration means do not overlap
// (verdict.Flat), with Δ the ratio of means. Then a change |Δ| <
// MinEffect % becomes NoChange (the estimate is kept).
func (c *Row) decide(opt *Options, base, test []float64) {
	switch opt.Rule {
	case estimate.TestU:
		c.Verdict = Verdict{Percent: 100 * (c.Test.Median/c.Base.Median - 1)}
		if c.P <= opt.Alpha {
			c.Verdict.Change = Slower
			if c.Verdict.Percent < 0 {
				c.Verdict.Change = Faster
			}
			if c.Verdict.Percent == 0 || math.IsNaN(c.Verdict.Percent) {
				c.Verdict.Change = NoChange
			}
		}
	case estimate.TestOverlap:
		c.Verdict = Verdict{Percent: 100 * (c.Ratio.Estimate - 1)}
		if len(base) > 0 && len(test) > 0 {
			c.Verdict.Change = Change(verdict.Flat(estimate.TestOverlap, opt.Alpha, base, test).Change)
		}
	}
	if math.Abs(c.Verdict.Percent) < opt.MinEffect {
		c.Verdict.Change = NoChange
	}
	c.ChangeRate = c.Verdict.Percent / 100
}

// MedianConfidence is the confidence level of the intervals of the
// medians (sideStats.MedianCI): benchstat's default -confidence.
const MedianConfidence = 0.95

// medianSide is the median summary of a side's iteration values.
func medianSide(x []float64) (float64, estimate.Interval) {
	m, lo, hi := nonparam.BenchstatMedian(x, MedianConfidence)
	return m, estimate.Interval{Estimate: m, Lower: lo, Upper: hi}
}

// compareSamples compares test against base.
func compareSamples(test, base *sample, opt *Options, rng *stats.Stream, ws *stats.Workspace) (Row, error) {
	ht, err := test.hierarchy()
	if err != nil {
		return Row{}, fmt.Errorf("test: %w", err)
	}
	hb, err := base.hierarchy()
	if err != nil {
		return Row{}, fmt.Errorf("base: %w", err)
	}
	if c, ok := constantSides(test, base); ok {
		c.decide(opt, nil, nil)
		return c, nil
	}
	if allZero(base.values) {
		return Row{}, errBaseZero
	}
	r, err := stats.HierarchicalRatioCI(ht, hb, opt.Bootstrap, rng, ws)
	if err != nil {
		return Row{}, err
	}
	mw, err := nonparam.MannWhitneyU(test.iterMeans, base.iterMeans)
	if err != nil {
		return Row{}, fmt.Errorf("U test: %w", err)
	}
	mw.P = nonparam.BenchstatU(base.iterMeans, test.iterMeans) // benchstat's p-value
	delta, err := nonparam.CliffsDelta(test.iterMeans, base.iterMeans)
	if err != nil {
		return Row{}, fmt.Errorf("Cliff's delta: %w", err)
	}
	bm, bci := medianSide(base.iterMeans)
	tm, tci := medianSide(test.iterMeans)
	c := Row{
		Base:        SideStats{Median: bm, MedianCI: bci, Mean: r.Control, Iterations: len(base.iterMeans), Units: base.units},
		Test:        SideStats{Median: tm, MedianCI: tci, Mean: r.Test, Iterations: len(test.iterMeans), Units: test.units},
		Ratio:       r.Ratio,
		ChangeRate:  r.Ratio.Estimate - 1,
		U:           mw.U,
		P:           mw.P,
		UWarning:    nonparam.BenchstatUWarning(base.iterMeans, test.iterMeans, mw.P, opt.Alpha),
		CliffsDelta: delta,
		Magnitude:   nonparam.CliffMagnitude(delta),
		Verdict:     verdictOf(r.Ratio),
	}
	if err := c.finiteErr(); err != nil {
		return Row{}, err
	}
	c.decide(opt, base.iterMeans, test.iterMeans)
	bl, tl := base.resampledLevels(), test.resampledLevels()
	for l := 0; l < numIDs; l++ {
		if contains(bl, idNames[l]) || contains(tl, idNames[l]) {
			c.Resampled = append(c.Resampled, idNames[l])
		}
	}
	return c, nil
}

var errBaseZero = errors.New("every base value is 0, so the ratio test/base is undefined")

func allZero(x []float64) bool {
	for _, v := range x {
		if v != 0 {
			return false
		}
	}
	return true
}

// constantSides compares two sides whose values all equal one number (a
// benchmark with 0 allocs/op before and after): ratio 1 [1, 1], p = 1, no
// change. It reports false for anything else.
func constantSides(test, base *sample) (Row, bool) {
	v := base.values[0]
	for _, x := range [][]float64{base.values, test.values} {
		for _, y := range x {
			if y != v {
				return Row{}, false
			}
		}
	}
	one := estimate.Interval{Estimate: 1, Lower: 1, Upper: 1}
	side := func(s *sample) SideStats {
		_, ci := medianSide(s.iterMeans)
		return SideStats{Median: v, MedianCI: ci, Mean: estimate.Interval{Estimate: v, Lower: v, Upper: v}, Iterations: len(s.iterMeans), Units: s.units}
	}
	c := Row{Base: side(base), Test: side(test), Ratio: one, U: float64(len(base.iterMeans)*len(test.iterMeans)) / 2, P: 1,
		UWarning:  nonparam.BenchstatUWarning(base.iterMeans, test.iterMeans, 1, 0),
		Magnitude: nonparam.CliffMagnitude(0), Verdict: verdictOf(one)}
	if v == 0 {
		c.Ratio = estimate.Interval{Estimate: math.NaN(), Lower: math.NaN(), Upper: math.NaN()}
		c.Verdict = Verdict{}
	}
	bl, tl := base.resampledLevels(), test.resampledLevels()
	for l := 0; l < numIDs; l++ {
		if contains(bl, idNames[l]) || contains(tl, idNames[l]) {
			c.Resampled = append(c.Resampled, idNames[l])
		}
	}
	return c, true
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// metricRows is one metric of an A/B report (compareSets' answer), as
// its text shows it in one table: Results (the benchmarks both sides have)
// and Unmatched sorted by name, and Config, the configuration of the go
// test runs of the two sides (goos, goarch, pkg, cpu, …), which the text
// shows above the table as benchstat does. A Report keeps it without its
// rows (Report.metrics) and its rows in Report.Rows and Report.Unmatched.
type metricRows struct {
	Options            Options
	Base, Test         string
	Metric, Unit       string
	Results, Unmatched []Row
	Config             []configLine
}

// compareSets matches the runs of base and test by (benchmark, params, mode)
// and compares every pair: the hierarchical bootstrap interval of the ratio
// of means test/base, the U test on iteration means with Cliff's δ, the
// change rate and the verdict (see the package doc).
//
// The runs of one benchmark on one side are pooled as top-level units.
// Benchmark i draws its resamples from stats.NewStream(opt.Seed, name, 0)
// with name = Name.String(), so the report does not depend on opt.Workers.
// A benchmark that cannot be compared (no iterations after skipping, a
// non-finite time) gets Row.Err; Compare itself fails only for invalid
// options.
//
// The sets hold the series of one metric (table.Table.Collect with a Filter on
// it). A secondary metric is compared on its recorded values (Value) the way
// times are compared on ns_per_op; its verdict reads "higher" or "lower"
// (verdictText). Two sides whose values are all equal compare as
// ratio 1, p = 1; a base whose values are all 0 cannot give a ratio and is
// a Row.Err.
func compareSets(base, test runSet, opt Options) (*metricRows, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	rep := &metricRows{Options: opt, Base: base.Label, Test: test.Label, Metric: table.Primary, Unit: "ns/op",
		Config: configLines(base.Series, test.Series)}
	for _, ss := range [][]*table.Series{base.Series, test.Series} {
		if len(ss) > 0 && ss[0].Metric != "" && ss[0].Metric != table.Primary {
			rep.Metric, rep.Unit = ss[0].Metric, ss[0].Unit
			base.Series, test.Series = valuesAsTimes(base.Series), valuesAsTimes(test.Series)
			break
		}
	}
	pairs, unmatched := matchBy(base.Series, test.Series, opt.rowKey())
	// benchstat's row names end in -GOMAXPROCS where the row is the full
	// name (.fullname), not .name or /KEY.
	procs := procsOf
	if r, _ := parseRow(opt.Row); !r.fullname {
		procs = func(...[]*table.Series) string { return "" }
	}
	// row is c with the name, metric and runs of p.
	row := func(p *pairing, c Row) Row {
		c.Name, c.Metric, c.Unit, c.BaseRuns, c.TestRuns = p.Name, rep.Metric, rep.Unit, keys(p.Base), keys(p.Test)
		c.pos, c.procs = firstPos(p.Base, p.Test, test.rank), procs(p.Base, p.Test)
		return c
	}
	for i := range unmatched {
		rep.Unmatched = append(rep.Unmatched, row(&unmatched[i], Row{}))
	}
	pool := workspacePool()
	results, _ := workpool.Map(len(pairs), opt.Workers, func(i int) (Row, error) {
		p := &pairs[i]
		var score scoreUnit
		if rep.isTime() {
			score = scoreOf(p.Base, p.Test)
		}
		ws := pool.Get().(*stats.Workspace)
		c, err := comparePairing(p, base.Pair, test.Pair, score, &opt, ws)
		pool.Put(ws)
		c = row(p, c)
		c.score, c.Err = score, err
		if opt.Progress != nil {
			opt.Progress(len(pairs))
		}
		return c, nil
	})
	rep.Results = results
	return rep, nil
}

// comparePairing compares the runs of p (compareSamples); for a
// throughput row (score) under the U test, the medians are those of the
// scores (scoreUnit.scoreMedians).
func comparePairing(p *pairing, basePair, testPair string, score scoreUnit, opt *Options, ws *stats.Workspace) (Row, error) {
	var bs, ts sample
	for j, s := range p.Base {
		if err := bs.add(s, int32(j+1), basePair, opt.DiscardWarmup, weightedRows(s.Mode, opt.Bootstrap.InvocationSamples), nil); err != nil {
			return Row{}, fmt.Errorf("base: %w", err)
		}
	}
	for j, s := range p.Test {
		if err := ts.add(s, int32(j+1), testPair, opt.DiscardWarmup, weightedRows(s.Mode, opt.Bootstrap.InvocationSamples), nil); err != nil {
			return Row{}, fmt.Errorf("test: %w", err)
		}
	}
	rng := stats.NewStream(opt.Seed, p.Name.String(), 0)
	c, err := compareSamples(&ts, &bs, opt, rng, ws)
	if err == nil && score.thrpt && opt.median() {
		score.scoreMedians(&c, bs.iterMeans, ts.iterMeans, opt)
	}
	return c, err
}

func workspacePool() *sync.Pool {
	return &sync.Pool{New: func() any { return new(stats.Workspace) }}
}

// summary counts the verdicts of a report.
type summary struct {
	compared, slower, faster, noChange, failed int
	// pBelowAlpha counts comparisons whose U test has p ≤ Alpha, and
	// ciExcludesOne those whose ratio interval excludes 1 (the verdicts
	// of the statistics median and mean before MinEffect).
	pBelowAlpha, ciExcludesOne int
	// onlyBase and onlyTest count unmatched benchmarks.
	onlyBase, onlyTest int
}

// summary counts the report's verdicts.
func (r *metricRows) summary() summary {
	var s summary
	for i := range r.Results {
		res := &r.Results[i]
		if res.Err != nil {
			s.failed++
			continue
		}
		s.compared++
		switch res.Verdict.Change {
		case Slower:
			s.slower++
		case Faster:
			s.faster++
		default:
			s.noChange++
		}
		if res.P <= r.Options.Alpha {
			s.pBelowAlpha++
		}
		if res.excludesOne() {
			s.ciExcludesOne++
		}
	}
	for _, u := range r.Unmatched {
		if u.only() == "base" {
			s.onlyBase++
		} else {
			s.onlyTest++
		}
	}
	return s
}

// geomean returns the geometric means of the base values, the test values
// and the ratios over the compared benchmarks (benchstat's summary row;
// the ratio geomean equals test/base of the first two), and how many there
// were: of the medians (median) or of the means, each as shown(result,
// value) gives it (the value itself, or its score: scoreUnit.score).
func (r *metricRows) geomean(median bool, shown func(res *Row, v float64) float64) (base, test, ratio float64, n int) {
	var lb, lt float64
	for i := range r.Results {
		res := &r.Results[i]
		b, t := res.Base.Mean.Estimate, res.Test.Mean.Estimate
		if median {
			b, t = res.Base.Median, res.Test.Median
		}
		if res.Err != nil || !(b > 0) || !(t > 0) {
			continue
		}
		lb += math.Log(shown(res, b))
		lt += math.Log(shown(res, t))
		n++
	}
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN(), 0
	}
	base, test = math.Exp(lb/float64(n)), math.Exp(lt/float64(n))
	return base, test, math.Exp((lt - lb) / float64(n)), n
}

// inputOrder returns the indices of r.Results in input order (the rows'
// positions; names break ties), the order benchstat prints its rows in.
func (r *metricRows) inputOrder() []int {
	return byInput(len(r.Results), func(i int) (position, Name) { return r.Results[i].pos, r.Results[i].Name })
}

// unmatchedOrder is inputOrder for r.Unmatched.
func (r *metricRows) unmatchedOrder() []int {
	return byInput(len(r.Unmatched), func(i int) (position, Name) { return r.Unmatched[i].pos, r.Unmatched[i].Name })
}

// byInput returns 0 … n−1 ordered by the position of row i (key), its
// name breaking ties.
func byInput(n int, key func(i int) (position, Name)) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		pa, na := key(idx[a])
		pb, nb := key(idx[b])
		if pa != pb {
			return pa.less(pb)
		}
		return na.less(nb)
	})
	return idx
}
