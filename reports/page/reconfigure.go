package page

import (
	"fmt"
	"math"
	"strings"
)

// criterionColors colour the reconfiguration criteria in the order they
// first appear (CV, RCIW, KLD with trim's defaults).
var criterionColors = []string{colorRcm, colorSteady, colorB, "#9334e6"}

// criterionRow sums one criterion over the replayed benchmarks of the
// reconfigure frame, as reconfigure's Tables 2 and 3 do.
type criterionRow struct {
	name                       string
	benchmarks, forks          int
	static, dynamic, warmupSum float64
	aaTested, notDifferent     int
	changeSum                  float64
	below3                     int
}

// criterionRows aggregates rf per criterion, in the order of first
// appearance (the first is the one trim's warmup comes from).
func criterionRows(rf *frame) []*criterionRow {
	var out []*criterionRow
	by := map[string]*criterionRow{}
	for i := range rf.Cells {
		c := rf.s(i, "criterion")
		if rf.s(i, "skipped") != "" || c == "" {
			continue
		}
		r := by[c]
		if r == nil {
			r = &criterionRow{name: c}
			by[c] = r
			out = append(out, r)
		}
		r.benchmarks++
		r.static += rf.n(i, "static_s")
		r.dynamic += rf.n(i, "dynamic_s")
		for _, w := range parseList(rf.s(i, "warmup_iterations_by_fork")) {
			r.warmupSum += w
			r.forks++
		}
		switch rf.s(i, "aa") {
		case "not_different":
			r.notDifferent++
			fallthrough
		case "different":
			r.aaTested++
			ch := rf.n(i, "change_rate")
			r.changeSum += ch
			if ch < 0.03 {
				r.below3++
			}
		}
	}
	return out
}

// writeReconfigure is the dynamic reconfiguration section: per criterion
// the time saved and the A/A result quality (table and plot), the warmup
// stop points per benchmark and criterion, the A/A ratios with their CIs,
// and the per-benchmark rows.
func writeReconfigure(b *strings.Builder, rf *frame) {
	b.WriteString(`<section id="reconfigure"><h2>Dynamic reconfiguration: warmup stop points (short forks)</h2>`)
	rows := criterionRows(rf)
	if len(rows) > 0 {
		var names []string
		for _, r := range rows {
			names = append(names, strings.ToUpper(r.name))
		}
		fmt.Fprintf(b, `<p>Dynamic reconfiguration (Laaber et al., ESEC/FSE 2020) replays each benchmark run whose forks are too short for steady-state detection: `+
			`per fork, the warmup stops once the criterion is stable, forks stop once it is stable across forks. Criteria replayed: %s. `+
			`trim's warmup W comes from the stop points of <b>%s</b> (the first criterion); the others show what a different criterion would stop at. `+
			`A/A: the hierarchical bootstrap CI of mean(dynamic)/mean(static baseline) contains 1 (not different) or not.</p>`,
			esc(strings.Join(names, ", ")), esc(names[0]))
		b.WriteString(`<div class="wide"><table class="sortable" id="reconf-criteria"><thead><tr><th>criterion</th><th>benchmark runs</th><th>static baseline</th><th>dynamic</th>` +
			`<th>saved</th><th>mean warmup stop point</th><th>A/A tested</th><th>not different</th><th>mean change</th><th>change &lt; 3 %</th></tr></thead><tbody>`)
		var labels []string
		var static, dyn []float64
		for j, r := range rows {
			saved := math.NaN()
			if r.static > 0 {
				saved = 1 - r.dynamic/r.static
			}
			warm, nd, ch, b3 := math.NaN(), math.NaN(), math.NaN(), math.NaN()
			if r.forks > 0 {
				warm = r.warmupSum / float64(r.forks)
			}
			if r.aaTested > 0 {
				nd, ch, b3 = float64(r.notDifferent)/float64(r.aaTested), r.changeSum/float64(r.aaTested), float64(r.below3)/float64(r.aaTested)
			}
			name := names[j]
			if j == 0 {
				name += " (trim's warmup)"
			}
			fmt.Fprintf(b, `<tr><td>%s</td>%s%s%s%s%s%s%s%s%s</tr>`, esc(name), numCell(float64(r.benchmarks), ""),
				numCell(r.static, human(r.static)), numCell(r.dynamic, human(r.dynamic)), numCell(saved, pct(saved)),
				numCell(warm, ""), numCell(float64(r.aaTested), ""), numCell(nd, pct(nd)), numCell(ch, pct(ch)), numCell(b3, pct(b3)))
			labels = append(labels, name)
			static, dyn = append(static, r.static/60), append(dyn, r.dynamic/60)
		}
		b.WriteString(`</tbody></table></div>`)
		b.WriteString(`<figure>` + hbars("Suite time per criterion: static baseline vs dynamic reconfiguration (short-fork runs)", "execution time (min)", labels,
			[]hbarSeries{{"static baseline", colorRec, static}, {"dynamic", colorRcm, dyn}}, nil) + `</figure>`)
		writeStopPoints(b, rf, rows, names)
		writeAA(b, rf, names)
	}
	fmt.Fprintf(b, `<details class="fold"><summary>Per benchmark run and criterion (%d rows)</summary><input class="filter" data-table="reconf" placeholder="filter rows">`, len(rf.Cells))
	b.WriteString(`<div class="wide"><table class="sortable" id="reconf"><thead><tr><th>benchmark</th><th>criterion</th><th>warmup stop points</th><th>forks used</th><th>A/A</th><th>ratio</th><th>change</th><th>dynamic</th><th>static</th></tr></thead><tbody>`)
	for i := range rf.Cells {
		fmt.Fprintf(b, `<tr><td>%s</td><td>%s</td><td>%s</td>%s<td>%s</td>%s%s%s%s</tr>`, bdi(rf.name(i)), esc(strings.ToUpper(rf.s(i, "criterion"))),
			esc(strings.ReplaceAll(rf.s(i, "warmup_iterations_by_fork"), ";", ", ")), numCell(rf.n(i, "forks_used"), ""), esc(strings.ReplaceAll(rf.s(i, "aa"), "_", " ")),
			numCell(rf.n(i, "ratio"), ""), numCell(rf.n(i, "change_rate"), pct(rf.n(i, "change_rate"))),
			numCell(rf.n(i, "dynamic_s"), human(rf.n(i, "dynamic_s"))), numCell(rf.n(i, "static_s"), human(rf.n(i, "static_s"))))
	}
	b.WriteString("</tbody></table></div></details></section>\n")
}

// writeStopPoints plots, per benchmark run, the mean warmup stop point of
// each criterion (grouped bars).
func writeStopPoints(b *strings.Builder, rf *frame, rows []*criterionRow, names []string) {
	col := map[string]int{}
	for j, r := range rows {
		col[r.name] = j
	}
	type run struct {
		name string
		stop []float64
	}
	byKey := map[string]*run{}
	var order []string
	for i := range rf.Cells {
		j, ok := col[rf.s(i, "criterion")]
		if !ok || rf.s(i, "skipped") != "" {
			continue
		}
		k := rf.key(i)
		r := byKey[k]
		if r == nil {
			r = &run{name: rf.name(i), stop: make([]float64, len(rows))}
			for c := range r.stop {
				r.stop[c] = math.NaN()
			}
			byKey[k] = r
			order = append(order, k)
		}
		if w := parseList(rf.s(i, "warmup_iterations_by_fork")); len(w) > 0 {
			var s float64
			for _, v := range w {
				s += v
			}
			r.stop[j] = s / float64(len(w))
		}
	}
	n := min(len(order), maxBars)
	if n == 0 {
		return
	}
	var labels []string
	series := make([]hbarSeries, len(rows))
	for j := range rows {
		series[j] = hbarSeries{names[j], criterionColors[j%len(criterionColors)], nil}
	}
	for _, k := range order[:n] {
		labels = append(labels, byKey[k].name)
		for j := range rows {
			series[j].values = append(series[j].values, byKey[k].stop[j])
		}
	}
	title := fmt.Sprintf("Warmup stop point per benchmark run and criterion, mean over the forks run (%d of %d runs)", n, len(order))
	b.WriteString(fold(title, `<figure>`+hbars(title, "warmup iterations before measurement (mean over forks)", labels, series, nil)+`</figure>`))
}

// writeAA draws the A/A ratios mean(dynamic)/mean(static) with their CIs
// per benchmark run and criterion, when any A/A test ran.
func writeAA(b *strings.Builder, rf *frame, names []string) {
	var labels []string
	var pts [][3]float64
	total := 0
	for i := range rf.Cells {
		if a := rf.s(i, "aa"); a != "different" && a != "not_different" {
			continue
		}
		total++
		if len(labels) < maxBars {
			labels = append(labels, shortName(rf.name(i))+" ("+strings.ToUpper(rf.s(i, "criterion"))+")")
			pts = append(pts, [3]float64{rf.n(i, "ratio"), rf.n(i, "ratio_ci_lower"), rf.n(i, "ratio_ci_upper")})
		}
	}
	if total == 0 {
		fmt.Fprintf(b, `<p>No A/A test ran (the data hold less than the static baseline needs).</p>`)
		return
	}
	title := fmt.Sprintf("A/A: mean(dynamic) / mean(static baseline) with its CI per run and criterion (%d of %d)", len(labels), total)
	b.WriteString(fold(title, `<figure>`+intervals(title, "ratio dynamic / static (dashed: 1, the same result)", "ratio", 1, labels, pts)+`</figure>`))
}
