package trim

import (
	"fmt"
	"io"
	"strings"

	"github.com/benchtrim/benchtrim/analysis/compare"
	"github.com/benchtrim/benchtrim/reports"
)

func secs(ns int64) string { return reports.Human(reports.Seconds(float64(ns) / 1e9)) }

func pct(x float64) string { return fmt.Sprintf("%.0f %%", 100*x) }

// Answer is the one-line answer: the suite's time before and after and the
// share of trimmed benchmarks whose estimate stays within 5 %.
func (r *Report) Answer() string {
	t := &r.Totals
	if t.Benchmarks > 0 && t.Duet == t.Benchmarks {
		return fmt.Sprintf("trim: %d duet runs and nothing else, so no configuration to recommend; the duet analysis compares A and B", t.Duet)
	}
	return fmt.Sprintf("trim: %s of the suite's time saved (%s → %s); %d of %d benchmark runs trimmed, %s of them within 5 %% of the full run's estimate",
		reports.Human(reports.Percent(t.Saved())), secs(t.TimeBeforeNs), secs(t.TimeAfterNs), t.Trimmed, t.Benchmarks-t.Duet, pct(t.Within[2]))
}

// WriteText prints the answer, the evidence and the decisions in counts.
func (r *Report) WriteText(w io.Writer) error {
	t := &r.Totals
	opt := &r.Options
	fmt.Fprintln(w, r.Answer()+";")
	if t.Trimmed > 0 {
		fmt.Fprintf(w, "%s / %s / %s of the trimmed runs keep their estimate within 1 / 3 / 5 %%, %s inside the full run's %g CI.\n",
			pct(t.Within[0]), pct(t.Within[1]), pct(t.Within[2]), pct(t.InCI), opt.Optimize.Bootstrap.Confidence)
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
	fmt.Fprintf(w, "paths: %s; unreliable (kept): %d, too few repetitions or skipped (kept): %d", strings.Join(parts, ", "), t.Unreliable, t.Kept)
	if t.Duet > 0 {
		fmt.Fprintf(w, ", duet (A/B, no configuration): %d", t.Duet)
	}
	fmt.Fprintln(w)
	r.writeCriteriaText(w)
	r.writeDuetText(w)
	for _, vc := range r.Versions {
		var slower, faster, same, failed int
		for _, x := range vc.Report.Results {
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
	fmt.Fprintf(w, "(%s < %g, warmup = ⌈Q%g(steady-state starts)⌉, %d resamples at %g, seed %d)\n",
		opt.Optimize.Metrics[0], opt.Optimize.Threshold, opt.WarmupQuantile, opt.Optimize.Bootstrap.Resamples,
		opt.Optimize.Bootstrap.Confidence, opt.Seed)
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
		if b.Status == StatusTrimmed {
			fmt.Fprintf(w, "  recorded    %s\n  recommended %s\n", b.Recorded, b.Recommended)
		}
		for _, x := range b.Warnings {
			fmt.Fprintf(w, "  warning: %s\n", x)
		}
	}
	return nil
}

// planTable is the per-benchmark table of the terminal and documents.
func (r *Report) planTable(all bool) *reports.Table {
	t := &reports.Table{Title: "trim plan", Columns: []string{"benchmark", "path", "status", "forks", "warmup", "iterations", "time", "recorded", "saved", "change"},
		Notes: []string{"forks: instances×trials×forks when the data have several instances or trials (instances run side by side)"}}
	for i := range r.Benchmarks {
		b := &r.Benchmarks[i]
		name := b.Key.Benchmark
		if b.Key.Params != "" {
			name += "[" + b.Key.Params + "]"
		}
		if !all {
			if k := strings.LastIndex(b.Key.Benchmark, "."); k >= 0 {
				name = b.Key.Benchmark[k+1:]
				if b.Key.Params != "" {
					name += "[" + b.Key.Params + "]"
				}
			}
		}
		var change any
		if b.Status == StatusTrimmed {
			change = reports.Percent(b.ChangeRate)
		}
		saved := 0.0
		if b.Recorded.TimeNs > 0 {
			saved = 1 - float64(b.Recommended.TimeNs)/float64(b.Recorded.TimeNs)
		}
		status := b.Status.String()
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
		t.AddRow(name, b.Path.String(), status, forks, c.WarmupIterations, c.Iterations,
			reports.Seconds(float64(c.TimeNs)/1e9), reports.Seconds(float64(b.Recorded.TimeNs)/1e9), reports.Percent(saved), change)
	}
	return t
}
