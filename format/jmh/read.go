package jmh

import (
	"bytes"
	"io"
	"sync"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/table"
)

// Format returns the reader of JMH JSON result files (java -jar
// benchmarks.jar -rf json).
func Format() ingest.Format { return format{} }

// format is the JMH reader; it has no state.
type format struct{}

var _ ingest.Format = format{}

// Name is "jmh".
func (format) Name() string { return "jmh" }

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// Sniff reports whether head looks like a JMH result file: after an
// optional UTF-8 byte order mark and white space it is a JSON array that is
// either empty or whose first element is an object, and head mentions
// "benchmark" or "primaryMetric".
func (format) Sniff(head []byte) bool {
	head = bytes.TrimPrefix(head, utf8BOM)
	t := bytes.TrimLeft(head, " \t\r\n")
	if len(t) == 0 || t[0] != '[' {
		return false
	}
	rest := bytes.TrimLeft(t[1:], " \t\r\n")
	if len(rest) > 0 && rest[0] == ']' {
		return len(bytes.TrimRight(rest[1:], " \t\r\n")) == 0
	}
	if len(rest) > 0 && rest[0] != '{' {
		return false
	}
	return bytes.Contains(head, []byte(`"benchmark"`)) || bytes.Contains(head, []byte(`"primaryMetric"`))
}

// Likely scores a head that no format sniffed (see ingest.Format): 2 when,
// after an optional byte order mark, white space and git conflict marker
// lines, it starts with a JSON array or object and mentions "benchmark",
// "primaryMetric" or "jmhVersion"; 1 when it starts with '[' or '{'
// without those; 0 otherwise. Read then names what is wrong: a conflict
// marker, a top-level object, a record that is not an object.
func (format) Likely(head []byte) int {
	t := bytes.TrimLeft(bytes.TrimPrefix(head, utf8BOM), " \t\r\n")
	for bytes.HasPrefix(t, []byte("<<<<<<<")) || bytes.HasPrefix(t, []byte("=======")) || bytes.HasPrefix(t, []byte(">>>>>>>")) {
		i := bytes.IndexByte(t, '\n')
		if i < 0 {
			return 0
		}
		t = bytes.TrimLeft(t[i+1:], " \t\r\n")
	}
	if len(t) == 0 || t[0] != '[' && t[0] != '{' {
		return 0
	}
	for _, k := range []string{`"benchmark"`, `"primaryMetric"`, `"jmhVersion"`} {
		if bytes.Contains(head, []byte(k)) {
			return 2
		}
	}
	return 1
}

// Summary kinds. Skipped kinds count rows left out of the table, except
// kindText and kindBadType, which count metrics or values that could not
// become rows.
const (
	kindNotNumber    = "non-numeric value"
	kindBadShape     = "unexpected JSON shape (value skipped)"
	kindBadBucket    = "malformed histogram bucket (want [value, count])"
	kindBadCount     = "invalid histogram count (want an integer ≥ 1)"
	kindNoBenchmark  = "record without benchmark name"
	kindNoMode       = "record without mode"
	kindNoPrimary    = "record without primaryMetric"
	kindDuplicate    = "duplicate record (benchmark, mode, params)"
	kindUnknownUnit  = "unknown primary unit"
	kindBothRawHist  = "primary rawData ignored (rawDataHistogram present)"
	kindText         = "text profiler result"
	kindSecNonFinite = "non-finite secondary value"
	kindDupKey       = "duplicate JSON key (first occurrence kept)"
	kindNotRecord    = "array element is not a JMH record (not an object)"
	kindBadType      = "unexpected JSON type (field ignored)"
	kindMissingFork  = "missing fork (fewer primary fork rows than forks)"
	kindExtraFork    = "more primary fork rows than forks"
	kindEmptyFork    = "empty fork (no iterations)"
	kindRagged       = "ragged primary iterations (fork rows of different lengths or ≠ measurementIterations)"
	kindRaggedSec    = "ragged secondary rawData (iteration = position; JMH leaves out iterations without a value, e.g. gc.time without a GC)"
	kindNoRawData    = "no primary raw data (rawData and rawDataHistogram absent or empty)"
	kindSecNoData    = "secondary metric without rawData"
	kindBadTime      = "unparseable warmupTime/measurementTime"
	kindMixedSetups  = "mixed setups"
	kindBadSetup     = "invalid configuration value (treated as unknown)"
)

// bad value codes stored with buffered values.
const (
	badNone uint8 = iota
	badNotNumber
	badShape
	badBucket
	badCount
)

var badKind = [...]string{"", kindNotNumber, kindBadShape, kindBadBucket, kindBadCount}

var badMsg = [...]string{
	"",
	"not a number (null, true/false, a non-numeric string or a container)",
	"expected an array here",
	"histogram bucket is not a [value, count] pair",
	"histogram count is not an integer ≥ 1",
}

var bufPool = sync.Pool{New: func() any { b := make([]byte, initialBufSize); return &b }}

// Read parses a JMH JSON result file from r and appends one canonical row
// per measured value to dst, plus one setup per record.
//
// Rows: every element of the primary metric's rawData (count 1) and every
// [value, count] bucket of its rawDataHistogram (count = bucket count), with
// fork and iteration the 1-based positions in those arrays; secondary
// metrics give further rows with Metric = MetricName(key). Instance and
// trial come from src (0 means 1), slice is 1 and warmup false: JMH JSON
// holds no warmup values (docs/formats/jmh.md, "Warmup"), so warmup is only described in
// the setup. ns_per_op is ingest.NsPerOp(unit, value, threads); primary
// values that ingest.CheckTime rejects are skipped and counted.
//
// Bad items that leave the JSON readable are counted in rep with their line
// and JSON path (see the package documentation for the list); invalid or
// truncated JSON ends the read with an *ingest.ParseError, I/O errors are
// returned wrapped. Rows of records read before such an error stay in dst.
func (format) Read(r io.Reader, src ingest.Source, dst *table.Builder, rep *ingest.Summary) error {
	return readJMH(r, src, dst, dst, rep)
}

// readJMH is Read with the row sink separate from the builder that takes the
// setups, so that benchmarks can measure parsing without table.Builder.
func readJMH(r io.Reader, src ingest.Source, dst *table.Builder, sink rowSink, rep *ingest.Summary) error {
	bp := bufPool.Get().(*[]byte)
	s := newScanner(r, src.File, *bp)
	defer func() {
		if cap(s.buf) <= 4*initialBufSize {
			*bp = s.buf
			bufPool.Put(bp)
		}
	}()
	rp := &reporter{rep: rep, examples: map[string]int{}}
	em := &emitter{reporter: rp, file: s.file, src: src, dst: dst, sink: sink, names: ingest.Names{Rep: rep}}
	rd := newRecordReader(s, rp)
	for rd.Scan() {
		if err := em.emit(rd.Record()); err != nil {
			return err
		}
	}
	return rd.Err()
}

// reporter counts bad items in the Summary, formatting the places of only
// the first few of each kind.
type reporter struct {
	rep      *ingest.Summary
	examples map[string]int
}

// wantExample reports whether the Summary can still keep an example of kind
// from this read, so that paths are only formatted for kept examples.
func (r *reporter) wantExample(kind string) bool {
	n := r.examples[kind]
	r.examples[kind] = n + 1
	return n < ingest.MaxExamples
}

func (r *reporter) skip(kind string, n int, pe *ingest.ParseError) {
	if !r.wantExample(kind) {
		pe = nil
	}
	r.rep.Skip(kind, n, pe)
}
