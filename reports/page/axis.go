package page

import (
	"fmt"
	"math"
	"strings"

	"github.com/benchtrim/benchtrim/reports/chart"
)

// Text metrics of the page's plots (svg .tick and .ylab are 11 px, .ptitle
// 12 px bold): an estimate of a label's width, generous so that labels
// estimated apart do not touch in any sans-serif font.
const (
	tickPx  = 11.0
	charW   = 0.62 // of the font size, per rune (digits, most letters)
	titlePx = 12.0
	titleW  = 0.64
	// tickGap is the least room between two tick labels.
	tickGap = 6.0
)

// textWidth estimates the width in px of s at size px.
func textWidth(s string, size float64) float64 { return float64(len([]rune(s))) * size * charW }

// axis maps data values onto pixels [p0, p1]: linearly or by log10.
type axis struct {
	lo, hi, p0, p1 float64
	log            bool
}

func (a axis) at(v float64) float64 {
	lo, hi := a.lo, a.hi
	if a.log {
		v, lo, hi = math.Log10(v), math.Log10(lo), math.Log10(hi)
	}
	if hi == lo {
		return (a.p0 + a.p1) / 2
	}
	return a.p0 + (a.p1-a.p0)*(v-lo)/(hi-lo)
}

// tickMark is one labelled tick: value, position and label.
type tickMark struct {
	v, pos float64
	label  string
}

// ratioSteps are the ticks of a log axis near 1 (ratios), ranked after
// the powers of ten and their 2 and 5 multiples.
var ratioSteps = []float64{0.67, 0.8, 0.9, 1.1, 1.25, 1.5}

// ticks returns the labelled ticks of a over [lo, hi], none of whose
// labels overlap (chart.Spread): a linear axis NiceTicks(lo, hi, n)
// labelled with the fewest digits that tell them apart; a log axis the
// powers of ten, and where fewer than three fall in the range their 2 and
// 5 multiples and, when ratios, the steps near 1 (ratioSteps), in one
// notation (chart.LogLabels), or linear ticks when fewer than three of
// those fall in the range. vertical
// spaces labels by their height instead of their width.
func (a axis) ticks(n int, ratios, vertical bool) []tickMark {
	var vs []float64
	var rank []int
	if a.log && a.lo > 0 {
		powers := 0
		for e := math.Floor(math.Log10(a.lo)) - 1; e <= math.Ceil(math.Log10(a.hi)); e++ {
			if p := math.Pow(10, e); p >= a.lo*(1-1e-9) && p <= a.hi*(1+1e-9) {
				powers++
			}
		}
		// Three powers of ten or more: those alone, as log axes are read.
		steps := []float64{1, 2, 5}
		if powers >= 3 {
			steps = steps[:1]
		}
		for e := math.Floor(math.Log10(a.lo)) - 1; e <= math.Ceil(math.Log10(a.hi)); e++ {
			p := math.Pow(10, e)
			for _, m := range steps {
				vs, rank = append(vs, m*p), append(rank, map[bool]int{true: 0, false: 1}[m == 1])
			}
		}
		ratios = ratios && powers < 3
		if ratios {
			for _, r := range ratioSteps {
				vs, rank = append(vs, r), append(rank, 2)
			}
		}
		var in []float64
		var inRank []int
		for i, v := range vs {
			if v >= a.lo*(1-1e-9) && v <= a.hi*(1+1e-9) {
				in, inRank = append(in, v), append(inRank, rank[i])
			}
		}
		vs, rank = in, inRank
		if len(vs) < 3 {
			vs, rank = nil, nil
		}
	}
	var labels []string
	if vs == nil {
		for _, t := range chart.NiceTicks(a.lo, a.hi, n) {
			if t >= a.lo-1e-9*math.Abs(a.hi-a.lo) && t <= a.hi+1e-9*math.Abs(a.hi-a.lo) && (!a.log || t > 0) {
				vs = append(vs, t)
			}
		}
		rank = make([]int, len(vs))
		labels = tickLabels(vs)
	} else {
		sortTicks(vs, rank)
		labels = chart.LogLabels(vs)
	}
	pos, wd := make([]float64, len(vs)), make([]float64, len(vs))
	for i, v := range vs {
		pos[i] = a.at(v)
		wd[i] = textWidth(labels[i], tickPx)
		if vertical {
			wd[i] = tickPx
		}
	}
	keep := chart.Spread(pos, wd, rank, tickGap)
	var out []tickMark
	for i := range vs {
		if keep[i] {
			out = append(out, tickMark{vs[i], pos[i], labels[i]})
		}
	}
	return out
}

// sortTicks sorts vs ascending with their ranks, dropping repeats.
func sortTicks(vs []float64, rank []int) {
	for i := 1; i < len(vs); i++ {
		for j := i; j > 0 && vs[j] < vs[j-1]; j-- {
			vs[j], vs[j-1] = vs[j-1], vs[j]
			rank[j], rank[j-1] = rank[j-1], rank[j]
		}
	}
}

// tickLabels labels evenly spaced ticks with the fewest significant
// digits (up to 6) that tell every two apart, without an exponent
// between 0.001 and 10⁹.
func tickLabels(vs []float64) []string {
	out := make([]string, len(vs))
	for prec := 1; prec <= 6; prec++ {
		seen := map[string]bool{}
		ok := true
		for i, v := range vs {
			out[i] = tickNum(v, prec)
			ok = ok && !seen[out[i]]
			seen[out[i]] = true
		}
		if ok {
			break
		}
	}
	return out
}

// tickNum formats v with prec significant digits, plainly from 0.001 to
// 10⁹ (no trailing zeros), with an exponent beyond.
func tickNum(v float64, prec int) string {
	a := math.Abs(v)
	if v == 0 {
		return "0"
	}
	if a >= 1e-3 && a < 1e9 {
		digits := max(0, prec-1-int(math.Floor(math.Log10(a))))
		s := fmt.Sprintf("%.*f", digits, v)
		if strings.Contains(s, ".") {
			s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		}
		return s
	}
	return fmt.Sprintf("%.*g", prec, v)
}

// xTicks draws the ticks of a horizontal axis at the bottom y of a plot
// whose data area reaches up to top: grid lines and labels below.
func xTicks(b *strings.Builder, ts []tickMark, top, bottom float64) {
	for _, t := range ts {
		fmt.Fprintf(b, `<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s"/><text class="tick" x="%s" y="%s" text-anchor="middle">%s</text>`,
			f1(t.pos), f1(top), f1(t.pos), f1(bottom), f1(t.pos), f1(bottom+14), esc(t.label))
	}
}

// yTicks draws the ticks of a vertical axis at x left of a data area from
// left to right: grid lines and labels left of it.
func yTicks(b *strings.Builder, ts []tickMark, left, right float64) {
	for _, t := range ts {
		fmt.Fprintf(b, `<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s"/><text class="tick" x="%s" y="%s" text-anchor="end">%s</text>`,
			f1(left), f1(t.pos), f1(right), f1(t.pos), f1(left-4), f1(t.pos+4), esc(t.label))
	}
}

// titleLines breaks a plot title into lines of at most w px (titlePx
// bold), at spaces, so no title runs past its plot; a word longer than a
// line (a benchmark name) is cut at its end with "…" only when it is
// longer than the whole line.
func titleLines(s string, w float64) []string {
	maxRunes := max(8, int(w/(titlePx*titleW)))
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case len([]rune(line))+1+len([]rune(word)) <= maxRunes:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	for i, l := range lines {
		if r := []rune(l); len(r) > maxRunes {
			lines[i] = string(r[:maxRunes-1]) + "…"
		}
	}
	return lines
}
