package trim

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/benchtrim/benchtrim/analysis/compare"
	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

func secs(ns int64) string { return reports.Human(reports.Seconds(float64(ns) / 1e9)) }

func pct(x float64) string { return fmt.Sprintf("%.0f %%", 100*x) }

// answer is the one-line answer: the suite's time before and after, and
// how many benchmark runs get a cheaper configuration.
func (r *Report) answer() string {
	t := &r.Totals
	if t.Benchmarks > 0 && t.Duet == t.Benchmarks {
		return fmt.Sprintf("trim: %d duet runs and nothing else, so no configuration to recommend; the duet analysis compares A and B", t.Duet)
	}
	head := fmt.Sprintf("trim: %s of the suite's time saved (%s → %s); %d of %d benchmark runs trimmed",
		reports.Human(reports.Percent(t.saved())), secs(t.TimeBeforeNs), secs(t.TimeAfterNs), t.Trimmed, t.Benchmarks-t.Duet)
	return head + " (" + r.Options.targetRule() + ")"
}

// WriteText prints the answer, the evidence and the decisions in counts.
func (r *Report) WriteText(w io.Writer) error {
	t := &r.Totals
	opt := &r.Options
	fmt.Fprintln(w, r.answer()+".")
	for _, n := range r.Notes {
		fmt.Fprintln(w, "note: "+n)
	}
	conf := opt.Optimize.Bootstrap.Confidence
	if t.Trimmed > 0 {
		var rec, after []float64
		for i := range r.Benchmarks {
			if b := &r.Benchmarks[i]; b.Status.reduced() {
				rec, after = append(rec, b.Precision), append(after, b.RecommendedPrecision)
			}
		}
		fmt.Fprintf(w, "trimmed runs, medians: detectable slowdown %s recorded → %s (%.0f %% of A/B runs, %s test); CI of the mean ±%s → ±%s (%g %%).\n",
			pct1(t.DetectableRecorded), pct1(t.Detectable), 100*detectPower, opt.Test, pct1(stats.Median(rec, nil)), pct1(stats.Median(after, nil)), 100*conf)
	} else if t.Benchmarks > t.Duet {
		fmt.Fprintf(w, "nothing trimmed: %s\n", r.whyKept())
	}
	if o, m := &t.OutOfSample, &t.MinimumOutOfSample; o.Splits > 0 {
		fmt.Fprintf(w, "out of sample (%d splits of %d runs: chosen on one half, run on the other, %s test with 0, 3 and 10 %% injected): verdicts agree %s at %s of the time; the fixed minimum %s at %s.\n",
			o.Splits, o.Benchmarks, opt.Test, pct(o.Agreement), pct(o.TimeShare), pct(m.Agreement), pct(m.TimeShare))
	}
	if v := &t.Versions; v.Pairs > 0 {
		fmt.Fprintf(w, "next version (%d runs: the previous version's plan run on both versions): verdicts of the %s test agree with the full recordings' %s; the fixed minimum %s.\n",
			v.Pairs, opt.Test, pct(v.Agreement), pct(v.MinimumAgreement))
	}
	var byPath [len(pathNames)]int
	for i := range r.Benchmarks {
		byPath[r.Benchmarks[i].Path]++
	}
	var parts []string
	for p, n := range byPath {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, Path(p)))
		}
	}
	fmt.Fprintf(w, "paths: %s; unreliable (kept): %d, kept (too few repetitions, nothing cheaper, skipped): %d", strings.Join(parts, ", "), t.Unreliable, t.Kept)
	if t.Duet > 0 {
		fmt.Fprintf(w, ", duet (A/B, no configuration): %d", t.Duet)
	}
	fmt.Fprintln(w)
	r.writeCriteriaText(w)
	r.writeDuetText(w)
	for _, vc := range r.Versions {
		var slower, faster, same, failed int
		for _, x := range vc.Report.Rows {
			switch {
			case x.Err != nil:
				failed++
			case x.Verdict.Change == compare.Slower:
				slower++
			case x.Verdict.Change == compare.Faster:
				faster++
			default:
				same++
			}
		}
		fmt.Fprintf(w, "compare %s %s → %s: %d slower, %d faster, %d without change", vc.Project, vc.Base, vc.Test, slower, faster, same)
		if failed > 0 {
			fmt.Fprintf(w, ", %d not compared", failed)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "(test: %s; detectable slowdowns from %d resampled A/B pairs per configuration; warmup = ⌈Q%g(steady-state starts)⌉; seed %d)\n",
		opt.Test.Describe(opt.Alpha), opt.DetectDraws, opt.WarmupQuantile, opt.Seed)
	if len(r.Benchmarks) <= 20 {
		fmt.Fprintln(w)
		if err := r.planTable(false).WriteMarkdown(w); err != nil {
			return err
		}
	}
	fmt.Fprintln(w, "--details prints every benchmark's reasons and warnings; -o writes the plan, --commands-out the commands.")
	return nil
}

// WriteDetails prints the plan with reasons and warnings.
func (r *Report) WriteDetails(w io.Writer) error {
	if err := r.planTable(true).WriteMarkdown(w); err != nil {
		return err
	}
	for i := range r.Benchmarks {
		b := &r.Benchmarks[i]
		fmt.Fprintf(w, "\n%s: %s; %s\n", b.Key, b.Status, b.Reason)
		if b.Status.reduced() {
			fmt.Fprintf(w, "  recorded    %s\n  recommended %s\n", b.Recorded, b.Recommended)
		}
		if b.Precision == b.Precision {
			fmt.Fprintf(w, "  CI of the mean ±%s recorded, ±%s recommended; detects %s recorded, %s recommended; fixed minimum ±%s, detects %s\n",
				pct1(b.Precision), pct1(b.RecommendedPrecision), pct1(b.DetectableRecorded), pct1(b.Detectable), pct1(b.Minimum.Precision), pct1(b.Minimum.Detectable))
			var sds []string
			for l, v := range b.LevelSD {
				if v == v {
					sds = append(sds, fmt.Sprintf("%s %s", table.Level(l), pct1(v)))
				}
			}
			fmt.Fprintf(w, "  variance components (SD per level, of the mean): %s\n", strings.Join(sds, ", "))
		}
		if o := &b.OutOfSample; o.Splits > 0 {
			fmt.Fprintf(w, "  out of sample (%d %s splits): median error %s, verdicts agree %s; fixed minimum %s, %s\n", o.Splits, o.Level,
				pct1(stats.Median(o.Errors, nil)), pct(o.Agreement), pct1(stats.Median(o.MinimumErrors, nil)), pct(o.MinimumAgreement))
		}
		for _, x := range b.Warnings {
			fmt.Fprintf(w, "  warning: %s\n", x)
		}
	}
	return nil
}

// shortStatus is the status in the terminal table.
var shortStatus = [...]string{"trimmed", "no steady", "too few", "duet", "skipped", "kept"}

// beforeAfter formats two rates as "1.2→3.4" (percent, one decimal).
func beforeAfter(a, b float64) any {
	if a != a || b != b {
		return nil
	}
	return pctCell(a) + "→" + pctCell(b)
}

// pctCell is a rate in percent with one decimal, "∞" for +Inf.
func pctCell(x float64) string {
	if math.IsInf(x, 1) {
		return "∞"
	}
	return fmt.Sprintf("%.1f", 100*x)
}

// whyKept says why no benchmark was trimmed, from their statuses.
func (r *Report) whyKept() string {
	var fire, target, other int
	need := 0
	for i := range r.Benchmarks {
		b := &r.Benchmarks[i]
		switch {
		case b.Status == StatusDuet:
		case math.IsInf(b.DetectableRecorded, 1):
			fire++
			need = max(need, 1)
		case b.Status == StatusKept:
			target++
		default:
			other++
		}
	}
	var parts []string
	if fire > 0 {
		parts = append(parts, fmt.Sprintf("for %d the %s test cannot report a change at the recorded configuration (too few values per side)", fire, r.Options.Test))
	}
	if target > 0 {
		parts = append(parts, fmt.Sprintf("for %d no configuration saving 1 %% or more keeps the target (%s)", target, r.Options.targetRule()))
	}
	if other > 0 {
		parts = append(parts, fmt.Sprintf("%d are unreliable, too short or skipped (--details says why)", other))
	}
	return strings.Join(parts, "; ")
}

// planTable is the per-benchmark table of the terminal and documents.
func (r *Report) planTable(all bool) *reports.Table {
	t := &reports.Table{Title: "trim plan", Columns: []string{"benchmark", "status", "forks", "warmup+it", "time", "saved", "detects %", "CI ± %"},
		Notes: []string{"detects %: slowdown the test finds in 80 % of A/B runs; CI ± %: the mean's 99 % CI, wide with few forks or instances (recorded→new)"}}
	for i := range r.Benchmarks {
		b := &r.Benchmarks[i]
		name := b.Key.Benchmark
		if !all {
			if k := strings.LastIndex(b.Key.Benchmark, "."); k >= 0 {
				name = b.Key.Benchmark[k+1:]
			}
		}
		if b.Key.Params != "" {
			name += "[" + b.Key.Params + "]"
		}
		saved := 0.0
		if b.Recorded.TimeNs > 0 {
			saved = 1 - float64(b.Recommended.TimeNs)/float64(b.Recorded.TimeNs)
		}
		status := shortStatus[b.Status]
		if b.Path == PathDuet {
			name += " (" + b.Key.Mode + ")"
			if len(b.Duet) > 0 {
				status += ": " + duetText(b.Duet, true)
			}
		}
		c := b.Recommended
		var forks any = c.Forks
		if c.Instances > 1 || c.Trials > 1 || b.Recorded.Instances > 1 || b.Recorded.Trials > 1 {
			forks = fmt.Sprintf("%d×%d×%d", c.Instances, c.Trials, c.Forks)
		}
		it := fmt.Sprintf("%d+%d", c.WarmupIterations, c.Iterations)
		if c.Slices > 1 {
			it += fmt.Sprintf("×%d", c.Slices)
		}
		t.AddRow(name, status, forks, it, reports.Seconds(float64(c.TimeNs)/1e9), reports.Percent(saved),
			beforeAfter(b.DetectableRecorded, b.Detectable), beforeAfter(b.Precision, b.RecommendedPrecision))
	}
	return t
}
