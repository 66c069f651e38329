package page

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// The @Param section: per benchmark method (and mode and version) run
// with several parameter combinations, its score against one parameter
// for each combination of the others, with JMH's error bars, as JMH
// Visualizer groups a suite's results.

// paramGroup is one method's runs (same project, version, benchmark and
// mode) and their params parsed.
type paramGroup struct {
	name   string
	unit   scoreUnit
	runs   []*run
	params []map[string]string
	keys   []string // params with two or more values, sorted
}

// seriesColors colour a parameter plot's lines.
var seriesColors = []string{colorRcm, colorB, colorSteady, "#9334e6", "#d93025", "#12b5cb", "#5f6368", "#f9ab00"}

// maxParamSeries bounds the lines of one parameter plot.
const maxParamSeries = 8

// openParamGroups is the most groups listed unfolded; more are listed in
// one folded list.
const openParamGroups = 12

// parseParams splits canonical params "k=v,k=v" into a map.
func parseParams(s string) map[string]string {
	out := map[string]string{}
	for _, kv := range strings.Split(s, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			out[k] = v
		}
	}
	return out
}

// paramGroups are the plan's methods with two or more param combinations
// of a score unit, in plan order.
func paramGroups(plan *frame, runs []*run) []*paramGroup {
	var order []string
	groups := map[string]*paramGroup{}
	for _, r := range runs {
		i := r.i
		if plan.opt(i, "params") == "" || plan.s(i, "path") == "duet" || r.dists["recorded"] == nil {
			continue
		}
		k := strings.Join([]string{plan.opt(i, "project"), plan.opt(i, "version"), plan.s(i, "benchmark"), plan.opt(i, "mode")}, "\x00")
		g := groups[k]
		if g == nil {
			name := shortName(plan.s(i, "benchmark"))
			if m := plan.opt(i, "mode"); m != "" {
				name += " (" + m + ")"
			}
			if plan.multiVersion() {
				name += " @" + plan.opt(i, "version")
			}
			g = &paramGroup{name: name, unit: r.su}
			groups[k] = g
			order = append(order, k)
		}
		if r.su.name() != g.unit.name() {
			continue
		}
		g.runs = append(g.runs, r)
		g.params = append(g.params, parseParams(plan.opt(i, "params")))
	}
	var out []*paramGroup
	for _, k := range order {
		g := groups[k]
		if len(g.runs) < 2 {
			continue
		}
		values := map[string]map[string]bool{}
		for _, p := range g.params {
			for k, v := range p {
				if values[k] == nil {
					values[k] = map[string]bool{}
				}
				values[k][v] = true
			}
		}
		for k, vs := range values {
			if len(vs) >= 2 {
				g.keys = append(g.keys, k)
			}
		}
		sort.Strings(g.keys)
		if len(g.keys) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// naturalLess orders parameter values: numbers by value, then strings
// with their digit runs compared as numbers (2KB < 22KB < 100KB).
func naturalLess(a, b string) bool {
	fa, ea := strconv.ParseFloat(a, 64)
	fb, eb := strconv.ParseFloat(b, 64)
	if ea == nil && eb == nil {
		return fa < fb
	}
	na, ra := leadingNumber(a)
	nb, rb := leadingNumber(b)
	if !math.IsNaN(na) && !math.IsNaN(nb) && na != nb {
		if ra == rb {
			return na < nb
		}
		return unitSize(ra)*na < unitSize(rb)*nb
	}
	return a < b
}

// leadingNumber is the number a starts with and the rest of a (NaN when
// a does not start with a digit).
func leadingNumber(a string) (float64, string) {
	j := 0
	for j < len(a) && (a[j] >= '0' && a[j] <= '9' || a[j] == '.') {
		j++
	}
	v, err := strconv.ParseFloat(a[:j], 64)
	if err != nil {
		return math.NaN(), a
	}
	return v, a[j:]
}

// unitSize weighs size suffixes (K, M, G, KB, MB, GB), 1 for others.
func unitSize(s string) float64 {
	switch strings.ToUpper(strings.TrimSuffix(strings.TrimSuffix(s, "B"), "b")) {
	case "K":
		return 1e3
	case "M":
		return 1e6
	case "G":
		return 1e9
	}
	return 1
}

// writeParams is the @Param section, "" when no method has two or more
// parameter combinations.
func writeParams(b *strings.Builder, plan *frame, runs []*run) {
	groups := paramGroups(plan, runs)
	if len(groups) == 0 {
		return
	}
	fmt.Fprintf(b, `<section id="params"><h2>Scores by @Param</h2><p>Per benchmark method run with several parameter combinations (%d methods): `+
		`its recorded score against one parameter, one line per combination of the others, with JMH's error bars (99.9 %% CI of the score), in the file's unit. `+
		`Click a method to show its plots.</p>`, len(groups))
	if len(groups) > openParamGroups {
		fmt.Fprintf(b, `<details class="fold"><summary>%d methods</summary>`, len(groups))
	}
	for _, g := range groups {
		fmt.Fprintf(b, `<details class="fold"><summary><bdi>%s</bdi>: %d combinations of %s</summary>`, esc(g.name), len(g.runs), esc(strings.Join(g.keys, ", ")))
		for _, k := range g.keys {
			b.WriteString(paramPlot(g, k))
		}
		b.WriteString(`</details>`)
	}
	if len(groups) > openParamGroups {
		b.WriteString(`</details>`)
	}
	b.WriteString("</section>\n")
}

// paramPlot draws g's score against param key: x its values in natural
// order, one line per combination of the other params (at most
// maxParamSeries, the rest said), each point the recorded score with its
// error bar; the legend is HTML under the plot, where long combinations
// wrap.
func paramPlot(g *paramGroup, key string) string {
	var xs []string
	seenX := map[string]bool{}
	type pt struct{ x, y, e float64 }
	series := map[string][]pt{}
	var order []string
	for _, p := range g.params {
		if v := p[key]; !seenX[v] {
			seenX[v] = true
			xs = append(xs, v)
		}
	}
	sort.SliceStable(xs, func(a, c int) bool { return naturalLess(xs[a], xs[c]) })
	xi := map[string]int{}
	for i, v := range xs {
		xi[v] = i
	}
	for j, p := range g.params {
		var others []string
		for _, k := range sortedKeys(p) {
			if k != key {
				others = append(others, k+"="+p[k])
			}
		}
		s := strings.Join(others, ",")
		if _, ok := series[s]; !ok {
			order = append(order, s)
		}
		r := g.runs[j]
		v := r.dists["recorded"]
		y, e := v.score, v.scoreErr
		if !r.su.fixed() || math.IsNaN(y) || v.unit != r.su.unit {
			y, e = r.su.of(v.mean), math.NaN()
		}
		series[s] = append(series[s], pt{float64(xi[p[key]]), y, e})
	}
	var b strings.Builder
	const w, h = 720, 260
	left, right, top, bottom := 72.0, float64(w-20), 40.0, float64(h-44)
	title := fmt.Sprintf("%s: score against %s", g.name, key)
	svgOpen(&b, "param", title, w, h)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range order[:min(len(order), maxParamSeries)] {
		for _, p := range series[s] {
			e := p.e
			if math.IsNaN(e) {
				e = 0
			}
			lo, hi = math.Min(lo, p.y-e), math.Max(hi, p.y+e)
		}
	}
	logY := lo > 0 && hi/lo > 20
	var ya axis
	if logY {
		ya = axis{lo: lo / 1.2, hi: hi * 1.2, p0: bottom, p1: top, log: true}
	} else {
		pad := 0.08 * (hi - lo)
		if !(pad > 0) {
			pad = 0.05*math.Abs(hi) + 1e-9
		}
		ya = axis{lo: lo - pad, hi: hi + pad, p0: bottom, p1: top}
	}
	yTicks(&b, ya.ticks(4, false, true), left, right)
	dx := (right - left) / float64(len(xs))
	x := func(v float64) float64 { return left + (v+0.5)*dx }
	labels := runLabels(xs, int(math.Max(4, dx/(tickPx*charW))))
	for i := range xs {
		fmt.Fprintf(&b, `<text class="tick" x="%s" y="%s" text-anchor="middle">%s<title>%s=%s</title></text>`, f1(x(float64(i))), f1(bottom+14), esc(labels[i]), esc(key), esc(xs[i]))
	}
	var keysHTML strings.Builder
	for si, s := range order[:min(len(order), maxParamSeries)] {
		c := seriesColors[si%len(seriesColors)]
		pts := series[s]
		sort.Slice(pts, func(a, c int) bool { return pts[a].x < pts[c].x })
		var line strings.Builder
		for _, p := range pts {
			fmt.Fprintf(&line, "%s,%s ", f1(x(p.x)), f1(ya.at(p.y)))
		}
		fmt.Fprintf(&b, `<polyline class="pline" points="%s" style="stroke:%s"/>`, strings.TrimSpace(line.String()), c)
		for _, p := range pts {
			if !math.IsNaN(p.e) && (!logY || p.y-p.e > 0) {
				fmt.Fprintf(&b, `<line class="ebar" x1="%s" y1="%s" x2="%s" y2="%s" style="stroke:%s"/>`, f1(x(p.x)), f1(ya.at(p.y-p.e)), f1(x(p.x)), f1(ya.at(p.y+p.e)), c)
			}
			label := s
			if label == "" {
				label = "score"
			}
			fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="3.5" fill="%s"><title>%s=%s %s: %s</title></circle>`, f1(x(p.x)), f1(ya.at(p.y)), c,
				esc(key), esc(xs[int(p.x)]), esc(label), esc(scoreText(p.y, p.e, g.unit.name())))
		}
		name := s
		if name == "" {
			name = "(no other parameter)"
		}
		fmt.Fprintf(&keysHTML, `<span class="key"><i style="background:%s"></i><bdi>%s</bdi></span> `, c, esc(name))
	}
	fmt.Fprintf(&b, `<line class="axis" x1="%s" y1="%s" x2="%s" y2="%s"/><line class="axis" x1="%s" y1="%s" x2="%s" y2="%s"/>`,
		f1(left), f1(bottom), f1(right), f1(bottom), f1(left), f1(top), f1(left), f1(bottom))
	fmt.Fprintf(&b, `<text class="xlab" x="%s" y="%d" text-anchor="middle">%s</text>`, f1((left+right)/2), h-8, esc(key))
	yl := g.unit.name() + ", " + g.unit.better()
	if logY {
		yl += ", log scale"
	}
	fmt.Fprintf(&b, `<text class="xlab" transform="translate(14 %s) rotate(-90)" text-anchor="middle">%s</text></svg>`, f1((top+bottom)/2), esc(yl))
	more := ""
	if len(order) > maxParamSeries {
		more = fmt.Sprintf(" and %d more combinations (in the index)", len(order)-maxParamSeries)
	}
	return `<figure>` + b.String() + `<figcaption class="keys">` + keysHTML.String() + esc(more) + `</figcaption></figure>`
}
