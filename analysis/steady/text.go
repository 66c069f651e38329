package steady

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/reports"
)

// WriteText prints the short answer: how many benchmark runs and
// forks reach a steady state and after how long, the class counts, and per
// configuration set how far its warmup is from the steady state. When every
// run is too short it returns an error naming --steady-window.
func (res *Report) WriteText(w io.Writer) error {
	var runs, steadyRuns, forks, steadyForks, tooShort, longest, failed int
	var firstErr string
	var st []float64
	for _, br := range res.Benchmarks {
		runs++
		switch br.Class {
		case benchmarkSteady:
			steadyRuns++
		case benchmarkTooShort:
			tooShort++
		}
		for _, f := range br.Forks {
			forks++
			longest = max(longest, f.Points)
			if f.Class == ForkFailed {
				if failed++; failed == 1 {
					firstErr = fmt.Sprintf("%s fork %d: %s", br.Key, f.ID.Fork, f.Err)
				}
			}
			if f.Class == ForkSteady {
				steadyForks++
				st = append(st, f.SteadySeconds)
			}
		}
	}
	if forks > 0 && failed == forks {
		return fmt.Errorf("no result: the analysis of every fork failed (first: %s)", firstErr)
	}
	if w := res.Options.window(longest); runs > 0 && tooShort == runs && longest < w {
		if res.Options.SteadyWindow == 0 {
			return fmt.Errorf("no result: all %d benchmark runs are too short: no fork has the %d iterations of the automatic steady window (the longest has %d); "+
				"--steady-window %d classifies them, on very few points", runs, w, longest, max(1, longest))
		}
		return fmt.Errorf("no result: all %d benchmark runs are too short: no fork has --steady-window %d iterations (the longest has %d); "+
			"use --steady-window auto (a sixth of each run's longest fork, at least %d: %d here) or a value up to %d",
			runs, w, longest, autoWindowMin, AutoWindow(longest), max(1, longest))
	}
	fmt.Fprintf(w, "steady state: %d of %d benchmark runs (%d of %d forks) reach a steady state", steadyRuns, runs, steadyForks, forks)
	if len(st) > 0 {
		fmt.Fprintf(w, ";\nsteady forks settle after a median %s, 90 %% of them within %s (st).\n",
			reports.Human(reports.Seconds(stats.Median(st, nil))), reports.Human(reports.Seconds(stats.Quantile(st, 0.9, nil))))
	} else {
		fmt.Fprintln(w, ".")
	}
	fmt.Fprintln(w)
	if err := res.classTable().WriteMarkdown(w); err != nil {
		return err
	}
	if len(res.Options.Configs) > 0 {
		fmt.Fprintln(w)
		short := res.evaluationTable().Select("set", "steady forks run", "overestimated", "underestimated", "median WEE", "time waste", "runs RPD > 5 %")
		short.Title = ""
		if err := short.WriteMarkdown(w); err != nil {
			return err
		}
		fmt.Fprintln(w, "over/underestimated: warmup longer/shorter than st by more than 5 s; RPD: result change.")
	}
	if failed > 0 {
		// Failed forks leave their run "too short"; say why they failed
		// (values whose sums overflow float64, a segmentation error).
		fmt.Fprintf(w, "%d forks failed (first: %s)\n", failed, firstErr)
	}
	fmt.Fprintln(w, "--details prints the per-benchmark table and the comparison of configuration sets.")
	return nil
}

// WriteDetails prints the per-benchmark table (up to 40 runs), the
// evaluation of every configuration set and their comparison.
func (res *Report) WriteDetails(w io.Writer) error {
	if len(res.Benchmarks) <= 40 {
		bt := &reports.Table{Title: "Benchmark runs", Columns: []string{"benchmark", "params", "forks", "class", "Barrett classes", "st (iterations)", "st"}}
		for _, br := range res.Benchmarks {
			var barrett, sts []string
			var secs []float64
			for _, f := range br.Forks {
				barrett = append(barrett, f.Barrett.String())
				if f.Class == ForkSteady {
					sts = append(sts, strconv.Itoa(f.SteadyStart))
					secs = append(secs, f.SteadySeconds)
				}
			}
			var st any
			if len(secs) > 0 {
				st = reports.Seconds(stats.Median(secs, nil))
			}
			bt.AddRow(br.Key.Benchmark, br.Key.Params, len(br.Forks), br.Class.String(), strings.Join(barrett, " "), strings.Join(sts, " "), st)
		}
		bt.Notes = []string{"st: the steady forks' steady-state starts; the time column is their median."}
		fmt.Fprintln(w)
		if err := bt.WriteMarkdown(w); err != nil {
			return err
		}
	}
	if len(res.Options.Configs) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	if err := res.evaluationTable().WriteMarkdown(w); err != nil {
		return err
	}
	var cmp []comparison
	for b := 1; b < len(res.Options.Configs); b++ {
		c, err := compare(res, 0, b)
		if err != nil {
			return err
		}
		cmp = append(cmp, c...)
	}
	if len(cmp) > 0 {
		fmt.Fprintln(w)
		return comparisonTable(cmp).WriteMarkdown(w)
	}
	return nil
}

// WritePlots writes into dir (created when missing), for the first max benchmark runs, one series
// plot per fork and one CROPS curve per fork that ran CROPS, and their
// list (reports.PlotIndex).
func (res *Report) WritePlots(dir, format string, max int) (int, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	var index reports.PlotIndex
	n, err := res.writePlots(dir, format, max, &index)
	if err == nil {
		err = index.Write(dir)
	}
	return n, err
}

// scoreOf is the unit a run's plots draw and the conversion of an
// iteration's ns/op to it: the file's unit (ingest.ClassifyUnit: a time
// per operation of k ns gives ns/k; a throughput ops per time unit of
// k ns with t threads gives t·k/ns, format/jmh's normalisation
// inverted), or ns/op where the unit is unknown or mixed. A segment's
// mean is converted alike (for a throughput, the score of the mean time).
func (br *BenchmarkResult) scoreOf() (string, func(float64) float64) {
	switch kind, k := ingest.ClassifyUnit(br.Unit); kind {
	case ingest.UnitTimePerOp:
		return br.Unit, func(ns float64) float64 { return ns / k }
	case ingest.UnitOpsPerTime:
		if br.Setup != nil && br.Setup.Threads > 1 {
			k *= float64(br.Setup.Threads)
		}
		return br.Unit, func(ns float64) float64 { return k / ns }
	}
	return "ns/op", func(ns float64) float64 { return ns }
}

func (res *Report) writePlots(dir, format string, max int, index *reports.PlotIndex) (int, error) {
	n := 0
	for bi, br := range res.Benchmarks {
		if bi >= max {
			break
		}
		name := br.Key.Benchmark
		if i := strings.LastIndex(name, "."); i >= 0 && i+1 < len(name) {
			if j := strings.LastIndex(name[:i], "."); j >= 0 {
				name = name[j+1:] // Class.method
			}
		}
		if br.Key.Params != "" {
			name += "[" + br.Key.Params + "]"
		}
		slug := reports.PlotSlug(fmt.Sprintf("%03d-%s", bi+1, name))
		unit, score := br.scoreOf()
		for _, f := range br.Forks {
			if len(f.Values) == 0 {
				continue
			}
			vals := make([]float64, len(f.Values))
			for i, v := range f.Values {
				vals[i] = score(v)
			}
			sp := &seriesPlot{
				Title:  fmt.Sprintf("%s %s: %s", name, f.ID, f.Class),
				XLabel: "iteration", YLabel: unit, Values: vals, Outliers: f.Outliers, SteadyStart: f.SteadyStart,
			}
			first := len(f.Segments)
			if f.Class == ForkSteady {
				for k, s := range f.Segments {
					if s.Start == f.SteadyStart {
						first = k
					}
				}
			}
			for k, s := range f.Segments {
				sp.Segments = append(sp.Segments, plotSegment{Start: s.Start, End: s.End, Mean: score(s.Mean), Steady: k >= first})
			}
			p, err := sp.Plot()
			if err != nil {
				return n, err
			}
			base := filepath.Join(dir, fmt.Sprintf("%s-f%d", slug, f.ID.Fork))
			if f.ID.Instance > 1 || f.ID.Trial > 1 {
				base = filepath.Join(dir, fmt.Sprintf("%s-i%dt%df%d", slug, f.ID.Instance, f.ID.Trial, f.ID.Fork))
			}
			if err := reports.SavePlot(p, base+"."+format); err != nil {
				return n, err
			}
			index.Add(filepath.Base(base)+"."+format, "series", br.Key.String(), f.ID.String(), sp.Title)
			n++
			// The curve Kneedle read; when the Traini protocol stopped on
			// R's transpose quirk (counts and penalties of different
			// lengths), the CROPS segmentations themselves.
			var pens []float64
			var counts []int
			var proto string
			switch {
			case f.Knee != nil && len(f.Knee.Penalties) == len(f.Knee.NCpts):
				pens, counts, proto = f.Knee.Penalties, f.Knee.NCpts, f.Knee.Protocol.String()+" protocol"
			case f.CROPS != nil && len(f.CROPS.PenValueFull) > len(f.CROPS.Segmentations):
				counts = f.CROPS.NumChangepoints()
				pens, proto = f.CROPS.PenValueFull[:len(counts)], "lower bounds"
			default:
				continue
			}
			cp := &curvePlot{Title: fmt.Sprintf("CROPS %s %s (%s)", name, f.ID, proto),
				Penalties: pens, Counts: counts, Chosen: f.Penalty,
				ChosenLabel: fmt.Sprintf("penalty %.4g (%s): %d change points", f.Penalty, f.PenaltyRule, len(f.Changepoints))}
			p, err = cp.Plot()
			if err != nil {
				continue // a curve without positive penalties: nothing to draw
			}
			if err := reports.SavePlot(p, base+"-crops."+format); err != nil {
				return n, err
			}
			index.Add(filepath.Base(base)+"-crops."+format, "crops", br.Key.String(), f.ID.String(), cp.Title)
			n++
		}
	}
	return n, nil
}
