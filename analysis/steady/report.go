package steady

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/reports"
)

// ForkColumns are the columns of WriteForksCSV:
//
//	project, version, benchmark, params, mode   the benchmark run
//	instance, trial, fork    the fork (1-based)
//	points                   iterations analysed
//	dropped                  non-finite iterations left out before the analysis
//	outliers                 number of outliers removed before segmentation
//	outlier_indices          their 0-based iteration indices, space-separated
//	skip                     leading iterations not tested for outliers
//	penalty, penalty_rule    the PELT penalty and how it was chosen
//	changepoints             0-based iteration indices where segments 2… start
//	segments                 number of segments
//	class                    steady state, no steady state, too short, failed
//	barrett_class            flat, warmup, slowdown, no steady state, -
//	st_index                 st: 0-based index of the first steady iteration among the
//	                         analysed (finite) iterations; empty unless steady
//	st_seconds               elapsed seconds before st (empty unless steady)
//	steady_mean_ns           mean ns/op from st on, outliers excluded
//	total_seconds            the fork's duration
//	error                    why the fork failed
var ForkColumns = []string{"project", "version", "benchmark", "params", "mode", "instance", "trial", "fork",
	"points", "dropped", "outliers", "outlier_indices", "skip", "penalty", "penalty_rule", "changepoints", "segments",
	"class", "barrett_class", "st_index", "st_seconds", "steady_mean_ns", "total_seconds", "error"}

// BenchmarkColumns are the columns of WriteBenchmarksCSV: the run, its
// number of forks by class, its class, the forks by Barrett class, and the
// median and largest st of its steady forks (index and seconds; empty
// without steady forks).
var BenchmarkColumns = []string{"project", "version", "benchmark", "params", "mode", "forks",
	"steady_forks", "no_steady_forks", "too_short_forks", "failed_forks", "class",
	"flat", "warmup", "slowdown", "st_median_index", "st_max_index", "st_median_seconds", "st_max_seconds"}

// EvaluationColumns are the columns of WriteEvaluationCSV, one row per
// configuration set and fork run:
//
//	set                          the configuration set
//	project … fork               the fork
//	class                        its steady-state class
//	config                       the configuration (-wi -w -i -r)
//	warmup_iterations            recorded iterations the warmup consumes
//	measurement_iterations       recorded iterations kept as measurements
//	complete                     false when the fork ended before the configuration
//	wt_seconds                   warmup time wt
//	st_seconds                   steady-state start st (steady forks)
//	wee_seconds                  |wt − st|
//	deviation_seconds            wt − st
//	estimation                   exact, overestimated (≥ 5 s), underestimated (≤ −5 s)
//	time_waste_seconds           wt − st when overestimated, else 0
//	rpd                          relative performance deviation of the kept measurements
//	ratio_low, ratio_high        CI of mean(kept)/mean(steady)
var EvaluationColumns = []string{"set", "project", "version", "benchmark", "params", "mode", "instance", "trial", "fork",
	"class", "config", "warmup_iterations", "measurement_iterations", "complete", "wt_seconds", "st_seconds",
	"wee_seconds", "deviation_seconds", "estimation", "time_waste_seconds", "rpd", "ratio_low", "ratio_high"}

// BenchmarkEvaluationColumns are the columns of
// WriteBenchmarkEvaluationCSV: set, the run, forks run, steady forks, and
// the benchmark-level RPD with its ratio CI.
var BenchmarkEvaluationColumns = []string{"set", "project", "version", "benchmark", "params", "mode",
	"forks_run", "steady_forks", "rpd", "ratio_low", "ratio_high"}

func fmtFloat(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func joinInts(x []int) string {
	s := make([]string, len(x))
	for i, v := range x {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, " ")
}

func i32(v int32) string { return strconv.FormatInt(int64(v), 10) }

// WriteForksCSV writes one row per fork (ForkColumns).
func WriteForksCSV(w io.Writer, res *Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(ForkColumns); err != nil {
		return err
	}
	for _, br := range res.Benchmarks {
		k := br.Key
		for _, f := range br.Forks {
			st, sts, sm := "", "", ""
			if f.Class == ForkSteady {
				st, sts, sm = strconv.Itoa(f.SteadyStart), fmtFloat(f.SteadySeconds), fmtFloat(f.SteadyMean)
			}
			rec := []string{k.Project, k.Version, k.Benchmark, k.Params, k.Mode, i32(f.ID.Instance), i32(f.ID.Trial), i32(f.ID.Fork),
				strconv.Itoa(f.Points), strconv.Itoa(f.Dropped), strconv.Itoa(len(f.Outliers)), joinInts(f.Outliers), strconv.Itoa(f.Skip),
				fmtFloat(f.Penalty), f.PenaltyRule, joinInts(f.Changepoints), strconv.Itoa(len(f.Segments)),
				f.Class.String(), f.Barrett.String(), st, sts, sm, fmtFloat(f.TotalSeconds), f.Err}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
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

func medianMax(x []float64) (string, string) {
	if len(x) == 0 {
		return "", ""
	}
	m := x[0]
	for _, v := range x {
		m = math.Max(m, v)
	}
	return fmtFloat(stats.Median(x, nil)), fmtFloat(m)
}

// WriteBenchmarksCSV writes one row per benchmark run (BenchmarkColumns).
func WriteBenchmarksCSV(w io.Writer, res *Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(BenchmarkColumns); err != nil {
		return err
	}
	for i := range res.Benchmarks {
		br := &res.Benchmarks[i]
		var byClass [4]int
		var byBarrett [5]int
		for _, f := range br.Forks {
			byClass[f.Class]++
			byBarrett[f.Barrett]++
		}
		idx, sec := br.steadyStarts()
		mi, xi := medianMax(idx)
		ms, xs := medianMax(sec)
		k := br.Key
		rec := []string{k.Project, k.Version, k.Benchmark, k.Params, k.Mode, strconv.Itoa(len(br.Forks)),
			strconv.Itoa(byClass[ForkSteady]), strconv.Itoa(byClass[ForkNoSteady]), strconv.Itoa(byClass[ForkTooShort]), strconv.Itoa(byClass[ForkFailed]),
			br.Class.String(), strconv.Itoa(byBarrett[BarrettFlat]), strconv.Itoa(byBarrett[BarrettWarmup]), strconv.Itoa(byBarrett[BarrettSlowdown]),
			mi, xi, ms, xs}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteEvaluationCSV writes one row per configuration set and fork run
// (EvaluationColumns).
func WriteEvaluationCSV(w io.Writer, res *Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(EvaluationColumns); err != nil {
		return err
	}
	for si := range res.Options.Configs {
		for _, br := range res.Benchmarks {
			if si >= len(br.Evaluations) {
				continue
			}
			ev := &br.Evaluations[si]
			k := br.Key
			for _, fe := range ev.Forks {
				if !fe.Run {
					continue
				}
				st, est := "", ""
				if fe.Class == ForkSteady {
					st = fmtFloat(fe.SteadySeconds)
					est = fe.Estimation.String()
				}
				rec := []string{ev.Set, k.Project, k.Version, k.Benchmark, k.Params, k.Mode,
					i32(fe.ID.Instance), i32(fe.ID.Trial), i32(fe.ID.Fork), fe.Class.String(), fe.Config.String(),
					strconv.Itoa(fe.WarmupIterations), strconv.Itoa(fe.MeasurementIterations), strconv.FormatBool(fe.Complete),
					fmtFloat(fe.WarmupSeconds), st, fmtFloat(fe.WEE), fmtFloat(fe.Deviation), est, fmtFloat(fe.TimeWaste),
					fmtFloat(fe.RPD), fmtFloat(fe.RatioLow), fmtFloat(fe.RatioHigh)}
				if err := cw.Write(rec); err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteBenchmarkEvaluationCSV writes one row per configuration set and
// configured benchmark run (BenchmarkEvaluationColumns).
func WriteBenchmarkEvaluationCSV(w io.Writer, res *Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(BenchmarkEvaluationColumns); err != nil {
		return err
	}
	for si := range res.Options.Configs {
		for _, br := range res.Benchmarks {
			if si >= len(br.Evaluations) || !br.Evaluations[si].Configured {
				continue
			}
			ev := &br.Evaluations[si]
			k := br.Key
			rec := []string{ev.Set, k.Project, k.Version, k.Benchmark, k.Params, k.Mode,
				strconv.Itoa(ev.ForksRun), strconv.Itoa(ev.SteadyForks), fmtFloat(ev.RPD), fmtFloat(ev.RatioLow), fmtFloat(ev.RatioHigh)}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// ClassTable counts forks and benchmark runs by class.
func (res *Result) ClassTable() *reports.Table {
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
	t.AddRow("steady state", forks[ForkSteady], share(forks[ForkSteady], nf), runs[BenchmarkSteady], share(runs[BenchmarkSteady], nb))
	t.AddRow("no steady state", forks[ForkNoSteady], share(forks[ForkNoSteady], nf), runs[BenchmarkNoSteady], share(runs[BenchmarkNoSteady], nb))
	t.AddRow("inconsistent", nil, nil, runs[BenchmarkInconsistent], share(runs[BenchmarkInconsistent], nb))
	t.AddRow("too short", forks[ForkTooShort], share(forks[ForkTooShort], nf), runs[BenchmarkTooShort], share(runs[BenchmarkTooShort], nb))
	if forks[ForkFailed] > 0 {
		t.AddRow("failed", forks[ForkFailed], share(forks[ForkFailed], nf), nil, nil)
	}
	t.Notes = append(t.Notes, fmt.Sprintf("Barrett classes of the forks: flat %d, warmup %d, slowdown %d, no steady state %d.",
		barrett[BarrettFlat], barrett[BarrettWarmup], barrett[BarrettSlowdown], barrett[BarrettNoSteady]))
	o := res.Options
	pen := o.Penalty.String()
	if o.Penalty == PenaltyManual {
		pen = fmtFloat(o.PenaltyValue)
	}
	t.Notes = append(t.Notes, fmt.Sprintf("Penalty %s, steady window %d iterations, equivalence %s; a run is too short when no fork has %d iterations.",
		pen, o.SteadyWindow, o.Equivalence, o.SteadyWindow))
	return t
}

// EvaluationTable summarises each configuration set over the steady forks it runs.
func (res *Result) EvaluationTable() *reports.Table {
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
				if ev.RPD >= RPDTolerance {
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
				case Overestimated:
					over++
				case Underestimated:
					under++
				}
				if !math.IsNaN(fe.RPD) {
					nRPD++
					rpd = append(rpd, fe.RPD)
					if fe.RPD >= RPDTolerance {
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

// ComparisonTable renders Compare's result.
func ComparisonTable(cmp []Comparison) *reports.Table {
	t := &reports.Table{Title: "Comparison of configuration sets",
		Columns: []string{"score", "A", "B", "forks", "median A", "median B", "p (rank-sum)", "Â12", "magnitude"}}
	for _, c := range cmp {
		var ma, mb any = c.MedianA, c.MedianB
		if c.Score == ScoreWEE {
			ma, mb = reports.Seconds(c.MedianA), reports.Seconds(c.MedianB)
		} else {
			ma, mb = reports.Percent(c.MedianA), reports.Percent(c.MedianB)
		}
		t.AddRow(c.Score.String(), c.A, c.B, c.N, ma, mb, c.P, c.A12, c.Magnitude)
	}
	t.Notes = append(t.Notes, "Â12 > 0.5: A tends to larger errors than B (after counting WEE < 5 s and RPD < 5 % as 0).")
	return t
}
