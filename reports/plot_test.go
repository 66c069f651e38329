package reports

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/reports/chart"
)

// TestSavePlot checks that a plot is saved in the format its extension
// names, with bidi controls in its text shown as escapes, and that an
// unknown extension is an error that writes nothing.
func TestSavePlot(t *testing.T) {
	dir := t.TempDir()
	c := &chart.Chart{Title: "a\u202eb", Marks: []chart.Mark{&chart.Line{XYs: []chart.XY{{X: 0, Y: 1}, {X: 1, Y: 2}}}}}
	svg := filepath.Join(dir, "x.svg")
	if err := SavePlot(c, svg); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	if want := ShowBidi("a\u202eb"); !strings.Contains(string(b), ">"+want+"</text>") || strings.Contains(string(b), "\u202e") {
		t.Errorf("the title is not shown as %q:\n%s", want, b)
	}
	if c.Title != "a\u202eb" {
		t.Errorf("SavePlot changed the caller's chart: title %q", c.Title)
	}
	bmp := filepath.Join(dir, "x.bmp")
	if err := SavePlot(c, bmp); err == nil || !strings.Contains(err.Error(), "x.bmp") {
		t.Errorf("unknown format: error %v, want one naming the file", err)
	}
	if _, err := os.Stat(bmp); !os.IsNotExist(err) {
		t.Errorf("unknown format: %s written", bmp)
	}
}

// TestPlotSlug checks the file names plots are saved under: runs of other
// characters become one '_', and '_' at either end is dropped.
func TestPlotSlug(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"001-Bench.loop[n=10, mode=a b]", "001-Bench.loop_n=10_mode=a_b"},
		{"timeline-000-aws-renaissance-als", "timeline-000-aws-renaissance-als"},
		{"/../x y/", ".._x_y"},
		{"é€", ""},
		{"", ""},
	} {
		if got := PlotSlug(c.in); got != c.want {
			t.Errorf("PlotSlug(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
