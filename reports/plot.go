package reports

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
)

// PlotSize is the default size of a saved plot.
var PlotSize = struct{ Width, Height vg.Length }{16 * vg.Centimeter, 9 * vg.Centimeter}

// SavePlot writes p atomically to path in the format its extension names
// (.svg, .png, .pdf, .eps, .jpg, .tif), w × h in size.
func SavePlot(p *plot.Plot, path string, w, h vg.Length) error {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	wt, err := p.WriterTo(w, h, format)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return atomicfile.Write(path, func(out io.Writer) error {
		_, err := wt.WriteTo(out)
		return err
	})
}
