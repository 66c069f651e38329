package ingest

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

// WriteSummary prints what a table holds, for people: benchmarks and runs,
// modes, rows by metric, the largest index seen per level, and rep's
// skipped and suspicious items (rep may be nil).
func WriteSummary(w io.Writer, t *table.Table, rep *Report) {
	primary := table.Collect(t, table.Filter{IncludeWarmup: true})
	benchmarks := map[string]bool{}
	modes := map[string]int{}
	var sizes [table.NumLevels]int32
	for _, s := range primary {
		benchmarks[s.Benchmark] = true
		modes[s.Mode]++
		for l, n := range s.Sizes() {
			if n > sizes[l] {
				sizes[l] = n
			}
		}
	}
	metricRows := map[string]int64{}
	t.Rows(func(r *table.Row) error { metricRows[r.Metric]++; return nil })
	fmt.Fprintf(w, "benchmarks: %d (%d runs: benchmark × params × mode × version)\n", len(benchmarks), len(primary))
	var ms []string
	for m, n := range modes {
		ms = append(ms, fmt.Sprintf("%s %d", m, n))
	}
	sort.Strings(ms)
	fmt.Fprintf(w, "modes: %s\n", strings.Join(ms, ", "))
	var secondary []string
	for m, n := range metricRows {
		if m != table.Primary {
			secondary = append(secondary, fmt.Sprintf("%s %d", m, n))
		}
	}
	sort.Strings(secondary)
	fmt.Fprintf(w, "rows: %d (primary %d)\n", t.NumRows(), metricRows[table.Primary])
	if len(secondary) > 0 {
		fmt.Fprintln(w, reports.Wrap("secondary metrics (rows): "+strings.Join(secondary, ", "), reports.Width, "  "))
	}
	var lv []string
	for l := table.Level(0); l < table.NumLevels; l++ {
		lv = append(lv, fmt.Sprintf("%s %d", l, sizes[l]))
	}
	fmt.Fprintf(w, "levels seen (largest index): %s\n", strings.Join(lv, ", "))
	if rep == nil || rep.Empty() {
		fmt.Fprintln(w, "nothing skipped, nothing suspicious")
		return
	}
	fmt.Fprintf(w, "skipped rows: %d\n", rep.SkippedRows())
	rep.WriteTo(w)
}

// WriteKinds prints one line per kind of skipped or suspicious input, with
// its count, pointing to benchtrim ingest for examples. A nil report prints
// nothing.
func (rep *Report) WriteKinds(w io.Writer) {
	if rep == nil {
		return
	}
	for _, k := range rep.Kinds() {
		what := "warning"
		if k.Skipped {
			what = "skipped"
		}
		fmt.Fprintf(w, "input: %s %d: %s (benchtrim ingest lists examples)\n", what, k.Count, k.Kind)
	}
}
