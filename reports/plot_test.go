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
