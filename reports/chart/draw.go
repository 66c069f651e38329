package chart

import (
	"errors"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/gonum/stat"
)

// pt is a position on the page in points, y down.
type pt struct{ x, y float64 }

// canvas is what a chart is drawn on: the SVG writer or the PNG
// rasteriser. Coordinates are points from the top left corner.
type canvas interface {
	// stroke draws the polyline through p (closed: back to p[0]).
	stroke(p []pt, closed bool, s Style)
	// fill fills the polygon p.
	fill(p []pt, c color.Color)
	// circle strokes a circle of radius r around c.
	circle(c pt, r float64, s Style)
	// text writes s with its baseline through at, size points high;
	// anchor 0 puts at at the start of the text, 0.5 at its middle, 1 at
	// its end; vertical text reads bottom to top.
	text(at pt, s string, size, anchor float64, vertical bool, c color.Color)
	// clip limits the strokes and fills that follow to r (nil: no limit).
	clip(r *rect)
}

type rect struct{ x0, y0, x1, y1 float64 }

// Layout constants, in points.
const (
	pad       = 6
	tickLen   = 4
	titleSize = 11
	labelSize = 10
	tickSize  = 9
	// pointLabelSize is the size of a Points label.
	pointLabelSize = 8
	lineHeight     = 1.25 // of the text size
	ascent         = 0.75 // of the text size, for placing text by its top
)

var (
	black     = color.Gray{}
	gridColor = color.Gray{Y: 220}
	white     = color.Gray{Y: 255}
)

// plotter draws one chart on one canvas.
type plotter struct {
	c      *Chart
	cv     canvas
	width  func(s string, size float64) float64
	area   rect
	sx, sy scale
	xt, yt []tick
}

// errNoRange is returned for a chart whose axes cannot be drawn.
var errNoRange = errors.New("chart: an axis range is not finite")

// render lays c out on a page w × h points and draws it on cv; width
// measures text.
func render(c *Chart, cv canvas, w, h float64, width func(string, float64) float64) error {
	r := newDataRange(c)
	for _, m := range c.Marks {
		m.extent(&r)
	}
	xlo, xhi := c.X.axisRange(r.xmin, r.xmax)
	ylo, yhi := c.Y.axisRange(r.ymin, r.ymax)
	for _, v := range []float64{xlo, xhi, ylo, yhi} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errNoRange
		}
	}
	if c.X.Log && xlo <= 0 || c.Y.Log && ylo <= 0 {
		return errNoRange
	}
	p := &plotter{c: c, cv: cv, width: width, xt: c.X.ticks(xlo, xhi), yt: c.Y.ticks(ylo, yhi)}

	// The margins hold the title, the axis labels and the tick labels.
	top := pad + tickSize*ascent/2
	if c.Title != "" {
		top = pad + titleSize*lineHeight + pad/2
	}
	left := float64(pad + tickLen + 2)
	for _, t := range p.yt {
		left = math.Max(left, pad+tickLen+2+width(t.label, tickSize))
	}
	if c.Y.Label != "" {
		left += labelSize * lineHeight
	}
	bottom := pad + tickLen + 2 + tickSize*lineHeight
	if c.X.Label != "" {
		bottom += labelSize * lineHeight
	}
	// A label centred on its tick may reach past the data area; where
	// the tick falls is estimated as if the area reached the page's edge.
	right := float64(pad)
	est := scale{lo: xlo, hi: xhi, p0: 0, p1: w - left, log: c.X.Log}
	for _, t := range p.xt {
		if t.label != "" {
			right = math.Max(right, est.at(t.v)+width(t.label, tickSize)/2+2-(w-left))
		}
	}
	p.area = rect{left, top, w - right, h - bottom}
	if p.area.x1-p.area.x0 < 20 || p.area.y1-p.area.y0 < 20 {
		return errors.New("chart: no room for the data area")
	}
	p.sx = scale{lo: xlo, hi: xhi, p0: p.area.x0, p1: p.area.x1, log: c.X.Log}
	p.sy = scale{lo: ylo, hi: yhi, p0: p.area.y1, p1: p.area.y0, log: c.Y.Log}

	cv.fill([]pt{{0, 0}, {w, 0}, {w, h}, {0, h}}, white)
	p.grid()
	cv.clip(&p.area)
	for _, m := range c.Marks {
		m.draw(p)
	}
	cv.clip(nil)
	p.axes(w, h)
	p.legend()
	if c.Title != "" {
		t, size := p.fit(c.Title, titleSize, w-2*pad)
		cv.text(pt{w / 2, pad + titleSize*ascent}, t, size, 0.5, false, black)
	}
	return nil
}

// minTextSize is the smallest size fit shrinks text to, in points.
const minTextSize = 7

// fit returns s and a size at most size that make it at most maxw points
// wide: the text shrunk, down to minTextSize, then cut in the middle
// with an ellipsis (a long benchmark name keeps its start and its
// parameters' end).
func (p *plotter) fit(s string, size, maxw float64) (string, float64) {
	wd := p.width(s, size)
	if wd <= maxw {
		return s, size
	}
	size = math.Max(minTextSize, size*maxw/wd)
	r := []rune(s)
	for n := len(r) - 1; n > 1 && p.width(s, size) > maxw; n-- {
		s = string(r[:(n+1)/2]) + "…" + string(r[len(r)-n/2:])
	}
	return s, size
}

// grid draws a light line at each labelled tick of both axes.
func (p *plotter) grid() {
	s := Style{Color: gridColor, Width: 0.5}
	for _, t := range p.xt {
		if !t.minor {
			x := p.sx.at(t.v)
			p.cv.stroke([]pt{{x, p.area.y0}, {x, p.area.y1}}, false, s)
		}
	}
	for _, t := range p.yt {
		if !t.minor {
			y := p.sy.at(t.v)
			p.cv.stroke([]pt{{p.area.x0, y}, {p.area.x1, y}}, false, s)
		}
	}
}

// axes draws the left and bottom axis lines, their ticks (minor ones
// half as long) and tick labels, and the axis labels.
func (p *plotter) axes(w, h float64) {
	a := p.area
	s := Style{Color: black, Width: 0.75}
	p.cv.stroke([]pt{{a.x0, a.y0}, {a.x0, a.y1}, {a.x1, a.y1}}, false, s)
	shown := p.spreadX()
	for i, t := range p.xt {
		x, l := p.sx.at(t.v), float64(tickLen)
		if t.minor {
			l /= 2
		}
		p.cv.stroke([]pt{{x, a.y1}, {x, a.y1 + l}}, false, s)
		if t.label != "" && shown[i] {
			p.cv.text(pt{x, a.y1 + tickLen + 2 + tickSize*ascent}, t.label, tickSize, 0.5, false, black)
		}
	}
	for _, t := range p.yt {
		y, l := p.sy.at(t.v), float64(tickLen)
		if t.minor {
			l /= 2
		}
		p.cv.stroke([]pt{{a.x0 - l, y}, {a.x0, y}}, false, s)
		if t.label != "" {
			p.cv.text(pt{a.x0 - tickLen - 2, y + tickSize*ascent/2}, t.label, tickSize, 1, false, black)
		}
	}
	if l := p.c.X.Label; l != "" {
		l, size := p.fit(l, labelSize, a.x1-a.x0)
		p.cv.text(pt{(a.x0 + a.x1) / 2, h - pad}, l, size, 0.5, false, black)
	}
	if l := p.c.Y.Label; l != "" {
		l, size := p.fit(l, labelSize, a.y1-a.y0)
		p.cv.text(pt{pad + labelSize*ascent, (a.y0 + a.y1) / 2}, l, size, 0.5, true, black)
	}
}

// spreadX reports which x tick labels axes draws: those that do not
// overlap one to their left (Spread, ranked by position, with a gap of
// half a tick label's height), so labels never run into each other.
func (p *plotter) spreadX() []bool {
	var pos, wd []float64
	var rank, idx []int
	for i, t := range p.xt {
		if t.label != "" {
			pos, wd = append(pos, p.sx.at(t.v)), append(wd, p.width(t.label, tickSize))
			rank, idx = append(rank, len(idx)), append(idx, i)
		}
	}
	keep := Spread(pos, wd, rank, tickSize/2)
	shown := make([]bool, len(p.xt))
	for j, i := range idx {
		shown[i] = keep[j]
	}
	return shown
}

// legend draws the entries in a box in the top right corner of the data
// area: a 20-point sample of each entry's line, glyph or fill, then its
// label.
func (p *plotter) legend() {
	if len(p.c.Legend) == 0 {
		return
	}
	size := p.c.LegendSize
	if size <= 0 {
		size = 10
	}
	const sample = 20
	row := size * lineHeight
	tw := 0.0
	for _, e := range p.c.Legend {
		tw = math.Max(tw, p.width(e.Label, size))
	}
	bw, bh := pad/2+sample+pad/2+tw+pad/2, float64(len(p.c.Legend))*row+pad/2
	x1, y0 := p.area.x1-pad/2, p.area.y0+pad/2
	if p.c.LegendBottom {
		y0 = p.area.y1 - pad/2 - bh
	}
	x0 := x1 - bw
	p.cv.fill([]pt{{x0, y0}, {x1, y0}, {x1, y0 + bh}, {x0, y0 + bh}}, color.NRGBA{255, 255, 255, 217})
	p.cv.stroke([]pt{{x0, y0}, {x1, y0}, {x1, y0 + bh}, {x0, y0 + bh}}, true, Style{Color: gridColor, Width: 0.5})
	for i, e := range p.c.Legend {
		mid := y0 + pad/4 + (float64(i)+0.5)*row
		sx0, sx1 := x0+pad/2, x0+pad/2+sample
		if e.Fill != nil {
			p.cv.fill([]pt{{sx0 + 4, mid - size/3}, {sx1 - 4, mid - size/3}, {sx1 - 4, mid + size/3}, {sx0 + 4, mid + size/3}}, e.Fill)
		}
		if e.Line != nil {
			p.cv.stroke([]pt{{sx0, mid}, {sx1, mid}}, false, e.Line.orDefault())
		}
		if e.Glyph != nil {
			p.glyph(pt{(sx0 + sx1) / 2, mid}, *e.Glyph)
		}
		p.cv.text(pt{sx1 + pad/2, mid + size*ascent/2}, e.Label, size, 0, false, black)
	}
}

// glyph marks the point at with g.
func (p *plotter) glyph(at pt, g Glyph) {
	g = g.orDefault()
	s := Style{Color: g.Color, Width: 1}
	switch g.Shape {
	case Cross:
		d := g.Radius / math.Sqrt2
		p.cv.stroke([]pt{{at.x - d, at.y - d}, {at.x + d, at.y + d}}, false, s)
		p.cv.stroke([]pt{{at.x - d, at.y + d}, {at.x + d, at.y - d}}, false, s)
	default:
		p.cv.circle(at, g.Radius, s)
	}
}

// page returns the page position of a data point, and false when the
// point cannot be drawn (not finite, or not positive on a log axis).
func (p *plotter) page(v XY) (pt, bool) {
	if !usable(v.X, p.sx.log) || !usable(v.Y, p.sy.log) {
		return pt{}, false
	}
	return pt{p.sx.at(v.X), p.sy.at(v.Y)}, true
}

func (l *Line) draw(p *plotter) {
	var run []pt
	s := l.Style.orDefault()
	flush := func() {
		if len(run) > 1 {
			p.cv.stroke(run, false, s)
		}
		run = run[:0]
	}
	for _, v := range l.XYs {
		q, ok := p.page(v)
		if !ok {
			flush()
			continue
		}
		run = append(run, q)
	}
	flush()
}

// draw marks the points inside the axes' ranges; their glyphs are not
// clipped, so a point on the edge of a fixed range shows whole.
func (pts *Points) draw(p *plotter) {
	p.cv.clip(nil)
	defer p.cv.clip(&p.area)
	const eps = 1e-9
	a := p.area
	g := pts.Glyph.orDefault()
	for i, v := range pts.XYs {
		if q, ok := p.page(v); ok && q.x >= a.x0-eps && q.x <= a.x1+eps && q.y >= a.y0-eps && q.y <= a.y1+eps {
			p.glyph(q, pts.Glyph)
			if i < len(pts.Labels) && pts.Labels[i] != "" {
				p.cv.text(pt{q.x + g.Radius + 2, q.y + 3}, pts.Labels[i], pointLabelSize, 0, false, g.Color)
			}
		}
	}
}

func (b *Box) draw(p *plotter) {
	var v []float64
	for _, x := range b.Values {
		if usable(x, p.sy.log) {
			v = append(v, x)
		}
	}
	if len(v) == 0 || !usable(b.X, p.sx.log) {
		return
	}
	sort.Float64s(v)
	q1 := stat.Quantile(0.25, stat.Empirical, v, nil)
	med := stat.Quantile(0.5, stat.Empirical, v, nil)
	q3 := stat.Quantile(0.75, stat.Empirical, v, nil)
	lo, hi := q1-1.5*(q3-q1), q3+1.5*(q3-q1)
	adjLo, adjHi := q1, q3
	for _, x := range v {
		if x >= lo {
			adjLo = math.Min(x, q1)
			break
		}
	}
	for i := len(v) - 1; i >= 0; i-- {
		if v[i] <= hi {
			adjHi = math.Max(v[i], q3)
			break
		}
	}
	x := p.sx.at(b.X)
	hw := b.Width / 2
	y1, ym, y3 := p.sy.at(q1), p.sy.at(med), p.sy.at(q3)
	box := []pt{{x - hw, y3}, {x + hw, y3}, {x + hw, y1}, {x - hw, y1}}
	if b.Fill != nil {
		p.cv.fill(box, b.Fill)
	}
	s := Style{Color: black, Width: 1}
	p.cv.stroke(box, true, s)
	p.cv.stroke([]pt{{x - hw, ym}, {x + hw, ym}}, false, Style{Color: black, Width: 2})
	yl, yh := p.sy.at(adjLo), p.sy.at(adjHi)
	p.cv.stroke([]pt{{x, y1}, {x, yl}}, false, s)
	p.cv.stroke([]pt{{x, y3}, {x, yh}}, false, s)
	p.cv.stroke([]pt{{x - hw/2, yl}, {x + hw/2, yl}}, false, s)
	p.cv.stroke([]pt{{x - hw/2, yh}, {x + hw/2, yh}}, false, s)
	for _, o := range v {
		if o < adjLo || o > adjHi {
			p.cv.circle(pt{x, p.sy.at(o)}, 2.5, s)
		}
	}
}
