package trim

import (
	"fmt"
	"math"
	"sync/atomic"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/analysis/internal/verdict"
	"github.com/benchtrim/benchtrim/analysis/optimize"
	"github.com/benchtrim/benchtrim/analysis/reconfigure"
	"github.com/benchtrim/benchtrim/analysis/steady"
	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

// duetModes are the modes of duet data (`benchtrim duet`).
var duetModes = map[string]bool{"seqn": true, "syncduet": true, "duet": true}

// Run decides, for every primary series of t that opt.Select keeps, which
// analyses apply, recommends one configuration and measures how much the
// recommendation changes the estimate (see the package doc for the
// rules). It is the package's entry point.
func Run(t *table.Table, opt Options) (*Report, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	series, err := t.Select(opt.Select)
	if err != nil {
		return nil, err
	}
	if len(series) == 0 {
		return nil, fmt.Errorf("trim: no benchmark run selected")
	}
	rep := &Report{Options: opt, Benchmarks: make([]Benchmark, len(series))}
	var long, short []table.Key
	for i, s := range series {
		b := &rep.Benchmarks[i]
		classify(b, s, &opt)
		switch b.Path {
		case PathSteady:
			long = append(long, s.Key)
		case PathShort:
			short = append(short, s.Key)
		}
	}
	// steady.Run and reconfigure.Run collect their own series from t: drop
	// ours meanwhile so that at most one copy of the rows is held besides
	// the table, and collect them again for µOpTime.
	n := len(series)
	series = nil

	var done atomic.Int64
	total := len(long) + len(short) + n
	tick := func(int) {
		done.Add(1)
		if opt.Progress != nil {
			opt.Progress(total)
		}
	}
	steadyOf := map[table.Key]*steady.BenchmarkResult{}
	if len(long) > 0 {
		sopt := opt.Steady
		sopt.Select, sopt.Seed, sopt.Workers, sopt.Progress = only(opt.Select, long), opt.Seed, opt.Workers, tick
		// The report plots the CROPS elbow of the worst forks.
		sopt.KeepCROPS = sopt.Penalty == steady.PenaltyCROPS || sopt.Penalty == steady.PenaltyCROPSAscending
		if rep.Steady, err = steady.Run(t, sopt); err != nil {
			return nil, err
		}
		for i := range rep.Steady.Benchmarks {
			steadyOf[rep.Steady.Benchmarks[i].Key] = &rep.Steady.Benchmarks[i]
		}
	}
	replayOf := map[table.Key]*reconfigure.Result{}
	if len(short) > 0 {
		ropt := opt.Reconfigure
		ropt.Select, ropt.Seed, ropt.Workers, ropt.Progress = only(opt.Select, short), opt.Seed, opt.Workers, tick
		if rep.Reconfigure, err = reconfigure.Run(t, ropt); err != nil {
			return nil, err
		}
		for i := range rep.Reconfigure.Results {
			replayOf[rep.Reconfigure.Results[i].Key] = &rep.Reconfigure.Results[i]
		}
	}
	runDuet(rep, t, &opt)

	if series, err = t.Select(opt.Select); err != nil {
		return nil, err
	}
	if len(series) != n {
		return nil, fmt.Errorf("trim: the table changed during the analysis (%d benchmark runs, then %d)", n, len(series))
	}
	for i, s := range series {
		if s.Key != rep.Benchmarks[i].Key {
			return nil, fmt.Errorf("trim: the table changed during the analysis (%s, then %s)", rep.Benchmarks[i].Key, s.Key)
		}
	}
	warmup := make([]int, len(series))
	for i := range series {
		b := &rep.Benchmarks[i]
		switch b.Path {
		case PathSteady:
			warmup[i] = steadyWarmup(b, steadyOf[b.Key], &opt)
		case PathShort:
			warmup[i] = replayWarmup(b, replayOf[b.Key], &opt)
		}
	}
	if err := optimizeAll(rep, series, warmup, &opt, tick); err != nil {
		return nil, err
	}
	if rep.Versions, err = compareVersions(rep, t, series, &opt); err != nil {
		return nil, err
	}
	order := projectVersions(t, &opt)
	rep.Notes = append(rep.Notes, versionOrderNotes(order, &opt)...)
	versionChecks(rep, series, warmup, func(p string) []string { return order[p] })
	rep.Totals = totals(rep.Benchmarks, opt.ParallelInstances)
	if rep.Steady != nil {
		rep.Forks = plotForks(rep, series, steadyOf)
	}
	return rep, nil
}

// only narrows f to the benchmark runs keys (Run matches the results by
// key).
func only(f table.Filter, keys []table.Key) table.Filter {
	f.Only = table.NewRunSet(keys)
	return f
}

// toolOf names the tool of s: the setup's, else go for mode go and jmh for
// the JMH modes.
func toolOf(s *table.Series) string {
	if s.Setup != nil && s.Setup.Tool != "" {
		return s.Setup.Tool
	}
	switch s.Mode {
	case "go":
		return "go"
	case "avgt", "thrpt", "sample", "ss":
		return "jmh"
	}
	return ""
}

// forkLengths returns the number of forks of s and the fewest iterations
// (the largest iteration index) of any fork.
func forkLengths(s *table.Series) (forks, minIterations int) {
	units := s.Units(table.LevelFork)
	minIterations = math.MaxInt
	for _, u := range units {
		if u.End > u.Start {
			minIterations = min(minIterations, int(s.Levels[table.LevelIteration][u.End-1]))
		}
	}
	if len(units) == 0 {
		minIterations = 0
	}
	return len(units), minIterations
}

// classify chooses b's path from its data (the rules of the package doc).
func classify(b *Benchmark, s *table.Series, opt *Options) {
	b.Key, b.Tool = s.Key, toolOf(s)
	b.Estimate, b.Reference, b.RefLower, b.RefUpper, b.ChangeRate = nan, nan, nan, nan, nan
	b.Precision, b.RecommendedPrecision, b.Detectable, b.DetectableRecorded = nan, nan, nan, nan
	b.Minimum = Baseline{ChangeRate: nan, Precision: nan, Detectable: nan}
	b.OutOfSample = OutOfSample{Agreement: nan, MinimumAgreement: nan, TimeShare: nan, MinimumTimeShare: nan}
	for l := range b.LevelSD {
		b.LevelSD[l] = nan
	}
	forks, n := forkLengths(s)
	b.Forks = forks
	window := opt.Steady.SteadyWindow
	switch {
	case duetModes[s.Mode]:
		b.Path, b.Analyses = PathDuet, []string{"duet"}
		b.Reason = "duet data: A and B compared by the duet analysis"
	case b.Tool == "jmh" && statedWarmup(s, opt) > 0:
		b.Path, b.Analyses = PathStatedWarmup, []string{"optimize"}
		b.Reason = fmt.Sprintf("JMH recorded with %d warmup iterations (not stored): warmup kept, configuration chosen on the measurements", statedWarmup(s, opt))
	case b.Tool == "jmh" && n > window:
		b.Path, b.Analyses = PathSteady, []string{"steady", "optimize"}
		b.Reason = fmt.Sprintf("JMH -wi 0, forks of %d+ iterations (> steady window %d): steady-state detection, then the configuration chosen after the warmup", n, window)
	case b.Tool == "jmh":
		b.Path, b.Analyses = PathShort, []string{"reconfigure", "optimize"}
		b.Reason = fmt.Sprintf("JMH -wi 0, forks of %d iterations (≤ steady window %d): warmup from dynamic reconfiguration, then the configuration chosen after it", n, window)
		b.Warnings = append(b.Warnings, fmt.Sprintf("short forks (%d iterations): steady-state detection needs more than %d; warmup from dynamic reconfiguration's %s stop points", n, window, opt.Reconfigure.Criteria[0]))
	default:
		b.Path, b.Analyses = PathGo, []string{"optimize"}
		b.Reason = "Go data: no warmup phase; configuration chosen on all observations"
		if b.Tool != "go" {
			b.Reason = "no warmup phase known (tool not stated); configuration chosen on all observations"
		}
	}
}

var nan = math.NaN()

// statedWarmup is the warmup iterations per fork that s was recorded
// after: its setup's, or Options.StatedWarmup for a JMH run whose setup
// states none (files that hold only the measurement iterations).
func statedWarmup(s *table.Series, opt *Options) int {
	if s.Setup != nil && s.Setup.WarmupIterations > 0 {
		return s.Setup.WarmupIterations
	}
	if toolOf(s) == "jmh" {
		return opt.StatedWarmup
	}
	return 0
}

// warmupRule is W = ⌈Q_q(ends)⌉, the type-7 quantile rounded up.
func warmupRule(ends []int, q float64) int {
	x := make([]float64, len(ends))
	for i, e := range ends {
		x[i] = float64(e)
	}
	return int(math.Ceil(stats.Quantile(x, q, nil) - 1e-9))
}

// steadyWarmup sets b's warmup evidence from its steady-state detection
// and returns W, or marks b unreliable (StatusNoSteady) and returns 0.
func steadyWarmup(b *Benchmark, br *steady.BenchmarkResult, opt *Options) int {
	if br == nil {
		b.Status, b.Reason = StatusNoSteady, "steady-state detection returned no result"
		return 0
	}
	decided := 0
	for _, f := range br.Forks {
		switch f.Class {
		case steady.ForkSteady:
			b.WarmupEnds = append(b.WarmupEnds, f.SteadyStart)
			decided++
		case steady.ForkNoSteady:
			decided++
		}
	}
	b.SteadyForks = len(b.WarmupEnds)
	if decided == 0 || b.SteadyForks == 0 || float64(b.SteadyForks) < opt.MinSteadyShare*float64(decided) {
		b.Status = StatusNoSteady
		b.Reason = fmt.Sprintf("%d of %d decided forks reach a steady state (%s): unreliable, recorded configuration kept", b.SteadyForks, decided, br.Class)
		return 0
	}
	if b.SteadyForks < decided {
		b.Warnings = append(b.Warnings, fmt.Sprintf("inconsistent: %d of %d forks reach a steady state; the warmup comes from the steady ones", b.SteadyForks, decided))
	}
	return warmupRule(b.WarmupEnds, opt.WarmupQuantile)
}

// replayWarmup sets b's warmup evidence from dynamic reconfiguration and
// returns W (0 when the replay could not run).
func replayWarmup(b *Benchmark, rr *reconfigure.Result, opt *Options) int {
	crit := opt.Reconfigure.Criteria[0]
	if rr == nil || rr.Skipped != "" {
		reason := "no result"
		if rr != nil {
			reason = rr.Skipped
		}
		b.Warnings = append(b.Warnings, "dynamic reconfiguration could not run ("+reason+"); no warmup discarded")
		return 0
	}
	cr := rr.Criterion(crit)
	if cr == nil || len(cr.Forks) == 0 {
		b.Warnings = append(b.Warnings, "dynamic reconfiguration ran no fork; no warmup discarded")
		return 0
	}
	for _, f := range cr.Forks {
		b.WarmupEnds = append(b.WarmupEnds, f.WarmupIterations)
	}
	if c := cr.WarmupCapped(); c == len(cr.Forks) {
		b.Warnings = append(b.Warnings, fmt.Sprintf("the %s criterion never found the warmup stable; W is its cap", crit))
	}
	return warmupRule(b.WarmupEnds, opt.WarmupQuantile)
}

// chunkSize bounds the benchmark runs of one post-warmup table (see
// optimizeAll): the table copies their rows.
const chunkSize = 16

// optimizeAll runs µOpTime for every benchmark that is not duet data and
// fills its configurations and evidence (recommend). Benchmarks go in
// chunks of at most chunkSize runs of one (project, version), in key
// order: each chunk's rows after the warmup become a table of their own
// (postWarmupTable) on which optimize.Run first evaluates only the full
// configuration of every benchmark (MinRepetitions above any data), then
// searches those whose full steady part is stable and not already
// unreliable. tick is called once per benchmark.
func optimizeAll(rep *Report, series []*table.Series, warmup []int, opt *Options, tick func(int)) error {
	var chunk []int
	flush := func() error {
		defer func() { chunk = chunk[:0] }()
		if len(chunk) == 0 {
			return nil
		}
		err := optimizeChunk(rep, series, warmup, chunk, opt)
		for range chunk {
			tick(0)
		}
		return err
	}
	for i, s := range series {
		if rep.Benchmarks[i].Path == PathDuet {
			rep.Benchmarks[i].Status = StatusDuet
			tick(0)
			continue
		}
		if len(chunk) > 0 {
			first := series[chunk[0]]
			if len(chunk) == chunkSize || first.Project != s.Project || first.Version != s.Version {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		chunk = append(chunk, i)
	}
	return flush()
}

// optimizeChunk is optimizeAll on the benchmarks chunk (indices into
// series, one project and version): optimize.Run evaluates the full
// configuration of every benchmark on its post-warmup table (for the time
// model, the commands and the repetition check), and recommend chooses.
func optimizeChunk(rep *Report, series []*table.Series, warmup []int, chunk []int, opt *Options) error {
	w := make([]int, len(chunk))
	for j, i := range chunk {
		if rep.Benchmarks[i].Status != StatusNoSteady {
			w[j] = warmup[i]
		}
	}
	tab, err := postWarmupTable(series, chunk, w, opt)
	if err != nil {
		return err
	}
	defer tab.Release()
	oopt := opt.Optimize
	oopt.Seed, oopt.Workers, oopt.Progress, oopt.DiscardWarmup = opt.Seed, opt.Workers, nil, 0
	oopt.Select = table.Filter{}
	oopt.MinRepetitions = math.MaxInt32
	oopt.Parallel = nil
	oopt.NoReportedCIs = true // recommend reads the full configuration's time and command, not its CI
	fullRep, err := optimize.Run(tab, oopt)
	if err != nil {
		for _, i := range chunk {
			rep.Benchmarks[i].Status, rep.Benchmarks[i].Reason = StatusSkipped, err.Error()
		}
		return nil
	}
	fulls := resultsByKey(fullRep)
	for j, i := range chunk {
		b := &rep.Benchmarks[i]
		r := fulls[b.Key]
		if r == nil {
			b.Status = StatusSkipped
			for _, sk := range fullRep.Skipped {
				if sk.Key == b.Key {
					b.Reason = sk.Reason
				}
			}
			continue
		}
		if err := recommend(b, r, series[i], w[j], opt); err != nil {
			return err
		}
	}
	return nil
}

func resultsByKey(rep *optimize.Report) map[table.Key]*optimize.Result {
	out := make(map[table.Key]*optimize.Result, len(rep.Results))
	for i := range rep.Results {
		out[rep.Results[i].Key] = &rep.Results[i]
	}
	return out
}

// postWarmupTable is the table µOpTime runs on for the benchmarks chunk:
// the primary rows of each benchmark after the first w[j] iterations of
// every fork, renumbered from 1, and its setup with w[j] more warmup
// iterations, each as long as a measurement iteration. optimize's time
// model then pays the warmup (stated warmup iterations × warmup time) and
// its commands ask for -wi with it, as its DiscardWarmup option would.
func postWarmupTable(series []*table.Series, chunk []int, w []int, opt *Options) (*table.Table, error) {
	b := table.NewBuilder(memory.DefaultAllocator, table.DefaultBatchRows)
	defer b.Release()
	for j, i := range chunk {
		s := series[i]
		setup := table.Setup{Key: s.Key}
		if s.Setup != nil {
			setup = *s.Setup
		}
		if n := statedWarmup(s, opt); n > setup.WarmupIterations {
			setup.WarmupIterations = n
			if it := s.Setup.IterationTimeNs(); it > 0 && setup.WarmupTimeNs <= 0 {
				setup.WarmupTimeNs = it
			}
		}
		if w[j] > 0 {
			setup.WarmupIterations += w[j]
			if it := s.Setup.IterationTimeNs(); it > 0 {
				setup.WarmupTimeNs = it
			}
		}
		if s.Setup != nil || w[j] > 0 || setup.WarmupIterations > 0 {
			if err := b.AddSetup(setup); err != nil {
				return nil, err
			}
		}
		cut := int32(w[j])
		for r := 0; r < s.Len(); r++ {
			it := s.Levels[table.LevelIteration][r]
			if it <= cut {
				continue
			}
			row := table.Row{Project: s.Project, Version: s.Version, Benchmark: s.Benchmark, Params: s.Params, Mode: s.Mode,
				Metric: table.Primary, Unit: s.Unit, Value: s.Value[r], NsPerOp: s.NsPerOp[r], Count: s.Count[r],
				Instance: s.Levels[table.LevelInstance][r], Trial: s.Levels[table.LevelTrial][r], Fork: s.Levels[table.LevelFork][r],
				Iteration: it - cut, Slice: s.Levels[table.LevelSlice][r]}
			if err := b.Append(&row); err != nil {
				return nil, err
			}
		}
	}
	return b.Finish(), nil
}

// recommend fills b from the full-configuration evaluation r of its
// post-warmup data (w warmup iterations discarded from s): the recorded
// configuration; the variance components of the data after the warmup;
// the precision and the minimal detectable slowdown under the user's test
// of the recorded configuration, of the fixed minimal one and of the
// cheapest configuration that keeps the target (search.cheapest:
// StatusTrimmed), or the recording (StatusKept) where none saves at least
// minSaving; its in-sample evidence and the split validation.
func recommend(b *Benchmark, r *optimize.Result, s *table.Series, w int, opt *Options) error {
	orig := s.Setup
	b.Recorded = recordedConfig(r, orig, w)
	b.Recommended = b.Recorded
	full := r.Full
	full.Config[table.LevelIteration] += int32(w)
	rr := *r
	rr.DiscardedWarmup, rr.Setup = 0, orig
	b.RecordedCommand = rr.Command(&full)
	keep := func() { b.Command, b.Recommended = b.RecordedCommand, b.Recorded } // the recording, timed as it is
	cost := costModel{unitNs: float64(r.UnitNs), warmupNs: float64(r.WarmupNs), parallel: opt.ParallelInstances}
	cost.overhead, b.CommandStartupNs = opt.startupCosts(b.Tool, orig)
	d := newDesign(s, w)
	if d == nil {
		if b.Status != StatusNoSteady {
			b.Status = StatusTooFew
			b.Reason += "; fewer than two observations vary after the warmup: no precision can be estimated, recorded configuration kept"
		}
		keep()
		return nil
	}
	b.Distributions = []reports.Distribution{reports.Summarize(scored(reports.Distribution{Key: b.Key, Configuration: "recorded", Values: d.obs}, s, w, nil))}
	b.Series = runSeries(s, w, nil)
	if opt.evalHook != nil {
		defer opt.evalHook(b, s, w, d, cost)
	}
	key := b.Key.String()
	conf := opt.Optimize.Bootstrap.Confidence
	sm := newSampler(d)
	det := newDetector(sm, opt.Test, opt.Alpha, opt.DetectDraws, func() *stats.Stream { return stats.NewStream(opt.Seed, key, blockDetect) })
	sr := newSearch(d, cost, det)
	rec := sr.recorded()
	b.Recorded.TimeNs = int64(math.Round(sr.timeNs(rec)))
	se := sm.standardError(stats.NewStream(opt.Seed, key, blockPrecision))
	b.Precision = sm.tScale(conf) * se
	prec := func(k config) float64 {
		return sm.precision(k, se, conf, stats.NewStream(opt.Seed, key, blockPrecision))
	}
	if math.IsNaN(b.Precision) || math.IsInf(b.Precision, 0) {
		return fmt.Errorf("trim: %s: the CI of the mean is not finite (mean %v): values overflow or cancel", b.Key, d.mean)
	}
	for j, l := range d.levels {
		b.LevelSD[l] = math.Sqrt(d.s2[j]) / math.Abs(d.mean)
	}
	b.DetectableRecorded = det.detectable(rec)
	// Without a steady state the mean depends on how long a fork runs:
	// only the levels above the fork's iterations may shrink.
	noSteady := b.Status == StatusNoSteady
	for j, l := range d.levels {
		sr.fixed[j] = noSteady && l >= table.LevelIteration
	}
	kmin := fixedMinimum(d, b.Tool, sr.bound)
	b.Minimum = Baseline{TimeNs: int64(math.Round(sr.timeNs(kmin))), ChangeRate: math.Abs(d.replay(kmin.floats())-d.mean) / math.Abs(d.mean),
		Precision: prec(kmin), Detectable: det.detectable(kmin)}
	var ratio float64
	b.Target, ratio = opt.target(b.DetectableRecorded)
	b.OutOfSample = validate(d, cost, b.Tool, noSteady, opt, key)
	recT := sr.timeNs(rec)
	sr.setMinEffect(opt)
	sr.record = true
	best, mds, ok := sr.cheapest((1-minSaving)*recT, b.Target, ratio)
	b.Considered = sr.considered
	need := verdict.MinSamples(opt.Test, opt.Alpha)
	switch {
	case !det.canFire(rec):
		if !noSteady {
			b.Status = StatusKept
		}
		b.Reason += fmt.Sprintf("; %d values per side: the %s test cannot report a change at any configuration of this recording (it needs ≥ %d at α = %g), recorded configuration kept",
			sm.samplesPer(rec), opt.Test, need, opt.Alpha)
		b.Warnings = append(b.Warnings, fmt.Sprintf("record at least %d values per side (iterations × forks, or go test -count) for the %s test to report changes", need, opt.Test))
		b.RecommendedPrecision, b.Detectable = b.Precision, b.DetectableRecorded
		keep()
		return nil
	case !ok:
		if !noSteady {
			b.Status = StatusKept
		}
		b.Reason += fmt.Sprintf("; detects %s recorded: no configuration saving %.0f %% or more detects %s or less (%s)",
			pctPrec(b.DetectableRecorded), 100*minSaving, pctPrec(b.Target), opt.targetRule())
		b.RecommendedPrecision, b.Detectable = b.Precision, b.DetectableRecorded
		keep()
		return nil
	}
	if !noSteady {
		b.Status = StatusTrimmed
	}
	b.Reason += fmt.Sprintf("; detects %s recorded, %s at %s of the time (%s); CI ±%s → ±%s",
		pctPrec(b.DetectableRecorded), pctPrec(mds), pct(sr.timeNs(best)/recT), opt.targetRule(), pctPrec(b.Precision), pctPrec(prec(best)))
	if noSteady {
		b.Reason += "; iterations per fork kept (the mean depends on the run's length)"
	}
	if d.units[0] < 2 || d.levels[0] > table.LevelFork {
		b.Warnings = append(b.Warnings, "one fork (or one test process) recorded: the variance between forks is unknown, so the detectable slowdown covers one fork only")
	}
	cfg := optimize.Config{}
	kf := d.full(best.floats())
	for l := range cfg {
		cfg[l] = int32(kf[l])
	}
	ev := optimize.Evaluation{Config: cfg}
	b.Recommended = levelConfig(r, cfg, r.Setup)
	b.Recommended.TimeNs = int64(math.Round(sr.timeNs(best)))
	b.RecommendedPrecision = prec(best)
	b.Detectable = mds
	h := b.Precision * math.Abs(d.mean)
	b.Estimate, b.Reference, b.RefLower, b.RefUpper = d.replay(best.floats()), d.mean, d.mean-h, d.mean+h
	mask := d.keptMask(best.floats())
	b.Distributions = append(b.Distributions, reports.Summarize(scored(reports.Distribution{Key: b.Key, Configuration: "recommended", Values: d.kept(best.floats())}, s, w, mask)))
	b.Series = runSeries(s, w, mask)
	b.ChangeRate = math.Abs(b.Estimate-b.Reference) / math.Abs(b.Reference)
	b.InCI = b.RefLower <= b.Estimate && b.Estimate <= b.RefUpper
	b.Command = r.Command(&ev)
	return nil
}

// target is the largest detectable slowdown a recommendation may have,
// given the recorded configuration's mdsRec: Detect when set, else
// Keep·mdsRec; and the largest ratio of standard errors it allows
// (search.cheapest's model bound; 0 when unknown).
func (o *Options) target(mdsRec float64) (target, ratio float64) {
	if o.Detect > 0 {
		if mdsRec > 0 && !math.IsInf(mdsRec, 0) {
			ratio = max(1, o.Detect/mdsRec)
		}
		return o.Detect, ratio
	}
	return o.Keep * mdsRec, o.Keep
}

// targetRule says in words what the target of o is.
func (o *Options) targetRule() string {
	if o.Detect > 0 {
		return fmt.Sprintf("target: detect %s with the %s test at α = %g", pctPrec(o.Detect), o.Test, o.Alpha)
	}
	s := fmt.Sprintf("target: detect within %g× the recorded", o.Keep)
	if o.MinEffect > 0 {
		s += fmt.Sprintf(" or %s in %.0f %% of runs", pctPrec(o.MinEffect), 100*minEffectPower)
	}
	return s + fmt.Sprintf(", %s test at α = %g", o.Test, o.Alpha)
}

// minSaving is the least share of the recorded time a recommendation must
// save; a smaller saving keeps the recorded configuration.
const minSaving = 0.01

// Stream blocks of recommend's random draws (keyed by Seed and the
// benchmark key).
const (
	blockPrecision = 1 + iota
	blockDetect
	blockSplits
)

func pctPrec(x float64) string { return reports.Human(reports.Percent(x)) }

// levelConfig is the configuration of µOpTime's level sizes k with the
// warmup of setup (its warmup time defaulting to the iteration's).
func levelConfig(r *optimize.Result, k optimize.Config, setup *table.Setup) Config {
	c := Config{Instances: int(k[table.LevelInstance]), Trials: int(k[table.LevelTrial]), Forks: int(k[table.LevelFork]),
		Iterations: int(k[table.LevelIteration]), Slices: int(k[table.LevelSlice])}
	c.IterationTimeNs = r.UnitNs * int64(c.Slices)
	if setup != nil {
		c.WarmupIterations = setup.WarmupIterations
		c.WarmupTimeNs = setup.WarmupTimeNs
	}
	if c.WarmupTimeNs <= 0 {
		c.WarmupTimeNs = c.IterationTimeNs
	}
	return c
}

// recordedConfig is the recorded configuration of r's benchmark: r's full
// configuration on the post-warmup data with the w discarded iterations
// counted back as measurement iterations, and the recorded setup's warmup.
func recordedConfig(r *optimize.Result, orig *table.Setup, w int) Config {
	c := levelConfig(r, r.Full.Config, orig)
	c.Iterations += w
	c.TimeNs = r.Full.TimeNs
	return c
}

// totals sums the suite (parallel: instances run side by side, Options.ParallelInstances).
func totals(bs []Benchmark, parallel bool) SuiteTotals {
	var t SuiteTotals
	t.Benchmarks = len(bs)
	var within [3]int
	inCI := 0
	var det, detRec []float64
	var oos, minOOS splitAcc
	for i := range bs {
		b := &bs[i]
		switch {
		case b.Status == StatusDuet:
			t.Duet++
			continue
		case b.Status.reduced():
			t.Trimmed++
			for j, lim := range withinLimits {
				if b.ChangeRate <= lim {
					within[j]++
				}
			}
			if b.InCI {
				inCI++
			}
			det, detRec = append(det, b.Detectable), append(detRec, b.DetectableRecorded)
		case b.Status.unreliable():
			t.Unreliable++
		default:
			t.Kept++
		}
		t.TimeBeforeNs += b.Recorded.TimeNs
		t.TimeAfterNs += b.Recommended.TimeNs
		if b.Minimum.TimeNs > 0 {
			t.MinimumTimeNs += b.Minimum.TimeNs
		} else {
			t.MinimumTimeNs += b.Recorded.TimeNs
		}
		if o := &b.OutOfSample; o.Splits > 0 {
			oos.add(o.Errors, o.Agreement, o.TimeShare, o.Splits)
			minOOS.add(o.MinimumErrors, o.MinimumAgreement, o.MinimumTimeShare, o.Splits)
		}
	}
	if t.Trimmed > 0 {
		for j := range within {
			t.Within[j] = float64(within[j]) / float64(t.Trimmed)
		}
		t.InCI = float64(inCI) / float64(t.Trimmed)
		t.Detectable, t.DetectableRecorded = stats.Median(det, nil), stats.Median(detRec, nil)
	} else {
		t.Detectable, t.DetectableRecorded = nan, nan
	}
	t.OutOfSample, t.MinimumOutOfSample = oos.summary(), minOOS.summary()
	t.Versions = versionSummary(bs)
	t.addCommandStartups(bs, parallel)
	return t
}

// versionSummary sums the FromPrevious checks of bs.
func versionSummary(bs []Benchmark) VersionTotals {
	var v VersionTotals
	var agree, minAgree int
	var within, minWithin [3]int
	for i := range bs {
		c := &bs[i].FromPrevious
		if c.Base == "" {
			continue
		}
		v.Pairs++
		if c.Agree {
			agree++
		}
		if c.MinimumAgree {
			minAgree++
		}
		for j, lim := range withinLimits {
			if c.Error <= lim {
				within[j]++
			}
			if c.MinimumError <= lim {
				minWithin[j]++
			}
		}
	}
	if v.Pairs > 0 {
		n := float64(v.Pairs)
		for j := range within {
			v.Within[j], v.MinimumWithin[j] = float64(within[j])/n, float64(minWithin[j])/n
		}
		v.Agreement, v.MinimumAgreement = float64(agree)/n, float64(minAgree)/n
	}
	return v
}

// splitAcc gathers split errors and agreements over benchmarks.
type splitAcc struct {
	errs              []float64
	agree, share      float64
	benchmarks, total int
}

func (a *splitAcc) add(errs []float64, agreement, share float64, splits int) {
	a.errs = append(a.errs, errs...)
	a.agree += agreement * float64(splits)
	a.share += share * float64(splits)
	a.benchmarks++
	a.total += splits
}

func (a *splitAcc) summary() SplitSummary {
	s := SplitSummary{Benchmarks: a.benchmarks, Splits: a.total, Median: nan, P95: nan, Agreement: nan, TimeShare: nan}
	if len(a.errs) == 0 {
		return s
	}
	s.Median, s.P95 = stats.Quantile(a.errs, 0.5, nil), stats.Quantile(a.errs, 0.95, nil)
	for j, lim := range withinLimits {
		n := 0
		for _, e := range a.errs {
			if e <= lim {
				n++
			}
		}
		s.Within[j] = float64(n) / float64(len(a.errs))
	}
	s.Agreement = a.agree / float64(a.total)
	s.TimeShare = a.share / float64(a.total)
	return s
}
