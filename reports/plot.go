package reports

import (
	"encoding/csv"
	"fmt"
	"hash/fnv"
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

// maxSlug is the longest name PlotSlug returns: with the suffixes the
// commands add ("-i12t3f10-crops.svg") far below the 255 bytes a file
// name may have.
const maxSlug = 160

// PlotSlug returns name as a file name: every run of characters other
// than A–Z, a–z, 0–9, '.', '_', '=' and '-' becomes one '_', and leading
// and trailing '_' are dropped. A slug longer than maxSlug (160 bytes) is
// cut and ends in '-' and the 64-bit FNV-1a hash of name in hex, so that
// long names (a benchmark name of 300 bytes) give distinct, valid file
// names; PlotIndex says what each file shows.
func PlotSlug(name string) string {
	slug := strings.Trim(unsafeFileChars().ReplaceAllString(name, "_"), "_")
	if len(slug) <= maxSlug {
		return slug
	}
	h := fnv.New64a()
	h.Write([]byte(name))
	return fmt.Sprintf("%s-%016x", slug[:maxSlug-17], h.Sum64())
}

// PlotIndexFile is the file a plot folder lists its plots in.
const PlotIndexFile = "index.csv"

// PlotIndex lists the plots written into a folder, with what each shows,
// for PlotIndexFile: file, plot (the kind of plot), benchmark (the whole
// benchmark run, which the file name may shorten), fork and title.
type PlotIndex struct{ rows [][]string }

// Add lists the plot file (a name in the folder) of kind plot showing the
// benchmark run benchmark (fork "" when it is not a fork's) with title.
func (x *PlotIndex) Add(file, plot, benchmark, fork, title string) {
	x.rows = append(x.rows, []string{file, plot, ShowBidi(benchmark), fork, ShowBidi(title)})
}

// Write writes the index into dir, atomically.
func (x *PlotIndex) Write(dir string) error {
	return atomicfile.Write(filepath.Join(dir, PlotIndexFile), func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.Write([]string{"file", "plot", "benchmark", "fork", "title"})
		cw.WriteAll(x.rows)
		return cw.Error()
	})
}
