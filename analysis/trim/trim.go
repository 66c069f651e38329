package trim

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/benchtrim/benchtrim/analysis/optimize"
	"github.com/benchtrim/benchtrim/analysis/reconfigure"
	"github.com/benchtrim/benchtrim/analysis/steady"
	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/internal/workpool"
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
	series, err := table.Select(t, opt.Select)
	if err != nil {
		return nil, err
	}
	if len(series) == 0 {
		return nil, fmt.Errorf("trim: no benchmark run selected")
	}
	rep := &Report{Options: opt, Benchmarks: make([]Benchmark, len(series))}
	var long, short []string
	for i, s := range series {
		b := &rep.Benchmarks[i]
		classify(b, s, &opt)
		switch b.Path {
		case PathSteady:
			long = append(long, s.Benchmark)
		case PathShort:
			short = append(short, s.Benchmark)
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

	if series, err = table.Select(t, opt.Select); err != nil {
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
	_, err = workpool.Map(len(series), opt.Workers, func(i int) (struct{}, error) {
		defer tick(0)
		return struct{}{}, recommend(&rep.Benchmarks[i], series[i], warmup[i], &opt)
	})
	if err != nil {
		return nil, err
	}
	if rep.Versions, err = compareVersions(rep, series, &opt); err != nil {
		return nil, err
	}
	rep.Totals = totals(rep.Benchmarks)
	if rep.Steady != nil {
		rep.Forks = plotForks(rep, series, steadyOf)
	}
	return rep, nil
}

// only narrows f to the benchmarks named (Run matches the results by key).
func only(f table.Filter, benchmarks []string) table.Filter {
	names := map[string]bool{}
	for _, b := range benchmarks {
		names[b] = true
	}
	quoted := make([]string, 0, len(names))
	for n := range names {
		quoted = append(quoted, regexp.QuoteMeta(n))
	}
	sort.Strings(quoted)
	f.Benchmark = regexp.MustCompile("^(?:" + strings.Join(quoted, "|") + ")$")
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
	b.Metric, b.FullMetric = nan, nan
	forks, n := forkLengths(s)
	b.Forks = forks
	window := opt.Steady.SteadyWindow
	switch {
	case duetModes[s.Mode]:
		b.Path, b.Analyses = PathDuet, []string{"duet"}
		b.Reason = "duet data: see benchtrim duet"
	case b.Tool == "jmh" && s.Setup != nil && s.Setup.WarmupIterations > 0:
		b.Path, b.Analyses = PathStatedWarmup, []string{"optimize"}
		b.Reason = fmt.Sprintf("JMH recorded with %d warmup iterations (not stored): warmup kept, µOpTime on the measurements", s.Setup.WarmupIterations)
	case b.Tool == "jmh" && n > window:
		b.Path, b.Analyses = PathSteady, []string{"steady", "optimize"}
		b.Reason = fmt.Sprintf("JMH -wi 0, forks of %d+ iterations (> steady window %d): steady-state detection, then µOpTime after the warmup", n, window)
	case b.Tool == "jmh":
		b.Path, b.Analyses = PathShort, []string{"reconfigure", "optimize"}
		b.Reason = fmt.Sprintf("JMH -wi 0, forks of %d iterations (≤ steady window %d): warmup from dynamic reconfiguration, then µOpTime after it", n, window)
		b.Warnings = append(b.Warnings, fmt.Sprintf("short forks (%d iterations): steady-state detection needs more than %d; warmup from dynamic reconfiguration's %s stop points", n, window, opt.Reconfigure.Criteria[0]))
	default:
		b.Path, b.Analyses = PathGo, []string{"optimize"}
		b.Reason = "Go data: no warmup phase; µOpTime on all observations"
		if b.Tool != "go" {
			b.Reason = "no warmup phase known (tool not stated); µOpTime on all observations"
		}
	}
}

var nan = math.NaN()

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

// recommend runs µOpTime on s after discarding w warmup iterations per
// fork (only a description of the recorded configuration for benchmarks
// already decided unreliable) and fills b's configurations and evidence.
func recommend(b *Benchmark, s *table.Series, w int, opt *Options) error {
	if b.Path == PathDuet {
		b.Status = StatusDuet
		return nil
	}
	oopt := opt.Optimize
	oopt.Seed, oopt.Workers, oopt.Progress, oopt.DiscardWarmup = opt.Seed, 1, nil, w
	oopt.Select = table.Filter{}
	// First only the full configuration: with MinRepetitions above any
	// data µOpTime evaluates nothing else. An unreliable benchmark stops
	// here, and so does one whose full steady part is not stable (the
	// metric never stabilises), which spares the exhaustive search.
	describeOnly := b.Status == StatusNoSteady
	if describeOnly {
		w, oopt.DiscardWarmup = 0, 0
	}
	full := oopt
	full.MinRepetitions = math.MaxInt32
	res, err := optimize.Optimize([]*table.Series{s}, full)
	if err != nil {
		return err
	}
	if len(res.Results) > 0 && !describeOnly && res.Results[0].Full.Value < opt.Optimize.Threshold {
		if res, err = optimize.Optimize([]*table.Series{s}, oopt); err != nil {
			return err
		}
	}
	if len(res.Results) == 0 {
		b.Status = StatusSkipped
		if len(res.Skipped) > 0 {
			b.Reason = res.Skipped[0].Reason
		}
		return nil
	}
	r := &res.Results[0]
	b.Recorded = recordedConfig(r, w)
	b.Recommended = b.Recorded
	b.FullMetric = r.Full.Value
	keep := func() {
		full := r.Full
		full.Config[table.LevelIteration] += int32(w)
		rr := *r
		rr.DiscardedWarmup = 0
		b.Command = rr.Command(&full)
	}
	if describeOnly {
		keep()
		return nil
	}
	switch {
	case !(r.Full.Value < opt.Optimize.Threshold):
		b.Status = StatusUnstable
		b.Reason += fmt.Sprintf("; %s of the full steady part %.3g ≥ %g: the metric never stabilises; unreliable, recorded configuration kept", opt.Optimize.Metrics[0], r.Full.Value, opt.Optimize.Threshold)
		keep()
		return nil
	case r.Status == optimize.StatusReduced:
		b.Status = StatusTrimmed
	case r.Status == optimize.StatusNotReduced:
		b.Status = StatusUnstable
		b.Reason += fmt.Sprintf("; %s ≥ %g in every configuration (full: %.3g): unreliable, recorded configuration kept", opt.Optimize.Metrics[0], opt.Optimize.Threshold, r.Full.Value)
		keep()
		return nil
	default:
		b.Status = StatusTooFew
		b.Reason += fmt.Sprintf("; fewer than %d repetitions: recorded configuration kept", opt.Optimize.MinRepetitions)
		keep()
		return nil
	}
	b.Recommended = chosenConfig(r, w)
	b.Metric = r.Chosen.Value
	b.Estimate, b.Reference, b.RefLower, b.RefUpper = r.Chosen.Average, r.Full.Average, r.Full.Lower, r.Full.Upper
	b.ChangeRate = r.ChangeRate(optimize.MethodUOpTime)
	b.InCI = b.RefLower <= b.Estimate && b.Estimate <= b.RefUpper
	b.Command = r.Command(&r.Chosen)
	return nil
}

// levelConfig fills the level sizes of c from a µOpTime configuration.
func levelConfig(r *optimize.Result, k optimize.Config) Config {
	c := Config{Instances: int(k[table.LevelInstance]), Trials: int(k[table.LevelTrial]), Forks: int(k[table.LevelFork]),
		Iterations: int(k[table.LevelIteration]), Slices: int(k[table.LevelSlice])}
	c.IterationTimeNs = r.UnitNs * int64(c.Slices)
	if r.Setup != nil {
		c.WarmupIterations = r.Setup.WarmupIterations
		c.WarmupTimeNs = r.Setup.WarmupTimeNs
	}
	if c.WarmupTimeNs <= 0 {
		c.WarmupTimeNs = c.IterationTimeNs
	}
	return c
}

// recordedConfig is the recorded configuration of r's benchmark: r's full
// configuration with the w discarded iterations counted back as
// measurement iterations.
func recordedConfig(r *optimize.Result, w int) Config {
	c := levelConfig(r, r.Full.Config)
	c.Iterations += w
	c.TimeNs = r.Full.TimeNs
	return c
}

// chosenConfig is µOpTime's choice with the w discarded iterations as
// warmup iterations of the measurement iteration's length.
func chosenConfig(r *optimize.Result, w int) Config {
	c := levelConfig(r, r.Chosen.Config)
	if w > 0 {
		c.WarmupIterations += w
		c.WarmupTimeNs = c.IterationTimeNs
	}
	c.TimeNs = r.Chosen.TimeNs
	return c
}

// totals sums the suite.
func totals(bs []Benchmark) Totals {
	var t Totals
	t.Benchmarks = len(bs)
	var within [3]int
	inCI := 0
	for i := range bs {
		b := &bs[i]
		switch {
		case b.Status == StatusDuet:
			t.Duet++
			continue
		case b.Status == StatusTrimmed:
			t.Trimmed++
			for j, lim := range WithinLimits {
				if b.ChangeRate <= lim {
					within[j]++
				}
			}
			if b.InCI {
				inCI++
			}
		case b.Status.Unreliable():
			t.Unreliable++
		default:
			t.Kept++
		}
		t.TimeBeforeNs += b.Recorded.TimeNs
		t.TimeAfterNs += b.Recommended.TimeNs
	}
	if t.Trimmed > 0 {
		for j := range within {
			t.Within[j] = float64(within[j]) / float64(t.Trimmed)
		}
		t.InCI = float64(inCI) / float64(t.Trimmed)
	}
	return t
}
