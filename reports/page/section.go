package page

import (
	"fmt"
	"math"
	"strings"

	"github.com/benchtrim/benchtrim/analysis/trim"
)

// The page's section per benchmark run: reached from the index, folded
// until opened, so that the page's height grows with the index, not with
// the runs' plots. The sections' content is stored compressed (chunks of
// runChunk sections, gzip and base64 in inert <script> elements) and put
// in place by the page's script when a section is first opened: a
// 2,000-run suite's sections are 23 MB of SVG as text, 3 MB so.

// writeRunSection writes r's section: what trim recommends and why, the
// recorded, recommended and fixed minimal configurations side by side
// (configuration, time, score with JMH's error, CI of the mean,
// detectable slowdown), the command, and the plots: the density of the
// recorded and recommended observations (and the previous version's),
// the observations in order per fork, and detectable slowdown against
// time for the configurations trim considered; then the change against
// the previous version.
//
// It returns what the section has: a "d" for the density plot, "s" for
// the series, "t" for the trade-off (the page's data-plots attribute).
func writeRunSection(b *strings.Builder, d *pageData, plan *frame, r *run) string {
	i := r.i
	plots := ""
	fmt.Fprintf(b, `<h3><bdi>%s</bdi> <a class="close" href="#index">close ×</a></h3>`, esc(shortName(r.name)))
	var facts []string
	facts = append(facts, bdi(plan.s(i, "benchmark")))
	if p := plan.opt(i, "params"); p != "" {
		facts = append(facts, "params "+bdi(p))
	}
	if m := plan.opt(i, "mode"); m != "" {
		facts = append(facts, "mode "+esc(m))
	}
	if v := plan.opt(i, "version"); v != "" {
		facts = append(facts, "version "+bdi(v))
	}
	if p := plan.opt(i, "project"); p != "" {
		facts = append(facts, "project "+bdi(p))
	}
	if p := plan.s(i, "path"); p != "" {
		facts = append(facts, "path "+esc(p))
	}
	fmt.Fprintf(b, `<p class="full">%s</p>`, strings.Join(facts, " · "))
	status := plan.s(i, "status")
	if plan.s(i, "path") == "duet" {
		v := plan.s(i, "duet_verdict")
		if v == "" {
			v = "no verdict: " + plan.s(i, "warnings")
		}
		fmt.Fprintf(b, `<p class="verdict">Duet run: no configuration to recommend (A and B run together). The duet analysis finds %s; its section compares A and B.</p>`, esc(v))
		return plots
	}
	fmt.Fprintf(b, `<p class="verdict"><b>%s.</b> %s</p>`, esc(status), esc(runSentence(plan, i, r.su)))
	if reason := plan.s(i, "reason"); reason != "" {
		b.WriteString(`<details class="why"><summary>Why (the plan's reason)</summary><ul>`)
		for _, part := range strings.Split(reason, "; ") {
			fmt.Fprintf(b, `<li>%s</li>`, esc(part))
		}
		b.WriteString(`</ul></details>`)
	}
	writeRunTable(b, plan, r)
	if c := plan.s(i, "command"); c != "" {
		fmt.Fprintf(b, `<p>Run: <code dir="ltr">%s</code></p>`, esc(c))
	}
	writeRunChange(b, d, plan, r)
	if dp := runDensity(plan, r); dp != "" {
		b.WriteString(`<figure>` + dp + `</figure>`)
		plots += "d"
	}
	if len(r.series) > 0 {
		note := ""
		if plan.s(i, "path") == "stated-warmup" {
			if wi := plan.n(i, "recorded_warmup_iterations"); wi > 0 {
				note = fmt.Sprintf("each fork ran %g warmup iterations before these (JMH does not record them)", wi)
			}
		}
		b.WriteString(`<figure>` + seriesPlot(fmt.Sprintf("Observations in recorded order per fork (%s, %s)", r.su.name(), r.su.better()), r.su.name(), note, r.series) + `</figure>`)
		plots += "s"
	}
	if tp := runTradeoff(d, plan, r); tp != "" {
		b.WriteString(`<figure>` + tp + `</figure>`)
		plots += "t"
	}
	if w := plan.s(i, "warnings"); w != "" {
		b.WriteString(`<ul class="warn">`)
		for _, part := range strings.Split(w, " | ") {
			fmt.Fprintf(b, `<li>%s</li>`, esc(part))
		}
		b.WriteString(`</ul>`)
	}
	return plots
}

// runSentence says in one sentence what trim recommends for plan row i:
// the configuration and the share of the time, and the slowdown the
// user's test still detects, recorded → recommended; or, when the
// recording is kept, what it detects and why nothing cheaper does.
func runSentence(plan *frame, i int, su scoreUnit) string {
	test := fmt.Sprintf("the %s test at α = %g", plan.s(i, "rule"), plan.n(i, "alpha"))
	rec, det := plan.n(i, "recorded_detectable_slowdown"), plan.n(i, "detectable_slowdown")
	if reduced(plan, i) {
		share := 1 - plan.n(i, "time_saved")
		target := plan.n(i, "target_detectable_slowdown")
		met := fmt.Sprintf("the target: %s or less", pct(target))
		if det > target*(1+1e-9) {
			// Met by the minimum effect: the plan's reason names it.
			met = fmt.Sprintf("above the %s that --keep asks, but %s", pct(target), minEffectOf(plan.s(i, "reason")))
		}
		return fmt.Sprintf("Run %s instead of %s: %s of the time (%s instead of %s). Under %s it still detects a %s slowdown in 80 %% of A/B runs (the recording: %s; %s).",
			configText(plan, i, ""), configText(plan, i, "recorded_"), pct(share), human(plan.n(i, "time_s")), human(plan.n(i, "recorded_time_s")),
			test, pct(det), pct(rec), met)
	}
	switch {
	case strings.HasPrefix(plan.s(i, "status"), "unreliable"):
		return fmt.Sprintf("Keep %s: fewer than half of the forks reach a steady state, so the mean depends on how long a fork runs. Under %s the recording detects a %s slowdown.",
			configText(plan, i, "recorded_"), test, pct(rec))
	case math.IsInf(rec, 1):
		return fmt.Sprintf("Keep %s: with so few values %s cannot report a change at any configuration of this recording; record more (the warnings say how many).",
			configText(plan, i, "recorded_"), test)
	case math.IsNaN(rec):
		return fmt.Sprintf("Keep %s: the observations do not vary enough to estimate a precision (see why).", configText(plan, i, "recorded_"))
	}
	return fmt.Sprintf("Keep %s (%s): under %s the recording detects a %s slowdown in 80 %% of A/B runs, and no configuration that saves at least 1 %% of the time detects %s or less.",
		configText(plan, i, "recorded_"), human(plan.n(i, "recorded_time_s")), test, pct(rec), pct(plan.n(i, "target_detectable_slowdown")))
}

// minEffectOf is the minimum-effect rule as the plan's reason states its
// target ("… or 3.0 % in 99 % of runs, …"): "it finds a 3.0 % slowdown in
// 99 % of A/B runs (--min-effect)".
func minEffectOf(reason string) string {
	_, t, ok := strings.Cut(reason, "(target: ")
	_, t, ok1 := strings.Cut(t, " or ")
	if pctText, rest, ok2 := strings.Cut(t, " in "); ok && ok1 && ok2 {
		if share, _, ok3 := strings.Cut(rest, " of runs"); ok3 {
			return fmt.Sprintf("it finds a %s slowdown in %s of A/B runs of new forks (--min-effect)", pctText, share)
		}
	}
	return "it finds the --min-effect slowdown in 99 % of A/B runs of new forks"
}

// writeRunTable is the run's configurations side by side: recorded,
// recommended (when cheaper) and the fixed minimum, with time, score
// (JMH's Score ± Error in the file's unit, or the mean), median, CI of
// the mean and detectable slowdown.
func writeRunTable(b *strings.Builder, plan *frame, r *run) {
	i := r.i
	type col struct {
		name, config, time, score, median, ci, detects, change string
	}
	rec, rcm := r.dists["recorded"], r.dists["recommended"]
	scoreOf := func(v *violin) (string, string) {
		if v == nil {
			return "–", "–"
		}
		s, e := v.score, v.scoreErr
		if !r.su.fixed() || math.IsNaN(s) || v.unit != r.su.unit {
			s, e = r.su.of(v.mean), math.NaN()
		}
		return scoreText(s, e, r.su.name()), num(r.su.of(v.quantile(0.5))) + " " + r.su.name()
	}
	cols := []col{{name: "recorded", config: configText(plan, i, "recorded_"), time: human(plan.n(i, "recorded_time_s")),
		ci: "±" + pct(plan.n(i, "recorded_precision")), detects: pct(plan.n(i, "recorded_detectable_slowdown")), change: "(the reference)"}}
	cols[0].score, cols[0].median = scoreOf(rec)
	if reduced(plan, i) {
		c := col{name: "recommended", config: configText(plan, i, ""), time: human(plan.n(i, "time_s")),
			ci: "±" + pct(plan.n(i, "precision")), detects: pct(plan.n(i, "detectable_slowdown")), change: pct(plan.n(i, "change_rate"))}
		c.score, c.median = scoreOf(rcm)
		cols = append(cols, c)
	}
	if m := plan.n(i, "minimum_time_s"); !math.IsNaN(m) {
		cols = append(cols, col{name: "fixed minimum", config: minimumText(plan.s(i, "tool")), time: human(m), score: "–", median: "–",
			ci: "±" + pct(plan.n(i, "minimum_precision")), detects: pct(plan.n(i, "minimum_detectable_slowdown")), change: pct(plan.n(i, "minimum_change_rate"))})
	}
	scoreName := "score ± error (JMH, 99.9 %)"
	if !jmhModes[plan.opt(i, "mode")] || !r.su.fixed() {
		scoreName = "mean"
	}
	b.WriteString(`<div class="wide"><table class="kv"><tr><th></th>`)
	for _, c := range cols {
		fmt.Fprintf(b, `<th>%s</th>`, c.name)
	}
	b.WriteString(`</tr>`)
	row := func(name string, get func(col) string) {
		fmt.Fprintf(b, `<tr><th>%s</th>`, esc(name))
		for _, c := range cols {
			fmt.Fprintf(b, `<td>%s</td>`, esc(get(c)))
		}
		b.WriteString(`</tr>`)
	}
	row("configuration", func(c col) string { return c.config })
	row("time", func(c col) string { return c.time })
	row(scoreName, func(c col) string { return c.score })
	row("median", func(c col) string { return c.median })
	row("99 % CI of the mean", func(c col) string { return c.ci })
	row("detects (80 % of A/B runs)", func(c col) string { return c.detects })
	row("in-sample change of the estimate", func(c col) string { return c.change })
	b.WriteString(`</table></div>`)
}

// minimumText is the fixed minimal configuration of a tool.
func minimumText(tool string) string {
	if tool == "go" {
		return "-count 3"
	}
	return "1 fork × 5 iterations"
}

// runDensity is the density plot of r's distributions (recorded,
// recommended, the previous version's recorded one), "" without any.
func runDensity(plan *frame, r *run) string {
	var ds []density
	add := func(v *violin, label, color string, dashed bool) {
		if v == nil || len(v.q) == 0 {
			return
		}
		pts := make([]float64, len(v.q))
		for j, q := range v.q {
			pts[j] = r.su.of(q)
		}
		mean := r.su.of(v.mean)
		if r.su.fixed() && !math.IsNaN(v.score) && v.unit == r.su.unit {
			mean = v.score
		}
		ds = append(ds, density{label: fmt.Sprintf("%s (%g values)", label, v.n), color: color, pts: pts, n: v.n, mean: mean,
			median: r.su.of(v.quantile(0.5)), dashed: dashed})
	}
	add(r.dists["recorded"], "recorded", colorRec, false)
	add(r.dists["recommended"], "recommended", colorRcm, false)
	if r.prev != nil {
		add(r.prev, "previous version "+r.prev.version, colorB, true)
	}
	if len(ds) == 0 {
		return ""
	}
	return densityPlot(fmt.Sprintf("Density of the observations after the warmup (%s, %s)", r.su.name(), r.su.better()), r.su.name(), ds)
}

// runTradeoff is the plot of detectable slowdown against time for the
// configurations trim considered for r, the recorded one and the fixed
// minimum, "" when trim considered none.
func runTradeoff(d *pageData, plan *frame, r *run) string {
	cf := d.frame(trim.FrameConsidered)
	if cf == nil || len(r.considered) == 0 {
		return ""
	}
	i := r.i
	unit, div := "s", 1.0
	if plan.n(i, "recorded_time_s") >= 180 {
		unit, div = "min", 60
	}
	var pts []tradePoint
	chosen := false
	for _, j := range r.considered {
		k := "considered"
		if cf.s(j, "met") == "true" && reduced(plan, i) && !chosen {
			k, chosen = "chosen", true
		}
		label := configOf(plan.s(i, "tool"), int(cf.n(j, "instances")), int(cf.n(j, "trials")), int(cf.n(j, "forks")), 0, int(cf.n(j, "iterations")), int(cf.n(j, "slices")))
		pts = append(pts, tradePoint{x: cf.n(j, "time_s") / div, y: cf.n(j, "detectable_slowdown"), label: label, kind: k})
	}
	pts = append(pts, tradePoint{x: plan.n(i, "recorded_time_s") / div, y: plan.n(i, "recorded_detectable_slowdown"), label: configText(plan, i, "recorded_"), kind: "recorded"})
	if m := plan.n(i, "minimum_time_s"); !math.IsNaN(m) {
		pts = append(pts, tradePoint{x: m / div, y: plan.n(i, "minimum_detectable_slowdown"), label: minimumText(plan.s(i, "tool")), kind: "minimum"})
	}
	return tradeoffPlot(fmt.Sprintf("Detectable slowdown against time: the %d configurations trim tried; the chosen one is the cheapest that met the target", len(r.considered)),
		"time per run of the benchmark ("+unit+")", pts, plan.n(i, "target_detectable_slowdown"), nil)
}

// writeRunChange is the run's comparison with the previous version of its
// project: the user's test's verdict, the U test's p-value against α, the
// ratio of means with its CI, and the noise threshold (the slowdown the
// recording detects in 80 % of A/B runs: smaller changes are within its
// noise).
func writeRunChange(b *strings.Builder, d *pageData, plan *frame, r *run) {
	cf := d.frame(trim.FrameCompare)
	i := r.i
	if cf == nil {
		return
	}
	if r.cmp < 0 {
		if plan.opt(i, "previous_version") == "" {
			fmt.Fprintf(b, `<p class="change">No previous version: this is the first version of %s in the input.</p>`, bdi(plan.opt(i, "project")))
		} else {
			fmt.Fprintf(b, `<p class="change">Not compared with %s (not in that version, or not comparable).</p>`, bdi(plan.opt(i, "previous_version")))
		}
		return
	}
	j := r.cmp
	if e := cf.s(j, "error"); e != "" {
		fmt.Fprintf(b, `<p class="change">Against %s: not compared (%s).</p>`, bdi(cf.s(j, "base")), esc(e))
		return
	}
	ratio := cf.n(j, "ratio")
	p := optNum(cf, j, "u_pvalue")
	alpha := plan.n(i, "alpha")
	test := plan.s(i, "rule")
	pText := ""
	if !math.IsNaN(p) {
		rel := "≤"
		if p > alpha {
			rel = ">"
		}
		pText = fmt.Sprintf("; U test p = %s %s α = %g", pval(p), rel, alpha)
	}
	scoreNote := ""
	if r.su.thrpt && ratio > 0 {
		scoreNote = fmt.Sprintf(" (the score changes by %s)", signed(1/ratio-1))
	}
	fmt.Fprintf(b, `<p class="change">Against %s, by the %s test: <b>%s</b>%s; time per operation %s of the previous, %s CI [%s, %s]%s. `+
		`Noise threshold: the recording detects a %s slowdown in 80 %% of A/B runs; a smaller change is within its noise.</p>`,
		bdi(cf.s(j, "base")), esc(test), esc(cf.s(j, "verdict")), pText, num(ratio)+"×", level(1-alpha), num(cf.n(j, "ratio_ci_lower")), num(cf.n(j, "ratio_ci_upper")), scoreNote,
		pct(plan.n(i, "recorded_detectable_slowdown")))
}
