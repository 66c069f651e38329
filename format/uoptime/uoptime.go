package uoptime

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/format/internal/csvfile"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/table"
)

// Format returns the reader of µOpTime Go benchmark CSV (--format uoptime).
func Format() ingest.Format { return format{goLayout} }

// JMHFormat returns the reader of µOpTime's Java CSV, its JMH data sets 2
// and 3 (--format uoptime-jmh).
func JMHFormat() ingest.Format { return format{jmhLayout} }

// format is a µOpTime reader of one layout; it has no other state.
type format struct{ ly *layout }

var _ ingest.Format = format{}

// Name is "uoptime" or "uoptime-jmh".
func (f format) Name() string { return f.ly.format }

// Sniff reports whether the first line of head is a CSV header naming the
// ns_per_op and b_name columns and, for the Java layout, fork_setup or
// fork_pos (the Go layout: neither).
func (f format) Sniff(head []byte) bool {
	h := bytes.ToLower(csvfile.FirstLine(head))
	return bytes.Contains(h, []byte(colNsPerOp)) && bytes.Contains(h, []byte(colBName)) && bytes.IndexByte(h, ',') >= 0 &&
		jmhLayout.namesOwn(h) == f.ly.jmh
}

// Likely scores a head that no format sniffed (see ingest.Format): 2 when
// its first line names the ns_per_op and b_name columns (separated by
// something other than ',') and, as Sniff, the layout's fork columns or
// not, 1 when the first line looks like a data row of the layout without
// a header (Go: 12 or more ','-separated fields, the first a number, the
// last a Benchmark name; Java: 8 fields, the first 7 numbers), else 0.
// Read's header error then names the delimiter or the missing header.
func (f format) Likely(head []byte) int {
	line := csvfile.FirstLine(head)
	h := bytes.ToLower(line)
	if bytes.Contains(h, []byte(colNsPerOp)) && bytes.Contains(h, []byte(colBName)) {
		if jmhLayout.namesOwn(h) == f.ly.jmh {
			return 2
		}
		return 0
	}
	if f.ly.dataRow(strings.Split(string(line), ",")) {
		return 1
	}
	return 0
}

// dataRow reports whether fields look like a data row of the layout
// (Likely).
func (ly *layout) dataRow(f []string) bool {
	if ly.jmh {
		if len(f) != 8 {
			return false
		}
		for _, s := range f[:7] {
			if !isNumber(s) {
				return false
			}
		}
		return csvfile.TrimSpace(f[7]) != ""
	}
	return len(f) >= 12 && isNumber(f[0]) && strings.HasPrefix(csvfile.TrimSpace(f[len(f)-1]), "Benchmark")
}

// isNumber reports whether s (trimmed) parses as a float.
func isNumber(s string) bool {
	_, err := strconv.ParseFloat(csvfile.TrimSpace(s), 64)
	return err == nil
}

// headerProblem explains a header that lacks required columns when the
// reason is plain: the header uses another delimiter than ',' (one field
// that splits on ';' or tab into the required names), there is no header
// (the first line is a data row), or it is the other layout's header. It
// returns "" otherwise.
func (ly *layout) headerProblem(head []string, index map[string]int) string {
	if d := csvfile.OtherDelimiter(head, ',', colNsPerOp, colBName, colN); d != "" {
		return fmt.Sprintf("header separated by %s, not ',' (a %s is comma-separated; convert it or re-export it with ',')", d, ly.what)
	}
	if ly.dataRow(head) || len(head) >= 3 && isNumber(head[0]) && isNumber(head[1]) && isNumber(head[2]) {
		return fmt.Sprintf("no header line: line 1 is a data row (a %s starts with the header %s)", ly.what, ly.header())
	}
	other := jmhLayout
	if ly.jmh {
		other = goLayout
	}
	for _, c := range other.own {
		if _, ok := index[c]; ok {
			return fmt.Sprintf("header names %s: this is the %s layout (read it with --format %s)", c, other.what, other.format)
		}
	}
	return ""
}

// sliceTimeNs is the duration of one µOpTime Go measurement slice (1 s).
const sliceTimeNs = int64(1e9)

// unit is the recorded unit of ns_per_op.
const unit = "ns/op"

// Summary kinds used by Read.
const (
	kindMalformedCSV  = "malformed CSV"
	kindFieldCount    = "wrong number of fields"
	kindBadNumber     = "non-numeric field"
	kindEmptyName     = "empty benchmark name"
	kindBadSetup      = "setup column < 1"
	kindOutsideSetup  = "position outside setup"
	kindBadN          = "n ≤ 0"
	kindDuplicate     = "duplicate row"
	kindMixedSetups   = "mixed setups"
	kindNoRows        = "no data rows"
	kindUnknownColumn = "unknown column ignored"
	kindBadParams     = "b_name params not key=value"
)

// columns holds the field index of each required column.
type columns struct {
	n, nsPerOp, bName int
	setup, pos        [maxLevels]int
	width             int
}

// Read parses a µOpTime CSV of the format's layout from r and appends its
// rows and setups to dst. It returns a *ingest.ParseError when r is empty
// or the header lacks required columns, and a wrapped error when reading r
// fails; bad rows are counted in rep and skipped.
func (f format) Read(r io.Reader, src ingest.Source, dst *table.Builder, rep *ingest.Summary) error {
	cr, err := csvfile.NewReader(r, src.File, ',', rep, kindMalformedCSV)
	if err != nil {
		return err
	}
	file := cr.File
	cols, err := f.ly.parseHeader(cr.Head, file, cr.HeadLine, rep)
	if err != nil {
		return err
	}

	rd := reader{ly: f.ly, file: file, src: src, dst: dst, rep: rep, cols: cols, benches: map[string]*bench{}, names: ingest.Names{Rep: rep}}
	if f.ly.jmh {
		rd.src, rd.toolVersion = jmhLabels(src)
	}
	rd.row = table.Row{Project: rd.src.Project, Version: rd.src.Version, Mode: f.ly.mode, Metric: table.Primary,
		Unit: unit, Instance: 1, Trial: 1, Fork: 1, Iteration: 1, Slice: 1, Source: file}
	if f.ly.jmh {
		rd.row.Instance, rd.row.Trial = max(1, src.Instance), max(1, src.Trial)
	}
	for cr.Scan() {
		rd.record(cr.Record())
	}
	if err := cr.Err(); err != nil {
		return err
	}
	cr.WarnIfEmpty(kindNoRows)
	rd.finish()
	return nil
}

// parseHeader maps the header's column names to field indices.
func (ly *layout) parseHeader(head []string, file string, line int, rep *ingest.Summary) (columns, error) {
	c := columns{width: len(head)}
	type want struct {
		name string
		dst  *int
	}
	wants := []want{{colN, &c.n}, {colNsPerOp, &c.nsPerOp}}
	for l := range ly.levels {
		wants = append(wants, want{ly.levels[l].setup, &c.setup[l]})
	}
	for l := range ly.levels {
		wants = append(wants, want{ly.levels[l].pos, &c.pos[l]})
	}
	wants = append(wants, want{colBName, &c.bName})
	known := map[string]bool{colMID: true}
	for _, w := range wants {
		known[w.name] = true
	}
	names, index := csvfile.Names(head)
	dupMsg := ""
	for i, h := range names {
		if j := index[h]; j != i && known[h] && dupMsg == "" {
			dupMsg = fmt.Sprintf("header: column %q appears twice (fields %d and %d)", h, j+1, i+1)
		}
	}
	var missing []string
	for _, w := range wants {
		i, ok := index[w.name]
		if !ok {
			missing = append(missing, w.name)
			continue
		}
		*w.dst = i
	}
	if len(missing) > 0 {
		if msg := ly.headerProblem(head, index); msg != "" {
			return c, &ingest.ParseError{File: file, Line: line, Msg: msg}
		}
		return c, &ingest.ParseError{File: file, Line: line,
			Msg: fmt.Sprintf("header: missing required columns %s (header is %q)", strings.Join(missing, ", "), strings.Join(head, ","))}
	}
	if dupMsg != "" {
		return c, &ingest.ParseError{File: file, Line: line, Msg: dupMsg}
	}
	for i, h := range head {
		if !known[names[i]] {
			rep.Warn(kindUnknownColumn, &ingest.ParseError{File: file, Line: line,
				Msg: fmt.Sprintf("column %d %q is not a %s column", i+1, h, ly.what)})
		}
	}
	return c, nil
}

// reader is the state of one Read.
type reader struct {
	ly          *layout
	file        string
	src         ingest.Source // labels as the rows get them
	toolVersion string
	dst         *table.Builder
	rep         *ingest.Summary
	cols        columns
	row         table.Row
	benches     map[string]*bench    // by b_name
	byKey       map[table.Key]*bench // the Java layout's, by labels
	order       []*bench             // in order of first appearance
	last        *bench
	lastName    string // the b_name last read (last's, or one labelled as it)
	names       ingest.Names
}

// record checks one CSV record and appends it as a row or reports why not.
func (rd *reader) record(rec []string, line int64) {
	c, ly := &rd.cols, rd.ly
	if len(rec) != c.width {
		rd.skip(kindFieldCount, line, "row has %d fields, header has %d", len(rec), c.width)
		return
	}
	name := csvfile.TrimSpace(rec[c.bName])
	if name == "" {
		rd.skip(kindEmptyName, line, "column b_name is empty")
		return
	}
	if len(name) > table.MaxStringBytes {
		rd.skip(ingest.KindTooLong, line, "column b_name: %d bytes, longer than the table's limit of %d (table.MaxStringBytes)", len(name), table.MaxStringBytes)
		return
	}
	name = rd.names.Clean(name, "b_name", ingest.ParseError{File: rd.file, Line: int(line)})
	setup := [maxLevels]int32{1, 1, 1, 1}
	pos := [maxLevels]int32{1, 1, 1, 1}
	for l, lv := range ly.levels {
		v, err := csvfile.ParseInt(csvfile.TrimSpace(rec[c.setup[l]]), 32)
		if err != nil {
			rd.skip(kindBadNumber, line, "column %s: %v", lv.setup, err)
			return
		}
		if v < 1 {
			rd.skip(kindBadSetup, line, "column %s = %d, want ≥ 1", lv.setup, v)
			return
		}
		setup[l] = int32(v)
		p, err := csvfile.ParseInt(csvfile.TrimSpace(rec[c.pos[l]]), 32)
		if err != nil {
			rd.skip(kindBadNumber, line, "column %s: %v", lv.pos, err)
			return
		}
		if p < 1 || p > v {
			rd.skip(kindOutsideSetup, line, "column %s = %d outside 1..%s = %d", lv.pos, p, lv.setup, v)
			return
		}
		pos[l] = int32(p)
	}
	n, err := csvfile.ParseInt(csvfile.TrimSpace(rec[c.n]), 64)
	if err != nil {
		rd.skip(kindBadNumber, line, "column n: %v", err)
		return
	}
	if n <= 0 {
		rd.skip(kindBadN, line, "column n = %d, want ≥ 1", n)
		return
	}
	ns, err := strconv.ParseFloat(csvfile.TrimSpace(rec[c.nsPerOp]), 64)
	if err != nil {
		rd.skip(kindBadNumber, line, "column ns_per_op: %q is not a number", rec[c.nsPerOp])
		return
	}
	if reason, ok := ingest.CheckTime(ly.timeMode, ns); !ok {
		rd.skip(reason, line, "column ns_per_op = %s", rec[c.nsPerOp])
		return
	}

	b := rd.last
	if b == nil || rd.lastName != name {
		b = rd.benches[name]
		if b == nil {
			b = rd.newBench(name, setup, line)
			rd.benches[name] = b
		}
		rd.last, rd.lastName = b, name
	}
	if first := b.mark(pos, line); first != 0 {
		rd.skip(kindDuplicate, line, "benchmark %s %s already read at line %d", b.name, ly.describe(pos, len(ly.levels)-1), first)
		return
	}
	if setup != b.setup {
		if b.mixedRows == 0 {
			b.mixedLine, b.mixedSetup = line, setup
		}
		b.mixedRows++
	}

	r := &rd.row
	r.Project, r.Benchmark, r.Params = b.key.Project, b.key.Benchmark, b.key.Params
	r.Value, r.NsPerOp, r.Count = ns, ns, n
	ly.place(r, pos)
	r.Line = line
	if err := rd.dst.Append(r); err != nil {
		rd.skip(ingest.RejectKind(err), line, "%v", err)
	}
}

// newBench returns the benchmark of b_name name (trimmed and cleaned),
// first seen at line: a new one with its labels and setup grid, or the one
// an earlier b_name already labels the same way (the Java layout's
// "p#B#x=1&y=2" and "p#B#y=2&x=1" are one benchmark run).
func (rd *reader) newBench(name string, setup [maxLevels]int32, line int64) *bench {
	b := newBench(name, setup, line)
	b.key = table.Key{Project: rd.src.Project, Version: rd.src.Version, Benchmark: name, Mode: rd.ly.mode}
	if !rd.ly.jmh {
		rd.order = append(rd.order, b)
		return b
	}
	rd.splitName(b, line)
	if same := rd.byKey[b.key]; same != nil {
		return same
	}
	if rd.byKey == nil {
		rd.byKey = map[table.Key]*bench{}
	}
	rd.byKey[b.key] = b
	rd.order = append(rd.order, b)
	return b
}

func (rd *reader) skip(kind string, line int64, format string, args ...any) {
	rd.rep.Skip(kind, 1, &ingest.ParseError{File: rd.file, Line: int(line), Msg: fmt.Sprintf(format, args...)})
}

// finish adds the setups and reports mixed setups and ragged benchmarks,
// in order of first appearance.
func (rd *reader) finish() {
	ly := rd.ly
	for _, b := range rd.order {
		s := table.Setup{Key: b.key, Tool: ly.tool, ToolVersion: rd.toolVersion, Source: fmt.Sprintf("%s:%d", rd.file, b.firstLine)}
		if ly.jmh {
			s.Forks, s.MeasurementIterations = int(b.setup[0]), int(b.setup[1])
		} else {
			s.Forks = 1
			s.Instances, s.Trials, s.MeasurementIterations, s.Slices = int(b.setup[0]), int(b.setup[1]), int(b.setup[2]), int(b.setup[3])
			s.SliceTimeNs, s.MeasurementTimeNs = sliceTimeNs, satMul(int64(b.setup[3]), sliceTimeNs)
		}
		if err := rd.dst.AddSetup(s); err != nil {
			rd.rep.Warn(kindMixedSetups, &ingest.ParseError{File: rd.file, Line: int(b.firstLine), Msg: err.Error()})
		}
		if b.mixedRows > 0 {
			rd.rep.Warn(kindMixedSetups, &ingest.ParseError{File: rd.file, Line: int(b.mixedLine), Msg: fmt.Sprintf(
				"benchmark %s: %d row(s) state setup %s, but line %d stated %s; the setup record keeps the first",
				b.name, b.mixedRows, ly.setupString(b.mixedSetup), b.firstLine, ly.setupString(b.setup))})
		}
		if msg := b.raggedMessage(ly); msg != "" {
			rd.rep.Warn(ly.kindRagged, &ingest.ParseError{File: rd.file, Line: int(b.firstLine), Msg: msg})
		}
	}
}

// satMul is a·b for a, b ≥ 0, saturating at math.MaxInt64.
func satMul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}
