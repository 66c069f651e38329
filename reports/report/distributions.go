package report

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/reports/chart"
)

// openDistributions is the largest number of benchmarks whose violins
// show unfolded; a larger suite lists them folded (one click each, or the
// "unfold all" button), so the page stays short.
const openDistributions = 3

// maxDistPlots bounds the benchmarks whose violins the page draws (about
// 4 kB each); the table lists every distribution.
const maxDistPlots = 300

// violin is one distribution of a benchmark: a version and configuration
// with its iteration count, mean and quantiles (p, value in ns).
type violin struct {
	version, config string
	n               float64
	mean            float64
	p, q            []float64
}

// quantile interpolates the kept quantiles at p.
func (v *violin) quantile(p float64) float64 {
	if len(v.q) == 1 {
		return v.q[0]
	}
	i := sort.SearchFloat64s(v.p, p)
	switch {
	case i == 0:
		return v.q[0]
	case i >= len(v.p):
		return v.q[len(v.q)-1]
	}
	a, b := v.p[i-1], v.p[i]
	if b == a {
		return v.q[i]
	}
	return v.q[i-1] + (p-a)/(b-a)*(v.q[i]-v.q[i-1])
}

func (v *violin) label() string {
	if v.config == "" {
		return v.version
	}
	return v.version + " · " + v.config
}

// distGroup is one benchmark (the run's key without its version) with a
// violin per version and configuration.
type distGroup struct {
	name    string
	violins []*violin
}

// distGroups reads the distributions frame: groups in key order, their
// violins by version, then configuration in order of appearance.
func distGroups(df *frame) []*distGroup {
	groups := map[string]*distGroup{}
	var order []string
	vs := map[string]*violin{}
	for i := range df.Cells {
		gk := strings.Join([]string{df.s(i, "project"), df.s(i, "benchmark"), df.s(i, "params"), df.s(i, "mode")}, "\x00")
		g := groups[gk]
		if g == nil {
			name := df.s(i, "benchmark")
			if p := df.s(i, "params"); p != "" {
				name += "[" + p + "]"
			}
			g = &distGroup{name: name}
			groups[gk] = g
			order = append(order, gk)
		}
		vk := gk + "\x00" + df.s(i, "version") + "\x00" + df.s(i, "configuration")
		v := vs[vk]
		if v == nil {
			v = &violin{version: df.s(i, "version"), config: df.s(i, "configuration"), n: df.n(i, "iterations"), mean: df.n(i, "mean_ns")}
			vs[vk] = v
			g.violins = append(g.violins, v)
		}
		if p, q := df.n(i, "quantile"), df.n(i, "value_ns"); !math.IsNaN(p) && !math.IsNaN(q) {
			v.p, v.q = append(v.p, p), append(v.q, q)
		}
	}
	sort.Strings(order)
	out := make([]*distGroup, 0, len(order))
	for _, k := range order {
		g := groups[k]
		var kept []*violin
		for _, v := range g.violins {
			if len(v.q) > 0 {
				kept = append(kept, v)
			}
		}
		if len(kept) == 0 {
			continue
		}
		g.violins = kept
		sort.SliceStable(g.violins, func(a, b int) bool { return g.violins[a].version < g.violins[b].version })
		out = append(out, g)
	}
	return out
}

// writeDistributions is the distributions section: per benchmark a
// violin (density of the iteration values) per version and
// configuration, as criterion.rs draws them, folded in a <details> unless
// the suite has at most openDistributions benchmarks, and a table of
// their quantiles.
func writeDistributions(b *strings.Builder, df *frame) {
	groups := distGroups(df)
	if len(groups) == 0 {
		return
	}
	nv := 0
	for _, g := range groups {
		nv += len(g.violins)
	}
	fmt.Fprintf(b, `<section id="distributions"><h2>Distributions of the iteration values</h2><p>Per benchmark, the density of its iteration values (ns/op) `+
		`per version and configuration: %d distributions of %d benchmarks. White tick: median; dark bar: the middle 50 %% (Q1–Q3); `+
		`the x axis is logarithmic when the values span more than a factor of 3.</p>`, nv, len(groups))
	open := ""
	if len(groups) <= openDistributions {
		open = " open"
	} else {
		b.WriteString(`<p><button type="button" class="unfold" data-section="distributions">unfold all</button> `)
		fmt.Fprintf(b, `%d benchmarks, folded: click a name to show its violins.</p>`, len(groups))
	}
	if len(groups) > maxDistPlots {
		fmt.Fprintf(b, `<p>Violins of the first %d benchmarks (by name); the table below lists all %d.</p>`, maxDistPlots, len(groups))
	}
	for _, g := range groups[:min(len(groups), maxDistPlots)] {
		var meds []string
		for _, v := range g.violins {
			u, d := durationUnit(v.quantile(0.5))
			meds = append(meds, fmt.Sprintf("%s %s %s", v.label(), strconv.FormatFloat(v.quantile(0.5)/d, 'g', 4, 64), u))
		}
		fmt.Fprintf(b, `<details class="dist"%s><summary>%s <span class="med">median %s</span></summary><figure>%s</figure></details>`,
			open, bdi(g.name), esc(strings.Join(meds, ", ")), violins(g))
	}
	b.WriteString(`<details class="dist"><summary>Table of the distributions</summary><input class="filter" data-table="dist" placeholder="filter rows">` +
		`<div class="wide"><table class="sortable" id="dist"><thead><tr><th>benchmark</th><th>version</th><th>configuration</th><th>iterations</th>` +
		`<th>min</th><th>Q1</th><th>median</th><th>Q3</th><th>max</th><th>mean</th></tr></thead><tbody>`)
	for _, g := range groups {
		for _, v := range g.violins {
			u, d := durationUnit(v.quantile(0.5))
			cell := func(x float64) string { return numCell(x, chart.TickLabel(round3(x/d))+" "+u) }
			fmt.Fprintf(b, `<tr><td>%s</td><td>%s</td><td>%s</td>%s%s%s%s%s%s%s</tr>`, bdi(g.name), bdi(v.version), esc(v.config), numCell(v.n, ""),
				cell(v.q[0]), cell(v.quantile(0.25)), cell(v.quantile(0.5)), cell(v.quantile(0.75)), cell(v.q[len(v.q)-1]), cell(v.mean))
		}
	}
	b.WriteString("</tbody></table></div></details></section>\n")
}

// violinGrid is the number of evenly spaced points at which a violin's
// density is drawn, besides its quantile points.
const violinGrid = 24

// violinPoints are where a violin's density is drawn, in the axis'
// coordinates: violinGrid points evenly spaced over [a, c] and the
// quantile points u within it (dense where the values are), sorted, none
// within a pixel of the previous (px maps to pixels).
func violinPoints(u []float64, a, c float64, px func(float64) float64) []float64 {
	pts := make([]float64, 0, violinGrid+len(u))
	for k := 0; k < violinGrid; k++ {
		pts = append(pts, a+(c-a)*float64(k)/float64(violinGrid-1))
	}
	for _, v := range u {
		if v > a && v < c {
			pts = append(pts, v)
		}
	}
	sort.Float64s(pts)
	out := pts[:1]
	for _, t := range pts[1:] {
		if px(t)-px(out[len(out)-1]) >= 1 || t == c {
			out = append(out, t)
		}
	}
	return out
}

// violins draws one benchmark's violins, one row each, on a shared x
// axis: the Gaussian kernel density of each violin's quantile points
// (Silverman's bandwidth), scaled to the row's height, with its median and
// quartiles.
func violins(g *distGroup) string {
	var b strings.Builder
	const rowH, left = 44, 200
	w := plotW + 120
	h := marginT + len(g.violins)*rowH + marginB
	svgOpen(&b, "violin", "Iteration values of "+shortName(g.name), w, h)
	var entries [][2]string
	seen := map[string]bool{}
	for _, v := range g.violins {
		if !seen[v.config] {
			seen[v.config] = true
			entries = append(entries, [2]string{v.config, violinColor(v.config)})
		}
	}
	legend(&b, 36, append(entries, [2]string{"Q1–Q3 (white: median)", "#202124"})...)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range g.violins {
		lo, hi = math.Min(lo, v.q[0]), math.Max(hi, v.q[len(v.q)-1])
	}
	logScale := lo > 0 && hi/lo > 3
	tr := func(x float64) float64 { return x }
	if logScale {
		tr = math.Log10
	}
	tlo, thi := tr(lo), tr(hi)
	if !(thi > tlo) {
		d := math.Max(math.Abs(tlo)*0.01, 1e-9)
		tlo, thi = tlo-d, thi+d
	}
	pad := 0.04 * (thi - tlo)
	tlo, thi = tlo-pad, thi+pad
	pw := float64(w - left - marginR)
	x := func(v float64) float64 { return float64(left) + (tr(v)-tlo)/(thi-tlo)*pw }
	unit, div := timeUnit(math.Sqrt(math.Max(lo, 1e-9) * math.Max(hi, 1e-9)))
	bottom := h - marginB
	var ticks []float64
	if logScale {
		for e := math.Floor(tlo); e <= math.Ceil(thi); e++ {
			for _, m := range []float64{1, 2, 5} {
				if t := m * math.Pow(10, e); tr(t) >= tlo && tr(t) <= thi {
					ticks = append(ticks, t)
				}
			}
		}
	} else {
		for _, t := range chart.NiceTicks(tlo/div, thi/div, 5) {
			if tt := t * div; tt >= tlo && tt <= thi {
				ticks = append(ticks, tt)
			}
		}
	}
	for _, t := range ticks {
		fmt.Fprintf(&b, `<line class="grid" x1="%s" y1="%d" x2="%s" y2="%d"/><text class="tick" x="%s" y="%d" text-anchor="middle">%s</text>`,
			f1(x(t)), marginT-4, f1(x(t)), bottom, f1(x(t)), bottom+14, chart.TickLabel(round3(t/div)))
	}
	for i, v := range g.violins {
		mid := float64(marginT + i*rowH + rowH/2)
		color := violinColor(v.config)
		fmt.Fprintf(&b, `<text class="ylab" x="%d" y="%s" text-anchor="end">%s<title>%s</title></text>`, left-6, f1(mid+4), esc(shorten(v.label(), 30)),
			esc(fmt.Sprintf("%s: %g iterations, median %.4g ns, mean %.4g ns", v.label(), v.n, v.quantile(0.5), v.mean)))
		// The density, in the axis' coordinates.
		u := make([]float64, len(v.q))
		for j, q := range v.q {
			u[j] = tr(q)
		}
		bw := silverman(u)
		if bw <= 0 {
			// All values equal: a thin bar at the value.
			fmt.Fprintf(&b, `<rect class="violin" x="%s" y="%s" width="2" height="%d" fill="%s"><title>%s: every value %.4g ns</title></rect>`,
				f1(x(v.q[0])-1), f1(mid-float64(rowH)/2+4), rowH-8, color, esc(v.label()), v.q[0])
			continue
		}
		a, c := math.Max(tlo, u[0]-3*bw), math.Min(thi, u[len(u)-1]+3*bw)
		px := func(t float64) float64 { return float64(left) + (t-tlo)/(thi-tlo)*pw }
		grid := violinPoints(u, a, c, px)
		dens := make([]float64, len(grid))
		top := 0.0
		for k, t := range grid {
			for _, ui := range u {
				z := (t - ui) / bw
				dens[k] += math.Exp(-z * z / 2)
			}
			top = math.Max(top, dens[k])
		}
		half := float64(rowH)/2 - 3
		var path strings.Builder
		for k, t := range grid {
			fmt.Fprintf(&path, "%s%.0f %s", map[bool]string{true: "M", false: "L"}[k == 0], px(t), f1(mid-dens[k]/top*half))
		}
		for k := len(grid) - 1; k >= 0; k-- {
			fmt.Fprintf(&path, "L%.0f %s", px(grid[k]), f1(mid+dens[k]/top*half))
		}
		fmt.Fprintf(&b, `<path class="violin" d="%sZ" fill="%s"><title>%s: %g iterations</title></path>`, path.String(), color, esc(v.label()), v.n)
		q1, q3, med := v.quantile(0.25), v.quantile(0.75), v.quantile(0.5)
		fmt.Fprintf(&b, `<line class="iqr" x1="%s" y1="%s" x2="%s" y2="%s"/>`, f1(x(q1)), f1(mid), f1(x(q3)), f1(mid))
		fmt.Fprintf(&b, `<line class="median" x1="%s" y1="%s" x2="%s" y2="%s"><title>median %.4g ns</title></line>`, f1(x(med)), f1(mid-5), f1(x(med)), f1(mid+5), med)
	}
	fmt.Fprintf(&b, `<line class="axis" x1="%d" y1="%d" x2="%d" y2="%d"/>`, left, bottom, w-marginR, bottom)
	xlabel := "iteration value (" + unit + ")"
	if logScale {
		xlabel += ", log scale"
	}
	fmt.Fprintf(&b, `<text class="xlab" x="%d" y="%d" text-anchor="middle">%s</text></svg>`, left+int(pw)/2, h-8, esc(xlabel))
	return b.String()
}

// violinColor is the fill of a configuration's violins: grey for the
// recorded one, blue for the others.
func violinColor(config string) string {
	if config == "recorded" {
		return colorRec
	}
	return colorRcm
}

// silverman is Silverman's rule-of-thumb bandwidth of the sorted x,
// 0.9·min(sd, IQR/1.34)·n^(−1/5) (the sd alone when the IQR is 0), 0 when
// every value is equal.
func silverman(x []float64) float64 {
	n := float64(len(x))
	if len(x) < 2 {
		return 0
	}
	mean := 0.0
	for _, v := range x {
		mean += v
	}
	mean /= n
	ss := 0.0
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	sd := math.Sqrt(ss / (n - 1))
	q := func(p float64) float64 {
		h := p * (n - 1)
		i := int(h)
		if i+1 >= len(x) {
			return x[len(x)-1]
		}
		return x[i] + (h-float64(i))*(x[i+1]-x[i])
	}
	s := sd
	if iqr := (q(0.75) - q(0.25)) / 1.34; iqr > 0 && iqr < sd {
		s = iqr
	}
	return 0.9 * s * math.Pow(n, -0.2)
}
