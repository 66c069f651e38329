package page

import (
	"fmt"
	"math"
	"strings"
)

// tradePoint is one configuration on a trade-off plot: its time (x), its
// detectable slowdown (y, a fraction; +Inf where the test cannot report
// a change), a short label and its kind (how it is drawn: "considered",
// "chosen", "recorded", "minimum").
type tradePoint struct {
	x, y        float64
	label, kind string
}

var tradeStyle = map[string]struct{ color, shape string }{
	"considered": {"#9aa0a6", "circle"},
	"chosen":     {colorRcm, "circle"},
	"recorded":   {"#202124", "square"},
	"minimum":    {colorB, "diamond"},
}

// tradeoffPlot draws detectable slowdown against time: the
// configurations pts (those trim considered grey, the one it chose blue
// and larger, the recorded one black, the fixed minimum orange), the
// target (the largest detectable slowdown the choice may have) dashed,
// and above the plot's top the configurations at which the test cannot
// report a change (∞). x is in xunit from 0; y in % on a log scale when
// the values span more than a factor of 10.
//
// A point's kind names it in the legend ("chosen" and "considered" for
// one run) unless names gives another name for the kind (the suite's
// plot calls the chosen configurations "trim").
func tradeoffPlot(title, xlabel string, pts []tradePoint, target float64, rename map[string]string) string {
	var b strings.Builder
	const w, h = 720, 260
	left, right, top, bottom := 64.0, float64(w-16), 60.0, float64(h-40)
	svgOpen(&b, "tradeoff", title, w, h)
	var entries [][2]string
	seen := map[string]bool{}
	names := map[string]string{"considered": "considered", "chosen": "chosen", "recorded": "recorded", "minimum": "fixed minimum"}
	for k, v := range rename {
		names[k] = v
	}
	for _, k := range []string{"chosen", "considered", "recorded", "minimum"} {
		for _, p := range pts {
			if p.kind == k && !seen[k] {
				seen[k] = true
				entries = append(entries, [2]string{names[k], tradeStyle[k].color})
			}
		}
	}
	if !math.IsNaN(target) && target > 0 && !math.IsInf(target, 0) {
		entries = append(entries, [2]string{"target (--keep)", colorWarn})
	}
	legend(&b, legendY, entries...)
	xhi, ylo, yhi := 0.0, math.Inf(1), math.Inf(-1)
	inf := false
	for _, p := range pts {
		if !math.IsNaN(p.x) {
			xhi = math.Max(xhi, p.x)
		}
		switch {
		case math.IsInf(p.y, 1):
			inf = true
		case !math.IsNaN(p.y) && p.y > 0:
			ylo, yhi = math.Min(ylo, p.y), math.Max(yhi, p.y)
		}
	}
	if !math.IsNaN(target) && target > 0 && !math.IsInf(target, 0) {
		ylo, yhi = math.Min(ylo, target), math.Max(yhi, target)
	}
	if !(ylo <= yhi) {
		ylo, yhi = 0.01, 0.1
	}
	logY := yhi/ylo > 10
	var ya axis
	ytop := top
	if inf {
		ytop = top + 16 // a row for ∞ above the axis
	}
	if logY {
		ya = axis{lo: ylo / 1.3, hi: yhi * 1.3, p0: bottom, p1: ytop, log: true}
	} else {
		pad := 0.1 * (yhi - ylo)
		if pad == 0 {
			pad = 0.1 * yhi
		}
		ya = axis{lo: math.Max(0, ylo-pad), hi: yhi + pad, p0: bottom, p1: ytop}
	}
	if xhi <= 0 {
		xhi = 1
	}
	xa := axis{lo: 0, hi: xhi * 1.05, p0: left, p1: right}
	xTicks(&b, xa.ticks(6, false, false), ytop, bottom)
	ts := ya.ticks(4, false, true)
	for i := range ts {
		ts[i].label = tickNum(100*ts[i].v, 3) + " %"
	}
	yTicks(&b, ts, left, right)
	if inf {
		fmt.Fprintf(&b, `<text class="tick" x="%s" y="%s" text-anchor="end">∞</text><line class="grid" x1="%s" y1="%s" x2="%s" y2="%s"/>`,
			f1(left-4), f1(top+4), f1(left), f1(top), f1(right), f1(top))
	}
	if !math.IsNaN(target) && target > 0 && !math.IsInf(target, 0) {
		fmt.Fprintf(&b, `<line class="ref" x1="%s" y1="%s" x2="%s" y2="%s"><title>target: detect %s or less</title></line>`,
			f1(left), f1(ya.at(target)), f1(right), f1(ya.at(target)), pct(target))
	}
	for _, k := range []string{"considered", "recorded", "minimum", "chosen"} {
		for _, p := range pts {
			if p.kind != k || math.IsNaN(p.x) || math.IsNaN(p.y) {
				continue
			}
			cx, cy := xa.at(p.x), top
			if !math.IsInf(p.y, 1) {
				cy = ya.at(p.y)
			}
			st := tradeStyle[k]
			tip := esc(fmt.Sprintf("%s %s: %s, detects %s", names[k], p.label, num(p.x), pct(p.y)))
			switch st.shape {
			case "square":
				fmt.Fprintf(&b, `<rect class="tp" x="%s" y="%s" width="8" height="8" fill="%s"><title>%s</title></rect>`, f1(cx-4), f1(cy-4), st.color, tip)
			case "diamond":
				fmt.Fprintf(&b, `<path class="tp" d="M%s %sl5 5l-5 5l-5 -5z" fill="%s"><title>%s</title></path>`, f1(cx), f1(cy-5), st.color, tip)
			default:
				r := 3.5
				if k == "chosen" {
					r = 6
				}
				fmt.Fprintf(&b, `<circle class="tp" cx="%s" cy="%s" r="%g" fill="%s"><title>%s</title></circle>`, f1(cx), f1(cy), r, st.color, tip)
			}
		}
	}
	fmt.Fprintf(&b, `<line class="axis" x1="%s" y1="%s" x2="%s" y2="%s"/><line class="axis" x1="%s" y1="%s" x2="%s" y2="%s"/>`,
		f1(left), f1(bottom), f1(right), f1(bottom), f1(left), f1(top), f1(left), f1(bottom))
	fmt.Fprintf(&b, `<text class="xlab" x="%s" y="%d" text-anchor="middle">%s</text>`, f1((left+right)/2), h-8, esc(xlabel))
	yl := "detectable slowdown"
	if logY {
		yl += " (log)"
	}
	fmt.Fprintf(&b, `<text class="xlab" transform="translate(14 %s) rotate(-90)" text-anchor="middle">%s</text></svg>`, f1((top+bottom)/2), yl)
	return b.String()
}
