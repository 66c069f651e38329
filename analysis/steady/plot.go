package steady

import (
	"fmt"
	"image/color"
	"math"

	"github.com/benchtrim/benchtrim/reports/chart"
)

// Plot colours, chosen to stay apart for colour-blind readers (Okabe-Ito).
var (
	colorData    = color.RGBA{R: 150, G: 150, B: 150, A: 255}
	colorOutlier = color.RGBA{R: 213, G: 94, A: 255}
	colorWarmup  = color.NRGBA{R: 230, G: 159, A: 220}
	colorSteady  = color.NRGBA{G: 114, B: 178, A: 220}
	colorMark    = color.RGBA{A: 255}
)

// plotSegment is one segment of a seriesPlot: the half-open index range
// [Start, End) and its mean; Steady segments are drawn in the steady colour.
type plotSegment struct {
	Start, End int
	Mean       float64
	Steady     bool
}

// seriesPlot is a time series with its change-point segmentation, drawn
// like Fig. 1 of Traini et al. (EMSE 2022): the values per iteration as a
// grey line, each segment's mean as a horizontal bar (orange before the
// steady state, blue from it on, over the values), outliers as red
// crosses, and the steady-state start st as a dashed vertical line.
type seriesPlot struct {
	Title, XLabel, YLabel string
	// Values are the y values at x = 0, 1, 2, ….
	Values []float64
	// Outliers are indices into Values to mark.
	Outliers []int
	Segments []plotSegment
	// SteadyStart is the x of the steady-state start; negative for none.
	SteadyStart int
	// logY draws the y axis on a log scale (values must be positive).
	logY bool
}

// Plot builds the chart. It returns an error when there is nothing to
// draw.
func (sp *seriesPlot) Plot() (*chart.Chart, error) {
	if len(sp.Values) == 0 {
		return nil, fmt.Errorf("reports: SeriesPlot %q has no values", sp.Title)
	}
	c := &chart.Chart{Title: sp.Title, LegendSize: 8,
		X: chart.Axis{Label: sp.XLabel, Integer: true},
		Y: chart.Axis{Label: sp.YLabel, Log: sp.logY}}
	xys := make([]chart.XY, len(sp.Values))
	for i, v := range sp.Values {
		xys[i] = chart.XY{X: float64(i), Y: v}
	}
	data := chart.Style{Color: colorData, Width: 0.6}
	c.Marks = append(c.Marks, &chart.Line{XYs: xys, Style: data})
	c.Legend = append(c.Legend, chart.LegendEntry{Label: "iteration value", Line: &data})
	var outliers *chart.Points
	if len(sp.Outliers) > 0 {
		outliers = &chart.Points{Glyph: chart.Glyph{Color: colorOutlier, Radius: 2.5, Shape: chart.Cross}}
		for _, i := range sp.Outliers {
			if i >= 0 && i < len(sp.Values) {
				outliers.XYs = append(outliers.XYs, chart.XY{X: float64(i), Y: sp.Values[i]})
			}
		}
		c.Legend = append(c.Legend, chart.LegendEntry{Label: "outlier", Glyph: &outliers.Glyph})
	}
	var legendWarm, legendSteady bool
	for _, s := range sp.Segments {
		if s.End <= s.Start || math.IsNaN(s.Mean) {
			continue
		}
		bar := &chart.Line{XYs: []chart.XY{{X: float64(s.Start), Y: s.Mean}, {X: float64(s.End - 1), Y: s.Mean}},
			Style: chart.Style{Color: colorWarmup, Width: 2.5}}
		if s.Steady {
			bar.Color = colorSteady
		}
		c.Marks = append(c.Marks, bar)
		switch {
		case s.Steady && !legendSteady:
			c.Legend = append(c.Legend, chart.LegendEntry{Label: "segment mean (steady)", Line: &bar.Style})
			legendSteady = true
		case !s.Steady && !legendWarm && sp.SteadyStart < 0:
			c.Legend = append(c.Legend, chart.LegendEntry{Label: "segment mean", Line: &bar.Style})
			legendWarm = true
		case !s.Steady && !legendWarm:
			c.Legend = append(c.Legend, chart.LegendEntry{Label: "segment mean (before st)", Line: &bar.Style})
			legendWarm = true
		}
	}
	if sp.SteadyStart >= 0 {
		lo, hi := minMaxPositive(sp.Values, sp.logY)
		mark := &chart.Line{XYs: []chart.XY{{X: float64(sp.SteadyStart), Y: lo}, {X: float64(sp.SteadyStart), Y: hi}},
			Style: chart.Style{Color: colorMark, Width: 1, Dashes: []float64{4, 3}}}
		c.Marks = append(c.Marks, mark)
		c.Legend = append(c.Legend, chart.LegendEntry{Label: fmt.Sprintf("st = %d", sp.SteadyStart), Line: &mark.Style})
	}
	if outliers != nil {
		c.Marks = append(c.Marks, outliers) // on top of everything
	}
	return c, nil
}

// minMaxPositive returns the range of the finite values (positive ones for
// a log axis).
func minMaxPositive(x []float64, positive bool) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) || positive && v <= 0 {
			continue
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if lo > hi {
		return 1, 1
	}
	return lo, hi
}

// curvePlot is a "number of change points against penalty" curve, such as
// the one CROPS gives and Kneedle reads (Fig. 5 of Traini et al.), with the
// chosen penalty marked. The x axis is logarithmic.
type curvePlot struct {
	Title string
	// Penalties and Counts are the curve's points, in the order to connect
	// them.
	Penalties []float64
	Counts    []int
	// Chosen is the selected penalty, NaN for none; ChosenLabel its legend.
	Chosen      float64
	ChosenLabel string
}

// Plot builds the chart; penalties must be positive (log axis).
func (cp *curvePlot) Plot() (*chart.Chart, error) {
	if len(cp.Penalties) != len(cp.Counts) {
		panic(fmt.Sprintf("reports: CurvePlot %q: %d penalties, %d counts", cp.Title, len(cp.Penalties), len(cp.Counts)))
	}
	var xys []chart.XY
	for i, pen := range cp.Penalties {
		if pen > 0 && !math.IsInf(pen, 0) {
			xys = append(xys, chart.XY{X: pen, Y: float64(cp.Counts[i])})
		}
	}
	if len(xys) == 0 {
		return nil, fmt.Errorf("reports: CurvePlot %q has no positive penalty", cp.Title)
	}
	c := &chart.Chart{Title: cp.Title, LegendSize: 8,
		X: chart.Axis{Label: "penalty", Log: true},
		Y: chart.Axis{Label: "change points", Integer: true}}
	line := chart.Style{Color: colorData, Width: 1}
	pts := chart.Glyph{Color: colorSteady, Radius: 2, Shape: chart.Circle}
	c.Marks = append(c.Marks, &chart.Line{XYs: xys, Style: line}, &chart.Points{XYs: xys, Glyph: pts})
	c.Legend = append(c.Legend, chart.LegendEntry{Label: "segmentation", Line: &line, Glyph: &pts})
	if x := cp.Chosen; x > 0 && !math.IsInf(x, 0) {
		ymax := 0.0
		for _, xy := range xys {
			ymax = math.Max(ymax, xy.Y)
		}
		mark := &chart.Line{XYs: []chart.XY{{X: x, Y: 0}, {X: x, Y: math.Max(ymax, 1)}},
			Style: chart.Style{Color: colorOutlier, Width: 1, Dashes: []float64{4, 3}}}
		c.Marks = append(c.Marks, mark)
		label := cp.ChosenLabel
		if label == "" {
			label = fmt.Sprintf("chosen %.4g", x)
		}
		c.Legend = append(c.Legend, chart.LegendEntry{Label: label, Line: &mark.Style})
	}
	return c, nil
}
