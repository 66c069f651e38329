package ingest

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

// WriteStats prints what a table holds, for people, from its Stats (see
// table.Stats and Stream): benchmarks and runs, modes, rows by metric, the
// largest index seen per level, and rep's skipped and suspicious items (rep
// may be nil).
func WriteStats(w io.Writer, st *table.Stats, rep *Summary) {
	// The distinct names by sorting: a million runs' names take 16 MB
	// so, three times that in a map.
	benchmarks := make([]string, 0, st.NumRuns())
	modes := map[string]int{}
	var sizes [table.NumLevels]int32
	st.Each(func(k table.Key, r *table.RunStats) {
		benchmarks = append(benchmarks, k.Benchmark)
		modes[k.Mode]++
		for l, n := range r.Sizes {
			if n > sizes[l] {
				sizes[l] = n
			}
		}
	})
	sort.Strings(benchmarks)
	benchmarks = slices.Compact(benchmarks)
	metricRows := st.MetricRows
	fmt.Fprintf(w, "benchmarks: %d (%d runs: benchmark × params × mode × version)\n", len(benchmarks), st.NumRuns())
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
	fmt.Fprintf(w, "rows: %d (primary %d)\n", st.Rows, metricRows[table.Primary])
	if len(secondary) > 0 {
		fmt.Fprintln(w, reports.Wrap("secondary metrics (rows): "+strings.Join(secondary, ", "), reports.Width, "  "))
	}
	var lv []string
	for l := table.Level(0); l < table.NumLevels; l++ {
		lv = append(lv, fmt.Sprintf("%s %d", l, sizes[l]))
	}
	fmt.Fprintf(w, "levels seen (largest index): %s\n", strings.Join(lv, ", "))
	switch {
	case rep == nil || len(rep.kinds) == 0:
		fmt.Fprintln(w, "nothing skipped, nothing suspicious")
		return
	case rep.Empty():
		fmt.Fprintln(w, "nothing skipped, nothing suspicious")
	default:
		fmt.Fprintf(w, "skipped: %d, warnings: %d\n", rep.total(stateSkipped), rep.total(stateWarned))
	}
	rep.WriteTo(w)
}

// WriteKinds prints one line per kind of skipped or suspicious input, with
// its count, pointing to benchtrim ingest for examples. A nil report prints
// nothing.
func (rep *Summary) WriteKinds(w io.Writer) {
	if rep == nil {
		return
	}
	for _, k := range rep.Kinds() {
		what := [...]string{"skipped", "warning", "ignored"}[k.state]
		fmt.Fprintf(w, "input: %s %d: %s (benchtrim ingest lists examples)\n", what, k.count, k.Kind)
	}
}
