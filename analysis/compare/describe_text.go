package compare

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

// setReports holds the descriptions of every metric of one set, the
// primary metric first.
type setReports []*setReport

// topLevel names the outermost level with more than one unit and its count:
// "9 trials", or "1 run".
func topLevel(units [5]int) string {
	for l, n := range units {
		if n > 1 {
			if l == idIteration {
				return fmt.Sprintf("%d iterations", n)
			}
			return fmt.Sprintf("%d %ss", n, idNames[l])
		}
	}
	return "1 run"
}

// relHalfWidth is the larger distance from the estimate to a bound of the
// mean's interval, relative to the estimate.
func relHalfWidth(d *description) float64 {
	m := d.mean
	return math.Max(m.Estimate-m.Lower, m.Upper-m.Estimate) / m.Estimate
}

// Headline is the one-line answer of a single-set report: how many
// benchmarks it holds and how precisely their means are known (the median
// and the largest half-width of their intervals, relative to the mean):
// "FILE: 12 benchmarks; 99 % CI of the mean ±1.2 % (median), widest ±18 %
// (ParserEncodeStrings)".
func (r *setReport) headline(lb labeler) string {
	var hw []float64
	widest, widestName := -1.0, ""
	failed := 0
	for i := range r.benchmarks {
		d := &r.benchmarks[i]
		if d.err != nil {
			failed++
			continue
		}
		h := relHalfWidth(d)
		if math.IsNaN(h) || math.IsInf(h, 0) {
			continue
		}
		hw = append(hw, h)
		if h > widest {
			widest, widestName = h, lb.label(nameKey(d.Name), d.procs)
		}
	}
	lead := ""
	if !r.isTime() {
		lead = r.metric + ": "
	}
	notDescribed := ""
	if failed > 0 {
		notDescribed = fmt.Sprintf("; %d not described", failed)
	}
	build := func(withWidest bool) string {
		s := fmt.Sprintf(": %s", plural(len(r.benchmarks), "benchmark"))
		if len(hw) > 0 {
			sort.Float64s(hw)
			med := hw[len(hw)/2]
			if len(hw)%2 == 0 {
				med = (hw[len(hw)/2-1] + med) / 2
			}
			s += fmt.Sprintf("; %s CI of the mean %s (median)", confidenceLabel(r.options.Bootstrap.Confidence), formatHalf(med))
			if withWidest {
				s += fmt.Sprintf(", widest %s (%s)", formatHalf(widest), widestName)
			}
		}
		return s + notDescribed
	}
	// A long label (file path) is shortened to keep the line within width,
	// after the widest benchmark is left out.
	s := build(true)
	if width-runeLen(lead)-runeLen(s) < min(runeLen(r.label), 24) {
		s = build(false)
	}
	return lead + abbreviate(r.label, max(width-runeLen(lead)-runeLen(s), 12)) + s
}

func formatHalf(h float64) string {
	if h < 0.0095 {
		return "±" + strconv.FormatFloat(100*h, 'f', 1, 64) + " %"
	}
	return "±" + strconv.FormatFloat(100*h, 'f', 0, 64) + " %"
}

// WriteText writes the descriptions within width columns: the headline of
// the first report, the method, then per metric a table: per benchmark the
// mean ± the half-width of its interval (as benchstat prints a centre ±
// its interval), the median and CV of the iteration means, the number of
// iterations and of units at the outermost varying level.
func (rs setReports) WriteText(w io.Writer) error {
	if len(rs) == 0 {
		return writeString(w, "no benchmarks\n")
	}
	var ks []table.Key
	for _, r := range rs {
		for i := range r.benchmarks {
			ks = append(ks, nameKey(r.benchmarks[i].Name))
		}
	}
	lb := newLabeler(ks)
	r := rs[0]
	var b strings.Builder
	b.WriteString(r.headline(lb) + "\n")
	o := r.options
	b.WriteString(reports.Wrap(fmt.Sprintf("mean with hierarchical bootstrap %s percentile interval (%d resamples, seed %d); median and CV of the iteration means; n iterations",
		confidenceLabel(o.Bootstrap.Confidence), o.Bootstrap.Resamples, o.Seed), width, "  ") + "\n")
	if lb.prefix != "" {
		b.WriteString(strings.Join(breakName("benchmarks: "+lb.prefix+"…", width), "\n") + "\n")
	}
	var failed []string
	for i, rep := range rs {
		b.WriteByte('\n')
		if i > 0 {
			b.WriteString(rep.headline(lb) + "\n")
		}
		if err := writeString(w, b.String()); err != nil {
			return err
		}
		b.Reset()
		unit, format := "time/op", formatNs
		if !rep.isTime() {
			unit, format = rep.unit, formatValue
		}
		t := &textTable{
			header: []string{"benchmark", unit, "median", "CV", "n", "units"},
			right:  []bool{false, true, true, true, true, true},
		}
		for j := range rep.benchmarks {
			d := &rep.benchmarks[j]
			name := lb.label(nameKey(d.Name), d.procs)
			if d.err != nil {
				failed = append(failed, abbreviate("  "+name+": "+d.err.Error(), width))
				continue
			}
			cv := "n/a"
			if !math.IsNaN(d.cv) {
				cv = strconv.FormatFloat(roundSig(100*d.cv, 2), 'f', -1, 64) + "%"
			}
			t.add(name, format(d.mean.Estimate)+" "+formatSpread(d.mean.Estimate, d.mean.Lower, d.mean.Upper),
				format(d.median), cv, strconv.Itoa(d.iterations), topLevel(d.units))
		}
		t.fit(width)
		if err := t.write(w); err != nil {
			return err
		}
	}
	writeFailed(&b, "not described", failed)
	pooled := 0
	for i := range r.benchmarks {
		if varies(r.options.Col, r.benchmarks[i].runs) {
			pooled++
		}
	}
	if pooled > 0 {
		b.WriteString("\n" + reports.Wrap(fmt.Sprintf("note: %s runs of different benchmarks, which the row (--row %s) does not tell apart "+
			"(benchstat: “benchmarks vary in .fullname”); each run is a top-level unit of the bootstrap.", rowsPool(pooled), r.options.Row), width, "") + "\n")
	}
	return writeString(w, b.String())
}

// frame is the description's data table, one row per metric and
// benchmark, in the names of the base side of an A/B comparison:
// benchmark, params, mode, metric, unit, status (described or failed),
// base_label, base_runs, base_iterations, base_mean_ns, base_ci_lower_ns,
// base_ci_upper_ns, base_median_ns (ns/op for the primary metric, else in
// unit), base_cv, base_top_units (e.g. "9 trials"), error, then the
// settings (confidence, resamples, invocation_samples, alpha, statistic,
// min_effect, discard_warmup, seed).
func (rs setReports) frame() *reports.Frame {
	var bench, params, mode, metric, unit, label, runs, status, top, errs []string
	var iters []int64
	var mean, lo, hi, med, cv []float64
	for _, r := range rs {
		for i := range r.benchmarks {
			d := &r.benchmarks[i]
			bench, params, mode = append(bench, d.Benchmark), append(params, d.Params), append(mode, d.Mode)
			metric, unit, label = append(metric, r.metric), append(unit, r.unit), append(label, r.label)
			runs = append(runs, runsString(d.runs, r.options.Row))
			st, es := "described", ""
			if d.err != nil {
				st, es = "failed", d.err.Error()
				nan := math.NaN()
				d = &description{mean: nanInterval(), median: nan, cv: nan}
			}
			status, errs = append(status, st), append(errs, es)
			iters = append(iters, int64(d.iterations))
			mean, lo, hi = append(mean, d.mean.Estimate), append(lo, d.mean.Lower), append(hi, d.mean.Upper)
			med, cv = append(med, d.median), append(cv, d.cv)
			top = append(top, topLevel(d.units))
		}
	}
	n := len(bench)
	f := &reports.Frame{}
	f.String("benchmark", bench)
	f.String("params", params)
	f.String("mode", mode)
	f.String("metric", metric)
	f.String("unit", unit)
	f.String("status", status)
	f.String("base_label", label)
	f.String("base_runs", runs)
	f.Int("base_iterations", iters)
	f.Float("base_mean_ns", mean)
	f.Float("base_ci_lower_ns", lo)
	f.Float("base_ci_upper_ns", hi)
	f.Float("base_median_ns", med)
	f.Float("base_cv", cv)
	f.String("base_top_units", top)
	f.String("error", errs)
	if len(rs) > 0 {
		rs[0].options.addSettings(f, n)
	}
	return f
}
