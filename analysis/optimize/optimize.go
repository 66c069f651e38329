package optimize

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/internal/workpool"
	"github.com/benchtrim/benchtrim/table"
)

// Method is how a configuration was picked: by µOpTime or by a baseline.
type Method int

const (
	// MethodUOpTime is µOpTime's choice: the cheapest stable configuration.
	MethodUOpTime Method = iota
	// MethodMinimum is the minimum baseline: the cheapest configuration with
	// enough repetitions (ties: lexicographically smallest, outermost level
	// first; for µOpTime's Go data that is trial 1, iteration 3, slice 1).
	MethodMinimum
	// MethodRandom is the random baseline: a configuration drawn uniformly
	// among those with enough repetitions (seeded per benchmark, the same
	// configuration for every metric).
	MethodRandom
)

// numMethods is the number of methods.
const numMethods = 3

var methodNames = [numMethods]string{"uoptime", "minimum", "random"}

// String is the method's name as written in the output (uoptime, minimum, random).
func (m Method) String() string {
	if m < 0 || m >= numMethods {
		return fmt.Sprintf("method(%d)", int(m))
	}
	return methodNames[m]
}

// Status says what µOpTime could do for one benchmark and metric.
type Status int

const (
	// StatusReduced: a stable configuration was found and chosen.
	StatusReduced Status = iota
	// StatusNotReduced: no configuration is stable; the full one is kept.
	StatusNotReduced
	// StatusTooFewRepetitions: even the full configuration keeps fewer than
	// MinRepetitions repetitions; the full one is kept.
	StatusTooFewRepetitions
)

var statusNames = [...]string{"reduced", "not reduced", "too few repetitions"}

func (s Status) String() string {
	if s < 0 || int(s) >= len(statusNames) {
		return fmt.Sprintf("status(%d)", int(s))
	}
	return statusNames[s]
}

// Evaluation is one configuration of one benchmark under one metric.
type Evaluation struct {
	Config Config
	// Observations is the number of values the configuration keeps (slices,
	// or iterations for data without slices); Repetitions the number of
	// (instance, trial, fork, iteration) units among them.
	Observations, Repetitions int
	// TimeNs is the configuration's execution time (see timing.timeNs).
	TimeNs int64
	// Value is the stability metric (NaN when it cannot be computed).
	Value float64
	// Average is the metric's estimator (mean, or median for rmad and
	// rciw-median); Lower and Upper bound its bootstrap CI (NaN when not
	// computed: pruned searches compute CIs only where reported).
	Average, Lower, Upper float64
}

// seconds is TimeNs in seconds.
func (e *Evaluation) seconds() float64 { return float64(e.TimeNs) / 1e9 }

// Result is µOpTime's outcome for one benchmark run (Key) and one metric,
// with both baselines and the full configuration.
type Result struct {
	Key    table.Key
	Metric Metric
	Status Status
	// Full is the full configuration (every unit kept, after --first and
	// --discard-warmup); Chosen is µOpTime's choice (Full when not reduced).
	Full, Chosen Evaluation
	// Minimum and Random are the baselines' configurations.
	Minimum, Random Evaluation
	// Varied marks the levels configurations vary (size > 1, not fixed).
	Varied [table.NumLevels]bool
	// Configurations is the number of configurations; Candidates those with
	// at least MinRepetitions repetitions; Evaluated those whose metric was
	// computed (all candidates with AllConfigs, fewer when pruned).
	Configurations, Candidates, Evaluated int
	// EarlyRejected counts evaluated configurations whose RCIW was shown
	// to be ≥ the threshold from a prefix of the bootstrap replicates
	// (rciwLowerBound), so their full bootstrap was skipped.
	EarlyRejected int
	// Expected is the number of observations of the full grid (product of
	// level sizes), Missing how many of them the data lacks (ragged data).
	Expected, Missing int
	// UnitNs is the duration of one observation and WarmupNs the warmup
	// time per fork used in TimeNs; AssumedTime is true when the setup did
	// not state the duration and Options.DefaultIterationTime was used.
	UnitNs, WarmupNs int64
	AssumedTime      bool
	// FixedN is the operation count N of every observation when all share
	// one (`go test -benchtime Nx`), else 0; ShortestNs the shortest
	// observation's N × ns/op (0 when a row has no count).
	FixedN, ShortestNs int64
	// DiscardedWarmup is Options.DiscardWarmup: iterations dropped from the
	// start of every fork (their time is in WarmupNs).
	DiscardedWarmup int
	// NonFiniteRows counts the series' rows skipped because their ns/op is
	// NaN or infinite.
	NonFiniteRows int
	// Setup is the series' setup (nil when none was stated).
	Setup *table.Setup
	// All holds every evaluated configuration in ascending execution time
	// (ties lexicographic) when Options.AllConfigs is set.
	All []Evaluation
}

// eval returns the evaluation of method m.
func (r *Result) eval(m Method) *Evaluation {
	switch m {
	case MethodMinimum:
		return &r.Minimum
	case MethodRandom:
		return &r.Random
	}
	return &r.Chosen
}

// timeSavedNs is the execution time method m saves over the full configuration.
func (r *Result) timeSavedNs(m Method) int64 { return r.Full.TimeNs - r.eval(m).TimeNs }

// changeRate is the relative change of the average of method m's
// configuration against the full configuration (the paper's quality measure),
//
//	c = |r_m − r_full| / r_full.
func (r *Result) changeRate(m Method) float64 {
	return math.Abs(r.eval(m).Average-r.Full.Average) / math.Abs(r.Full.Average)
}

// ciDiff returns the relative differences of method m's CI bounds against
// the full configuration's, (L_m − L_full)/L_full and (U_m − U_full)/U_full.
func (r *Result) ciDiff(m Method) (lower, upper float64) {
	e := r.eval(m)
	return (e.Lower - r.Full.Lower) / r.Full.Lower, (e.Upper - r.Full.Upper) / r.Full.Upper
}

// RaggedSeries is a series whose data lacks part of the full grid of observations.
type RaggedSeries struct {
	Key               table.Key
	Missing, Expected int
}

// Report is the outcome of optimize.
type Report struct {
	// Options as used (the seed is recorded here).
	Options Options
	// Results has one entry per (series, metric): series in key order, then
	// metrics in Options.Metrics order.
	Results []Result
	// Skipped series could not be optimised at all.
	Skipped []Skipped
	// Ragged series miss observations; configurations use the values that exist.
	Ragged []RaggedSeries
	// Warnings name series whose timing was assumed, rows skipped for
	// non-finite values and rows excluded by --first or --discard-warmup.
	Warnings []string
	// Excluded counts observations dropped by --first and --discard-warmup
	// (on purpose, not skipped); NonFiniteRows counts rows skipped because
	// their ns/op is NaN or infinite.
	Excluded, NonFiniteRows int
	// Versions is the comparison across versions Run adds when a project
	// holds several versions; nil otherwise.
	Versions *VersionReport
}

// Stream blocks: every bootstrap of a configuration draws from the stream
// (seed, benchmark key, block(metric, purpose, configuration)), so its result
// is a pure function of those and does not depend on which other
// configurations were evaluated, in which order, or on which goroutine.
// The bootstrap CIs a search decides with are keyed by their method, not by
// the metric (rciw-mean, rciw-mean-t and rciw-median each have their own,
// ciStreamMetric); the CIs only reported (every CI of cv and rmad, and
// those of configurations costlier than an RCIW metric's choice) come from
// one resampling per configuration that gives all three (sharedCI,
// stats.BootstrapCIsShared) on the stream block(−1, purposeShared, c).
const (
	purposeEvaluate uint64 = 1
	purposeRandom   uint64 = 2
	purposeShared   uint64 = 3
)

func mix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// block derives the stream block of (metric, purpose, configuration) by
// chaining SplitMix64 over the values.
func block(m Metric, purpose uint64, c Config) uint64 {
	h := mix64(uint64(m+1)<<8 | purpose)
	for _, k := range c {
		h = mix64(h ^ uint64(uint32(k)))
	}
	return h
}

// ciStreamMetric is the metric whose stream block a CI method uses: the
// RCIW metric computed from it.
func ciStreamMetric(meth stats.CIMethod) Metric {
	switch meth {
	case stats.MedianPercentile:
		return RCIWMedian
	case stats.MeanStudentized:
		return RCIWMeanT
	}
	return RCIWMean
}

// newStream returns the stream of one configuration's bootstrap CI of
// method meth.
//
// stats.NewStream allocates its 16-byte state; this is the only allocation
// per bootstrapped configuration (a reseed method on stats.Stream would remove it).
func newStream(seed uint64, key string, meth stats.CIMethod, c Config) *stats.Stream {
	return stats.NewStream(seed, key, block(ciStreamMetric(meth), purposeEvaluate, c))
}

var workspaces = sync.Pool{New: func() any { return new(workspace) }}

// ci returns the bootstrap CI of method meth of configuration c of p, whose
// values are x: from ws's cache when a metric already computed it for this
// series, else drawn by stats.BootstrapCIUntil and cached when complete. It
// stops early, with complete = false, when the draws show that the CI's
// RCIW is at least limit (+Inf: never).
func (p *prepared) ci(meth stats.CIMethod, x []float64, c Config, limit float64, opt *Options, ws *workspace) (iv estimate.Interval, err error, complete bool) {
	cis := ws.cache(p)
	k := ciKey{meth, c, false}
	if r, ok := cis[k]; ok {
		return r.iv, r.err, true
	}
	iv, complete, err = stats.BootstrapCIUntil(meth, x, opt.Bootstrap, limit, newStream(opt.Seed, p.keyStr, meth, c), &ws.boot)
	if complete || err != nil {
		cis[k] = ciResult{iv, err}
		complete = true
	}
	return iv, err, complete
}

// sharedCI returns the bootstrap CI of method meth of configuration c of p
// (values x) from the configuration's shared resampling, which computes
// the CIs of all three methods at once (stats.BootstrapCIsShared) and
// caches them.
func (p *prepared) sharedCI(meth stats.CIMethod, x []float64, c Config, opt *Options, ws *workspace) (estimate.Interval, error) {
	cis := ws.cache(p)
	if r, ok := cis[ciKey{meth, c, true}]; ok {
		return r.iv, r.err
	}
	rng := stats.NewStream(opt.Seed, p.keyStr, block(-1, purposeShared, c))
	ivs, errs := stats.BootstrapCIsShared(x, opt.Bootstrap, rng, &ws.boot)
	for k := range ivs {
		cis[ciKey{stats.CIMethod(k), c, true}] = ciResult{ivs[k], errs[k]}
	}
	return ivs[meth], errs[meth]
}

// evaluate computes the metric (and the CI when withCI or the metric
// needs it) of configuration c of p: an RCIW metric from its own stream,
// the CI of cv and rmad from the shared resampling.
func (p *prepared) evaluate(m Metric, c Config, withCI bool, opt *Options, ws *workspace) Evaluation {
	ev, _ := p.evaluateUntil(m, c, withCI, math.Inf(1), false, opt, ws)
	return ev
}

// evaluateUntil is evaluate, except that for an RCIW metric without withCI
// it stops (complete = false, the Evaluation is not valid) as soon as the
// bootstrap shows that the metric is at least limit, and that with shared
// an RCIW metric too takes its CI from the shared resampling.
func (p *prepared) evaluateUntil(m Metric, c Config, withCI bool, limit float64, shared bool, opt *Options, ws *workspace) (ev Evaluation, complete bool) {
	ws.values = p.gather(ws.values, c)
	x := ws.values
	var iv estimate.Interval
	var err error
	haveCI := len(x) > 0 && (withCI || m.bootstrapped())
	switch {
	case !haveCI:
	case shared || !m.bootstrapped():
		iv, err = p.sharedCI(m.ciMethod(), x, c, opt, ws)
	default:
		if withCI {
			limit = math.Inf(1)
		}
		iv, err, complete = p.ci(m.ciMethod(), x, c, limit, opt, ws)
		if !complete {
			return Evaluation{}, false
		}
	}
	v, avg, lo, hi := metricFrom(m, x, haveCI, iv, err, ws)
	return Evaluation{
		Config: c, Observations: len(x), Repetitions: p.repsOf(c), TimeNs: p.timing.timeNs(c),
		Value: v, Average: avg, Lower: lo, Upper: hi,
	}, true
}

// evaluateNoCI is evaluate without a CI (opt.NoReportedCIs): the Value of
// an RCIW metric is NaN; its Average is the estimator's value all the same.
func (p *prepared) evaluateNoCI(m Metric, c Config, ws *workspace) Evaluation {
	ws.values = p.gather(ws.values, c)
	x := ws.values
	v, avg, lo, hi := metricFrom(m, x, false, estimate.Interval{}, errNoCI, ws)
	return Evaluation{
		Config: c, Observations: len(x), Repetitions: p.repsOf(c), TimeNs: p.timing.timeNs(c),
		Value: v, Average: avg, Lower: lo, Upper: hi,
	}
}

// errNoCI stands for the CI evaluateNoCI does not compute.
var errNoCI = errors.New("optimize: CI not computed")

// hasCI reports whether e's CI was computed.
func (e *Evaluation) hasCI() bool { return !math.IsNaN(e.Lower) || !math.IsNaN(e.Upper) }

// baselines picks the minimum and random baseline configurations of p
// (independent of the metric). ok is false when no configuration has
// enough repetitions.
func (p *prepared) baselines(opt *Options) (minimum, random Config, ok bool) {
	var cands []Config
	for _, e := range p.configs {
		if int(e.reps) >= opt.MinRepetitions && e.n > 0 {
			if len(cands) == 0 {
				minimum = e.c // configs are in ascending time, ties lexicographic
			}
			cands = append(cands, e.c)
		}
	}
	if len(cands) == 0 {
		return p.full, p.full, false
	}
	slices.SortFunc(cands, func(a, b Config) int {
		switch {
		case lexLess(a, b):
			return -1
		case lexLess(b, a):
			return 1
		}
		return 0
	})
	rng := stats.NewStream(opt.Seed, p.keyStr, block(-1, purposeRandom, Config{}))
	return minimum, cands[rng.IntN(len(cands))], true
}

// search runs µOpTime for metric m on p: evaluate configurations in
// ascending execution time, skipping those with fewer than MinRepetitions
// repetitions, and choose the first stable one (metric < threshold); among
// stable configurations of that same time the smallest metric wins, and
// among equal metrics the lexicographically smallest configuration. The
// search stops once a configuration costs more than the chosen one (exact
// pruning: every configuration of the chosen time has been evaluated), or
// evaluates everything when opt.AllConfigs is set; both give the same choice.
//
// Under an RCIW metric the bootstrap of a configuration stops as soon as its
// replicates prove that the metric is at least the threshold (or, at the
// time of a stable configuration already found, at least that one's value),
// so that it can neither be stable nor win (stats.BootstrapCIUntil; exact,
// counted in EarlyRejected). The full and the baseline configurations, whose
// CIs are reported anyway, are always bootstrapped completely, and every
// complete CI is kept for the other metrics of the series (ws.cis).
// Configurations costlier than the chosen one (reported, or evaluated with
// AllConfigs) cannot change the choice; they take their CIs, and an RCIW
// metric its value, from the shared resampling (sharedCI), as cv and rmad
// always do.
func (p *prepared) search(m Metric, opt *Options, ws *workspace) Result {
	s := p.series
	r := Result{
		Key: s.Key, Metric: m, Varied: p.varied, Configurations: len(p.configs),
		Expected: p.expected, Missing: p.missing, UnitNs: p.timing.UnitNs, WarmupNs: p.timing.WarmupNs, FixedN: p.fixedN, ShortestNs: p.shortestNs(),
		AssumedTime: p.assumedTime, Setup: s.Setup, DiscardedWarmup: opt.DiscardWarmup, NonFiniteRows: p.nonFinite,
	}
	minimum, random, ok := p.baselines(opt)
	reported := func(c Config) bool {
		return !opt.NoReportedCIs && (c == p.full || (ok && (c == minimum || c == random)))
	}
	var best Evaluation
	found := false
	for _, e := range p.configs {
		if int(e.reps) < opt.MinRepetitions || e.n == 0 {
			continue
		}
		r.Candidates++
		beyond := found && e.timeNs > best.TimeNs // cannot be chosen
		if beyond && !opt.AllConfigs {
			continue // counting candidates only; nothing cheaper is left
		}
		r.Evaluated++
		limit := math.Inf(1)
		if !opt.AllConfigs && m.bootstrapped() && !reported(e.c) {
			limit = opt.Threshold
			if found && best.Value < limit {
				limit = best.Value // same time: it must beat best to win
			}
		}
		ev, complete := p.evaluateUntil(m, e.c, opt.AllConfigs, limit, beyond, opt, ws)
		if !complete {
			r.EarlyRejected++
			continue
		}
		if opt.AllConfigs {
			r.All = append(r.All, ev)
		}
		if !stable(ev.Value, opt.Threshold) {
			continue
		}
		if !found || (ev.TimeNs == best.TimeNs && ev.Value < best.Value) {
			best, found = ev, true
		}
	}
	known := func(c Config) Evaluation {
		if found && best.Config == c && best.hasCI() {
			return best
		}
		for i := range r.All {
			if r.All[i].Config == c {
				return r.All[i]
			}
		}
		if opt.NoReportedCIs {
			return p.evaluateNoCI(m, c, ws)
		}
		beyond := found && p.timing.timeNs(c) > best.TimeNs
		ev, _ := p.evaluateUntil(m, c, true, math.Inf(1), beyond, opt, ws)
		return ev
	}
	r.Full = known(p.full)
	switch {
	case !ok:
		r.Status = StatusTooFewRepetitions
		r.Chosen, r.Minimum, r.Random = r.Full, r.Full, r.Full
		return r
	case found:
		r.Status = StatusReduced
		r.Chosen = known(best.Config)
	default:
		r.Status = StatusNotReduced
		r.Chosen = r.Full
	}
	r.Minimum = known(minimum)
	r.Random = known(random)
	return r
}

// optimize runs µOpTime on every series for every metric of opt: it
// simulates every smaller configuration of each benchmark's recorded run,
// picks the cheapest stable one, evaluates both baselines and the full
// configuration, and reports the result per (series, metric).
//
// Work is spread over opt.Workers goroutines, one series (all metrics) at
// a time; every random draw comes from a stream of (opt.Seed, series key,
// CI method, configuration), so the report is identical for any number of
// workers.
// Series that cannot be optimised (no finite value, duet data) are listed
// in Report.Skipped; ragged series in Report.Ragged.
//
// Reference: N. Japke, M. Grambow, C. Laaber, D. Bermbach, "µOpTime:
// Statically Reducing the Execution Time of Microbenchmark Suites Using
// Stability Metrics", ACM TOSEM, 2025.
func optimize(series []*table.Series, opt Options) (*Report, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	rep := &Report{Options: opt}
	type prep struct {
		p    *prepared
		skip *Skipped
	}
	preps, err := workpool.Map(len(series), opt.Workers, func(i int) (prep, error) {
		p, skip := prepare(series[i], &opt)
		return prep{p, skip}, nil
	})
	if err != nil {
		return nil, err
	}
	var ready []*prepared
	for _, pp := range preps {
		if pp.skip != nil {
			rep.Skipped = append(rep.Skipped, *pp.skip)
			continue
		}
		p := pp.p
		ready = append(ready, p)
		rep.Excluded += p.excluded
		rep.NonFiniteRows += p.nonFinite
		if p.missing > 0 {
			rep.Ragged = append(rep.Ragged, RaggedSeries{Key: p.series.Key, Missing: p.missing, Expected: p.expected})
		}
	}
	// One job per series runs every metric, so that metrics sharing a CI
	// method compute each configuration's CI once (ws.cis).
	nm := len(opt.Metrics)
	results, err := workpool.Map(len(ready), opt.Workers, func(i int) ([]Result, error) {
		ws := workspaces.Get().(*workspace)
		defer workspaces.Put(ws)
		ws.begin(ready[i])
		out := make([]Result, 0, nm)
		for _, m := range opt.Metrics {
			out = append(out, ready[i].search(m, &opt, ws))
			if opt.Progress != nil {
				opt.Progress(len(ready) * nm)
			}
		}
		ws.begin(nil)
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	rep.Results = make([]Result, 0, len(ready)*nm)
	for _, rs := range results {
		rep.Results = append(rep.Results, rs...)
	}
	rep.Warnings = seriesWarnings(rep.Results, &opt)
	return rep, nil
}

// seriesWarnings are the warnings of optimize's report, from its results
// (one run of equal keys per series): per series, in result order, the
// rows skipped for a non-finite ns/op, then how many series state no
// iteration time. Merge recomputes them the same way.
func seriesWarnings(results []Result, opt *Options) []string {
	var out []string
	assumed := 0
	for i := range results {
		r := &results[i]
		if i > 0 && results[i-1].Key == r.Key {
			continue
		}
		if r.NonFiniteRows > 0 {
			out = append(out, fmt.Sprintf("%s: %d rows with non-finite ns/op skipped", r.Key, r.NonFiniteRows))
		}
		if r.AssumedTime {
			assumed++
		}
	}
	if assumed > 0 {
		out = append(out, fmt.Sprintf("%d series state no iteration time; assumed %v per observation (Go's default -benchtime)", assumed, opt.DefaultIterationTime))
	}
	return out
}
