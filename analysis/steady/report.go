package steady

import (
	"fmt"
	"math"

	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/reports"
)

func ints64(x []int) []int64 {
	out := make([]int64, len(x))
	for i, v := range x {
		out[i] = int64(v)
	}
	return out
}

// forkColumns collects the instance, trial and fork columns.
type forkColumns struct{ instance, trial, fork []int64 }

func (c *forkColumns) add(id ForkID) {
	c.instance = append(c.instance, int64(id.Instance))
	c.trial = append(c.trial, int64(id.Trial))
	c.fork = append(c.fork, int64(id.Fork))
}

func (c *forkColumns) to(f *reports.Frame) {
	f.Int("instance", c.instance)
	f.Int("trial", c.trial)
	f.Int("fork", c.fork)
}

// forksFrame, Frame(FrameForks), has one row per fork, the columns
// (in this order):
//
//	project, version, benchmark, params, mode   the benchmark run
//	instance, trial, fork    the fork (1-based)
//	points                   iterations analysed
//	dropped                  non-finite iterations left out before the analysis
//	outliers                 number of outliers removed before segmentation
//	outlier_indices          their 0-based iteration indices (a list; ";"-joined in CSV)
//	skip                     leading iterations not tested for outliers
//	penalty, penalty_rule    the PELT penalty and how it was chosen
//	changepoints             0-based iteration indices where segments 2… start (a list)
//	segments                 number of segments
//	class                    steady state, no steady state, too short, failed
//	barrett_class            flat, warmup, slowdown, no steady state, -
//	st_index                 st: 0-based index of the first steady iteration among the
//	                         analysed (finite) iterations; empty unless steady
//	st_s               elapsed seconds before st (empty unless steady)
//	steady_mean_ns           mean ns/op from st on, outliers excluded
//	total_s            the fork's duration
//	error                    why the fork failed
//
// outlier_indices and changepoints are integer lists, st_index is null
// unless the fork is steady, and unknown floats are null.
func forksFrame(res *Report) *reports.Frame {
	var k reports.KeyColumns
	var id forkColumns
	var points, dropped, outliers, skip, segments, st []int64
	var stValid []bool
	var outlierIdx, cps [][]int64
	var penalty, stSec, mean, total []float64
	var rule, class, barrett, errs []string
	for _, br := range res.Benchmarks {
		for _, f := range br.Forks {
			k.Add(br.Key)
			id.add(f.ID)
			points = append(points, int64(f.Points))
			dropped = append(dropped, int64(f.Dropped))
			outliers = append(outliers, int64(len(f.Outliers)))
			outlierIdx = append(outlierIdx, ints64(f.Outliers))
			skip = append(skip, int64(f.Skip))
			penalty = append(penalty, f.Penalty)
			rule = append(rule, f.PenaltyRule)
			cps = append(cps, ints64(f.Changepoints))
			segments = append(segments, int64(len(f.Segments)))
			class = append(class, f.Class.String())
			barrett = append(barrett, f.Barrett.String())
			steady := f.Class == ForkSteady
			st = append(st, int64(f.SteadyStart))
			stValid = append(stValid, steady)
			if steady {
				stSec = append(stSec, f.SteadySeconds)
				mean = append(mean, f.SteadyMean)
			} else {
				stSec = append(stSec, math.NaN())
				mean = append(mean, math.NaN())
			}
			total = append(total, f.TotalSeconds)
			errs = append(errs, f.Err)
		}
	}
	fr := &reports.Frame{}
	k.AddTo(fr)
	id.to(fr)
	fr.Int("points", points)
	fr.Int("dropped", dropped)
	fr.Int("outliers", outliers)
	fr.IntList("outlier_indices", outlierIdx)
	fr.Int("skip", skip)
	fr.Float("penalty", penalty)
	fr.String("penalty_rule", rule)
	fr.IntList("changepoints", cps)
	fr.Int("segments", segments)
	fr.String("class", class)
	fr.String("barrett_class", barrett)
	fr.OptionalInt("st_index", st, stValid)
	fr.Float("st_s", stSec)
	fr.Float("steady_mean_ns", mean)
	fr.Float("total_s", total)
	fr.String("error", errs)
	return fr
}

// steadyStarts returns the st indices and seconds of the steady forks.
func (br *BenchmarkResult) steadyStarts() (idx, sec []float64) {
	for _, f := range br.Forks {
		if f.Class == ForkSteady {
			idx = append(idx, float64(f.SteadyStart))
			sec = append(sec, f.SteadySeconds)
		}
	}
	return idx, sec
}

// medianMax returns the median and the maximum of x (NaN for none).
func medianMax(x []float64) (float64, float64) {
	if len(x) == 0 {
		return math.NaN(), math.NaN()
	}
	m := x[0]
	for _, v := range x {
		m = math.Max(m, v)
	}
	return stats.Median(x, nil), m
}

// benchmarksFrame, Frame(FrameBenchmarks), has one row per benchmark run,
// the columns: the run (project, version, benchmark, params, mode), its
// number of forks by class (forks, steady_forks, no_steady_forks,
// too_short_forks, failed_forks), its class, the forks by Barrett class
// (flat_forks, warmup_forks, slowdown_forks), and the median and largest
// st of its steady forks (st_median_index, st_max_index, st_median_s,
// st_max_s; empty without steady forks), and the steady window its forks
// were classified with (steady_window).
func benchmarksFrame(res *Report) *reports.Frame {
	var k reports.KeyColumns
	var forks, steady, noSteady, tooShort, failed, flat, warmup, slowdown, maxIdx, window []int64
	var maxValid []bool
	var class []string
	var medIdx, medSec, maxSec []float64
	for i := range res.Benchmarks {
		br := &res.Benchmarks[i]
		var byClass [4]int64
		var byBarrett [5]int64
		for _, f := range br.Forks {
			byClass[f.Class]++
			byBarrett[f.Barrett]++
		}
		idx, sec := br.steadyStarts()
		mi, xi := medianMax(idx)
		ms, xs := medianMax(sec)
		k.Add(br.Key)
		forks = append(forks, int64(len(br.Forks)))
		steady = append(steady, byClass[ForkSteady])
		noSteady = append(noSteady, byClass[ForkNoSteady])
		tooShort = append(tooShort, byClass[ForkTooShort])
		failed = append(failed, byClass[ForkFailed])
		class = append(class, br.Class.String())
		flat = append(flat, byBarrett[BarrettFlat])
		warmup = append(warmup, byBarrett[BarrettWarmup])
		slowdown = append(slowdown, byBarrett[BarrettSlowdown])
		medIdx = append(medIdx, mi)
		maxIdx = append(maxIdx, int64(max(xi, 0)))
		maxValid = append(maxValid, !math.IsNaN(xi))
		medSec = append(medSec, ms)
		maxSec = append(maxSec, xs)
		window = append(window, int64(br.Window))
	}
	fr := &reports.Frame{}
	k.AddTo(fr)
	fr.Int("forks", forks)
	fr.Int("steady_forks", steady)
	fr.Int("no_steady_forks", noSteady)
	fr.Int("too_short_forks", tooShort)
	fr.Int("failed_forks", failed)
	fr.String("class", class)
	fr.Int("flat_forks", flat)
	fr.Int("warmup_forks", warmup)
	fr.Int("slowdown_forks", slowdown)
	fr.Float("st_median_index", medIdx)
	fr.OptionalInt("st_max_index", maxIdx, maxValid)
	fr.Float("st_median_s", medSec)
	fr.Float("st_max_s", maxSec)
	fr.Int("steady_window", window)
	return fr
}

// evaluationFrame, Frame(FrameEvaluation), has one row per configuration
// set and fork run, the columns (in this order; project … fork are the
// forks frame's):
//
//	set                          the configuration set
//	project … fork               the fork
//	class                        its steady-state class
//	config                       the configuration (-wi -w -i -r)
//	warmup_iterations            recorded iterations the warmup consumes
//	measurement_iterations       recorded iterations kept as measurements
//	complete                     false when the fork ended before the configuration
//	wt_s                   warmup time wt
//	st_s                   steady-state start st (steady forks)
//	wee_s                  |wt − st|
//	deviation_s            wt − st
//	estimation                   exact, overestimated (≥ 5 s), underestimated (≤ −5 s)
//	time_waste_s           wt − st when overestimated, else 0
//	rpd                          relative performance deviation of the kept measurements
//	ratio_ci_lower, ratio_ci_upper        CI of mean(kept)/mean(steady)
//
// st_s and estimation are empty unless the fork is steady.
func evaluationFrame(res *Report) *reports.Frame {
	var set, class, config, est []string
	var k reports.KeyColumns
	var id forkColumns
	var wi, mi []int64
	var complete []bool
	var wt, st, wee, dev, waste, rpd, lo, hi []float64
	for si := range res.Options.Configs {
		for _, br := range res.Benchmarks {
			if si >= len(br.Evaluations) {
				continue
			}
			ev := &br.Evaluations[si]
			for _, fe := range ev.Forks {
				if !fe.Run {
					continue
				}
				set = append(set, ev.Set)
				k.Add(br.Key)
				id.add(fe.ID)
				class = append(class, fe.Class.String())
				config = append(config, fe.Config.String())
				wi = append(wi, int64(fe.WarmupIterations))
				mi = append(mi, int64(fe.MeasurementIterations))
				complete = append(complete, fe.Complete)
				wt = append(wt, fe.WarmupSeconds)
				if fe.Class == ForkSteady {
					st = append(st, fe.SteadySeconds)
					est = append(est, fe.Estimation.String())
				} else {
					st = append(st, math.NaN())
					est = append(est, "")
				}
				wee = append(wee, fe.WEE)
				dev = append(dev, fe.Deviation)
				waste = append(waste, fe.TimeWaste)
				rpd = append(rpd, fe.RPD)
				lo = append(lo, fe.RatioLow)
				hi = append(hi, fe.RatioHigh)
			}
		}
	}
	fr := &reports.Frame{}
	fr.String("set", set)
	k.AddTo(fr)
	id.to(fr)
	fr.String("class", class)
	fr.String("config", config)
	fr.Int("warmup_iterations", wi)
	fr.Int("measurement_iterations", mi)
	fr.Bool("complete", complete)
	fr.Float("wt_s", wt)
	fr.Float("st_s", st)
	fr.Float("wee_s", wee)
	fr.Float("deviation_s", dev)
	fr.String("estimation", est)
	fr.Float("time_waste_s", waste)
	fr.Float("rpd", rpd)
	fr.Float("ratio_ci_lower", lo)
	fr.Float("ratio_ci_upper", hi)
	return fr
}

// benchmarkEvaluationFrame has one row per configuration set and
// configured benchmark run: set, the run, forks_run, steady_forks, and
// the benchmark-level rpd with its ratio CI (ratio_ci_lower,
// ratio_ci_upper).
func benchmarkEvaluationFrame(res *Report) *reports.Frame {
	var set []string
	var k reports.KeyColumns
	var run, steady []int64
	var rpd, lo, hi []float64
	for si := range res.Options.Configs {
		for _, br := range res.Benchmarks {
			if si >= len(br.Evaluations) || !br.Evaluations[si].Configured {
				continue
			}
			ev := &br.Evaluations[si]
			set = append(set, ev.Set)
			k.Add(br.Key)
			run = append(run, int64(ev.ForksRun))
			steady = append(steady, int64(ev.SteadyForks))
			rpd = append(rpd, ev.RPD)
			lo = append(lo, ev.RatioLow)
			hi = append(hi, ev.RatioHigh)
		}
	}
	fr := &reports.Frame{}
	fr.String("set", set)
	k.AddTo(fr)
	fr.Int("forks_run", run)
	fr.Int("steady_forks", steady)
	fr.Float("rpd", rpd)
	fr.Float("ratio_ci_lower", lo)
	fr.Float("ratio_ci_upper", hi)
	return fr
}

// classTable counts forks and benchmark runs by class.
func (res *Report) classTable() *reports.Table {
	t := &reports.Table{Title: "Steady state", Columns: []string{"class", "forks", "share of forks", "benchmark runs", "share of runs"}}
	var forks, runs [5]int
	var barrett [5]int
	nf := 0
	for _, br := range res.Benchmarks {
		runs[br.Class]++
		for _, f := range br.Forks {
			forks[f.Class]++
			barrett[f.Barrett]++
			nf++
		}
	}
	nb := len(res.Benchmarks)
	share := func(a, b int) any {
		if b == 0 {
			return nil
		}
		return reports.Percent(float64(a) / float64(b))
	}
	t.AddRow("steady state", forks[ForkSteady], share(forks[ForkSteady], nf), runs[benchmarkSteady], share(runs[benchmarkSteady], nb))
	t.AddRow("no steady state", forks[ForkNoSteady], share(forks[ForkNoSteady], nf), runs[benchmarkNoSteady], share(runs[benchmarkNoSteady], nb))
	t.AddRow("inconsistent", nil, nil, runs[benchmarkInconsistent], share(runs[benchmarkInconsistent], nb))
	t.AddRow("too short", forks[ForkTooShort], share(forks[ForkTooShort], nf), runs[benchmarkTooShort], share(runs[benchmarkTooShort], nb))
	if forks[ForkFailed] > 0 {
		t.AddRow("failed", forks[ForkFailed], share(forks[ForkFailed], nf), nil, nil)
	}
	t.Notes = append(t.Notes, fmt.Sprintf("Barrett classes of the forks: flat %d, warmup %d, slowdown %d, no steady state %d.",
		barrett[BarrettFlat], barrett[BarrettWarmup], barrett[BarrettSlowdown], barrett[BarrettNoSteady]))
	o := res.Options
	pen := o.Penalty.String()
	if o.Penalty == penaltyManual {
		pen = o.PenaltyValue.String()
	}
	t.Notes = append(t.Notes, fmt.Sprintf("Penalty %s, steady window %s, equivalence %s; a run is too short when no fork has that many iterations.",
		pen, res.windowText(), o.Equivalence))
	return t
}

// windowText names the steady window: "500 iterations", or for the window
// chosen per run "auto (a sixth of each run's longest fork, 5–500): 5 to
// 7 iterations".
func (res *Report) windowText() string {
	if res.Options.SteadyWindow > 0 {
		return fmt.Sprintf("%d iterations", res.Options.SteadyWindow)
	}
	lo, hi := 0, 0
	for i := range res.Benchmarks {
		w := res.Benchmarks[i].Window
		if lo == 0 || w < lo {
			lo = w
		}
		hi = max(hi, w)
	}
	used := fmt.Sprintf("%d iterations", lo)
	if lo != hi {
		used = fmt.Sprintf("%d to %d iterations", lo, hi)
	}
	return fmt.Sprintf("auto (a sixth of each run's longest fork, %d–%d): %s", autoWindowMin, autoWindowMax, used)
}

// evaluationTable summarises each configuration set over the steady forks it runs.
func (res *Report) evaluationTable() *reports.Table {
	t := &reports.Table{Title: "Configurations against the steady state",
		Columns: []string{"set", "runs", "steady forks run", "overestimated", "underestimated", "median WEE",
			"time waste", "forks RPD > 5 %", "median RPD", "runs RPD > 5 %"}}
	for si, cs := range res.Options.Configs {
		var runs, nf, over, under, bigRPD, nRPD, bRuns, bBig int
		var wee, rpd []float64
		var waste float64
		for _, br := range res.Benchmarks {
			if si >= len(br.Evaluations) || !br.Evaluations[si].Configured {
				continue
			}
			ev := &br.Evaluations[si]
			runs++
			if !math.IsNaN(ev.RPD) {
				bRuns++
				if ev.RPD >= rpdTolerance {
					bBig++
				}
			}
			for _, fe := range ev.Forks {
				if !fe.Run || fe.Class != ForkSteady {
					continue
				}
				nf++
				wee = append(wee, fe.WEE)
				waste += fe.TimeWaste
				switch fe.Estimation {
				case EstimationOver:
					over++
				case EstimationUnder:
					under++
				}
				if !math.IsNaN(fe.RPD) {
					nRPD++
					rpd = append(rpd, fe.RPD)
					if fe.RPD >= rpdTolerance {
						bigRPD++
					}
				}
			}
		}
		share := func(a, b int) any {
			if b == 0 {
				return nil
			}
			return reports.Percent(float64(a) / float64(b))
		}
		med := func(x []float64) any {
			if len(x) == 0 {
				return nil
			}
			return stats.Median(x, nil)
		}
		var medWEE any
		if m := med(wee); m != nil {
			medWEE = reports.Seconds(m.(float64))
		}
		var medRPD any
		if m := med(rpd); m != nil {
			medRPD = reports.Percent(m.(float64))
		}
		t.AddRow(cs.Name, runs, nf, share(over, nf), share(under, nf), medWEE, reports.Seconds(waste),
			share(bigRPD, nRPD), medRPD, share(bBig, bRuns))
	}
	t.Notes = append(t.Notes, "WEE = |wt − st|; over/underestimated beyond ±5 s; time waste = Σ (wt − st) over overestimated forks; "+
		"RPD = 0 when the 95 % bootstrap CI of mean(kept)/mean(steady) contains 1, else |centre − 1|.")
	return t
}

// comparisonTable renders compare's result.
func comparisonTable(cmp []comparison) *reports.Table {
	t := &reports.Table{Title: "Comparison of configuration sets",
		Columns: []string{"score", "A", "B", "forks", "median A", "median B", "p (rank-sum)", "Â12", "magnitude"}}
	for _, c := range cmp {
		var ma, mb any = c.medianA, c.medianB
		if c.score == scoreWEE {
			ma, mb = reports.Seconds(c.medianA), reports.Seconds(c.medianB)
		} else {
			ma, mb = reports.Percent(c.medianA), reports.Percent(c.medianB)
		}
		t.AddRow(c.score.String(), c.a, c.b, c.n, ma, mb, c.p, c.a12, c.magnitude)
	}
	t.Notes = append(t.Notes, "Â12 > 0.5: A tends to larger errors than B (after counting WEE < 5 s and RPD < 5 % as 0).")
	return t
}
