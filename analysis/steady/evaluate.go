package steady

import (
	"fmt"
	"math"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/table"
)

// WarmupConfig is a JMH-style configuration of one fork: warmup and measurement
// iteration counts and iteration times (JMH -wi, -w, -i, -r).
type WarmupConfig struct {
	WarmupIterations int
	// WarmupTimeNs is the time of one warmup iteration; 0 means unknown, and
	// then one recorded iteration stands for one configured iteration.
	WarmupTimeNs          int64
	MeasurementIterations int
	// MeasurementTimeNs is as WarmupTimeNs for measurement iterations.
	MeasurementTimeNs int64
}

// String formats c as JMH options, e.g. "-wi 5 -w 10s -i 5 -r 10s".
func (c WarmupConfig) String() string {
	t := func(ns int64) string {
		if ns == 0 {
			return "?"
		}
		return fmt.Sprintf("%gs", float64(ns)/1e9)
	}
	return fmt.Sprintf("-wi %d -w %s -i %d -r %s", c.WarmupIterations, t(c.WarmupTimeNs), c.MeasurementIterations, t(c.MeasurementTimeNs))
}

// benchmarkConfig is the configuration of one benchmark: how many forks it
// runs and the configuration of each.
type benchmarkConfig struct {
	// forks is the number of forks run: the first forks recorded forks, in
	// table order (0 or more than recorded: all).
	forks int
	// perFork holds fork-specific configurations (dynamic reconfiguration
	// stops warmup per fork); forks without an entry use Default when
	// HasDefault is set and are not run otherwise.
	perFork    map[ForkID]WarmupConfig
	Default    WarmupConfig
	hasDefault bool
}

// fork returns the configuration of fork id.
func (b *benchmarkConfig) fork(id ForkID) (WarmupConfig, bool) {
	if c, ok := b.perFork[id]; ok {
		return c, true
	}
	return b.Default, b.hasDefault
}

// ConfigSet is a named set of benchmark configurations, e.g. the
// developers' (from the JMH setup) or a dynamic reconfiguration's.
type ConfigSet struct {
	Name string
	// lookup returns the configuration of the benchmark run key (setup is
	// its recorded setup, nil when none); false when the set has none.
	lookup func(key table.Key, setup *table.Setup) (benchmarkConfig, bool)
}

// replay simulates a configuration on a recorded fork and returns how many
// recorded iterations its warmup consumes (warmupEnd) and the end of its
// measurement (measureEnd): the configuration keeps the measurements
// [warmupEnd, measureEnd). This is Algorithms 1 and 2 of Traini et al.
// (EMSE 2022; _count_iterations in their devconfig.py): walk the recorded
// iterations accumulating their durations; whenever the accumulated time
// reaches the configured iteration time, one configured iteration is done
// and the clock restarts; stop when the configured count is reached.
//
//	warmupEnd  = count(nanos[0:], c.WarmupTimeNs, c.WarmupIterations)
//	measureEnd = warmupEnd + count(nanos[warmupEnd:], c.MeasurementTimeNs, c.MeasurementIterations)
//
// A time of 0 makes each recorded iteration one configured iteration. The
// accumulated time counts as reaching T when it is within a relative 1e-9
// of it, so that ten 0.1 s iterations make one of 1 s despite rounding.
// complete is false when the fork ended first (the remaining counts are
// then cut at len(nanos)). Unlike the script, zero configured iterations
// consume no recorded iteration (the script consumes one).
func replay(nanos []float64, c WarmupConfig) (warmupEnd, measureEnd int, complete bool) {
	w, ok1 := countIterations(nanos, float64(c.WarmupTimeNs), c.WarmupIterations)
	m, ok2 := countIterations(nanos[w:], float64(c.MeasurementTimeNs), c.MeasurementIterations)
	return w, w + m, ok1 && ok2
}

func countIterations(nanos []float64, iterationNs float64, count int) (int, bool) {
	if count <= 0 {
		return 0, true
	}
	goal := iterationNs * (1 - 1e-9)
	var t float64
	done := 0
	for i, d := range nanos {
		t += d
		if t >= goal {
			done++
			t = 0
		}
		if done >= count {
			return i + 1, true
		}
	}
	return len(nanos), false
}

// Estimation says how a configuration's warmup compares with the steady state.
type Estimation int

const (
	// EstimationExact: |wt − st| < 5 s.
	EstimationExact Estimation = iota
	// EstimationOver: wt − st ≥ 5 s (warmup longer than needed: time waste).
	EstimationOver
	// EstimationUnder: wt − st ≤ −5 s (measurement starts before the steady state).
	EstimationUnder
)

// estimationTolerance is the ±5 s within which Traini et al. count a warmup
// estimate as exact, in seconds.
const estimationTolerance = 5.0

// rpdTolerance is the 5 % below which Traini et al.'s Â12 pre-transformation
// counts an RPD as 0.
const rpdTolerance = 0.05

// String returns "exact", "overestimated" or "underestimated".
func (e Estimation) String() string {
	switch e {
	case EstimationExact:
		return "exact"
	case EstimationOver:
		return "overestimated"
	case EstimationUnder:
		return "underestimated"
	}
	return fmt.Sprintf("Estimation(%d)", int(e))
}

// ForkEvaluation is a configuration replayed on one fork.
type ForkEvaluation struct {
	ID ForkID
	// Run is false when the configuration does not run this fork (beyond
	// its fork count, or no configuration for it); nothing else is set then.
	Run    bool
	Config WarmupConfig
	Class  ForkClass
	// WarmupIterations and MeasurementIterations are the recorded
	// iterations the configuration consumes and keeps (replay); Complete is
	// false when the fork ended first.
	WarmupIterations, MeasurementIterations int
	Complete                                bool
	// WarmupSeconds is wt, the elapsed time of the warmup.
	WarmupSeconds float64
	// The fields below are set for steady forks only (NaN otherwise), as in
	// Traini et al., who assess steady forks.
	//
	// SteadySeconds is the fork's st in seconds.
	SteadySeconds float64
	// WEE is the warmup estimation error |wt − st| and Deviation the
	// signed wt − st, in seconds; TimeWaste is wt − st when overestimated,
	// else 0.
	WEE, Deviation, TimeWaste float64
	Estimation                Estimation
	// RPD is the relative performance deviation of the kept measurements
	// from the steady-state measurements (see RPD); RatioLow and RatioHigh
	// the CI of mean(kept)/mean(steady). NaN when nothing was kept.
	RPD, RatioLow, RatioHigh float64
}

// BenchmarkEvaluation is a configuration set replayed on one benchmark.
type BenchmarkEvaluation struct {
	Set string
	// Configured is false when the set has no configuration for the benchmark.
	Configured bool
	Forks      []ForkEvaluation
	// ForksRun is the number of forks the configuration runs; SteadyForks
	// the steady forks whose steady parts are the reference.
	ForksRun, SteadyForks int
	// RPD compares all kept measurements of the forks run with all
	// steady-state measurements of the steady forks (hierarchical bootstrap
	// over forks and iterations); NaN when either is empty.
	RPD, RatioLow, RatioHigh float64
}

// rpd turns the CI [lo, hi] of a ratio of means into Traini et al.'s
// relative performance deviation (perfscore in their rq5.py):
//
//	RPD = 0                     when lo <= 1 <= hi
//	RPD = |(lo + hi)/2 − 1|     otherwise
//
// NaN bounds give NaN.
func rpd(lo, hi float64) float64 {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return nan
	}
	if lo <= 1 && 1 <= hi {
		return 0
	}
	return math.Abs((lo+hi)/2 - 1)
}

// evaluate replays set on the analysed forks of one benchmark. forks and
// results are parallel; benchmark keys the bootstrap streams; setIndex
// selects the stream block.
func (a *analyzer) evaluate(benchmark string, key table.Key, setup *table.Setup, set ConfigSet, setIndex int, forks []forkSeries, results []ForkResult) BenchmarkEvaluation {
	ev := BenchmarkEvaluation{Set: set.Name, RPD: nan, RatioLow: nan, RatioHigh: nan}
	bc, ok := set.lookup(key, setup)
	if !ok {
		return ev
	}
	ev.Configured = true
	ev.Forks = make([]ForkEvaluation, len(forks))
	nRun := len(forks)
	if bc.forks > 0 && bc.forks < nRun {
		nRun = bc.forks
	}
	var kept, steady [][]float64
	for i := range forks {
		f, r := &forks[i], &results[i]
		fe := &ev.Forks[i]
		fe.ID = f.id
		fe.Class = r.Class
		if r.Class == ForkSteady {
			ev.SteadyForks++
			steady = append(steady, f.values[r.SteadyStart:])
		}
		c, ok := bc.fork(f.id)
		if i >= nRun || !ok {
			continue
		}
		ev.ForksRun++
		*fe = a.evaluateFork(benchmark, f, r, c, setIndex)
		if fe.MeasurementIterations > 0 {
			kept = append(kept, f.values[fe.WarmupIterations:fe.WarmupIterations+fe.MeasurementIterations])
		}
	}
	if len(kept) > 0 && len(steady) > 0 {
		rng := stats.NewStream(a.opt.Seed, benchmark, blockBenchmarkRPD+uint64(setIndex))
		ev.RatioLow, ev.RatioHigh = a.nestedRatioCI(kept, steady, rng)
		ev.RPD = rpd(ev.RatioLow, ev.RatioHigh)
	}
	return ev
}

// evaluateFork replays c on one fork (see forkEvaluation).
func (a *analyzer) evaluateFork(benchmark string, f *forkSeries, r *ForkResult, c WarmupConfig, setIndex int) ForkEvaluation {
	fe := ForkEvaluation{ID: f.id, Run: true, Config: c, Class: r.Class,
		SteadySeconds: nan, WEE: nan, Deviation: nan, TimeWaste: nan, RPD: nan, RatioLow: nan, RatioHigh: nan}
	w, m, complete := replay(f.nanos, c)
	fe.WarmupIterations, fe.MeasurementIterations, fe.Complete = w, m-w, complete
	for _, d := range f.nanos[:w] {
		fe.WarmupSeconds += d
	}
	fe.WarmupSeconds *= 1e-9
	if r.Class != ForkSteady {
		return fe
	}
	fe.SteadySeconds = r.SteadySeconds
	fe.Deviation = fe.WarmupSeconds - r.SteadySeconds
	fe.WEE = math.Abs(fe.Deviation)
	fe.TimeWaste = 0
	switch {
	case fe.Deviation >= estimationTolerance:
		fe.Estimation = EstimationOver
		fe.TimeWaste = fe.Deviation
	case fe.Deviation <= -estimationTolerance:
		fe.Estimation = EstimationUnder
	}
	if m > w {
		rng := stats.NewStream(a.opt.Seed, forkStreamKey(benchmark, f.id), blockForkRPD+uint64(setIndex))
		fe.RatioLow, fe.RatioHigh = a.ratioCI(f.values[w:m], f.values[r.SteadyStart:], rng)
		fe.RPD = rpd(fe.RatioLow, fe.RatioHigh)
	}
	return fe
}

// nestedRatioCI is the CI of mean(test)/mean(control) for samples grouped
// in forks, from the hierarchical bootstrap of Kalibera and Jones (Traini
// et al.'s kalibera.interval_benchmark): a replicate draws as many forks as
// there are, with replacement, then as many iterations of each drawn fork as
// it has; its mean is the mean of all drawn iterations.
func (a *analyzer) nestedRatioCI(test, control [][]float64, rng *stats.Stream) (lo, hi float64) {
	ht, err1 := nestedHierarchy(test)
	hc, err2 := nestedHierarchy(control)
	if err1 != nil || err2 != nil {
		return nan, nan
	}
	ci, err := stats.HierarchicalRatioCI(ht, hc, estimate.HierarchicalOptions{BootstrapOptions: a.opt.Bootstrap, InvocationSamples: -1}, rng, &a.ws)
	if err != nil {
		return nan, nan
	}
	return ci.Ratio.Lower, ci.Ratio.Upper
}

// nestedHierarchy builds a one-level Hierarchy whose leaf groups are the
// forks and whose rows are their iterations (drawn with InvocationSamples -1).
func nestedHierarchy(groups [][]float64) (*stats.Hierarchy, error) {
	var values []float64
	var ids []int32
	for g, x := range groups {
		values = append(values, x...)
		for range x {
			ids = append(ids, int32(g))
		}
	}
	return stats.NewHierarchy(values, nil, ids)
}
