package page

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// density is one distribution a density plot draws: its points (the
// distributions frame's quantiles in the plot's unit: every value of a
// short run, 41 evenly spaced quantiles of a long one), their number in
// the data, mean and median, a label and a colour; dashed draws its
// curve as a line only (the previous version).
type density struct {
	label, color string
	pts          []float64
	n            float64
	mean, median float64
	dashed       bool
}

// kdeGrid is the number of points at which a density is evaluated.
const kdeGrid = 64

// kdeReach is how far beyond its extreme points a density is drawn, in
// bandwidths: a Gaussian kernel is below 0.04 % of its peak there, so
// the curve has reached the axis and the tails are whole.
const kdeReach = 4

// kdeCurve is the Gaussian kernel density estimate of the points u (in
// the axis' coordinates) with bandwidth bw on grid: (1/(n·bw)) Σ φ((t −
// uᵢ)/bw).
func kdeCurve(u []float64, bw float64, grid []float64) []float64 {
	out := make([]float64, len(grid))
	c := 1 / (float64(len(u)) * bw * math.Sqrt(2*math.Pi))
	for k, t := range grid {
		s := 0.0
		for _, v := range u {
			z := (t - v) / bw
			s += math.Exp(-z * z / 2)
		}
		out[k] = c * s
	}
	return out
}

// densityPlot draws the densities on one x axis in unit (log scale when
// the points span more than a factor of 3 and are positive), as
// criterion.rs draws a benchmark's PDF: per distribution its Gaussian
// kernel density estimate (Silverman's bandwidth, sd or IQR/1.34 of the
// points) drawn kdeReach bandwidths beyond its extreme points, so the
// tails reach the axis, with its mean (dashed) and median (solid) marked
// by vertical lines up to the curve.
func densityPlot(title, unit string, ds []density) string {
	var b strings.Builder
	const w, h = 720, 250
	left, right, top, bottom := 56.0, float64(w-16), 54.0, float64(h-40)
	svgOpen(&b, "density", title, w, h)
	var entries [][2]string
	for _, d := range ds {
		entries = append(entries, [2]string{d.label, d.color})
	}
	legend(&b, legendY, entries...)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, d := range ds {
		for _, v := range d.pts {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if !(lo <= hi) {
		b.WriteString(`<text class="tick" x="100" y="120">no finite values</text></svg>`)
		return b.String()
	}
	logScale := lo > 0 && hi/lo > 3
	tr, inv := func(x float64) float64 { return x }, func(x float64) float64 { return x }
	if logScale {
		tr, inv = math.Log10, func(x float64) float64 { return math.Pow(10, x) }
	}
	// Each curve on its own grid reaching kdeReach bandwidths past its
	// points; the axis covers every grid.
	type curve struct {
		grid, dens []float64
		bw         float64
	}
	curves := make([]curve, len(ds))
	tlo, thi := math.Inf(1), math.Inf(-1)
	for i, d := range ds {
		u := make([]float64, 0, len(d.pts))
		for _, v := range d.pts {
			if !math.IsNaN(v) && !math.IsInf(v, 0) && (!logScale || v > 0) {
				u = append(u, tr(v))
			}
		}
		sort.Float64s(u)
		if len(u) == 0 {
			continue
		}
		bw := silverman(u)
		if bw <= 0 {
			// Every value equal: a narrow peak of a thousandth of the value.
			bw = math.Max(math.Abs(u[0])*1e-3, 1e-9)
		}
		a, c := u[0]-kdeReach*bw, u[len(u)-1]+kdeReach*bw
		grid := make([]float64, kdeGrid)
		for k := range grid {
			grid[k] = a + (c-a)*float64(k)/float64(kdeGrid-1)
		}
		curves[i] = curve{grid, kdeCurve(u, bw, grid), bw}
		tlo, thi = math.Min(tlo, a), math.Max(thi, c)
	}
	top1 := 0.0
	for _, c := range curves {
		for _, v := range c.dens {
			top1 = math.Max(top1, v)
		}
	}
	xa := axis{lo: inv(tlo), hi: inv(thi), p0: left, p1: right, log: logScale}
	x := func(t float64) float64 { return left + (t-tlo)/(thi-tlo)*(right-left) }
	y := func(v float64) float64 { return bottom - v/(top1*1.05)*(bottom-top) }
	xTicks(&b, xa.ticks(6, false, false), top, bottom)
	for i, c := range curves {
		if c.grid == nil {
			continue
		}
		d := ds[i]
		var path strings.Builder
		for k, t := range c.grid {
			fmt.Fprintf(&path, "%s%s %s", map[bool]string{true: "M", false: "L"}[k == 0], f0(x(t)), f0(y(c.dens[k])))
		}
		tip := esc(fmt.Sprintf("%s: %g values, mean %s, median %s %s", d.label, d.n, num(d.mean), num(d.median), unit))
		if d.dashed {
			fmt.Fprintf(&b, `<path class="kde" d="%s" style="stroke:%s;stroke-dasharray:5 3"><title>%s</title></path>`, path.String(), d.color, tip)
		} else {
			fmt.Fprintf(&b, `<path class="kde" d="%sL%s %sL%s %sZ" style="stroke:%s;fill:%s"><title>%s</title></path>`, path.String(),
				f0(x(c.grid[len(c.grid)-1])), f0(bottom), f0(x(c.grid[0])), f0(bottom), d.color, d.color, tip)
		}
		// Mean (dashed) and median (solid) up to the curve.
		mark := func(v float64, class, what string) {
			if math.IsNaN(v) || logScale && v <= 0 {
				return
			}
			t := tr(v)
			hgt := kdeCurve(ptsIn(d.pts, tr, logScale), c.bw, []float64{t})[0]
			fmt.Fprintf(&b, `<line class="%s" x1="%s" y1="%s" x2="%s" y2="%s" style="stroke:%s"><title>%s %s: %s %s</title></line>`,
				class, f1(x(t)), f1(bottom), f1(x(t)), f1(y(hgt)), d.color, esc(d.label), what, num(v), esc(unit))
		}
		mark(d.mean, "mean", "mean")
		mark(d.median, "median", "median")
	}
	fmt.Fprintf(&b, `<line class="axis" x1="%s" y1="%s" x2="%s" y2="%s"/>`, f1(left), f1(bottom), f1(right), f1(bottom))
	xl := unit + "; dashed: mean, solid: median"
	if logScale {
		xl = unit + ", log scale; dashed: mean, solid: median"
	}
	fmt.Fprintf(&b, `<text class="xlab" x="%s" y="%d" text-anchor="middle">%s</text>`, f1((left+right)/2), h-8, esc(xl))
	fmt.Fprintf(&b, `<text class="xlab" transform="translate(14 %s) rotate(-90)" text-anchor="middle">density</text></svg>`, f1((top+bottom)/2))
	return b.String()
}

// ptsIn is the finite points of pts in the axis' coordinates, sorted.
func ptsIn(pts []float64, tr func(float64) float64, logScale bool) []float64 {
	var u []float64
	for _, v := range pts {
		if !math.IsNaN(v) && !math.IsInf(v, 0) && (!logScale || v > 0) {
			u = append(u, tr(v))
		}
	}
	sort.Float64s(u)
	return u
}
