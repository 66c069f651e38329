package reports

import (
	"path/filepath"
	"testing"

	"gonum.org/v1/plot"
)

func TestSavePlotFormat(t *testing.T) {
	if err := SavePlot(plot.New(), filepath.Join(t.TempDir(), "x.bmp")); err == nil {
		t.Error("unknown format: no error")
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
