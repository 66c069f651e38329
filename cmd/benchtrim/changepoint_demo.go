package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/table"
)

// demoChangepoint writes the iteration series of the demo's most strongly
// warming-up JMH fork to a file and segments it with Barrett's penalty and
// with CROPS + Kneedle.
func demoChangepoint(d *demoRun) error {
	t, err := table.ReadFile(d.TablePath, memory.DefaultAllocator)
	if err != nil {
		return err
	}
	defer t.Release()
	var best []float64
	var bestName string
	bestRatio := 0.0
	for _, s := range table.Collect(t, table.Filter{}) {
		if s.Mode != "avgt" {
			continue
		}
		var fork []float64
		for _, sp := range s.Units(table.LevelIteration) {
			if s.Levels[table.LevelFork][sp.Start] == 1 {
				fork = append(fork, s.WeightedMean(sp))
			}
		}
		if len(fork) < 20 {
			continue
		}
		if r := fork[0] / fork[len(fork)-1]; r > bestRatio {
			best, bestRatio, bestName = fork, r, s.Key.String()
		}
	}
	if best == nil {
		return fmt.Errorf("no avgt series with 20 iterations in the demo table")
	}
	path := d.Out("changepoint-series.txt")
	if err := atomicfile.Write(path, func(w io.Writer) error {
		for _, v := range best {
			if _, err := io.WriteString(w, strconv.FormatFloat(v, 'g', -1, 64)+"\n"); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	fmt.Fprintf(d.w, "series: fork 1 of %s, %d iterations (ns/op), first/last = %.2f\n", bestName, len(best), bestRatio)
	if err := d.Run("changepoint", "--penalty", "15log", path); err != nil {
		return err
	}
	fmt.Fprintln(d.w, "\nCROPS + Kneedle as Traini et al.'s scripts apply it often picks a large penalty (the elbow of a skewed")
	fmt.Fprintln(d.w, "curve), so fewer change points; the textbook ascending protocol picks a smaller one:")
	if err := d.Run("changepoint", "--penalty", "crops", path); err != nil {
		return err
	}
	return d.Run("changepoint", "--penalty", "crops-ascending", path)
}
