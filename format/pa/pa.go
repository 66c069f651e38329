// Package pa reads pa/bencher CSV files (Laaber's pa and bencher tools) into
// the canonical measurement table (Format) and writes the table as such a
// file (Write); it owns everything about those bytes.
//
// Flow: ingest.ReadFiles (or a caller) picks this Format for a file whose header
// is semicolon-separated and names benchmark;params;instance; Read appends
// one canonical row per CSV row and one table.Setup per benchmark run to a
// table.Builder; analyzers then read the table (package table). Write goes
// the other way, from the table (table.Table.Collect) to pa CSV, for benchtrim
// export.
//
// The format (docs/formats/pa.md): ';'-separated, RFC 4180 quoting, a header
// line, exactly 12 fields per row:
//
//	project;commit;benchmark;params;instance;trial;fork;iteration;mode;unit;value_count;value
//
// Columns are found by header name (case-insensitive, any order). Mapping:
//
//	project, commit → project, version. Labels the user gave
//	                  (Source.ProjectFromUser, Source.VersionFromUser) win; otherwise the file's own
//	                  non-empty columns win and Source.Project/Version (labels
//	                  from the file name) only fill empty ones
//	benchmark       → benchmark
//	params          → canonical params: "a=1,b=2" split on ','; a piece
//	                  without '=' belongs to the previous value ("a=1,2,b=3"
//	                  is a = "1,2", b = "3"); a value may contain '='
//	instance        → instance: pa's instance is a string (machine id); a
//	                  positive integer is used as the number, other strings
//	                  are numbered in order of first appearance (see below),
//	                  and each setup's Env records the strings of its
//	                  instances as "instance.N" = "m1"
//	trial, fork, iteration → the same levels (1-based ints); slice = 1
//	mode, unit      → mode, unit as written
//	value_count     → count (histogram bucket count in sample mode)
//	value           → value; any float syntax is accepted, including Java %e
//	                  ("1.234568e+07") and a decimal comma ("1,234568e+07",
//	                  written by bencher under e.g. a de_DE locale; the ';'
//	                  separator makes it unambiguous), reported once per file
//	ns_per_op       = ingest.NsPerOp(unit, value, 1): bencher does not record
//	                  JMH's thread count, so throughput is normalised as if
//	                  single-threaded
//
// Setups carry Tool "jmh" (bencher converts JMH results) and the instance
// names; pa files state no fork or iteration configuration.
//
// Bad input: an empty file or a header lacking columns is a
// *ingest.ParseError. Rows with malformed CSV, a field count other than the
// header's, an empty benchmark, non-numeric or < 1 levels, value_count ≤ 0,
// a non-numeric value, an unknown unit, a mode that is neither a JMH mode
// (thrpt, avgt, sample, ss, or its long name such as AverageTime) nor go,
// NaN, infinite, negative or zero (outside sample mode) times, a string
// longer than table.MaxStringBytes, or
// duplicating an earlier row (same run and levels in a non-sample mode,
// where each iteration has one value) are skipped and counted with
// file:line. Malformed params, an empty mode and one run with several
// units are kept and warned about; so are names (project, commit,
// benchmark, params, instance) with invalid UTF-8 or control characters (a
// quoted field may hold a line break), which are stored cleaned
// (ingest.CleanName), each distinct name counted once. A header separated
// by ',' or a tab, or a first line that is a data row, is reported as such.
//
// Instance numbers: a numeric instance column (bencher -i 3) is used as the
// number, so per-instance files read together stay apart; other names (m1,
// vm-a) are numbered per file in order of first appearance, so two files
// that each name a single instance differently both number it 1: merge such
// files, or give them distinct Source.Trial, to keep them apart.
package pa

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/format/internal/csvfile"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/table"
)

// Format returns the reader of pa/bencher CSV.
func Format() ingest.Format { return paFormat{} }

// paFormat is the pa reader; it has no state.
type paFormat struct{}

var _ ingest.Format = paFormat{}

// Name is "pa".
func (paFormat) Name() string { return "pa" }

// Sniff reports whether the first line of head is a ';'-separated header
// naming the benchmark, params and instance columns in pa's order.
func (paFormat) Sniff(head []byte) bool {
	h := bytes.ToLower(bytes.ReplaceAll(csvfile.FirstLine(head), []byte(`"`), nil))
	return bytes.Contains(h, []byte("benchmark;params;instance"))
}

// Likely scores a head that no format sniffed (see ingest.Format): 2 when
// its first line names the benchmark, params and instance columns (with
// another delimiter than ';' or in another order) or is a pa data row
// without a header (12 ';'-separated fields whose trial, fork, iteration
// and value_count are integers), else 0. Read's header error then names
// the delimiter or the missing header.
func (paFormat) Likely(head []byte) int {
	line := csvfile.FirstLine(head)
	h := bytes.ToLower(line)
	if bytes.Contains(h, []byte("benchmark")) && bytes.Contains(h, []byte("params")) && bytes.Contains(h, []byte("instance")) {
		return 2
	}
	if isDataRow(strings.Split(string(line), ";")) {
		return 2
	}
	return 0
}

// isDataRow reports whether f has pa's 12 fields with integers where pa
// has trial, fork, iteration and value_count.
func isDataRow(f []string) bool {
	if len(f) != numColumns {
		return false
	}
	for _, c := range []int{colTrial, colFork, colIteration, colValueCount} {
		if _, err := strconv.ParseInt(csvfile.TrimSpace(f[c]), 10, 64); err != nil {
			return false
		}
	}
	return true
}

// headerProblem explains a header that lacks columns when the reason is
// plain: another delimiter than ';' (one field that splits on ',' or tab
// into pa's names), or no header at all (the first line is a data row). It
// returns "" otherwise.
func headerProblem(head []string) string {
	if d := csvfile.OtherDelimiter(head, ';', "benchmark", "params", "instance", "value_count"); d != "" {
		return fmt.Sprintf("header separated by %s, not ';' (a pa/bencher CSV is semicolon-separated)", d)
	}
	if isDataRow(head) {
		return "no header line: line 1 is a data row (a pa/bencher CSV starts with the header " + strings.Join(columns[:], ";") + ")"
	}
	return ""
}

// Column names of a pa CSV, in pa's order.
var columns = [...]string{"project", "commit", "benchmark", "params", "instance", "trial", "fork",
	"iteration", "mode", "unit", "value_count", "value"}

// Header is the header line pa/bencher write (without the line break): the
// Columns joined by ';'. The pa writer (export) and the generator use it.
var Header = strings.Join(columns[:], ";")

const (
	colProject = iota
	colCommit
	colBenchmark
	colParams
	colInstance
	colTrial
	colFork
	colIteration
	colMode
	colUnit
	colValueCount
	colValue
	numColumns
)

// Summary kinds used by Read.
const (
	kindMalformedCSV    = "malformed CSV"
	kindFieldCount      = "wrong number of fields"
	kindEmptyName       = "empty benchmark name"
	kindBadNumber       = "non-numeric field"
	kindBadLevel        = "level < 1"
	kindBadCount        = "value_count ≤ 0"
	kindUnknownUnit     = "unknown unit"
	kindDuplicate       = "duplicate row"
	kindMalformedParams = "malformed params"
	kindEmptyMode       = "empty mode"
	kindMixedUnits      = "mixed units in one benchmark run"
	kindMixedSetups     = "mixed setups"
	kindDecimalComma    = "decimal comma"
	kindNoRows          = "no data rows"
)

// run is the state of one benchmark run (table.Key) in a file.
type run struct {
	key       table.Key
	firstLine int64
	unit      string
	warned    bool
	instances map[int32]bool
	// seen maps (instance, trial, fork, iteration) to the line of its row;
	// nil in sample mode, where an iteration has one row per histogram bucket.
	seen map[[4]int32]int64
}

// reader is the state of one Read.
type reader struct {
	file  string
	src   ingest.Source
	dst   *table.Builder
	rep   *ingest.Summary
	cols  [numColumns]int
	width int
	row   table.Row

	instances     map[string]int32
	instanceNames map[int32]string
	lastInstance  int32
	params        map[string]string // raw → canonical
	runs          map[table.Key]*run
	order         []*run
	last          *run

	commaValues int
	commaLine   int64

	names ingest.Names
}

// Read parses a pa/bencher CSV from r and appends its rows and setups to
// dst. It returns a *ingest.ParseError for an empty file or a header that
// lacks columns and a wrapped error when reading r fails; bad rows are
// counted in rep and skipped.
func (paFormat) Read(r io.Reader, src ingest.Source, dst *table.Builder, rep *ingest.Summary) error {
	cr, err := csvfile.NewReader(r, src.File, ';', rep, kindMalformedCSV)
	if err != nil {
		return err
	}
	file := cr.File
	rd := &reader{file: file, src: src, dst: dst, rep: rep, width: len(cr.Head), names: ingest.Names{Rep: rep},
		instances: map[string]int32{}, instanceNames: map[int32]string{}, params: map[string]string{}, runs: map[table.Key]*run{}}
	if err := rd.parseHeader(cr.Head, cr.HeadLine); err != nil {
		return err
	}
	rd.row = table.Row{Slice: 1, Metric: table.Primary, Source: file}
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

func (rd *reader) parseHeader(head []string, line int) error {
	names, index := csvfile.Names(head)
	var dupMsg string
	for i, h := range names {
		if j := index[h]; j != i && dupMsg == "" {
			dupMsg = fmt.Sprintf("header: column %q appears twice (fields %d and %d)", h, j+1, i+1)
		}
	}
	var missing []string
	for c, name := range columns {
		i, ok := index[name]
		if !ok {
			missing = append(missing, name)
			continue
		}
		rd.cols[c] = i
	}
	if len(missing) > 0 {
		if msg := headerProblem(head); msg != "" {
			return &ingest.ParseError{File: rd.file, Line: line, Msg: msg}
		}
		return &ingest.ParseError{File: rd.file, Line: line,
			Msg: fmt.Sprintf("header: missing columns %s (want %s; first line is %q)",
				strings.Join(missing, ", "), strings.Join(columns[:], ";"), strings.Join(head, ";"))}
	}
	if dupMsg != "" {
		return &ingest.ParseError{File: rd.file, Line: line, Msg: dupMsg}
	}
	if len(head) != numColumns {
		return &ingest.ParseError{File: rd.file, Line: line,
			Msg: fmt.Sprintf("header: %d columns, want exactly the %d of %s", len(head), numColumns, strings.Join(columns[:], ";"))}
	}
	return nil
}

func (rd *reader) skip(kind string, line int64, format string, args ...any) {
	rd.rep.Skip(kind, 1, &ingest.ParseError{File: rd.file, Line: int(line), Msg: fmt.Sprintf(format, args...)})
}

func (rd *reader) warn(kind string, line int64, format string, args ...any) {
	rd.rep.Warn(kind, &ingest.ParseError{File: rd.file, Line: int(line), Msg: fmt.Sprintf(format, args...)})
}

// record checks one CSV record and appends it as a row or reports why not.
func (rd *reader) record(rec []string, line int64) {
	if len(rec) != rd.width {
		rd.skip(kindFieldCount, line, "row has %d fields, want %d", len(rec), rd.width)
		return
	}
	field := func(c int) string { return csvfile.TrimSpace(rec[rd.cols[c]]) }
	bench := field(colBenchmark)
	if bench == "" {
		rd.skip(kindEmptyName, line, "column benchmark is empty")
		return
	}
	var levels [3]int32
	for i, c := range [3]int{colTrial, colFork, colIteration} {
		v, err := csvfile.ParseInt(field(c), 32)
		if err != nil {
			rd.skip(kindBadNumber, line, "column %s: %v", columns[c], err)
			return
		}
		if v < 1 {
			rd.skip(kindBadLevel, line, "column %s = %d, want ≥ 1", columns[c], v)
			return
		}
		levels[i] = int32(v)
	}
	count, err := csvfile.ParseInt(field(colValueCount), 64)
	if err != nil {
		rd.skip(kindBadNumber, line, "column value_count: %v", err)
		return
	}
	if count < 1 {
		rd.skip(kindBadCount, line, "column value_count = %d, want ≥ 1", count)
		return
	}
	raw := field(colValue)
	value, comma, err := parseValue(raw)
	if err != nil {
		rd.skip(kindBadNumber, line, "column value: %q is not a number", raw)
		return
	}
	mode, unit := field(colMode), field(colUnit)
	if mode != "" {
		m, ok := ingest.Mode(mode)
		if !ok {
			rd.skip(ingest.KindUnknownMode, line, "column mode %q is not a JMH mode (thrpt, avgt, sample, ss) or go", mode)
			return
		}
		mode = m
	}
	ns, err := ingest.NsPerOp(unit, value, 1)
	if err != nil {
		rd.skip(kindUnknownUnit, line, "column unit: %v", err)
		return
	}
	if reason, ok := ingest.CheckTime(mode, ns); !ok {
		rd.skip(reason, line, "value %s %s (mode %q)", raw, unit, mode)
		return
	}

	at := ingest.ParseError{File: rd.file, Line: int(line)}
	bench = rd.names.Clean(bench, "benchmark", at)
	project := label(rd.names.Clean(field(colProject), "project", at), rd.src.Project, rd.src.ProjectFromUser)
	version := label(rd.names.Clean(field(colCommit), "commit", at), rd.src.Version, rd.src.VersionFromUser)
	key := table.Key{Project: project, Version: version, Benchmark: bench, Params: rd.canonicalParams(field(colParams), line), Mode: mode}
	if err := (&table.Row{Project: key.Project, Version: key.Version, Benchmark: key.Benchmark,
		Params: key.Params, Mode: key.Mode, Unit: unit, Source: rd.file}).Check(); err != nil {
		rd.skip(ingest.RejectKind(err), line, "%v", err)
		return
	}
	ru := rd.last
	if ru == nil || ru.key != key {
		ru = rd.runs[key]
		if ru == nil {
			ru = &run{key: key, firstLine: line, unit: unit, instances: map[int32]bool{}}
			if mode != "sample" {
				ru.seen = map[[4]int32]int64{}
			}
			if mode == "" {
				rd.warn(kindEmptyMode, line, "%s: column mode is empty", key)
			}
			rd.runs[key] = ru
			rd.order = append(rd.order, ru)
		}
		rd.last = ru
	}
	instance := rd.instance(field(colInstance), line)
	if ru.seen != nil {
		lv := [4]int32{instance, levels[0], levels[1], levels[2]}
		if first, dup := ru.seen[lv]; dup {
			rd.skip(kindDuplicate, line, "%s instance %q trial %d fork %d iteration %d already read at line %d (mode %s has one value per iteration)",
				key, rd.instanceNames[instance], lv[1], lv[2], lv[3], first, mode)
			return
		}
		ru.seen[lv] = line
	}
	if unit != ru.unit && !ru.warned {
		ru.warned = true
		rd.warn(kindMixedUnits, line, "%s: unit %s, but line %d has %s (ns_per_op normalises both)", key, unit, ru.firstLine, ru.unit)
	}
	ru.instances[instance] = true
	if comma {
		if rd.commaValues == 0 {
			rd.commaLine = line
		}
		rd.commaValues++
	}

	r := &rd.row
	r.Project, r.Version, r.Benchmark, r.Params, r.Mode = key.Project, key.Version, key.Benchmark, key.Params, key.Mode
	r.Unit, r.Value, r.NsPerOp, r.Count = unit, value, ns, count
	r.Instance, r.Trial, r.Fork, r.Iteration = instance, levels[0], levels[1], levels[2]
	r.Line = line
	if err := rd.dst.Append(r); err != nil {
		rd.skip(ingest.RejectKind(err), line, "%v", err)
	}
}

// label picks a row's project or version label: the source's when the user
// gave it, else the file's column, else the source's (file-name) label.
func label(column, source string, fromUser bool) string {
	if fromUser && source != "" || column == "" {
		return source
	}
	return column
}

// instance maps an instance string to its number: a positive integer
// ("1", "02") is its own number, so files written per instance with
// bencher -i N keep their instances apart when read together; any other
// name gets the next number after the largest seen so far in this file, in
// order of first appearance.
func (rd *reader) instance(name string, line int64) int32 {
	if id, ok := rd.instances[name]; ok {
		return id
	}
	id := int32(0)
	if n, err := strconv.ParseInt(strings.TrimSpace(name), 10, 32); err == nil && n >= 1 {
		if _, taken := rd.instanceNames[int32(n)]; !taken {
			id = int32(n)
		}
	}
	if id == 0 {
		id = rd.lastInstance + 1
		for {
			if _, taken := rd.instanceNames[id]; !taken {
				break
			}
			id++
		}
	}
	rd.instances[name] = id
	rd.instanceNames[id] = rd.names.Clean(name, "instance", ingest.ParseError{File: rd.file, Line: int(line)})
	rd.lastInstance = max(rd.lastInstance, id)
	return id
}

// canonicalParams turns pa's "a=1,b=2" into table.CanonicalParams form.
func (rd *reader) canonicalParams(raw string, line int64) string {
	if c, ok := rd.params[raw]; ok {
		return c
	}
	m, bad := splitParams(rd.names.Clean(raw, "params", ingest.ParseError{File: rd.file, Line: int(line)}))
	if bad != "" {
		rd.warn(kindMalformedParams, line, "params %q: %s", raw, bad)
	}
	c := table.CanonicalParams(m)
	rd.params[raw] = c
	return c
}

// splitParams splits pa params "k1=v1,k2=v2". A piece without '=' continues
// the previous value (a ',' inside a value); one before any key becomes a
// key with an empty value (an empty one is dropped), and a repeated key
// keeps its last value; these are described in bad.
func splitParams(raw string) (m map[string]string, bad string) {
	if raw == "" {
		return nil, ""
	}
	m = map[string]string{}
	note := func(msg string) {
		if bad == "" {
			bad = msg
		}
	}
	// A value is the substring of raw from valueFrom to the end of the
	// last piece that continues it, so long values cost no concatenation.
	last, valueFrom := "", -1
	for pos := 0; ; {
		end := strings.IndexByte(raw[pos:], ',')
		if end < 0 {
			end = len(raw)
		} else {
			end += pos
		}
		piece := raw[pos:end]
		k, _, ok := strings.Cut(piece, "=")
		switch {
		case ok && k != "":
			if _, dup := m[k]; dup {
				note(fmt.Sprintf("key %q repeated; keeping the last value", k))
			}
			last, valueFrom = k, pos+len(k)+1
			m[k] = raw[valueFrom:end]
		case valueFrom >= 0:
			m[last] = raw[valueFrom:end]
		case piece == "":
			note("empty piece before the first key ignored")
		default:
			note(fmt.Sprintf("%q is not key=value; kept as a key with an empty value", piece))
			last, valueFrom = piece, end
			m[piece] = ""
		}
		if end == len(raw) {
			return m, bad
		}
		pos = end + 1
	}
}

// finish adds the setups in order of first appearance.
func (rd *reader) finish() {
	for _, ru := range rd.order {
		env := make(map[string]string, len(ru.instances))
		for id := range ru.instances {
			env["instance."+strconv.Itoa(int(id))] = rd.instanceNames[id]
		}
		s := table.Setup{Key: ru.key, Tool: "jmh", Env: env, Source: fmt.Sprintf("%s:%d", rd.file, ru.firstLine)}
		if err := rd.dst.AddSetup(s); err != nil {
			rd.warn(kindMixedSetups, ru.firstLine, "%v", err)
		}
	}
	if rd.commaValues > 0 {
		rd.warn(kindDecimalComma, rd.commaLine, "%d value(s) written with a decimal comma (first here) were read with ',' as the decimal point", rd.commaValues)
	}
}

// parseValue parses a float in any strconv.ParseFloat syntax, or with a
// decimal comma in place of the point ("1,234568e+07"); comma reports the latter.
func parseValue(s string) (v float64, comma bool, err error) {
	v, err = strconv.ParseFloat(s, 64)
	if err == nil {
		return v, false, nil
	}
	if strings.Count(s, ",") == 1 && !strings.ContainsAny(s, ".") {
		if v, err2 := strconv.ParseFloat(strings.Replace(s, ",", ".", 1), 64); err2 == nil {
			return v, true, nil
		}
	}
	var ne *strconv.NumError
	if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
		return v, false, nil // ±Inf or 0 on overflow/underflow: CheckTime judges it
	}
	return 0, false, err
}
