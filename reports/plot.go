package reports

import (
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
)

// plotWidth and plotHeight are the size of a saved plot.
const (
	plotWidth  = 16 * vg.Centimeter
	plotHeight = 9 * vg.Centimeter
)

// SavePlot writes p atomically to path in the format its extension names
// (.svg, .png, .pdf, .eps, .jpg, .tif), 16 cm × 9 cm in size.
func SavePlot(p *plot.Plot, path string) error {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	wt, err := p.WriterTo(plotWidth, plotHeight, format)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return atomicfile.Write(path, func(out io.Writer) error {
		_, err := wt.WriteTo(out)
		return err
	})
}

// unsafeFileChars matches runs of characters a plot's file name does not
// keep; compiled on first use, not at every command's start-up.
var unsafeFileChars = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9._=-]+`) })

// PlotSlug returns name as a file name: every run of characters other
// than A–Z, a–z, 0–9, '.', '_', '=' and '-' becomes one '_', and leading
// and trailing '_' are dropped.
func PlotSlug(name string) string {
	return strings.Trim(unsafeFileChars().ReplaceAllString(name, "_"), "_")
}
