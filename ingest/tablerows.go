package ingest

import (
	"fmt"
	"math"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"

	"github.com/benchtrim/benchtrim/table"
)

// KindNonFiniteSecondary is the Report kind of a secondary metric's row
// whose value is NaN or infinite (the format readers skip such values).
const KindNonFiniteSecondary = "non-finite secondary value"

// tableScreen applies to the rows of a canonical table file the checks the
// format readers apply to the values they read: a primary row whose
// ns_per_op CheckTime rejects (NaN, ±Inf, negative, zero outside sample
// mode) and a secondary row whose value is not finite are left out and
// counted in the Report with their place ("t.parquet: row 17 (f.json:37):
// NaN value: ns_per_op NaN"), so that a table written by hand or by
// another tool, or damaged, reaches the analyzers as a result file would.
type tableScreen struct {
	path string
	rep  *Report
	rows int64 // rows of the file seen so far
}

// record calls emit with the rows of rec that pass (rec itself when all
// do, else slices of it, which emit must not keep unless it retains them).
func (s *tableScreen) record(rec arrow.Record, emit func(arrow.Record) error) error {
	base := s.rows
	s.rows += rec.NumRows()
	cols := columnsByName(rec)
	value := cols[table.ColValue].(*array.Float64).Float64Values()
	ns := cols[table.ColNsPerOp].(*array.Float64).Float64Values()
	metric := cols[table.ColMetric].(*array.Dictionary)
	mode := cols[table.ColMode].(*array.Dictionary)
	primary := dictMatches(metric, table.Primary)
	sample := dictMatches(mode, "sample")
	start := 0
	for i := range ns {
		var reason, detail string
		if primary[metric.GetValueIndex(i)] {
			m := ""
			if sample[mode.GetValueIndex(i)] {
				m = "sample"
			}
			if r, ok := CheckTime(m, ns[i]); !ok {
				reason, detail = r, fmt.Sprintf("ns_per_op %v", ns[i])
			} else if !finite(value[i]) {
				reason, _ = CheckTime(m, value[i])
				detail = fmt.Sprintf("value %v", value[i])
			}
		} else if !finite(value[i]) {
			reason, detail = KindNonFiniteSecondary, fmt.Sprintf("%s %v", dictValue(metric, i), value[i])
		}
		if reason == "" {
			continue
		}
		s.rep.Skip(reason, 1, &ParseError{File: s.path, Msg: fmt.Sprintf("row %d%s: %s: %s", base+int64(i)+1, rowSource(cols, i), reason, detail)})
		if err := emitSlice(rec, start, i, emit); err != nil {
			return err
		}
		start = i + 1
	}
	if start == 0 {
		return emit(rec)
	}
	return emitSlice(rec, start, len(ns), emit)
}

// table screens every record of t, a table read whole, and returns the
// table of the rows that pass: t itself when all do, else a new table
// (t's records are released).
func (s *tableScreen) table(t *table.Table) (*table.Table, error) {
	out := &table.Table{Setups: t.Setups}
	for _, rec := range t.Records {
		err := s.record(rec, func(r arrow.Record) error {
			r.Retain()
			out.Records = append(out.Records, r)
			return nil
		})
		if err != nil {
			out.Release()
			return nil, err
		}
	}
	t.Release()
	return out, nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// emitSlice hands rows [i, j) of rec to emit, when there are any.
func emitSlice(rec arrow.Record, i, j int, emit func(arrow.Record) error) error {
	if i >= j {
		return nil
	}
	sl := rec.NewSlice(int64(i), int64(j))
	defer sl.Release()
	return emit(sl)
}

// columnsByName maps rec's column names to its columns.
func columnsByName(rec arrow.Record) map[string]arrow.Array {
	m := make(map[string]arrow.Array, rec.NumCols())
	for i, f := range rec.Schema().Fields() {
		m[f.Name] = rec.Column(i)
	}
	return m
}

// dictMatches says, for each entry of d's dictionary, whether it is v.
func dictMatches(d *array.Dictionary, v string) []bool {
	dict := d.Dictionary().(*array.String)
	out := make([]bool, dict.Len())
	for i := range out {
		out[i] = dict.Value(i) == v
	}
	return out
}

func dictValue(d *array.Dictionary, i int) string {
	return d.Dictionary().(*array.String).Value(d.GetValueIndex(i))
}

// rowSource is " (source, line N)" of row i, where the row came from
// before it was written to the table file ("" when unknown).
func rowSource(cols map[string]arrow.Array, i int) string {
	src := dictValue(cols[table.ColSource].(*array.Dictionary), i)
	line := cols[table.ColLine].(*array.Int64).Value(i)
	switch {
	case src != "" && line > 0:
		return fmt.Sprintf(" (%s, line %d)", src, line)
	case src != "":
		return " (" + src + ")"
	case line > 0:
		return fmt.Sprintf(" (line %d)", line)
	}
	return ""
}
