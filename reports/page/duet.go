package page

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/reports/chart"
)

// Colours of the duet plots: pair A, pair B, the U test's curve.
const (
	colorA = "#1a73e8"
	colorB = "#e8710a"
)

// duetTypes are the duet types in the order the page shows them.
var duetTypes = []string{"seqn", "syncduet", "duet"}

// duetName is a duet key's benchmark as the page names it: suite/benchmark
// (with @version), its type, and the environment when withEnv and not
// empty.
func duetName(f *frame, i int, withEnv bool) string {
	n := f.s(i, "suite") + "/" + f.s(i, "benchmark")
	if v := f.s(i, "version"); v != "" {
		n += "@" + v
	}
	n += " " + f.s(i, "type")
	if e := f.s(i, "environment"); e != "" && withEnv {
		n += " (" + e + ")"
	}
	return n
}

// environments lists the distinct environments of f, in order.
func environments(f *frame) []string {
	var out []string
	seen := map[string]bool{}
	for i := range f.Cells {
		if e := f.s(i, "environment"); !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out
}

func duetKey(f *frame, i int) string {
	return strings.Join([]string{f.s(i, "environment"), f.s(i, "suite"), f.s(i, "benchmark"), f.s(i, "version"), f.s(i, "type")}, "\x00")
}

// verdictWords turns duet's CI verdict into which pair is faster.
func verdictWords(v string) string {
	switch v {
	case "A faster":
		return "A faster (B slower)"
	case "A slower":
		return "B faster (A slower)"
	}
	return v
}

// writeDuet is the duet section: B against A per benchmark-env key with
// its CI (interval plot and table), the MDS curves per type (match ratio
// of the CI and U tests against an emulated slowdown of B), the timeline
// of one run per plotted duet key (A's and B's iterations with the paired
// overlaps), and the runtime speedup of duet against seqn.
func writeDuet(b *strings.Builder, bench, match, timeline, pairs, speedup *frame) {
	b.WriteString(`<section id="duet"><h2>Duet benchmarking: A against B</h2>`)
	conf := bench.n(0, "confidence")
	var diff, slower, faster int
	for i := range bench.Cells {
		switch bench.s(i, "verdict") {
		case "A faster":
			diff, slower = diff+1, slower+1
		case "A slower":
			diff, faster = diff+1, faster+1
		}
	}
	envs := environments(bench)
	withEnv := len(envs) > 1
	fmt.Fprintf(b, `<p class="answer">The CI test finds A and B different in <b>%d of %d</b> benchmark-env keys: B slower in %d, B faster in %d.</p>`,
		diff, len(bench.Cells), slower, faster)
	if !withEnv && envs[0] != "" {
		fmt.Fprintf(b, `<p>Environment: %s.</p>`, bdi(envs[0]))
	}
	fmt.Fprintf(b, `<p>Duet benchmarking runs versions A and B one after the other (seqn), side by side with synchronised iterations (syncduet) `+
		`or side by side unsynchronised (duet; iterations paired when they overlap by more than %s of each). Per benchmark, type and environment: `+
		`the %s BCa bootstrap CI (%s resamples) of the mean over runs of the paired differences A − B, shown as B against A, (B − A)/A; `+
		`the MDS curves show how often each test still calls A and B equal when B is slowed down by s, and its minimal detectable slowdown `+
		`(dashed: the smallest s from which on no key is called equal; every key counts, so keys where A and B already differ are detected from s = 0).</p>`, level(bench.n(0, "min_overlap_ratio")), level(conf), chart.TickLabel(bench.n(0, "resamples")))

	// B against A with its CI, largest difference first.
	idx := make([]int, len(bench.Cells))
	for i := range idx {
		idx[i] = i
	}
	size := func(i int) float64 {
		v := math.Abs(bench.n(i, "b_vs_a"))
		if math.IsNaN(v) {
			return -1
		}
		return v
	}
	stableSort(idx, func(a, c int) bool { return size(a) > size(c) })
	shown := idx[:min(len(idx), maxBars)]
	var labels []string
	var pts [][3]float64
	for _, i := range shown {
		labels = append(labels, duetName(bench, i, withEnv))
		pts = append(pts, [3]float64{100 * bench.n(i, "b_vs_a"), 100 * bench.n(i, "b_vs_a_ci_lower"), 100 * bench.n(i, "b_vs_a_ci_upper")})
	}
	title := fmt.Sprintf("B against A, (B − A)/A with its %s CI (%d of %d keys, largest difference first)", level(conf), len(shown), len(idx))
	b.WriteString(fold(title, `<figure>`+intervals(title, "B against A (%); > 0: B slower; dashed: 0, no difference", "B against A", 0, labels, pts)+`</figure>`))

	if match != nil {
		writeMDSCurves(b, match)
	}
	if timeline != nil {
		writeTimelines(b, bench, timeline, pairs, withEnv)
	}

	fmt.Fprintf(b, `<details class="fold"><summary>A/B result per benchmark-env key (%d rows)</summary><input class="filter" data-table="duet-keys" placeholder="filter rows (e.g. slower, seqn, a benchmark name)">`, len(idx))
	b.WriteString(`<div class="wide"><table class="sortable" id="duet-keys"><thead><tr><th>benchmark</th><th>type</th><th>environment</th><th>runs</th><th>pairs</th>` +
		`<th>mean A</th><th>mean B</th><th>B against A [CI]</th><th>verdict</th><th>U test p</th><th>CI rel. width</th><th>MDS CI</th><th>MDS U</th></tr></thead><tbody>`)
	for _, i := range idx {
		unit, div := durationUnit(bench.n(i, "grand_mean_ns"))
		ci := ""
		if v := bench.n(i, "b_vs_a"); !math.IsNaN(v) {
			ci = fmt.Sprintf("%s [%s, %s]", signed(v), signed(bench.n(i, "b_vs_a_ci_lower")), signed(bench.n(i, "b_vs_a_ci_upper")))
		}
		name := bench.s(i, "suite") + "/" + bench.s(i, "benchmark")
		if v := bench.s(i, "version"); v != "" {
			name += "@" + v
		}
		fmt.Fprintf(b, `<tr><td>%s</td><td>%s</td><td>%s</td>%s%s%s%s<td data-v="%s">%s</td><td>%s</td>%s%s%s%s</tr>`,
			bdi(name), esc(bench.s(i, "type")), bdi(bench.s(i, "environment")),
			numCell(bench.n(i, "runs"), ""), numCell(bench.n(i, "pairs"), ""),
			numCell(bench.n(i, "a_mean_ns"), chart.TickLabel(round3(bench.n(i, "a_mean_ns")/div))+" "+unit),
			numCell(bench.n(i, "b_mean_ns"), chart.TickLabel(round3(bench.n(i, "b_mean_ns")/div))+" "+unit),
			floatAttr(bench.n(i, "b_vs_a")), esc(ci), esc(verdictWords(bench.s(i, "verdict"))),
			numCell(bench.n(i, "u_pvalue"), pval(bench.n(i, "u_pvalue"))), numCell(bench.n(i, "ci_rel_width"), pct(bench.n(i, "ci_rel_width"))),
			numCell(bench.n(i, "mds_ci"), pct(bench.n(i, "mds_ci"))), numCell(bench.n(i, "mds_u"), pct(bench.n(i, "mds_u"))))
	}
	b.WriteString(`</tbody></table></div><p>B against A: (B − A)/A from the mean over runs of A − B; MDS: the smallest emulated slowdown of B from which on the test ` +
		`detects it at every larger grid point (–: not within the grid).</p></details>`)
	if speedup != nil {
		b.WriteString(`<h3>Runtime of duet against seqn</h3><div class="wide"><table class="sortable" id="duet-speedup"><thead><tr><th>benchmark</th><th>environment</th>` +
			`<th>seqn</th><th>duet</th><th>speedup</th><th>definition</th></tr></thead><tbody>`)
		for i := range speedup.Cells {
			// The code definition divides seconds per iteration, the thesis's ns per run.
			seqn, dt, unit := speedup.n(i, "seqn"), speedup.n(i, "duet"), " s/iteration"
			if speedup.s(i, "definition") == "thesis" {
				seqn, dt, unit = seqn/1e9, dt/1e9, " s/run"
			}
			fmt.Fprintf(b, `<tr><td>%s</td><td>%s</td>%s%s%s<td>%s</td></tr>`, bdi(speedup.s(i, "suite")+"/"+speedup.s(i, "benchmark")), bdi(speedup.s(i, "environment")),
				numCell(seqn, chart.TickLabel(round3(seqn))+unit), numCell(dt, chart.TickLabel(round3(dt))+unit), numCell(speedup.n(i, "speedup"), chart.TickLabel(round3(speedup.n(i, "speedup")))), esc(speedup.s(i, "definition")))
		}
		b.WriteString(`</tbody></table></div><p>Runtime speedup of duet against seqn (analysis/duet, SPEC §10): code definition, seqn's mean seconds per iteration ` +
			`(a run's whole seconds over its iterations of both pairs) over duet's, minus 1; thesis definition (eq. 5.1), seqn's mean run time over duet's.</p>`)
	}
	b.WriteString("</section>\n")
}

// level formats a share as a round percentage: 0.95 → "95 %".
func level(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(math.Round(1000*x)/10, 'g', -1, 64) + " %"
}

func floatAttr(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return fmt.Sprintf("%g", v)
}

// signed is a percentage with its sign, one decimal ("0.0 %" without a
// sign when it rounds to zero).
func signed(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	if math.Round(1000*x) == 0 {
		return "0.0 %"
	}
	return fmt.Sprintf("%+.1f %%", 100*x)
}

func pval(p float64) string {
	switch {
	case math.IsNaN(p):
		return ""
	case p < 0.001:
		return "<0.001"
	}
	return fmt.Sprintf("%.3f", p)
}

// durationUnit picks s, ms, µs or ns for durations around v ns.
func durationUnit(v float64) (string, float64) {
	switch {
	case v >= 1e9:
		return "s", 1e9
	case v >= 1e6:
		return "ms", 1e6
	case v >= 1e3:
		return "µs", 1e3
	}
	return "ns", 1
}

// writeMDSCurves draws one panel per type: the match ratio of the CI and
// U tests (pooled over environments and suites) against the emulated
// slowdown of B, with each test's pooled MDS marked.
func writeMDSCurves(b *strings.Builder, match *frame) {
	type agg struct{ n, ci, u float64 }
	byType := map[string]map[float64]*agg{}
	var grid []float64
	seen := map[float64]bool{}
	for i := range match.Cells {
		t, s := match.s(i, "type"), match.n(i, "slowdown")
		if byType[t] == nil {
			byType[t] = map[float64]*agg{}
		}
		a := byType[t][s]
		if a == nil {
			a = &agg{}
			byType[t][s] = a
		}
		a.n += match.n(i, "benchmarks")
		a.ci += match.n(i, "match_ci")
		a.u += match.n(i, "match_u")
		if !seen[s] {
			seen[s] = true
			grid = append(grid, s)
		}
	}
	sort.Float64s(grid)
	b.WriteString(`<h3>Minimal detectable slowdown per type</h3><div class="multiples">`)
	for _, t := range duetTypes {
		m := byType[t]
		if m == nil {
			continue
		}
		var xs, ci, u []float64
		keys := 0.0
		for _, s := range grid {
			if a := m[s]; a != nil && a.n > 0 {
				xs, ci, u = append(xs, 100*s), append(ci, a.ci/a.n), append(u, a.u/a.n)
				keys = math.Max(keys, a.n)
			}
		}
		if len(xs) == 0 {
			continue
		}
		b.WriteString(`<figure>` + mdsCurve(fmt.Sprintf("%s: share of %g keys called equal, B slowed by s", t, keys), xs, ci, u) + `</figure>`)
	}
	b.WriteString(`</div>`)
}

// mdsOf is the smallest x from which on every y is 0 (NaN when the last
// is not).
func mdsOf(xs, ys []float64) float64 {
	out := math.NaN()
	for i := len(ys) - 1; i >= 0 && ys[i] == 0; i-- {
		out = xs[i]
	}
	return out
}

// mdsCurve plots the match ratios ci and u (in [0, 1]) against the
// slowdowns xs (in %), each test's MDS as a dashed vertical line.
func mdsCurve(title string, xs, ci, u []float64) string {
	var b strings.Builder
	const w, h = 390, 250
	svgOpen(&b, "mds", title, w, h)
	name := func(test string, ys []float64) string {
		if m := mdsOf(xs, ys); !math.IsNaN(m) {
			return fmt.Sprintf("%s, MDS %g %%", test, m)
		}
		return fmt.Sprintf("%s, MDS > %g %%", test, xs[len(xs)-1])
	}
	legend(&b, legendY, [2]string{name("CI test", ci), colorRcm}, [2]string{name("U test", u), colorB})
	xmax := math.Max(xs[len(xs)-1], 1)
	pw, ph := float64(w-marginL-marginR), float64(h-marginT-marginB)
	x := func(v float64) float64 { return float64(marginL) + v/xmax*pw }
	y := func(v float64) float64 { return float64(marginT) + (1-v/1.04)*ph }
	for _, t := range []float64{0, 0.25, 0.5, 0.75, 1} {
		fmt.Fprintf(&b, `<line class="grid" x1="%d" y1="%s" x2="%d" y2="%s"/><text class="tick" x="%d" y="%s" text-anchor="end">%s</text>`,
			marginL, f1(y(t)), w-marginR, f1(y(t)), marginL-4, f1(y(t)+4), chart.TickLabel(t))
	}
	for _, t := range chart.NiceTicks(0, xmax, 5) {
		fmt.Fprintf(&b, `<text class="tick" x="%s" y="%d" text-anchor="middle">%s</text>`, f1(x(t)), h-marginB+14, chart.TickLabel(t))
	}
	for _, s := range []struct {
		ys    []float64
		color string
		name  string
	}{{ci, colorRcm, "CI test"}, {u, colorB, "U test"}} {
		var line strings.Builder
		for i := range xs {
			fmt.Fprintf(&line, "%s,%s ", f1(x(xs[i])), f1(y(s.ys[i])))
			fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="2.5" fill="%s"><title>%s at %g %%: %.3g</title></circle>`, f1(x(xs[i])), f1(y(s.ys[i])), s.color, s.name, xs[i], s.ys[i])
		}
		fmt.Fprintf(&b, `<polyline class="series" style="stroke:%s;stroke-width:1.5" points="%s"/>`, s.color, strings.TrimSpace(line.String()))
	}
	for _, s := range []struct {
		ys    []float64
		color string
	}{{ci, colorRcm}, {u, colorB}} {
		if m := mdsOf(xs, s.ys); !math.IsNaN(m) {
			fmt.Fprintf(&b, `<line x1="%s" y1="%d" x2="%s" y2="%d" style="stroke:%s;stroke-dasharray:4 3"/>`, f1(x(m)), marginT, f1(x(m)), h-marginB, s.color)
		}
	}
	fmt.Fprintf(&b, `<line class="axis" x1="%d" y1="%d" x2="%d" y2="%d"/><line class="axis" x1="%d" y1="%d" x2="%d" y2="%d"/>`,
		marginL, h-marginB, w-marginR, h-marginB, marginL, marginT, marginL, h-marginB)
	fmt.Fprintf(&b, `<text class="xlab" x="%d" y="%d" text-anchor="middle">emulated slowdown s of B (%%)</text>`, marginL+int(pw)/2, h-10)
	fmt.Fprintf(&b, `<text class="xlab" transform="translate(14 %d) rotate(-90)" text-anchor="middle">match ratio (share called equal)</text></svg>`, marginT+int(ph)/2)
	return b.String()
}

// duetRun is one plotted run: iterations (start, end, duration) per pair
// and the pairs (overlap start, end; the paired A and B iterations).
type duetRun struct {
	title  string
	a, b   [][3]float64
	aIter  map[int]int // recorded iteration → index into a
	bIter  map[int]int
	pairs  [][4]float64 // start, end, a iteration, b iteration
	run    string
	minOvl float64
}

// writeTimelines draws the timeline of each plotted duet run.
func writeTimelines(b *strings.Builder, bench, timeline, pairs *frame, withEnv bool) {
	minOvl := bench.n(0, "min_overlap_ratio")
	runs := map[string]*duetRun{}
	var order []string
	for i := range timeline.Cells {
		k := duetKey(timeline, i)
		r := runs[k]
		if r == nil {
			r = &duetRun{title: duetName(timeline, i, withEnv), run: timeline.s(i, "run"), aIter: map[int]int{}, bIter: map[int]int{}, minOvl: minOvl}
			runs[k] = r
			order = append(order, k)
		}
		v := [3]float64{timeline.n(i, "start_s"), timeline.n(i, "end_s"), timeline.n(i, "time_ns")}
		it := int(timeline.n(i, "iteration"))
		if timeline.s(i, "pair") == "A" {
			r.aIter[it] = len(r.a)
			r.a = append(r.a, v)
		} else {
			r.bIter[it] = len(r.b)
			r.b = append(r.b, v)
		}
	}
	if pairs != nil {
		for i := range pairs.Cells {
			if r := runs[duetKey(pairs, i)]; r != nil {
				r.pairs = append(r.pairs, [4]float64{pairs.n(i, "start_s"), pairs.n(i, "end_s"), pairs.n(i, "a_iteration"), pairs.n(i, "b_iteration")})
			}
		}
	}
	if len(order) == 0 {
		return
	}
	b.WriteString(`<h3>Timeline of one duet run per benchmark</h3><p>The first run after the warm-up filter: each A and B iteration as a bar from its start to its end, ` +
		`at the height of its duration; a grey line joins the A and B iterations of each pair (overlap longer than ` + level(minOvl) + ` of both), ` +
		`at the middle of their overlap. The y-range is the 1–99 % quantile range widened by 10 %; clipped values are marked by triangles.</p><div class="multiples">`)
	for n, k := range order {
		if n == openForkPanels {
			fmt.Fprintf(b, `</div><details class="fold"><summary>%d more timelines</summary><div class="multiples">`, len(order)-openForkPanels)
		}
		b.WriteString(`<figure>` + runs[k].svg() + `</figure>`)
	}
	b.WriteString(`</div>`)
	if len(order) > openForkPanels {
		b.WriteString(`</details>`)
	}
}

func (r *duetRun) svg() string {
	var b strings.Builder
	const w, h = 580, 270
	title := fmt.Sprintf("%s, run %s: %d A, %d B iterations, %d pairs", shorten(r.title, 40), r.run, len(r.a), len(r.b), len(r.pairs))
	svgOpen(&b, "timeline", title, w, h)
	legend(&b, legendY, [2]string{"A iterations", colorA}, [2]string{"B iterations", colorB}, [2]string{"pair (overlap)", "#9aa0a6"})
	var all []float64
	xmax := 0.0
	for _, s := range [][][3]float64{r.a, r.b} {
		for _, v := range s {
			all = append(all, v[2])
			xmax = math.Max(xmax, v[1])
		}
	}
	lo, hi := robustRange(all)
	unit, div := durationUnit((lo + hi) / 2)
	ticks := chart.NiceTicks(0, xmax, 6)
	xmax = math.Max(xmax, ticks[len(ticks)-1])
	pw, ph := float64(w-marginL-marginR), float64(h-marginT-marginB)
	x := func(v float64) float64 { return float64(marginL) + v/xmax*pw }
	y := func(v float64) float64 { return float64(marginT) + (1-(v-lo)/(hi-lo))*ph }
	clip := func(v float64) float64 { return math.Min(math.Max(v, lo), hi) }
	for _, t := range chart.NiceTicks(lo/div, hi/div, 4) {
		yy := y(t * div)
		if yy < float64(marginT)-0.5 || yy > float64(h-marginB)+0.5 {
			continue
		}
		fmt.Fprintf(&b, `<line class="grid" x1="%d" y1="%s" x2="%d" y2="%s"/><text class="tick" x="%d" y="%s" text-anchor="end">%s</text>`,
			marginL, f1(yy), w-marginR, f1(yy), marginL-4, f1(yy+4), chart.TickLabel(round3(t)))
	}
	for _, t := range ticks {
		fmt.Fprintf(&b, `<text class="tick" x="%s" y="%d" text-anchor="middle">%s</text>`, f1(x(t)), h-marginB+14, chart.TickLabel(round3(t)))
	}
	for _, p := range r.pairs {
		ia, okA := r.aIter[int(p[2])]
		ib, okB := r.bIter[int(p[3])]
		if !okA || !okB {
			continue
		}
		mid := (p[0] + p[1]) / 2
		fmt.Fprintf(&b, `<line class="pair" x1="%s" y1="%s" x2="%s" y2="%s"/>`, f1(x(mid)), f1(y(clip(r.a[ia][2]))), f1(x(mid)), f1(y(clip(r.b[ib][2]))))
	}
	for _, s := range []struct {
		name  string
		color string
		v     [][3]float64
	}{{"A", colorA, r.a}, {"B", colorB, r.b}} {
		for _, v := range s.v {
			yy := clip(v[2])
			fmt.Fprintf(&b, `<line class="iter" x1="%s" y1="%s" x2="%s" y2="%s" style="stroke:%s"><title>%s: %.4g %s from %.2f s</title></line>`,
				f1(x(v[0])), f1(y(yy)), f1(x(v[1])), f1(y(yy)), s.color, s.name, v[2]/div, unit, v[0])
			if yy != v[2] {
				fmt.Fprintf(&b, `<path class="clip" d="M%s %s l-3 %d h6z"/>`, f1(x((v[0]+v[1])/2)), f1(y(yy)), map[bool]int{true: 5, false: -5}[v[2] > hi])
			}
		}
	}
	fmt.Fprintf(&b, `<line class="axis" x1="%d" y1="%d" x2="%d" y2="%d"/><line class="axis" x1="%d" y1="%d" x2="%d" y2="%d"/>`,
		marginL, h-marginB, w-marginR, h-marginB, marginL, marginT, marginL, h-marginB)
	fmt.Fprintf(&b, `<text class="xlab" x="%d" y="%d" text-anchor="middle">time since the run's first kept iteration (s)</text>`, marginL+int(pw)/2, h-10)
	fmt.Fprintf(&b, `<text class="xlab" transform="translate(14 %d) rotate(-90)" text-anchor="middle">iteration time (%s)</text></svg>`, marginT+int(ph)/2, unit)
	return b.String()
}
