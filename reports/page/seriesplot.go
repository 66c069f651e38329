package page

import (
	"fmt"
	"math"
	"strings"
)

// seriesFork is one fork of a run's series: its label, iterations (as the
// file numbers them, from 1), values in the plot's unit and phases, and
// the steady-state start (the iteration, 0 when unknown or not steady).
type seriesFork struct {
	label   string
	iter    []float64
	values  []float64
	phase   []string
	steadyi int
}

// maxSeriesForks bounds the forks a run's series plot draws side by side.
const maxSeriesForks = 24

// phaseColor colours an observation by its phase: warmup light grey, kept
// by the recommendation blue, cut grey.
func phaseColor(p string) string {
	switch p {
	case "warmup":
		return "#bdc1c6"
	case "cut":
		return "#80868b"
	}
	return colorRcm
}

// seriesPlot draws a run's observations in recorded order, one fork after
// the other on a shared y axis in unit (JMH Visualizer's raw data per
// fork): per fork its iterations numbered as the file numbers them (from
// 1), coloured by phase (the discarded warmup, what the recommendation
// keeps, what it cuts), the steady-state start st (green) where steady
// state detection ran, and the forks' boundaries. The y range is the
// 1–99 % quantile range widened by 10 %; values beyond it are clipped and
// marked by triangles. note (the warmup JMH ran but did not record) goes
// under the title.
func seriesPlot(title, unit, note string, forks []seriesFork) string {
	var b strings.Builder
	const w, h = 720, 240
	left, right, top, bottom := 64.0, float64(w-12), 56.0, float64(h-40)
	shown := forks[:min(len(forks), maxSeriesForks)]
	var all []float64
	slots := 0
	for _, f := range shown {
		all = append(all, f.values...)
		slots += len(f.values)
	}
	if len(shown) > 1 {
		slots += 2 * (len(shown) - 1) // a gap between forks
	}
	svgOpen(&b, "series", title, w, h)
	legend(&b, legendY, [2]string{"warmup (discarded)", phaseColor("warmup")}, [2]string{"kept", phaseColor("kept")},
		[2]string{"cut by the recommendation", phaseColor("cut")}, [2]string{"steady from (st)", colorSteady})
	if note != "" {
		fmt.Fprintf(&b, `<text class="tick" x="%s" y="%s" text-anchor="end">%s</text>`, f1(right), f1(top-2), esc(note))
	}
	if slots == 0 {
		b.WriteString(`<text class="tick" x="100" y="120">no observations</text></svg>`)
		return b.String()
	}
	lo, hi := robustRange(all)
	ya := axis{lo: lo, hi: hi, p0: bottom, p1: top}
	yTicks(&b, ya.ticks(4, false, true), left, right)
	dx := (right - left) / math.Max(float64(slots), 1)
	pos := 0
	for fi, f := range shown {
		x0 := left + float64(pos)*dx
		x := func(j int) float64 { return x0 + (float64(j)+0.5)*dx }
		if fi > 0 {
			sep := x0 - dx
			fmt.Fprintf(&b, `<line class="fsep" x1="%s" y1="%s" x2="%s" y2="%s"/>`, f1(sep), f1(top), f1(sep), f1(bottom))
		}
		if len(shown) > 1 {
			fmt.Fprintf(&b, `<text class="flab" x="%s" y="%s">%s</text>`, f1(x0+2), f1(top+10), esc(f.label))
		}
		// One polyline per run of equal phase, joined to the point before
		// it (the line into a point has the point's phase).
		for a := 0; a < len(f.values); {
			e := a + 1
			for e < len(f.values) && f.phase[e] == f.phase[a] {
				e++
			}
			var pts strings.Builder
			for j := max(a-1, 0); j < e; j++ {
				v := math.Min(math.Max(f.values[j], lo), hi)
				fmt.Fprintf(&pts, "%s,%s ", f0(x(j)), f0(ya.at(v)))
			}
			fmt.Fprintf(&b, `<polyline class="obs" points="%s" style="stroke:%s"/>`, strings.TrimSpace(pts.String()), phaseColor(f.phase[a]))
			a = e
		}
		if len(f.values) <= 60 {
			for j, v := range f.values {
				c := math.Min(math.Max(v, lo), hi)
				fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="2" fill="%s"><title>%g: %s</title></circle>`,
					f0(x(j)), f0(ya.at(c)), phaseColor(f.phase[j]), f.iter[j], num(v))
			}
		}
		for j, v := range f.values {
			if c := math.Min(math.Max(v, lo), hi); c != v {
				fmt.Fprintf(&b, `<path class="clip" d="M%s %s l-3 %d h6z"/>`, f1(x(j)), f1(ya.at(c)), map[bool]int{true: 5, false: -5}[v > hi])
			}
		}
		if f.steadyi > 0 {
			for j, it := range f.iter {
				if int(it) >= f.steadyi {
					fmt.Fprintf(&b, `<line class="st" x1="%s" y1="%s" x2="%s" y2="%s"><title>%s: steady from iteration %d</title></line>`,
						f1(x(j)-dx/2), f1(top), f1(x(j)-dx/2), f1(bottom), esc(f.label), f.steadyi)
					break
				}
			}
		}
		// Iteration ticks within the fork: its first and last, and round
		// ones between where they fit.
		if n := len(f.iter); n > 0 {
			fa := axis{lo: f.iter[0], hi: f.iter[n-1], p0: x(0), p1: x(n - 1)}
			var ts []tickMark
			if n == 1 || (x(n-1)-x(0)) < 40 {
				ts = []tickMark{{f.iter[0], x(0), tickNum(f.iter[0], 6)}}
			} else {
				ts = fa.ticks(max(2, min(6, int((x(n-1)-x(0))/50))), false, false)
			}
			for _, t := range ts {
				fmt.Fprintf(&b, `<text class="tick" x="%s" y="%s" text-anchor="middle">%s</text>`, f1(t.pos), f1(bottom+14), esc(t.label))
			}
		}
		pos += len(f.values) + 2
	}
	fmt.Fprintf(&b, `<line class="axis" x1="%s" y1="%s" x2="%s" y2="%s"/><line class="axis" x1="%s" y1="%s" x2="%s" y2="%s"/>`,
		f1(left), f1(bottom), f1(right), f1(bottom), f1(left), f1(top), f1(left), f1(bottom))
	xl := "iteration (as the file numbers them, from 1)"
	if len(forks) > len(shown) {
		xl += fmt.Sprintf("; the first %d of %d forks", len(shown), len(forks))
	}
	fmt.Fprintf(&b, `<text class="xlab" x="%s" y="%d" text-anchor="middle">%s</text>`, f1((left+right)/2), h-8, esc(xl))
	fmt.Fprintf(&b, `<text class="xlab" transform="translate(14 %s) rotate(-90)" text-anchor="middle">%s</text></svg>`, f1((top+bottom)/2), esc(unit))
	return b.String()
}
