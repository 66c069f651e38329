package steady

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
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

// Plot builds the plot. It returns an error when there is nothing to draw.
func (sp *seriesPlot) Plot() (*plot.Plot, error) {
	if len(sp.Values) == 0 {
		return nil, fmt.Errorf("reports: SeriesPlot %q has no values", sp.Title)
	}
	p := plot.New()
	p.Title.Text = sp.Title
	p.X.Label.Text = sp.XLabel
	p.Y.Label.Text = sp.YLabel
	if sp.logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	p.Add(plotter.NewGrid())
	xys := make(plotter.XYs, len(sp.Values))
	for i, v := range sp.Values {
		xys[i] = plotter.XY{X: float64(i), Y: v}
	}
	line, err := plotter.NewLine(xys)
	if err != nil {
		return nil, fmt.Errorf("reports: SeriesPlot %q: %w", sp.Title, err)
	}
	line.Color = colorData
	line.Width = vg.Points(0.6)
	p.Add(line)
	p.Legend.Add("iteration value", line)
	p.X.Tick.Marker = integerTicks{}
	if len(sp.Outliers) > 0 {
		pts := make(plotter.XYs, 0, len(sp.Outliers))
		for _, i := range sp.Outliers {
			if i >= 0 && i < len(sp.Values) {
				pts = append(pts, plotter.XY{X: float64(i), Y: sp.Values[i]})
			}
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, fmt.Errorf("reports: SeriesPlot %q outliers: %w", sp.Title, err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: colorOutlier, Radius: vg.Points(2.5), Shape: draw.CrossGlyph{}}
		defer p.Add(sc) // on top of everything
		p.Legend.Add("outlier", sc)
	}
	var legendWarm, legendSteady bool
	for _, s := range sp.Segments {
		if s.End <= s.Start || math.IsNaN(s.Mean) {
			continue
		}
		bar, err := plotter.NewLine(plotter.XYs{{X: float64(s.Start), Y: s.Mean}, {X: float64(s.End - 1), Y: s.Mean}})
		if err != nil {
			return nil, fmt.Errorf("reports: SeriesPlot %q segment: %w", sp.Title, err)
		}
		bar.Width = vg.Points(2.5)
		bar.Color = colorWarmup
		if s.Steady {
			bar.Color = colorSteady
		}
		p.Add(bar)
		switch {
		case s.Steady && !legendSteady:
			p.Legend.Add("segment mean (steady)", bar)
			legendSteady = true
		case !s.Steady && !legendWarm && sp.SteadyStart < 0:
			p.Legend.Add("segment mean", bar)
			legendWarm = true
		case !s.Steady && !legendWarm:
			p.Legend.Add("segment mean (before st)", bar)
			legendWarm = true
		}
	}
	if sp.SteadyStart >= 0 {
		lo, hi := minMaxPositive(sp.Values, sp.logY)
		mark, err := plotter.NewLine(plotter.XYs{{X: float64(sp.SteadyStart), Y: lo}, {X: float64(sp.SteadyStart), Y: hi}})
		if err != nil {
			return nil, fmt.Errorf("reports: SeriesPlot %q st: %w", sp.Title, err)
		}
		mark.Color = colorMark
		mark.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		mark.Width = vg.Points(1)
		p.Add(mark)
		p.Legend.Add(fmt.Sprintf("st = %d", sp.SteadyStart), mark)
	}
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	return p, nil
}

// integerTicks are plot.DefaultTicks labelled without decimals, for
// iteration indices.
type integerTicks struct{}

func (integerTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'f', -1, 64)
		}
	}
	return ticks
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

// Plot builds the plot; penalties must be positive (log axis).
func (cp *curvePlot) Plot() (*plot.Plot, error) {
	if len(cp.Penalties) != len(cp.Counts) {
		panic(fmt.Sprintf("reports: CurvePlot %q: %d penalties, %d counts", cp.Title, len(cp.Penalties), len(cp.Counts)))
	}
	var xys plotter.XYs
	for i, pen := range cp.Penalties {
		if pen > 0 && !math.IsInf(pen, 0) {
			xys = append(xys, plotter.XY{X: pen, Y: float64(cp.Counts[i])})
		}
	}
	if len(xys) == 0 {
		return nil, fmt.Errorf("reports: CurvePlot %q has no positive penalty", cp.Title)
	}
	p := plot.New()
	p.Title.Text = cp.Title
	p.X.Label.Text = "penalty"
	p.Y.Label.Text = "change points"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Add(plotter.NewGrid())
	line, pts, err := plotter.NewLinePoints(xys)
	if err != nil {
		return nil, fmt.Errorf("reports: CurvePlot %q: %w", cp.Title, err)
	}
	line.Color = colorData
	pts.GlyphStyle = draw.GlyphStyle{Color: colorSteady, Radius: vg.Points(2), Shape: draw.CircleGlyph{}}
	p.Add(line, pts)
	p.Legend.Add("segmentation", line, pts)
	if c := cp.Chosen; c > 0 && !math.IsInf(c, 0) {
		ymax := 0.0
		for _, xy := range xys {
			ymax = math.Max(ymax, xy.Y)
		}
		mark, err := plotter.NewLine(plotter.XYs{{X: c, Y: 0}, {X: c, Y: math.Max(ymax, 1)}})
		if err != nil {
			return nil, fmt.Errorf("reports: CurvePlot %q: %w", cp.Title, err)
		}
		mark.Color = colorOutlier
		mark.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(mark)
		label := cp.ChosenLabel
		if label == "" {
			label = fmt.Sprintf("chosen %.4g", c)
		}
		p.Legend.Add(label, mark)
	}
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	return p, nil
}
