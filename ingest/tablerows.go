package ingest

import (
	"fmt"
	"hash/maphash"
	"math"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"

	"github.com/benchtrim/benchtrim/table"
)

// KindNonFiniteSecondary is the Summary kind of a secondary metric's row
// whose value is NaN or infinite (the format readers skip such values).
const KindNonFiniteSecondary = "non-finite secondary value"

// tableScreen applies to the rows of a canonical table file the checks the
// format readers apply to the values they read: a primary row whose
// ns_per_op CheckTime rejects (NaN, ±Inf, negative, zero outside sample
// mode) and a secondary row whose value is not finite are left out and
// counted in the Summary with their place ("t.parquet: row 17 (f.json:37):
// NaN value: ns_per_op NaN"), so that a table written by hand or by
// another tool, or damaged, reaches the analyzers as a result file would.
type tableScreen struct {
	path string
	rep  *Summary
	rows int64 // rows of the file seen so far
	// seen holds a 64-bit hash of the position of every row outside
	// sample mode (positions), to find a second row at one.
	seen map[uint64]struct{}
	seed maphash.Seed
}

// Summary kinds of rows a canonical table file holds that no reader writes.
const (
	// KindDuplicateTableRow is a row at the position of an earlier row of
	// the same file (benchmark run, metric, pair, warmup and the five
	// level indices) outside sample mode, where each position holds one
	// value: the second is left out.
	KindDuplicateTableRow = "duplicate row in a table file"
	// KindNsPerOpMismatch is a primary row whose ns_per_op is not its
	// value in its unit (NsPerOp: value · ns(unit) for a time per
	// operation; for a throughput, ns(unit) · threads / value with a whole
	// number of threads ≥ 1): one of the two was changed.
	KindNsPerOpMismatch = "ns_per_op disagrees with value and unit"
)

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
	units := unitScales(cols["unit"].(*array.Dictionary))
	pos := s.positions(cols)
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
			} else if u := units[cols["unit"].(*array.Dictionary).GetValueIndex(i)]; !u.agrees(value[i], ns[i]) {
				reason = KindNsPerOpMismatch
				detail = fmt.Sprintf("ns_per_op %v, value %v %s", ns[i], value[i], dictValue(cols["unit"].(*array.Dictionary), i))
			}
		} else if !finite(value[i]) {
			reason, detail = KindNonFiniteSecondary, fmt.Sprintf("%s %v", dictValue(metric, i), value[i])
		}
		if reason == "" && !sample[mode.GetValueIndex(i)] && s.repeated(pos(i)) {
			reason, detail = KindDuplicateTableRow, describePosition(cols, i)+" is already in the file"
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

// unitScale is what a unit says about the ns_per_op of a value in it.
type unitScale struct {
	kind UnitKind
	ns   float64
}

// unitScales classifies each entry of the unit dictionary u (ClassifyUnit).
func unitScales(u *array.Dictionary) []unitScale {
	dict := u.Dictionary().(*array.String)
	out := make([]unitScale, dict.Len())
	for i := range out {
		out[i].kind, out[i].ns = ClassifyUnit(dict.Value(i))
	}
	return out
}

// agrees says whether ns is value in unit u within 10⁻⁹ relative (the
// round trip through text keeps every digit; this is for edits): value ·
// ns(u) for a time per operation; ns(u) · threads / value for a
// throughput, threads = ns · value / ns(u) a whole number ≥ 1 (the
// setup's thread count is not needed). Other units are not checked.
func (u unitScale) agrees(value, ns float64) bool {
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }
	switch u.kind {
	case UnitTimePerOp:
		return close(ns, value*u.ns)
	case UnitOpsPerTime:
		threads := ns * value / u.ns
		return threads >= 1-1e-9 && close(threads, math.Round(threads))
	}
	return true
}

// positions returns, for the record whose columns are cols, the hash of
// row i's position: its benchmark run (project, version, benchmark,
// params, mode), metric, pair, warmup flag and level indices. The string
// columns are hashed once per dictionary entry.
func (s *tableScreen) positions(cols map[string]arrow.Array) func(i int) uint64 {
	if s.seen == nil {
		s.seen = map[uint64]struct{}{}
		s.seed = maphash.MakeSeed()
	}
	names := []string{"project", "version", "benchmark", "params", table.ColMode, table.ColMetric, "pair"}
	dicts := make([]*array.Dictionary, len(names))
	hashes := make([][]uint64, len(names))
	for j, n := range names {
		dicts[j] = cols[n].(*array.Dictionary)
		dict := dicts[j].Dictionary().(*array.String)
		hashes[j] = make([]uint64, dict.Len())
		for k := range hashes[j] {
			hashes[j][k] = maphash.String(s.seed, dict.Value(k))
		}
	}
	var levels [table.NumLevels][]int32
	for l := range levels {
		levels[l] = cols[table.Level(l).String()].(*array.Int32).Int32Values()
	}
	warmup := cols["warmup"].(*array.Boolean)
	return func(i int) uint64 {
		h := uint64(0x9e3779b97f4a7c15)
		mix := func(v uint64) { h = (h ^ v) * 0xbf58476d1ce4e5b9; h ^= h >> 31 }
		for j, d := range dicts {
			mix(hashes[j][d.GetValueIndex(i)])
		}
		for l := range levels {
			mix(uint64(uint32(levels[l][i])))
		}
		if warmup.Value(i) {
			mix(1)
		}
		return h
	}
}

// repeated records the position hash h and says whether the file had a row
// there already. Two positions share a hash with probability 2⁻⁶⁴ per pair:
// about 3·10⁻⁴ over 10⁸ rows.
func (s *tableScreen) repeated(h uint64) bool {
	if _, ok := s.seen[h]; ok {
		return true
	}
	s.seen[h] = struct{}{}
	return false
}

// describePosition names row i's position: "b.A (avgt) metric primary
// instance 1 trial 1 fork 2 iteration 3 slice 1".
func describePosition(cols map[string]arrow.Array, i int) string {
	k := table.Key{Project: dictValue(cols["project"].(*array.Dictionary), i), Version: dictValue(cols["version"].(*array.Dictionary), i),
		Benchmark: dictValue(cols["benchmark"].(*array.Dictionary), i), Params: dictValue(cols["params"].(*array.Dictionary), i),
		Mode: dictValue(cols[table.ColMode].(*array.Dictionary), i)}
	out := k.String() + " metric " + dictValue(cols[table.ColMetric].(*array.Dictionary), i)
	if p := dictValue(cols["pair"].(*array.Dictionary), i); p != "" {
		out += " pair " + p
	}
	if cols["warmup"].(*array.Boolean).Value(i) {
		out += " warmup"
	}
	for l := table.Level(0); l < table.NumLevels; l++ {
		out += fmt.Sprintf(" %s %d", l, cols[l.String()].(*array.Int32).Value(i))
	}
	return out
}
