package page

import (
	"fmt"
	"html"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/reports/chart"
)

// Plot geometry (px): the data area sits inside the margins; titles,
// legends and axis labels live in the margins so they never cover data.
const (
	plotW       = 720
	marginL     = 70
	marginR     = 20
	marginT     = 50 // title (two lines) and legend
	marginB     = 46 // tick labels and axis label
	barRowH     = 16
	colorRec    = "#9aa0a6"
	colorRcm    = "#1a73e8"
	colorWarn   = "#d93025"
	colorSteady = "#188038"
)

// esc escapes s for HTML text and attributes, with bidi controls shown
// as escapes (reports.ShowBidi), so no text taken from the data reorders
// how the page displays.
func esc(s string) string { return html.EscapeString(reports.ShowBidi(s)) }

// bdi is esc(s) isolated as a name (<bdi>): a name written right to left
// cannot change how the text around it displays, and a long one wraps
// (CSS bdi{overflow-wrap:anywhere}).
func bdi(s string) string { return "<bdi>" + esc(s) + "</bdi>" }

func f1(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// f0 is x rounded to a whole pixel (the points of a long path).
func f0(x float64) string { return strconv.FormatFloat(math.Round(x), 'f', 0, 64) }

// legendY is the baseline of a plot's legend row, below two title lines.
const legendY = 44

// svgOpen starts a plot of height h with its title (what the panel shows)
// on at most two lines that fit the plot's width (titleLines; a longer
// title ends in "…", whole in the plot's tooltip).
func svgOpen(b *strings.Builder, class, title string, w, h int) {
	fmt.Fprintf(b, `<svg class="plot %s" role="img" viewBox="0 0 %d %d" width="%d" height="%d" xmlns="http://www.w3.org/2000/svg">`, class, w, h, w, h)
	lines := titleLines(title, float64(w-12))
	if len(lines) > 2 {
		lines = append(lines[:1], strings.TrimSuffix(lines[1], "…")+"…")
	}
	fmt.Fprintf(b, `<title>%s</title><text class="ptitle" x="6" y="14">`, esc(title))
	for i, l := range lines {
		if i == 0 {
			b.WriteString(esc(l))
		} else {
			fmt.Fprintf(b, `<tspan x="6" dy="13">%s</tspan>`, esc(l))
		}
	}
	b.WriteString(`</text>`)
}

// legend draws entries (label, color) in the top margin, right of the title row.
func legend(b *strings.Builder, y int, entries ...[2]string) {
	x := marginL
	for _, e := range entries {
		fmt.Fprintf(b, `<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text class="legend" x="%d" y="%d">%s</text>`, x, y-9, e[1], x+14, y, esc(e[0]))
		x += 24 + 7*len([]rune(e[0]))
	}
}

// hbars draws a horizontal bar chart: one row per label with the values
// of each series (grouped), x axis in unit.
type hbarSeries struct {
	name, color string
	values      []float64
}

func hbars(title, xlabel string, labels []string, series []hbarSeries, refLines []float64) string {
	var b strings.Builder
	rowH := barRowH * max(1, len(series))
	h := marginT + len(labels)*(rowH+4) + marginB
	left := 260
	w := plotW + 120
	svgOpen(&b, "bars", title, w, h)
	var entries [][2]string
	for _, s := range series {
		entries = append(entries, [2]string{s.name, s.color})
	}
	legend(&b, legendY, entries...)
	hi := 0.0
	for _, s := range series {
		for _, v := range s.values {
			if !math.IsNaN(v) {
				hi = math.Max(hi, v)
			}
		}
	}
	for _, r := range refLines {
		hi = math.Max(hi, r)
	}
	if hi == 0 {
		hi = 1
	}
	ticks := chart.NiceTicks(0, hi, 5)
	hi = math.Max(hi, ticks[len(ticks)-1])
	pw := float64(w - left - marginR)
	x := func(v float64) float64 { return float64(left) + v/hi*pw }
	bottom := h - marginB
	xTicks(&b, axis{lo: 0, hi: hi, p0: float64(left), p1: float64(left) + pw}.ticks(5, false, false), float64(marginT-4), float64(bottom))
	shown := runLabels(labels, 36)
	for i, l := range labels {
		y0 := marginT + i*(rowH+4)
		fmt.Fprintf(&b, `<text class="ylab" x="%d" y="%d" text-anchor="end">%s<title>%s</title></text>`, left-6, y0+rowH/2+4, esc(shown[i]), esc(l))
		for j, s := range series {
			v := s.values[i]
			if math.IsNaN(v) {
				continue
			}
			fmt.Fprintf(&b, `<rect class="bar" x="%d" y="%d" width="%s" height="%d" fill="%s"><title>%s: %s %s</title></rect>`,
				left, y0+j*barRowH, f1(x(v)-float64(left)), barRowH-2, s.color, esc(l), chart.TickLabel(round3(v)), esc(s.name))
		}
	}
	for _, r := range refLines {
		fmt.Fprintf(&b, `<line class="ref" x1="%s" y1="%d" x2="%s" y2="%d"/>`, f1(x(r)), marginT-4, f1(x(r)), bottom)
	}
	fmt.Fprintf(&b, `<line class="axis" x1="%d" y1="%d" x2="%d" y2="%d"/>`, left, bottom, w-marginR, bottom)
	fmt.Fprintf(&b, `<text class="xlab" x="%d" y="%d" text-anchor="middle">%s</text></svg>`, left+int(pw)/2, h-8, esc(xlabel))
	return b.String()
}

func round3(v float64) float64 {
	if v == 0 {
		return 0
	}
	p := math.Pow(10, 3-math.Ceil(math.Log10(math.Abs(v))))
	return math.Round(v*p) / p
}

// shortName drops the package of a JMH name: org.example.C.m[p] → C.m[p].
func shortName(s string) string {
	s, version, _ := strings.Cut(s, " @")
	name, params, _ := strings.Cut(s, "[")
	if parts := strings.Split(name, "."); len(parts) > 2 {
		name = strings.Join(parts[len(parts)-2:], ".")
	}
	if params != "" {
		name += "[" + params
	}
	if version != "" {
		name += " @" + version
	}
	return name
}

// shorten keeps at most n runes of s: its start and its end around a
// middle "…" (a benchmark's class and its params or version are what tell
// names apart; cutting one end alone makes different names look alike).
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	head := (n - 1) / 2
	return string(r[:head]) + "…" + string(r[len(r)-(n-1-head):])
}

// distinctLabels shortens every label to n runes (shorten of shortName)
// and, where two different names would still read alike, shows instead a
// window of n runes around where they first differ, with "…" on the cut
// sides.
func distinctLabels(labels []string, n int) []string {
	out := make([]string, len(labels))
	seen := map[string][]int{}
	for i, l := range labels {
		out[i] = shorten(shortName(l), n)
		seen[out[i]] = append(seen[out[i]], i)
	}
	for _, idx := range seen {
		if len(idx) < 2 {
			continue
		}
		for _, i := range idx {
			full := []rune(shortName(labels[i]))
			d := len(full)
			for _, j := range idx {
				other := []rune(shortName(labels[j]))
				if j == i || string(other) == string(full) {
					continue
				}
				k := 0
				for k < len(full) && k < len(other) && full[k] == other[k] {
					k++
				}
				d = min(d, k)
			}
			start := max(0, min(d-n/2, len(full)-n+2))
			end := min(len(full), start+n-2)
			w := string(full[start:end])
			if start > 0 {
				w = "…" + w
			}
			if end < len(full) {
				w += "…"
			}
			out[i] = w
		}
	}
	return out
}

// robustRange is [Q0.01, Q0.99] of x widened by 10 % on each side, so
// that a few spikes do not flatten the series (they are clipped and
// marked at the edge).
func robustRange(x []float64) (lo, hi float64) {
	y := make([]float64, 0, len(x))
	for _, v := range x {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			y = append(y, v)
		}
	}
	if len(y) == 0 {
		return 0, 1
	}
	sort.Float64s(y)
	q := func(p float64) float64 {
		h := p * float64(len(y)-1)
		i := int(h)
		if i+1 >= len(y) {
			return y[len(y)-1]
		}
		return y[i] + (h-float64(i))*(y[i+1]-y[i])
	}
	lo, hi = q(0.01), q(0.99)
	if hi <= lo {
		lo, hi = lo*0.99, hi*1.01+1e-9
	}
	pad := 0.1 * (hi - lo)
	return lo - pad, hi + pad
}

// timeUnit picks ns/op, µs/op, ms/op or s/op for values around v ns
// (durationUnit per operation).
func timeUnit(v float64) (string, float64) {
	u, scale := durationUnit(v)
	return u + "/op", scale
}

// forkPanel plots one fork: iteration values (ns/op scaled to a unit), its
// segments' means, the steady-state start st and the recommended warmup W.
type forkPanel struct {
	title    string
	iter     []float64
	values   []float64
	segments [][3]float64 // start, end, mean
	st, w    int
}

func (p *forkPanel) svg() string {
	var b strings.Builder
	const w, h = 440, 250
	svgOpen(&b, "fork", p.title, w, h)
	legend(&b, legendY, [2]string{"iterations", "#5f6368"}, [2]string{"segment means", colorRcm}, [2]string{"st", colorSteady}, [2]string{"W", colorWarn})
	lo, hi := robustRange(p.values)
	unit, div := timeUnit((lo + hi) / 2)
	xmax := 1.0
	if n := len(p.iter); n > 0 {
		xmax = math.Max(p.iter[n-1], 1)
	}
	pw, ph := float64(w-marginL-marginR), float64(h-marginT-marginB)
	x := func(v float64) float64 { return float64(marginL) + v/xmax*pw }
	y := func(v float64) float64 {
		return float64(marginT) + (1-(v-lo)/(hi-lo))*ph
	}
	for _, t := range chart.NiceTicks(lo/div, hi/div, 4) {
		yy := y(t * div)
		if yy < float64(marginT)-0.5 || yy > float64(h-marginB)+0.5 {
			continue
		}
		fmt.Fprintf(&b, `<line class="grid" x1="%d" y1="%s" x2="%d" y2="%s"/><text class="tick" x="%d" y="%s" text-anchor="end">%s</text>`,
			marginL, f1(yy), w-marginR, f1(yy), marginL-4, f1(yy+4), chart.TickLabel(round3(t)))
	}
	// Iterations are numbered from 1, as JMH numbers them (the frame's
	// index i is iteration i + 1).
	for _, t := range (axis{lo: 1, hi: xmax + 1, p0: x(0), p1: x(xmax)}).ticks(5, false, false) {
		fmt.Fprintf(&b, `<text class="tick" x="%s" y="%d" text-anchor="middle">%s</text>`, f1(t.pos), h-marginB+14, esc(t.label))
	}
	var pts strings.Builder
	var clipped []string
	for i, v := range p.values {
		vv := math.Min(math.Max(v, lo), hi)
		if vv != v {
			clipped = append(clipped, fmt.Sprintf(`<path class="clip" d="M%s %s l-3 %d h6z"/>`, f1(x(p.iter[i])), f1(y(vv)), map[bool]int{true: 5, false: -5}[v > hi]))
		}
		fmt.Fprintf(&pts, "%s,%s ", f1(x(p.iter[i])), f1(y(vv)))
	}
	fmt.Fprintf(&b, `<polyline class="series" points="%s"/>`, strings.TrimSpace(pts.String()))
	b.WriteString(strings.Join(clipped, ""))
	for _, s := range p.segments {
		m := math.Min(math.Max(s[2], lo), hi)
		fmt.Fprintf(&b, `<line class="segment" x1="%s" y1="%s" x2="%s" y2="%s"/>`, f1(x(s[0])), f1(y(m)), f1(x(s[1])), f1(y(m)))
	}
	if p.st >= 0 {
		fmt.Fprintf(&b, `<line class="st" x1="%s" y1="%d" x2="%s" y2="%d"/>`, f1(x(float64(p.st))), marginT, f1(x(float64(p.st))), h-marginB)
	}
	fmt.Fprintf(&b, `<line class="wline" x1="%s" y1="%d" x2="%s" y2="%d"/>`, f1(x(float64(p.w))), marginT, f1(x(float64(p.w))), h-marginB)
	fmt.Fprintf(&b, `<line class="axis" x1="%d" y1="%d" x2="%d" y2="%d"/><line class="axis" x1="%d" y1="%d" x2="%d" y2="%d"/>`,
		marginL, h-marginB, w-marginR, h-marginB, marginL, marginT, marginL, h-marginB)
	fmt.Fprintf(&b, `<text class="xlab" x="%d" y="%d" text-anchor="middle">iteration</text>`, marginL+int(pw)/2, h-10)
	fmt.Fprintf(&b, `<text class="xlab" transform="translate(14 %d) rotate(-90)" text-anchor="middle">%s</text></svg>`, marginT+int(ph)/2, unit)
	return b.String()
}

// forest draws one row per label: the ratio as a dot and its CI as a
// line, with a dashed reference line at 1 (no change).
func forest(title string, labels []string, pts [][3]float64) string {
	return intervalsScaled(title, "ratio of means test / base, log scale (dashed: 1, no change)", "ratio test / base", 1, labels, pts, true)
}

// intervals draws one row per label: the estimate pts[i][0] as a dot and
// its interval [pts[i][1], pts[i][2]] as a line, with a dashed reference
// line at ref; the x range covers every value and ref.
func intervals(title, xlabel, name string, ref float64, labels []string, pts [][3]float64) string {
	return intervalsScaled(title, xlabel, name, ref, labels, pts, false)
}

// intervalsScaled is intervals with a log-scale x axis when logScale is
// set (ratios: 0.5 and 2 lie as far from 1), for positive values only.
func intervalsScaled(title, xlabel, name string, ref float64, labels []string, pts [][3]float64, logScale bool) string {
	var b strings.Builder
	left, w := 260, plotW+120
	h := marginT + len(labels)*18 + marginB
	svgOpen(&b, "forest", title, w, h)
	legend(&b, legendY, [2]string{name, colorRcm}, [2]string{"CI", "#5f6368"})
	lo, hi := ref, ref
	for _, p := range pts {
		for _, v := range p {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	logScale = logScale && lo > 0
	pw := float64(w - left - marginR)
	var ax axis
	if logScale {
		llo, lhi := math.Log(lo), math.Log(hi)
		pad := 0.05 * (lhi - llo + 0.01)
		ax = axis{lo: math.Exp(llo - pad), hi: math.Exp(lhi + pad), p0: float64(left), p1: float64(left) + pw, log: true}
	} else {
		pad := 0.05 * (hi - lo + 0.01)
		ax = axis{lo: lo - pad, hi: hi + pad, p0: float64(left), p1: float64(left) + pw}
	}
	x := ax.at
	bottom := h - marginB
	xTicks(&b, ax.ticks(5, true, false), float64(marginT-4), float64(bottom))
	fmt.Fprintf(&b, `<line class="ref" x1="%s" y1="%d" x2="%s" y2="%d"/>`, f1(x(ref)), marginT-4, f1(x(ref)), bottom)
	shown := runLabels(labels, 36)
	for i, l := range labels {
		y := marginT + i*18 + 9
		fmt.Fprintf(&b, `<text class="ylab" x="%d" y="%d" text-anchor="end">%s<title>%s</title></text>`, left-6, y+4, esc(shown[i]), esc(l))
		p := pts[i]
		if math.IsNaN(p[0]) {
			continue
		}
		if !math.IsNaN(p[1]) && !math.IsNaN(p[2]) {
			fmt.Fprintf(&b, `<line class="axis" x1="%s" y1="%d" x2="%s" y2="%d"/>`, f1(x(p[1])), y, f1(x(p[2])), y)
		}
		fmt.Fprintf(&b, `<circle class="dot" cx="%s" cy="%d" r="4" fill="%s"><title>%s: %.4g [%.4g, %.4g]</title></circle>`, f1(x(p[0])), y, colorRcm, esc(l), p[0], p[1], p[2])
	}
	fmt.Fprintf(&b, `<line class="axis" x1="%d" y1="%d" x2="%d" y2="%d"/>`, left, bottom, w-marginR, bottom)
	fmt.Fprintf(&b, `<text class="xlab" x="%d" y="%d" text-anchor="middle">%s</text></svg>`, left+int(pw)/2, h-8, esc(xlabel))
	return b.String()
}

// elbow plots change points against the penalty (log x axis) as points
// joined in penalty order, with the chosen penalty as a vertical line.
func elbow(title string, pen, ncp []float64, chosen float64) string {
	var b strings.Builder
	const w, h = 440, 230
	svgOpen(&b, "elbow", title, w, h)
	legend(&b, legendY, [2]string{"change points", colorRcm}, [2]string{"chosen penalty", colorWarn})
	type pt struct{ x, y float64 }
	var pts []pt
	for i := range pen {
		if pen[i] > 0 && !math.IsNaN(ncp[i]) {
			pts = append(pts, pt{pen[i], ncp[i]})
		}
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].x < pts[j].x })
	if len(pts) == 0 {
		b.WriteString(`<text class="tick" x="100" y="120">no penalty visited</text></svg>`)
		return b.String()
	}
	lx0, lx1 := math.Log10(pts[0].x), math.Log10(pts[len(pts)-1].x)
	if !math.IsNaN(chosen) && chosen > 0 {
		lx0, lx1 = math.Min(lx0, math.Log10(chosen)), math.Max(lx1, math.Log10(chosen))
	}
	if lx1-lx0 < 1e-9 {
		lx0, lx1 = lx0-0.5, lx1+0.5
	}
	ymax := 1.0
	for _, p := range pts {
		ymax = math.Max(ymax, p.y)
	}
	pw, ph := float64(w-marginL-marginR), float64(h-marginT-marginB)
	x := func(v float64) float64 { return float64(marginL) + (math.Log10(v)-lx0)/(lx1-lx0)*pw }
	y := func(v float64) float64 { return float64(marginT) + (1-v/(ymax*1.05))*ph }
	for _, t := range chart.NiceTicks(0, ymax, 4) {
		fmt.Fprintf(&b, `<line class="grid" x1="%d" y1="%s" x2="%d" y2="%s"/><text class="tick" x="%d" y="%s" text-anchor="end">%s</text>`,
			marginL, f1(y(t)), w-marginR, f1(y(t)), marginL-4, f1(y(t)+4), chart.TickLabel(t))
	}
	for _, t := range (axis{lo: math.Pow(10, lx0), hi: math.Pow(10, lx1), p0: float64(marginL), p1: float64(marginL) + pw, log: true}).ticks(5, false, false) {
		fmt.Fprintf(&b, `<text class="tick" x="%s" y="%d" text-anchor="middle">%s</text>`, f1(t.pos), h-marginB+14, esc(t.label))
	}
	var line strings.Builder
	for _, p := range pts {
		fmt.Fprintf(&line, "%s,%s ", f1(x(p.x)), f1(y(p.y)))
		fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="3" fill="%s"/>`, f1(x(p.x)), f1(y(p.y)), colorRcm)
	}
	fmt.Fprintf(&b, `<polyline class="series" style="stroke:%s" points="%s"/>`, colorRcm, strings.TrimSpace(line.String()))
	if !math.IsNaN(chosen) && chosen > 0 {
		fmt.Fprintf(&b, `<line class="wline" x1="%s" y1="%d" x2="%s" y2="%d"/>`, f1(x(chosen)), marginT, f1(x(chosen)), h-marginB)
	}
	fmt.Fprintf(&b, `<line class="axis" x1="%d" y1="%d" x2="%d" y2="%d"/><line class="axis" x1="%d" y1="%d" x2="%d" y2="%d"/>`,
		marginL, h-marginB, w-marginR, h-marginB, marginL, marginT, marginL, h-marginB)
	fmt.Fprintf(&b, `<text class="xlab" x="%d" y="%d" text-anchor="middle">PELT penalty (log scale)</text>`, marginL+int(pw)/2, h-10)
	fmt.Fprintf(&b, `<text class="xlab" transform="translate(14 %d) rotate(-90)" text-anchor="middle">change points</text></svg>`, marginT+int(ph)/2)
	return b.String()
}
