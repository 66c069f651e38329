// Package chart draws the plots benchtrim saves as files (steady's series
// and CROPS curves, duet's match ratios, CI widths and timelines) as SVG
// or PNG. It sits under reports/ beside the HTML report and reads no
// table: a caller builds a Chart from its report and saves it.
//
// It replaces gonum/plot, whose package initialiser parses twelve
// Liberation fonts in every process that links it, plotting or not (about
// 10 % of every command's start-up). Here the one font (Go Regular, for
// text metrics and the PNG's text) is parsed on the first plot drawn.
package chart

import (
	"fmt"
	"image/color"
	"io"
	"math"
)

// Size of a saved plot, in points (1/72 in): 16 cm × 9 cm.
const (
	Width  = 16 / 2.54 * 72
	Height = 9 / 2.54 * 72
	// DPI is the resolution of a PNG: 16 cm × 9 cm is 605 × 340 pixels.
	DPI = 96
)

// Chart is one plot: a title, two axes, marks drawn in order over a grid
// at the major ticks, and a legend in the top (or bottom) right corner of
// the data area.
type Chart struct {
	Title string
	X, Y  Axis
	Marks []Mark
	// Legend entries, top to bottom; LegendSize is their text size in
	// points (10 when zero); LegendBottom puts the legend in the bottom
	// right corner instead.
	Legend       []LegendEntry
	LegendSize   float64
	LegendBottom bool
}

// Axis is how one axis is scaled, ticked and labelled.
type Axis struct {
	Label string
	// Min and Max fix the range when Min < Max; otherwise the range is
	// that of the marks' finite values (positive ones on a log axis).
	Min, Max float64
	// Log scales the axis by log10; ticks at powers of ten.
	Log bool
	// Integer labels the ticks without decimals, at steps of at least 1.
	Integer bool
	// Names makes the axis nominal: name i at position i, the range
	// [-0.5, len(Names)-0.5] unless fixed.
	Names []string
}

// Style is how a line is stroked: width in points, dash and gap lengths
// in points (none: solid). The zero Style is a solid black line 1 point
// wide.
type Style struct {
	Color  color.Color
	Width  float64
	Dashes []float64
}

// orDefault returns s with black for no colour and 1 for no width.
func (s Style) orDefault() Style {
	if s.Color == nil {
		s.Color = color.Black
	}
	if s.Width <= 0 {
		s.Width = 1
	}
	return s
}

// Shape is a glyph's shape.
type Shape int

const (
	Circle Shape = iota // an outlined circle
	Cross               // an ×
)

// Glyph is how a point is marked: radius in points. The zero Glyph is a
// black circle of radius 2.
type Glyph struct {
	Color  color.Color
	Radius float64
	Shape  Shape
}

// orDefault returns g with black for no colour and 2 for no radius.
func (g Glyph) orDefault() Glyph {
	if g.Color == nil {
		g.Color = color.Black
	}
	if g.Radius <= 0 {
		g.Radius = 2
	}
	return g
}

// XY is a point in data coordinates.
type XY struct{ X, Y float64 }

// Mark is something drawn in the data area: *Line, *Points or *Box.
type Mark interface {
	// extent widens the data range r by the mark's values.
	extent(r *dataRange)
	draw(p *plotter)
}

// Line is a polyline through XYs; a non-finite point breaks it.
type Line struct {
	XYs []XY
	Style
}

// Points marks each of XYs with Glyph and, where Labels has an entry for
// it, writes that label beside the point (8 points high, to its right).
type Points struct {
	XYs    []XY
	Labels []string
	Glyph
}

// Box is a box plot of Values at x = X, Width points wide: the box from
// the first to the third quartile with the median, whiskers to the
// furthest values within 1.5 interquartile ranges of the box, and the
// values beyond them as circles (Tukey 1977). Quartiles are the
// empirical quantiles of gonum's stat.Quantile.
type Box struct {
	X      float64
	Values []float64
	Width  float64
	Fill   color.Color
}

// LegendEntry is one line of the legend: a sample of a line style, a
// glyph, or a fill (any of them may be nil), then Label.
type LegendEntry struct {
	Label string
	Line  *Style
	Glyph *Glyph
	Fill  color.Color
}

// dataRange is the extent of the marks' values on both axes.
type dataRange struct {
	logX, logY             bool
	xmin, xmax, ymin, ymax float64
}

func newDataRange(c *Chart) dataRange {
	return dataRange{logX: c.X.Log, logY: c.Y.Log,
		xmin: math.Inf(1), xmax: math.Inf(-1), ymin: math.Inf(1), ymax: math.Inf(-1)}
}

// add widens r by (x, y), skipping a non-finite coordinate and, on a log
// axis, a non-positive one.
func (r *dataRange) add(x, y float64) {
	if usable(x, r.logX) {
		r.xmin, r.xmax = math.Min(r.xmin, x), math.Max(r.xmax, x)
	}
	if usable(y, r.logY) {
		r.ymin, r.ymax = math.Min(r.ymin, y), math.Max(r.ymax, y)
	}
}

func usable(v float64, log bool) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0) && (!log || v > 0)
}

// addXYs widens r by the points of xys that can be drawn (both
// coordinates usable).
func (r *dataRange) addXYs(xys []XY) {
	for _, p := range xys {
		if usable(p.X, r.logX) && usable(p.Y, r.logY) {
			r.add(p.X, p.Y)
		}
	}
}

func (l *Line) extent(r *dataRange)     { r.addXYs(l.XYs) }
func (pts *Points) extent(r *dataRange) { r.addXYs(pts.XYs) }

func (b *Box) extent(r *dataRange) {
	for _, v := range b.Values {
		r.add(b.X, v)
	}
}

// Formats are the file formats Write writes.
var Formats = []string{"svg", "png"}

// Write writes c to w as format ("svg" or "png").
func (c *Chart) Write(w io.Writer, format string) error {
	switch format {
	case "svg":
		return c.WriteSVG(w)
	case "png":
		return c.WritePNG(w)
	}
	return fmt.Errorf("chart: unknown format %q (want svg or png)", format)
}
