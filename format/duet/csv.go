package duet

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/format/internal/csvfile"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/table"
)

// Format returns the reader of duetprocess per-iteration CSV files (Read)
// and duetbench output directories (ReadDir, as an ingest.DirFormat). Its
// --format name is "duet".
func Format() ingest.Format { return format{} }

// format is the duet reader; it has no state.
type format struct{}

var (
	_ ingest.Format    = format{}
	_ ingest.DirFormat = format{}
)

// Name is "duet".
func (format) Name() string { return "duet" }

// columns are the columns a duetprocess CSV must have, in any order.
var columns = [...]string{"suite", "benchmark", "type", "pair", "runid", "iteration",
	"iteration_time_ns", "iteration_start_ns", "iteration_end_ns"}

// artifactColumns are the artifact columns of a duetprocess CSV; "" when
// absent (with a warning). The optional environment column, when present,
// replaces the environment derived from the hostname.
var artifactColumns = [...]string{"date", "hostname", "lscpu", "meminfo", "uname"}

const (
	colSuite = iota
	colBenchmark
	colType
	colPair
	colRunID
	colIteration
	colTime
	colStart
	colEnd
	numRequired
)

// Sniff reports whether head's first line is a ','-separated header naming
// every column of Columns.
func (format) Sniff(head []byte) bool {
	names := map[string]bool{}
	for _, f := range strings.Split(string(csvfile.FirstLine(head)), ",") {
		names[strings.ToLower(strings.Trim(strings.TrimSpace(f), `"`))] = true
	}
	for _, c := range columns {
		if !names[c] {
			return false
		}
	}
	return true
}

// Likely scores a head no format sniffed (see ingest.Format): 2 when its
// first line names the duet-specific column runid and iteration_start_ns or
// iteration_time_ns (whatever the separator; the early duet CSVs without
// timestamps have the latter), else 0.
func (format) Likely(head []byte) int {
	h := bytes.ToLower(csvfile.FirstLine(head))
	if bytes.Contains(h, []byte("runid")) && (bytes.Contains(h, []byte("iteration_start_ns")) || bytes.Contains(h, []byte("iteration_time_ns"))) {
		return 2
	}
	return 0
}

// naTokens are the strings pandas.read_csv reads as missing (its default
// na_values); pandas' to_csv writes a missing value as "".
var naTokens = map[string]bool{"": true, "#N/A": true, "#N/A N/A": true, "#NA": true, "-1.#IND": true,
	"-1.#QNAN": true, "-NaN": true, "-nan": true, "1.#IND": true, "1.#QNAN": true, "<NA>": true, "N/A": true,
	"NA": true, "NULL": true, "NaN": true, "None": true, "n/a": true, "nan": true, "null": true}

// csvReader is the state of one Read.
type csvReader struct {
	file      string
	c         *collector
	cols      [numRequired]int
	order     int // -1 when absent
	artifacts [len(artifactColumns)]int
	envCol    int
	width     int

	// lastArt and lastInst cache the instance of the previous row: rows of
	// one environment come in long stretches.
	lastArt  artifacts
	lastInst int32
}

// Read parses a duetprocess CSV (FORMAT.md §A3) from r and appends one row
// per iteration and one setup per (suite, benchmark, type) to dst. A
// header that lacks a required column, or an empty file, is a
// *ingest.ParseError; bad rows are skipped and counted in rep with their
// line.
func (format) Read(r io.Reader, src ingest.Source, dst *table.Builder, rep *ingest.Summary) error {
	cr, err := csvfile.NewReader(r, src.File, ',', rep, kindMalformedCSV)
	if err != nil {
		return err
	}
	src.File = cr.File
	rd := &csvReader{file: cr.File, c: newCollector(src, rep), width: len(cr.Head)}
	if err := rd.header(cr.Head, cr.HeadLine); err != nil {
		return err
	}
	for cr.Scan() {
		rd.record(cr.Record())
	}
	if err := cr.Err(); err != nil {
		return err
	}
	cr.WarnIfEmpty(kindNoRows)
	rd.c.finish(dst)
	return nil
}

func (rd *csvReader) header(head []string, line int) error {
	names, index := csvfile.Names(head)
	for i, h := range names {
		if j := index[h]; j != i && h != "" {
			return &ingest.ParseError{File: rd.file, Line: line, Msg: fmt.Sprintf("header: column %q appears twice (fields %d and %d)", h, j+1, i+1)}
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
		msg := fmt.Sprintf("header: missing columns %s (a duetprocess CSV has %s, in any order)",
			strings.Join(missing, ", "), strings.Join(columns[:], ","))
		if len(head) == 1 {
			for _, d := range []struct{ sep, name string }{{";", "';'"}, {"\t", "tab"}} {
				if strings.Count(head[0], d.sep) >= 3 {
					msg = fmt.Sprintf("header separated by %s, not ',' (a duetprocess CSV is written by pandas to_csv)", d.name)
				}
			}
		}
		return &ingest.ParseError{File: rd.file, Line: line, Msg: msg}
	}
	rd.order, rd.envCol = -1, -1
	if i, ok := index["order"]; ok {
		rd.order = i
	}
	if i, ok := index["environment"]; ok {
		rd.envCol = i
	}
	var absent []string
	for a, name := range artifactColumns {
		i, ok := index[name]
		if !ok {
			i = -1
			absent = append(absent, name)
		}
		rd.artifacts[a] = i
	}
	if len(absent) > 0 {
		rd.c.rep.Warn(kindNoArtifacts, &ingest.ParseError{File: rd.file, Line: line,
			Msg: fmt.Sprintf("header lacks the artifact columns %s; their values are \"\" (one instance)", strings.Join(absent, ", "))})
	}
	return nil
}

// record reads one CSV record into the collector or counts why not.
func (rd *csvReader) record(rec []string, line int64) {
	c := rd.c
	at := &ingest.ParseError{File: rd.file, Line: int(line)}
	if len(rec) != rd.width {
		c.skip(kindFieldCount, at, "row has %d fields, want %d", len(rec), rd.width)
		return
	}
	field := func(i int) string { return strings.TrimSpace(rec[i]) }
	col := func(c int) string { return field(rd.cols[c]) }
	r := record{suite: col(colSuite), bench: col(colBenchmark), typ: col(colType), pair: col(colPair),
		source: rd.file, line: line, order: "None"}
	if rd.order >= 0 {
		r.order = field(rd.order)
	}
	var err error
	var bad string
	for _, n := range []struct {
		c     int
		dst   *int64
		round bool
	}{{colRunID, &r.runid, false}, {colIteration, &r.iter, false}, {colStart, &r.start, true}, {colEnd, &r.end, true}} {
		*n.dst, err = parseInt(col(n.c), n.round)
		if err != nil {
			bad = columns[n.c]
			break
		}
	}
	if err == nil {
		r.timeNs, err = parseFloat(col(colTime))
		bad = columns[colTime]
	}
	switch {
	case errors.Is(err, errMissing):
		c.skip(kindMissingValue, at, "column %s is %q: missing", bad, col(indexOf(bad)))
		return
	case err != nil:
		c.skip(kindBadNumber, at, "column %s: %v", bad, err)
		return
	}
	var a artifacts
	vals := [len(artifactColumns)]string{}
	for i, ci := range rd.artifacts {
		if ci < 0 {
			continue
		}
		v := field(ci)
		if v != "" && naTokens[v] {
			c.warn(kindNAArtifact, at, "artifact %s is %q, which pandas reads as missing; stored as \"\"", artifactColumns[i], v)
			v = ""
		}
		vals[i] = v
	}
	a.Date, a.Hostname, a.Lscpu, a.Meminfo, a.Uname = vals[0], vals[1], vals[2], vals[3], vals[4]
	if rd.envCol >= 0 {
		a.Environment = field(rd.envCol)
		if naTokens[a.Environment] {
			a.Environment = ""
		}
	} else {
		a.Environment = environment(a.Hostname)
	}
	if rd.lastInst == 0 || a != rd.lastArt {
		rd.lastArt, rd.lastInst = a, c.instance(a, *at)
	}
	r.inst = rd.lastInst
	c.add(r)
}

// indexOf is the index in Columns of name.
func indexOf(name string) int {
	for i, c := range columns {
		if c == name {
			return i
		}
	}
	return 0
}

var errMissing = errors.New("missing value")

// parseFloat parses a float; a pandas NA token (or NaN) is errMissing.
func parseFloat(s string) (float64, error) {
	if naTokens[s] {
		return 0, errMissing
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return v, nil // ±Inf: CheckTime judges it
		}
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if math.IsNaN(v) {
		return 0, errMissing
	}
	return v, nil
}

// parseInt parses an integer written as such ("1647775003165435372") or
// as a float ("1.6477750031654354e+18", "3.0": pandas writes an integer
// column holding a missing value as floats), rounding a float to the
// nearest integer when round is set (timestamps) and refusing a fraction
// otherwise (indices); a pandas NA token is errMissing.
func parseInt(s string, round bool) (int64, error) {
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v, nil
	}
	f, err := parseFloat(s)
	if err != nil {
		return 0, err
	}
	if !round && f != math.Trunc(f) {
		return 0, fmt.Errorf("%q is not an integer", s)
	}
	f = math.Round(f)
	if math.IsInf(f, 0) || f >= 1<<63 || f < -(1<<63) {
		return 0, fmt.Errorf("%q is out of range", s)
	}
	return int64(f), nil
}
