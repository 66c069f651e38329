package steady

import (
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/reports"
)

func samplePlots() (*seriesPlot, *curvePlot) {
	x := make([]float64, 300)
	for i := range x {
		x[i] = 100 + 3*math.Sin(float64(i))
		if i < 60 {
			x[i] += 80
		}
	}
	x[150] = 400
	sp := &seriesPlot{Title: "Bench.m fork 1", XLabel: "iteration", YLabel: "ns/op", Values: x, Outliers: []int{150},
		Segments:    []plotSegment{{0, 60, 180, false}, {60, 300, 100, true}},
		SteadyStart: 60}
	cp := &curvePlot{Title: "CROPS", Penalties: []float64{30, 45, 300, 3248, 7e5}, Counts: []int{16, 12, 3, 0, 0}, Chosen: 300}
	return sp, cp
}

func TestSavePlots(t *testing.T) {
	dir := t.TempDir()
	sp, cp := samplePlots()
	p1, err := sp.Plot()
	if err != nil {
		t.Fatal(err)
	}
	p2, err := cp.Plot()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"series.svg", "series.png", "crops.svg", "crops.png"} {
		p := p1
		if strings.HasPrefix(name, "crops") {
			p = p2
		}
		path := filepath.Join(dir, name)
		if err := reports.SavePlot(p, path); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		switch filepath.Ext(name) {
		case ".svg":
			want := "st = 60"
			if strings.HasPrefix(name, "crops") {
				want = "chosen 300"
			}
			if !strings.Contains(string(b), want) || !strings.Contains(string(b), "<svg") {
				t.Errorf("%s: no %q in the SVG", name, want)
			}
		case ".png":
			f, _ := os.Open(path)
			cfg, err := png.DecodeConfig(f)
			f.Close()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			// 16 cm × 9 cm at 96 dpi (chart.DPI).
			if cfg.Width != 605 || cfg.Height != 340 {
				t.Errorf("%s: %d×%d pixels, want 605×340", name, cfg.Width, cfg.Height)
			}
		}
	}
	// No temporary files are left behind.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 4 {
		t.Errorf("%d files in the output directory, want 4", len(entries))
	}
}

func TestPlotErrors(t *testing.T) {
	if _, err := (&seriesPlot{Title: "empty"}).Plot(); err == nil {
		t.Error("empty series: no error")
	}
	if _, err := (&curvePlot{Title: "zero", Penalties: []float64{0}, Counts: []int{1}}).Plot(); err == nil {
		t.Error("curve without positive penalty: no error")
	}
}
