package duet

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"

	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/reports/chart"
)

// Timeline is one async duet run after the warm-up filter, kept for the
// timeline plot: A's and B's iterations and the pairs of O_m at
// Options.MinOverlap.
type Timeline struct {
	Instance, Run int32
	A, B          []Record
	Pairs         []Overlap
}

// Colours (Okabe-Ito) of the types and pairs.
var typeColors = map[string]color.Color{
	typeSeqn:     color.RGBA{R: 230, G: 159, A: 255},
	typeSyncDuet: color.RGBA{G: 158, B: 115, A: 255},
	TypeDuet:     color.RGBA{G: 114, B: 178, A: 255},
}

// WritePlots writes into dir (created when missing), in format (svg, png,
// pdf, …): the MDS curves of both tests (match ratio pooled over
// environments and suites against the slowdown, one line per type,
// mds-ci and mds-u), the relative CI widths per type as box plots (rciw),
// and the timeline of the first run of at most max duet keys (timeline-…),
// and their list (reports.PlotIndex). It returns the number of plots
// written.
func (r *Report) WritePlots(dir, format string, max int) (int, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	var index reports.PlotIndex
	n, err := r.writePlots(dir, format, max, &index)
	if err == nil {
		err = index.Write(dir)
	}
	return n, err
}

func (r *Report) writePlots(dir, format string, max int, index *reports.PlotIndex) (int, error) {
	var what, key string // of the plot saved next
	save := func(p *chart.Chart, name string) error {
		index.Add(name+"."+format, what, key, "", p.Title)
		return reports.SavePlot(p, filepath.Join(dir, name+"."+format))
	}
	n := 0
	for _, test := range []string{"ci", "u"} {
		p, ok, err := r.mdsPlot(test)
		if err != nil {
			return n, err
		}
		if ok {
			what, key = "mds-"+test, ""
			if err := save(p, "mds-"+test); err != nil {
				return n, err
			}
			n++
		}
	}
	if p, ok, err := r.rciwPlot(); err != nil {
		return n, err
	} else if ok {
		what, key = "rciw", ""
		if err := save(p, "rciw"); err != nil {
			return n, err
		}
		n++
	}
	k := 0
	for _, b := range r.Benchmarks {
		if b.Timeline == nil || k >= max {
			continue
		}
		k++
		p, err := timelinePlot(b.Key, b.Timeline)
		if err != nil {
			return n, err
		}
		slug := reports.PlotSlug(fmt.Sprintf("timeline-%03d-%s-%s-%s", k, b.Env, b.Suite, b.Benchmark))
		what, key = "timeline", b.Key.String()
		if err := save(p, slug); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// mdsPlot draws the pooled match ratio of one test against the slowdown.
func (r *Report) mdsPlot(test string) (*chart.Chart, bool, error) {
	c := &chart.Chart{
		Title: map[string]string{"ci": "CI test", "u": "U test"}[test] + ": A/A match ratio under an emulated slowdown of B",
		X:     chart.Axis{Label: "slowdown of B (%)"},
		Y:     chart.Axis{Label: "match ratio", Min: 0, Max: 1}}
	any := false
	for _, typ := range types {
		var xys []chart.XY
		for _, s := range r.Options.Slowdowns {
			var n, m int
			for _, row := range r.Match {
				if row.Type == typ && row.Slowdown == s {
					n += row.Benchmarks
					if test == "ci" {
						m += row.MatchCI
					} else {
						m += row.MatchU
					}
				}
			}
			if n > 0 {
				xys = append(xys, chart.XY{X: 100 * s, Y: float64(m) / float64(n)})
			}
		}
		if len(xys) == 0 {
			continue
		}
		line := chart.Style{Color: typeColors[typ], Width: 1}
		pts := chart.Glyph{Color: typeColors[typ], Radius: 2, Shape: chart.Circle}
		c.Marks = append(c.Marks, &chart.Line{XYs: xys, Style: line}, &chart.Points{XYs: xys, Glyph: pts})
		c.Legend = append(c.Legend, chart.LegendEntry{Label: typ, Line: &line, Glyph: &pts})
		any = true
	}
	return c, any, nil
}

// rciwPlot draws the relative CI widths of the keys as one box per type.
func (r *Report) rciwPlot() (*chart.Chart, bool, error) {
	c := &chart.Chart{Title: "relative CI width (hi − lo) / grand mean", Y: chart.Axis{Label: "relative CI width"}}
	for _, typ := range types {
		var v []float64
		for _, b := range r.Benchmarks {
			if b.Type == typ && b.HasCI && !math.IsNaN(b.CI.RelWidth) {
				v = append(v, b.CI.RelWidth)
			}
		}
		if len(v) == 0 {
			continue
		}
		c.Marks = append(c.Marks, &chart.Box{X: float64(len(c.X.Names)), Values: v, Width: 30, Fill: typeColors[typ]})
		c.X.Names = append(c.X.Names, fmt.Sprintf("%s (%d)", typ, len(v)))
	}
	if len(c.X.Names) == 0 {
		return nil, false, nil
	}
	return c, true, nil
}

// timelinePlot draws A's iterations at y = 1 and B's at y = 0 against the
// time since the run's first start, with a vertical line at the middle of
// each pair's overlap.
func timelinePlot(k Key, tl *Timeline) (*chart.Chart, error) {
	c := &chart.Chart{
		Title: fmt.Sprintf("%s, run %d: iterations and pairs", k, tl.Run),
		X:     chart.Axis{Label: "time since the run's first start (s)"},
		Y:     chart.Axis{Min: -0.5, Max: 1.5, Names: []string{"B", "A"}}}
	t0 := int64(math.MaxInt64)
	for _, x := range append(append([]Record(nil), tl.A...), tl.B...) {
		t0 = min(t0, x.StartNs)
	}
	sec := func(ns int64) float64 { return float64(ns-t0) / 1e9 }
	for lane, recs := range [][]Record{tl.B, tl.A} {
		col := typeColors[typeSeqn]
		if lane == 1 {
			col = typeColors[TypeDuet]
		}
		for i, x := range recs {
			y := float64(lane) + 0.08*float64(i%2*2-1)
			c.Marks = append(c.Marks, &chart.Line{XYs: []chart.XY{{X: sec(x.StartNs), Y: y}, {X: sec(x.EndNs), Y: y}},
				Style: chart.Style{Color: col, Width: 4}})
		}
	}
	for _, o := range tl.Pairs {
		mid := sec(o.Start + o.time()/2)
		c.Marks = append(c.Marks, &chart.Line{XYs: []chart.XY{{X: mid, Y: 0.15}, {X: mid, Y: 0.85}},
			Style: chart.Style{Color: color.RGBA{A: 255}, Width: 1}})
	}
	return c, nil
}
