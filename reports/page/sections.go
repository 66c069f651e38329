package page

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The page's sections on the analyses behind the answer: steady state,
// the versions compared, CROPS and the methods side by side.

// writeSteady is the steady-state section.
func writeSteady(b *strings.Builder, plan, forks, series, segs *frame) {
	b.WriteString(`<section id="steady"><h2>Steady state: where warmup ends</h2>`)
	if series != nil {
		b.WriteString(`<p>Worst forks first (benchmarks without a steady state, then the latest steady-state start relative to the fork's length). ` +
			`Grey: iteration values (numbered from 1, as JMH numbers them); blue: segment means (PELT); green: steady-state start st; red: recommended warmup W. ` +
			`The y-range is the 1–99 % quantile range widened by 10 %; values beyond it are clipped and marked by triangles.</p><div class="multiples">`)
		type panelKey struct{ k, f string }
		panels := map[panelKey]*forkPanel{}
		var order []panelKey
		for i := range series.Cells {
			pk := panelKey{series.key(i), series.s(i, "instance") + "/" + series.s(i, "trial") + "/" + series.s(i, "fork")}
			p := panels[pk]
			if p == nil {
				st, _ := strconv.Atoi(series.s(i, "st_index"))
				w, _ := strconv.Atoi(series.s(i, "warmup_iterations"))
				class := series.s(i, "class")
				title := fmt.Sprintf("%s fork %s: %s", shortName(series.name(i)), series.s(i, "fork"), class)
				if class == "steady state" {
					// st is 0-based: the first steady iteration is number st + 1.
					title = fmt.Sprintf("%s fork %s: steady from iteration %d, W %d", shortName(series.name(i)), series.s(i, "fork"), st+1, w)
				} else {
					st = -1
				}
				p = &forkPanel{title: title, st: st, w: w}
				panels[pk] = p
				order = append(order, pk)
			}
			p.iter = append(p.iter, series.n(i, "iteration"))
			p.values = append(p.values, series.n(i, "value_ns"))
		}
		if segs != nil {
			for i := range segs.Cells {
				pk := panelKey{segs.key(i), segs.s(i, "instance") + "/" + segs.s(i, "trial") + "/" + segs.s(i, "fork")}
				if p := panels[pk]; p != nil {
					p.segments = append(p.segments, [3]float64{segs.n(i, "start"), segs.n(i, "end"), segs.n(i, "mean_ns")})
				}
			}
		}
		for n, pk := range order {
			if n == openForkPanels {
				fmt.Fprintf(b, `</div><details class="fold"><summary>%d more forks</summary><div class="multiples">`, len(order)-openForkPanels)
			}
			b.WriteString(`<figure>` + panels[pk].svg() + `</figure>`)
		}
		b.WriteString(`</div>`)
		if len(order) > openForkPanels {
			b.WriteString(`</details>`)
		}
	}
	// Steady-state starts vs the recorded warmup, per benchmark.
	var labels []string
	var stMax, wRec, wRcm []float64
	for i := range plan.Cells {
		if plan.s(i, "path") != "steady" {
			continue
		}
		ends := parseList(plan.s(i, "warmup_ends"))
		if len(ends) == 0 {
			continue
		}
		labels = append(labels, plan.name(i))
		stMax = append(stMax, maxOf(ends))
		wRec = append(wRec, plan.n(i, "recorded_warmup_iterations"))
		wRcm = append(wRcm, plan.n(i, "warmup_iterations"))
	}
	if len(labels) > 0 {
		n := min(len(labels), maxBars)
		title := fmt.Sprintf("Recorded warmup vs latest steady-state start and recommended W (%d of %d runs)", n, len(labels))
		b.WriteString(fold(title, `<figure>`+hbars(title,
			"iterations", labels[:n], []hbarSeries{{"latest st", colorSteady, stMax[:n]}, {"recorded warmup", colorRec, wRec[:n]}, {"recommended W", colorWarn, wRcm[:n]}}, nil)+`</figure>`))
	}
	// Classes per benchmark.
	type cls struct{ forks, steady, not int }
	byKey := map[string]*cls{}
	names := map[string]string{}
	var order []string
	for i := range forks.Cells {
		k := forks.key(i)
		if byKey[k] == nil {
			byKey[k] = &cls{}
			names[k] = forks.name(i)
			order = append(order, k)
		}
		c := byKey[k]
		c.forks++
		switch forks.s(i, "class") {
		case "steady state":
			c.steady++
		case "no steady state":
			c.not++
		}
	}
	fmt.Fprintf(b, `<details class="fold"><summary>Steady-state classes per benchmark run (%d rows)</summary><input class="filter" data-table="classes" placeholder="filter rows"><div class="wide"><table class="sortable" id="classes"><thead><tr><th>benchmark</th><th>forks</th><th>steady</th><th>no steady state</th><th>class</th></tr></thead><tbody>`, len(order))
	for _, k := range order {
		c := byKey[k]
		class := "inconsistent"
		switch {
		case c.steady == c.forks:
			class = "steady state"
		case c.steady == 0:
			class = "no steady state"
		}
		fmt.Fprintf(b, `<tr><td>%s</td><td data-v="%d">%d</td><td data-v="%d">%d</td><td data-v="%d">%d</td><td>%s</td></tr>`, bdi(names[k]), c.forks, c.forks, c.steady, c.steady, c.not, c.not, class)
	}
	b.WriteString("</tbody></table></div></details></section>\n")
}

func parseList(s string) []float64 {
	var out []float64
	for _, p := range strings.Split(s, ";") {
		if v, err := strconv.ParseFloat(strings.TrimSpace(p), 64); err == nil {
			out = append(out, v)
		}
	}
	return out
}

func maxOf(x []float64) float64 {
	m := math.Inf(-1)
	for _, v := range x {
		m = math.Max(m, v)
	}
	return m
}

// writeCompare is the A/B section: a forest plot of the ratios and the verdicts.
func writeCompare(b *strings.Builder, cf *frame) {
	b.WriteString(`<section id="compare"><h2>Versions compared (A/B)</h2>`)
	pairs := map[string][]int{}
	var order []string
	for i := range cf.Cells {
		k := cf.s(i, "project") + " " + cf.s(i, "base") + " → " + cf.s(i, "test")
		if pairs[k] == nil {
			order = append(order, k)
		}
		pairs[k] = append(pairs[k], i)
	}
	for _, k := range order {
		rows := pairs[k]
		// Largest change first.
		stableSort(rows, func(a, c int) bool { return math.Abs(cf.n(a, "ratio")-1) > math.Abs(cf.n(c, "ratio")-1) })
		shown := rows[:min(len(rows), maxBars)]
		var labels []string
		var pts [][3]float64
		for _, i := range shown {
			labels = append(labels, cf.name(i))
			pts = append(pts, [3]float64{cf.n(i, "ratio"), cf.n(i, "ratio_ci_lower"), cf.n(i, "ratio_ci_upper")})
		}
		title := fmt.Sprintf("Ratio of means %s with its CI (%d of %d, largest change first)", k, len(shown), len(rows))
		b.WriteString(fold(title, `<figure>`+forest(title, labels, pts)+`</figure>`))
	}
	fmt.Fprintf(b, `<details class="fold"><summary>Every comparison (%d rows)</summary><input class="filter" data-table="cmp" placeholder="filter rows"><div class="wide"><table class="sortable" id="cmp"><thead><tr><th>versions</th><th>benchmark</th><th>ratio</th><th>CI</th><th>verdict</th></tr></thead><tbody>`, len(cf.Cells))
	for i := range cf.Cells {
		ci := ""
		if !math.IsNaN(cf.n(i, "ratio_ci_lower")) {
			ci = fmt.Sprintf("[%.4f, %.4f]", cf.n(i, "ratio_ci_lower"), cf.n(i, "ratio_ci_upper"))
		}
		v := cf.s(i, "verdict")
		if v == "" {
			v = cf.s(i, "error")
		}
		fmt.Fprintf(b, `<tr><td>%s → %s</td><td>%s</td>%s<td>%s</td><td>%s</td></tr>`, bdi(cf.s(i, "base")), bdi(cf.s(i, "test")), bdi(cf.name(i)),
			numCell(cf.n(i, "ratio"), ""), esc(ci), esc(v))
	}
	b.WriteString("</tbody></table></div></details></section>\n")
}

// maxElbows bounds the CROPS elbow panels.
const maxElbows = 8

// openForkPanels is how many fork panels (series, elbows) show unfolded;
// the others are folded.
const openForkPanels = 2

// writeCROPS is the changepoint section: the CROPS elbow of the plotted
// forks (number of change points against the penalty) with the chosen
// penalty.
func writeCROPS(b *strings.Builder, cf *frame) {
	b.WriteString(`<section id="changepoint"><h2>Change points: the CROPS elbow</h2><p>For the forks plotted above: ` +
		`the number of change points PELT finds at each penalty CROPS visits, and the penalty Kneedle chose (red). ` +
		`The x axis is logarithmic.</p><div class="multiples">`)
	type panel struct {
		title    string
		pen, ncp []float64
		chosen   float64
	}
	panels := map[string]*panel{}
	var order []string
	for i := range cf.Cells {
		k := cf.key(i) + "/" + cf.s(i, "instance") + "/" + cf.s(i, "trial") + "/" + cf.s(i, "fork")
		p := panels[k]
		if p == nil {
			p = &panel{title: fmt.Sprintf("%s fork %s", shortName(cf.name(i)), cf.s(i, "fork")), chosen: cf.n(i, "chosen_penalty")}
			panels[k] = p
			order = append(order, k)
		}
		p.pen = append(p.pen, cf.n(i, "penalty"))
		p.ncp = append(p.ncp, cf.n(i, "changepoint_count"))
	}
	for n, k := range order[:min(len(order), maxElbows)] {
		if n == openForkPanels {
			fmt.Fprintf(b, `</div><details class="fold"><summary>%d more elbows</summary><div class="multiples">`, min(len(order), maxElbows)-openForkPanels)
		}
		p := panels[k]
		title := p.title
		if !math.IsNaN(p.chosen) {
			title += fmt.Sprintf(": penalty %.3g", p.chosen)
		} else {
			title += ": none chosen"
		}
		b.WriteString(`<figure>` + elbow(title, p.pen, p.ncp, p.chosen) + `</figure>`)
	}
	b.WriteString(`</div>`)
	if min(len(order), maxElbows) > openForkPanels {
		b.WriteString(`</details>`)
	}
	b.WriteString(`<details class="fold"><summary>Penalties per fork</summary><div class="wide"><table class="sortable" id="crops"><thead><tr><th>fork</th><th>penalties visited</th><th>change points (most … fewest)</th><th>chosen penalty</th></tr></thead><tbody>`)
	for _, k := range order {
		p := panels[k]
		lo, hi := maxOf(p.ncp), -maxOf(neg(p.ncp))
		fmt.Fprintf(b, `<tr><td>%s</td><td data-v="%d">%d</td><td>%g … %g</td>%s</tr>`, bdi(p.title), len(p.pen), len(p.pen), lo, hi, numCell(p.chosen, ""))
	}
	b.WriteString("</tbody></table></div></details></section>\n")
}

func neg(x []float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = -v
	}
	return out
}

// writeMethods compares, over every run with a configuration, trim's
// choice with the fixed minimal configuration on the same data: time,
// in-sample change, out-of-sample split error and verdicts, and the
// median detectable slowdown.
func writeMethods(b *strings.Builder, plan *frame) {
	type method struct{ name, time, change, split, agree, detect string }
	methods := []method{{"trim", "time_s", "change_rate", "split_error_median", "split_agreement", "detectable_slowdown"},
		{"fixed minimum (Go: 1 instance × 1 trial × 3 iterations; JMH: 1 fork × 5 iterations)", "minimum_time_s", "minimum_change_rate",
			"minimum_split_error_median", "minimum_split_agreement", "minimum_detectable_slowdown"}}
	var rows []int
	for i := range plan.Cells {
		if !math.IsNaN(plan.n(i, "minimum_time_s")) {
			rows = append(rows, i)
		}
	}
	if len(rows) == 0 {
		return
	}
	b.WriteString(`<h3>trim against the fixed minimal configuration</h3>` +
		`<div class="wide"><table class="sortable" id="methods"><thead><tr><th>method</th><th>runs</th><th>time before</th><th>time after</th><th>saved</th><th>in-sample within 5 %</th><th>out-of-sample median error</th><th>verdicts agree</th><th>median detects</th></tr></thead><tbody>`)
	for _, m := range methods {
		var before, after, agree, splits float64
		var within int
		var errs, det []float64
		for _, i := range rows {
			before += plan.n(i, "recorded_time_s")
			t := plan.n(i, m.time)
			if math.IsNaN(t) {
				t = plan.n(i, "recorded_time_s") // kept: the recorded configuration runs
			}
			after += t
			if c := plan.n(i, m.change); math.IsNaN(c) || c <= 0.05 {
				within++
			}
			if n := plan.n(i, "splits"); n > 0 {
				errs = append(errs, plan.n(i, m.split))
				agree += n * plan.n(i, m.agree)
				splits += n
			}
			det = append(det, plan.n(i, m.detect))
		}
		ag := math.NaN()
		if splits > 0 {
			ag = agree / splits
		}
		n := len(rows)
		fmt.Fprintf(b, `<tr><td>%s</td><td data-v="%d">%d</td>%s%s%s%s%s%s%s</tr>`, esc(m.name), n, n,
			numCell(before, human(before)), numCell(after, human(after)), numCell(1-after/before, pct(1-after/before)),
			numCell(float64(within)/float64(n), pct(float64(within)/float64(n))), numCell(median(errs), pct(median(errs))),
			numCell(ag, pct(ag)), numCell(median(det), pct(median(det))))
	}
	b.WriteString(`</tbody></table></div>`)
}
