// Package format holds what benchtrim's result-file formats share. Each
// format is one package below it that owns everything about its bytes, as
// golang.org/x/perf/benchfmt holds both Reader and Writer:
//
//	format/jmh      JMH JSON (reader)
//	format/uoptime  µOpTime Go and Java CSV (readers)
//	format/gobench  go test -bench text (reader and writer)
//	format/pa       pa/bencher CSV (reader and writer)
//	format/all      the list of the readers, for ingest.ReadOptions
//
// Flow: a format's reader (its Format, an ingest.Format) appends canonical
// rows to a table.Builder, driven by ingest.ReadFiles; its writer, where it
// has one, reads the canonical table through table.Table.Collect and writes the
// format again.
//
// A writer promises that what it writes, its format's reader reads back as
// the same rows (benchmark, params, mode, version, levels the format has,
// count and value). A label a format cannot carry that way is not written
// in a form another reader would misread: the writer returns a *NameError
// naming the benchmark instead.
package format

import (
	"fmt"

	"github.com/benchtrim/benchtrim/table"
)

// NameError is a label a format cannot carry (a benchmark name with a
// space in Go benchmark text, a carriage return in pa CSV, …): the writer
// stops with it rather than write a line its reader would read differently.
type NameError struct {
	// Format is "pa" or "gobench".
	Format string
	// Key is the benchmark run the label belongs to.
	Key table.Key
	// Field names the label: benchmark, params, project, version, mode, unit
	// or metric.
	Field string
	// Value is the offending label and Reason why it cannot be written.
	Value, Reason string
}

// Error prints "export FORMAT: KEY: FIELD "VALUE" REASON", as benchtrim
// export reports it.
func (e *NameError) Error() string {
	return fmt.Sprintf("export %s: %s: %s %q %s", e.Format, e.Key, e.Field, e.Value, e.Reason)
}

// MergeSpan returns the total count and the count-weighted mean of the
// values in sp, for writers of formats that have no slice level (an
// iteration's slices become one row or line):
//
//	n    = Σ max(count_i, 1)
//	mean = Σ value_i · max(count_i, 1) / n
//
// A span of one row keeps its value exactly. values and counts are a
// series' columns (table.Series.Value or NsPerOp, and Count).
func MergeSpan(values []float64, counts []int64, sp table.Span) (n int64, mean float64) {
	if sp.End-sp.Start == 1 {
		return max(counts[sp.Start], 1), values[sp.Start]
	}
	var sum float64
	for i := sp.Start; i < sp.End; i++ {
		c := max(counts[i], 1)
		sum += values[i] * float64(c)
		n += c
	}
	return n, sum / float64(n)
}
