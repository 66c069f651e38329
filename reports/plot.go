package reports

import (
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/reports/chart"
)

// SavePlot writes c atomically to path in the format its extension names
// (.svg or .png), chart.Width × chart.Height (16 cm × 9 cm) in size. Its
// text taken from the data (title, axis and legend labels, names) shows
// bidi controls as escapes (ShowBidi).
func SavePlot(c *chart.Chart, path string) error {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if format != "svg" && format != "png" {
		return fmt.Errorf("%s: unknown plot format %q (want .svg or .png)", path, format)
	}
	shown := *c
	shown.Title = ShowBidi(c.Title)
	shown.X, shown.Y = showAxis(c.X), showAxis(c.Y)
	shown.Legend = make([]chart.LegendEntry, len(c.Legend))
	for i, e := range c.Legend {
		e.Label = ShowBidi(e.Label)
		shown.Legend[i] = e
	}
	return atomicfile.Write(path, func(out io.Writer) error {
		if err := shown.Write(out, format); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		return nil
	})
}

func showAxis(a chart.Axis) chart.Axis {
	a.Label = ShowBidi(a.Label)
	if a.Names != nil {
		names := make([]string, len(a.Names))
		for i, n := range a.Names {
			names[i] = ShowBidi(n)
		}
		a.Names = names
	}
	return a
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
