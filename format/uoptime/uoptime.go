// Package uoptime reads µOpTime Go benchmark CSV files into the canonical
// measurement table.
//
// Flow: ingest.ReadFiles (or a caller) picks this Format for a file whose header
// names ns_per_op and b_name; Read appends one canonical row per one-second
// measurement slice to a table.Builder, plus one table.Setup per benchmark;
// analyzers then read the table (package table), never the file.
//
// The format (µOpTime replication package, Japke et al.): a comma-separated
// file with a header and one row per slice,
//
//	m_id,n,ns_per_op,bed_setup,it_setup,sr_setup,ir_setup,bed_pos,it_pos,sr_pos,ir_pos,b_name
//
// Columns are found by header name (case-insensitive, any order; m_id and
// unknown columns are optional and ignored). Mapping to the canonical table:
//
//	ir_pos → instance    sr_pos → trial    fork = 1
//	it_pos → iteration   bed_pos → slice   n → count
//	ns_per_op → value and ns_per_op (unit "ns/op", mode "go", metric primary)
//	b_name → benchmark, kept whole (sub-benchmark path included), params ""
//	project, version from ingest.Source (Source.Instance and Trial are not
//	used: the file has both levels)
//
// b_name is kept whole because µOpTime treats it as the benchmark's identity:
// its sub-benchmark parts are mostly positional (BenchmarkScanComments/10ValidUtf8),
// and splitting key=value parts off would make the benchmark names differ
// from those µOpTime reports. (format/gobench, by contrast, turns /key=value
// name parts into params, as benchstat does.)
//
// The setup of each benchmark comes from the *_setup columns: Instances =
// ir_setup, Trials = sr_setup, MeasurementIterations = it_setup, Slices =
// bed_setup, SliceTimeNs = 1 s, MeasurementTimeNs = bed_setup·1 s, Forks = 1,
// Tool "go".
//
// Bad input never stops the read once the header is good: rows with
// malformed CSV, a wrong field count, non-numeric fields, NaN, infinite, zero
// or negative ns_per_op, n ≤ 0, *_setup < 1, positions outside 1.._setup, a
// b_name longer than table.MaxStringBytes, or
// duplicating an earlier row's (benchmark, instance, trial, iteration, slice)
// are skipped and counted in the ingest.Report with file:line. Benchmarks
// whose rows state different setups, and benchmarks whose rows do not fill
// the setup grid (ragged data), are kept and reported as warnings naming
// what differs or is missing. A b_name with invalid UTF-8 or control
// characters (a quoted field may hold a line break) is stored cleaned
// (ingest.CleanName) and warned about once per name. Integer columns accept
// integral float spellings such as "5.0" (pandas writes integer columns that
// way when a column had missing values). A header separated by ';' or a
// tab, or a first line that is a data row, is reported as such.
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

// Format returns the reader of µOpTime Go benchmark CSV.
func Format() ingest.Format { return format{} }

// format is the µOpTime reader; it has no state.
type format struct{}

var _ ingest.Format = format{}

// Name is "uoptime".
func (format) Name() string { return "uoptime" }

// Sniff reports whether the first line of head is a CSV header naming the
// ns_per_op and b_name columns.
func (format) Sniff(head []byte) bool {
	h := bytes.ToLower(csvfile.FirstLine(head))
	return bytes.Contains(h, []byte("ns_per_op")) && bytes.Contains(h, []byte("b_name")) && bytes.IndexByte(h, ',') >= 0
}

// Likely scores a head that no format sniffed (see ingest.Format): 2 when
// its first line names the ns_per_op and b_name columns (separated by
// something other than ','), 1 when the first line looks like a µOpTime
// data row without a header (12 or more ','-separated fields, the first a
// number, the last a Benchmark name), else 0. Read's header error then
// names the delimiter or the missing header.
func (format) Likely(head []byte) int {
	line := csvfile.FirstLine(head)
	h := bytes.ToLower(line)
	if bytes.Contains(h, []byte("ns_per_op")) && bytes.Contains(h, []byte("b_name")) {
		return 2
	}
	if f := strings.Split(string(line), ","); len(f) >= 12 && isNumber(f[0]) && strings.HasPrefix(csvfile.TrimSpace(f[len(f)-1]), "Benchmark") {
		return 1
	}
	return 0
}

// isNumber reports whether s (trimmed) parses as a float.
func isNumber(s string) bool {
	_, err := strconv.ParseFloat(csvfile.TrimSpace(s), 64)
	return err == nil
}

// headerProblem explains a header that lacks required columns when the
// reason is plain: the header uses another delimiter than ',' (one field
// that splits on ';' or tab into the required names), or there is no
// header (the first line is a data row). It returns "" otherwise.
func headerProblem(head []string) string {
	if d := csvfile.OtherDelimiter(head, ',', colNsPerOp, colBName, colN); d != "" {
		return fmt.Sprintf("header separated by %s, not ',' (a µOpTime CSV is comma-separated; convert it or re-export it with ',')", d)
	}
	if len(head) >= 12 && isNumber(head[0]) && isNumber(head[1]) && isNumber(head[2]) {
		return fmt.Sprintf("no header line: line 1 is a data row (a µOpTime CSV starts with the header %s)",
			strings.Join([]string{colMID, colN, colNsPerOp, colBedSetup, colItSetup, colSrSetup, colIrSetup, colBedPos, colItPos, colSrPos, colIrPos, colBName}, ","))
	}
	return ""
}

// sliceTimeNs is the duration of one µOpTime measurement slice (1 s).
const sliceTimeNs = int64(1e9)

// mode is the canonical mode of µOpTime rows.
const mode = "go"

// unit is the recorded unit of ns_per_op.
const unit = "ns/op"

// Column names of the µOpTime CSV.
const (
	colN        = "n"
	colNsPerOp  = "ns_per_op"
	colBedSetup = "bed_setup"
	colItSetup  = "it_setup"
	colSrSetup  = "sr_setup"
	colIrSetup  = "ir_setup"
	colBedPos   = "bed_pos"
	colItPos    = "it_pos"
	colSrPos    = "sr_pos"
	colIrPos    = "ir_pos"
	colBName    = "b_name"
	colMID      = "m_id"
)

// Report kinds used by Read.
const (
	kindMalformedCSV  = "malformed CSV"
	kindFieldCount    = "wrong number of fields"
	kindBadNumber     = "non-numeric field"
	kindEmptyName     = "empty benchmark name"
	kindBadSetup      = "setup column < 1"
	kindOutsideSetup  = "position outside setup"
	kindBadN          = "n ≤ 0"
	kindDuplicate     = "duplicate row"
	kindRagged        = "ragged data (slices missing from the setup grid)"
	kindMixedSetups   = "mixed setups"
	kindNoRows        = "no data rows"
	kindUnknownColumn = "unknown column ignored"
)

// columns holds the field index of each required column.
type columns struct {
	n, nsPerOp                          int
	irSetup, srSetup, itSetup, bedSetup int
	irPos, srPos, itPos, bedPos, bName  int
	width                               int
}

// Levels, outermost first: instance, trial (suite run), iteration, slice.
const numLevels = 4

var levelNames = [numLevels]string{"instance", "trial", "iteration", "slice"}

// Read parses a µOpTime CSV from r and appends its rows and setups to dst.
// It returns a *ingest.ParseError when r is empty or the header lacks
// required columns, and a wrapped error when reading r fails; bad rows are
// counted in rep and skipped.
func (format) Read(r io.Reader, src ingest.Source, dst *table.Builder, rep *ingest.Report) error {
	cr, err := csvfile.NewReader(r, src.File, ',', rep, kindMalformedCSV)
	if err != nil {
		return err
	}
	file := cr.File
	cols, err := parseHeader(cr.Head, file, cr.HeadLine, rep)
	if err != nil {
		return err
	}

	rd := reader{file: file, src: src, dst: dst, rep: rep, cols: cols, benches: map[string]*bench{}, names: ingest.Names{Rep: rep}}
	rd.row = table.Row{Project: src.Project, Version: src.Version, Mode: mode, Metric: table.Primary,
		Unit: unit, Fork: 1, Source: file}
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
func parseHeader(head []string, file string, line int, rep *ingest.Report) (columns, error) {
	c := columns{width: len(head)}
	want := []struct {
		name string
		dst  *int
	}{
		{colN, &c.n}, {colNsPerOp, &c.nsPerOp},
		{colBedSetup, &c.bedSetup}, {colItSetup, &c.itSetup}, {colSrSetup, &c.srSetup}, {colIrSetup, &c.irSetup},
		{colBedPos, &c.bedPos}, {colItPos, &c.itPos}, {colSrPos, &c.srPos}, {colIrPos, &c.irPos},
		{colBName, &c.bName},
	}
	known := map[string]bool{colMID: true}
	for _, w := range want {
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
	for _, w := range want {
		i, ok := index[w.name]
		if !ok {
			missing = append(missing, w.name)
			continue
		}
		*w.dst = i
	}
	if len(missing) > 0 {
		if msg := headerProblem(head); msg != "" {
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
				Msg: fmt.Sprintf("column %d %q is not a µOpTime column", i+1, h)})
		}
	}
	return c, nil
}

// reader is the state of one Read.
type reader struct {
	file    string
	src     ingest.Source
	dst     *table.Builder
	rep     *ingest.Report
	cols    columns
	row     table.Row
	benches map[string]*bench
	order   []*bench // in order of first appearance
	last    *bench
	names   ingest.Names
}

// record checks one CSV record and appends it as a row or reports why not.
func (rd *reader) record(rec []string, line int64) {
	c := &rd.cols
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
	var setup, pos [numLevels]int32
	setupCols := [numLevels]int{c.irSetup, c.srSetup, c.itSetup, c.bedSetup}
	posCols := [numLevels]int{c.irPos, c.srPos, c.itPos, c.bedPos}
	setupNames := [numLevels]string{colIrSetup, colSrSetup, colItSetup, colBedSetup}
	posNames := [numLevels]string{colIrPos, colSrPos, colItPos, colBedPos}
	for l := 0; l < numLevels; l++ {
		v, err := csvfile.ParseInt(csvfile.TrimSpace(rec[setupCols[l]]), 32)
		if err != nil {
			rd.skip(kindBadNumber, line, "column %s: %v", setupNames[l], err)
			return
		}
		if v < 1 {
			rd.skip(kindBadSetup, line, "column %s = %d, want ≥ 1", setupNames[l], v)
			return
		}
		setup[l] = int32(v)
		p, err := csvfile.ParseInt(csvfile.TrimSpace(rec[posCols[l]]), 32)
		if err != nil {
			rd.skip(kindBadNumber, line, "column %s: %v", posNames[l], err)
			return
		}
		if p < 1 || p > v {
			rd.skip(kindOutsideSetup, line, "column %s = %d outside 1..%s = %d", posNames[l], p, setupNames[l], v)
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
	if reason, ok := ingest.CheckTime(mode, ns); !ok {
		rd.skip(reason, line, "column ns_per_op = %s", rec[c.nsPerOp])
		return
	}

	b := rd.last
	if b == nil || b.name != name {
		b = rd.benches[name]
		if b == nil {
			b = newBench(name, setup, line)
			rd.benches[name] = b
			rd.order = append(rd.order, b)
		}
		rd.last = b
	}
	if first := b.mark(pos, line); first != 0 {
		rd.skip(kindDuplicate, line, "benchmark %s instance %d trial %d iteration %d slice %d already read at line %d",
			name, pos[0], pos[1], pos[2], pos[3], first)
		return
	}
	if setup != b.setup {
		if b.mixedRows == 0 {
			b.mixedLine, b.mixedSetup = line, setup
		}
		b.mixedRows++
	}

	r := &rd.row
	r.Benchmark = b.name
	r.Value, r.NsPerOp, r.Count = ns, ns, n
	r.Instance, r.Trial, r.Iteration, r.Slice = pos[0], pos[1], pos[2], pos[3]
	r.Line = line
	if err := rd.dst.Append(r); err != nil {
		rd.skip(ingest.RejectKind(err), line, "%v", err)
	}
}

func (rd *reader) skip(kind string, line int64, format string, args ...any) {
	rd.rep.Skip(kind, 1, &ingest.ParseError{File: rd.file, Line: int(line), Msg: fmt.Sprintf(format, args...)})
}

// finish adds the setups and reports mixed setups and ragged benchmarks,
// in order of first appearance.
func (rd *reader) finish() {
	for _, b := range rd.order {
		s := table.Setup{
			Key:                   table.Key{Project: rd.src.Project, Version: rd.src.Version, Benchmark: b.name, Mode: mode},
			Tool:                  "go",
			Forks:                 1,
			Instances:             int(b.setup[0]),
			Trials:                int(b.setup[1]),
			MeasurementIterations: int(b.setup[2]),
			Slices:                int(b.setup[3]),
			SliceTimeNs:           sliceTimeNs,
			MeasurementTimeNs:     satMul(int64(b.setup[3]), sliceTimeNs),
			Source:                fmt.Sprintf("%s:%d", rd.file, b.firstLine),
		}
		if err := rd.dst.AddSetup(s); err != nil {
			rd.rep.Warn(kindMixedSetups, &ingest.ParseError{File: rd.file, Line: int(b.firstLine), Msg: err.Error()})
		}
		if b.mixedRows > 0 {
			rd.rep.Warn(kindMixedSetups, &ingest.ParseError{File: rd.file, Line: int(b.mixedLine), Msg: fmt.Sprintf(
				"benchmark %s: %d row(s) state setup %s, but line %d stated %s; the setup record keeps the first",
				b.name, b.mixedRows, setupString(b.mixedSetup), b.firstLine, setupString(b.setup))})
		}
		if msg := b.raggedMessage(); msg != "" {
			rd.rep.Warn(kindRagged, &ingest.ParseError{File: rd.file, Line: int(b.firstLine), Msg: msg})
		}
	}
}

func setupString(s [numLevels]int32) string {
	return fmt.Sprintf("ir_setup=%d sr_setup=%d it_setup=%d bed_setup=%d", s[0], s[1], s[2], s[3])
}

// satMul is a·b for a, b ≥ 0, saturating at math.MaxInt64.
func satMul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}
