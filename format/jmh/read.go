package jmh

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/table"
)

// Format reads JMH JSON result files (java -jar benchmarks.jar -rf json).
// The zero value is ready to use.
type Format struct{}

var _ ingest.Format = Format{}

// Name is "jmh".
func (Format) Name() string { return "jmh" }

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// Sniff reports whether head looks like a JMH result file: after an
// optional UTF-8 byte order mark and white space it is a JSON array that is
// either empty or whose first element is an object, and head mentions
// "benchmark" or "primaryMetric".
func (Format) Sniff(head []byte) bool {
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
func (Format) Likely(head []byte) int {
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

// Report kinds. Skipped kinds count rows left out of the table, except
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

// value is one buffered number of a record: an element of rawData or one
// [value, count] bucket of rawDataHistogram.
type value struct {
	v      float64
	count  int64
	line   int64
	fork   int32 // 1-based
	iter   int32 // 1-based; 0 for a malformed fork row
	bucket int32 // 0-based bucket index in the iteration; -1 outside histograms
	bad    uint8
}

type span struct{ start, end int }

// metric is a buffered metric object (primaryMetric or a secondaryMetrics entry).
type metric struct {
	key      string // key as written ("" for the primary)
	line     int
	invalid  bool // not an object
	unit     string
	hasUnit  bool
	hasRaw   bool
	hasHist  bool
	rawLine  int
	histLine int
	raw      span
	hist     span
	// rawRows[f] is the number of values in fork row f of rawData;
	// histRows[f] the number of iterations in fork f of rawDataHistogram.
	rawRows, histRows []int32
}

func (m *metric) reset(key string, line int) {
	*m = metric{key: key, line: line, rawRows: m.rawRows[:0], histRows: m.histRows[:0]}
}

// record is one array element being read.
type record struct {
	index, line int
	seen        uint64 // record keys already read

	benchmark, mode, jmhVersion                             string
	threads, forks, warmupIterations, measurementIterations int
	warmupBatchSize, measurementBatchSize                   int
	hasForks, hasThreads                                    bool // a number was read
	warmupTime, measurementTime                             string
	warmupTimeLine, measurementTimeLine                     int
	jvm, jdkVersion, vmName, vmVersion                      string
	jvmArgs                                                 []string
	params                                                  map[string]string
	// lines[k] is the line of record member k (recordKey), 0 when absent.
	lines      [numRecordKeys]int
	hasPrimary bool
	primary    metric
	secondary  []metric
	vals       []value
}

func (r *record) reset(index, line int) {
	sec := r.secondary[:0]
	*r = record{index: index, line: line, primary: r.primary, secondary: sec, vals: r.vals[:0], jvmArgs: r.jvmArgs[:0]}
	r.primary.reset("", 0)
}

func (r *record) addSecondary(key string, line int) *metric {
	if len(r.secondary) < cap(r.secondary) {
		r.secondary = r.secondary[:len(r.secondary)+1]
	} else {
		r.secondary = append(r.secondary, metric{})
	}
	m := &r.secondary[len(r.secondary)-1]
	m.reset(key, line)
	return m
}

// firstRun is where the record of a run was read: 1 + its index in the
// array (0 for no record yet) and its line.
type firstRun struct{ index1, line int }

// reader holds the state of one Read.
type reader struct {
	s        *scanner
	src      ingest.Source
	dst      *table.Builder
	sink     rowSink // dst
	vals     table.Values
	valIdx   []int // the rec.vals index of each row in vals
	rep      *ingest.Report
	examples map[string]int
	seen     []firstRun // by run number (dst.RunIDs)
	rec      record
	names    ingest.Names
}

// rowSink takes the reader's rows: the table.Builder, or a counter when a
// benchmark measures parsing alone.
type rowSink interface {
	AppendValues(*table.Row, *table.Values) (int, error)
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
func (Format) Read(r io.Reader, src ingest.Source, dst *table.Builder, rep *ingest.Report) error {
	return readJMH(r, src, dst, dst, rep)
}

// readJMH is Read with the row sink separate from the builder that takes the
// setups, so that benchmarks can measure parsing without table.Builder.
func readJMH(r io.Reader, src ingest.Source, dst *table.Builder, sink rowSink, rep *ingest.Report) error {
	bp := bufPool.Get().(*[]byte)
	rd := &reader{
		s:        newScanner(r, src.File, *bp),
		src:      src,
		dst:      dst,
		sink:     sink,
		rep:      rep,
		examples: map[string]int{},
		names:    ingest.Names{Rep: rep},
	}
	err := rd.run()
	if cap(rd.s.buf) <= 4*initialBufSize {
		*bp = rd.s.buf
		bufPool.Put(bp)
	}
	return err
}

func (rd *reader) run() error {
	s := rd.s
	s.ensure(3)
	if bytes.HasPrefix(s.buf[s.pos:s.end], utf8BOM) {
		s.pos += 3
	}
	c, ok := s.skipWS()
	if !ok {
		if s.ioErr != nil {
			return s.readErr()
		}
		if s.total == 0 {
			return &ingest.ParseError{File: s.file, Msg: "empty file (JMH touches the result file before running; the run was probably aborted)"}
		}
		return &ingest.ParseError{File: s.file, Msg: "file holds only white space (JMH touches the result file before running; the run was probably aborted)"}
	}
	if c == '{' {
		return s.errf("the top level is an object; a JMH result file (-rf json) is an array of runs")
	}
	if c != '[' {
		return s.unexpected(c, "'[' (a JMH result file is a JSON array)")
	}
	s.pos++
	s.pushIdx(0)
	for i := 0; ; i++ {
		more, err := s.next(i, ']')
		if err != nil {
			return err
		}
		if !more {
			break
		}
		s.setIdx(i)
		if err := rd.parseRecord(i); err != nil {
			return err
		}
	}
	s.pop()
	if c, ok := s.skipWS(); ok {
		return s.unexpected(c, "the end of the file after the top-level array")
	}
	if s.ioErr != nil {
		return s.readErr()
	}
	return nil
}

// Record member keys the reader interprets.
const (
	rkUnknown = iota
	rkJmhVersion
	rkBenchmark
	rkMode
	rkThreads
	rkForks
	rkJvm
	rkJvmArgs
	rkJdkVersion
	rkVmName
	rkVmVersion
	rkWarmupIterations
	rkWarmupTime
	rkWarmupBatchSize
	rkMeasurementIterations
	rkMeasurementTime
	rkMeasurementBatchSize
	rkParams
	rkPrimaryMetric
	rkSecondaryMetrics
	numRecordKeys
)

var recordKeyNames = [numRecordKeys]string{
	"", "jmhVersion", "benchmark", "mode", "threads", "forks", "jvm", "jvmArgs", "jdkVersion",
	"vmName", "vmVersion", "warmupIterations", "warmupTime", "warmupBatchSize",
	"measurementIterations", "measurementTime", "measurementBatchSize", "params",
	"primaryMetric", "secondaryMetrics",
}

func recordKey(b []byte) int {
	switch string(b) {
	case "jmhVersion":
		return rkJmhVersion
	case "benchmark":
		return rkBenchmark
	case "mode":
		return rkMode
	case "threads":
		return rkThreads
	case "forks":
		return rkForks
	case "jvm":
		return rkJvm
	case "jvmArgs":
		return rkJvmArgs
	case "jdkVersion":
		return rkJdkVersion
	case "vmName":
		return rkVmName
	case "vmVersion":
		return rkVmVersion
	case "warmupIterations":
		return rkWarmupIterations
	case "warmupTime":
		return rkWarmupTime
	case "warmupBatchSize":
		return rkWarmupBatchSize
	case "measurementIterations":
		return rkMeasurementIterations
	case "measurementTime":
		return rkMeasurementTime
	case "measurementBatchSize":
		return rkMeasurementBatchSize
	case "params":
		return rkParams
	case "primaryMetric":
		return rkPrimaryMetric
	case "secondaryMetrics":
		return rkSecondaryMetrics
	}
	return rkUnknown
}

// memberName reads an object member name and the ':' after it, returning
// the name as a string (for the path) and its id among known.
func (rd *reader) memberName(classify func([]byte) int, names []string) (id int, name string, err error) {
	kb, err := rd.s.key()
	if err != nil {
		return 0, "", err
	}
	id = classify(kb)
	if id != 0 {
		name = names[id]
	} else {
		name = string(kb) // as written; cleaned where it is stored
	}
	return id, name, rd.s.expect(':')
}

func (rd *reader) parseRecord(i int) error {
	s := rd.s
	c, ok := s.skipWS()
	if !ok {
		return s.eofErr("")
	}
	rec := &rd.rec
	rec.reset(i, s.line)
	if c != '{' {
		rd.skip(kindNotRecord, 1, rd.here("%s where a record object belongs", describeByte(c)))
		return s.skipValue()
	}
	s.pos++
	for k := 0; ; k++ {
		more, err := s.next(k, '}')
		if err != nil {
			return err
		}
		if !more {
			break
		}
		id, name, err := rd.memberName(recordKey, recordKeyNames[:])
		if err != nil {
			return err
		}
		s.pushKey(name)
		if id != rkUnknown && rec.seen&(1<<id) != 0 {
			rd.skip(kindDupKey, 1, rd.here("duplicate member %q; the first one is used", name))
			err = s.skipValue()
		} else {
			rec.seen |= 1 << id
			rec.lines[id] = s.line
			err = rd.recordMember(id)
		}
		if err != nil {
			return err
		}
		s.pop()
	}
	return rd.emit()
}

// here is a ParseError at the scanner's line and path; it must not be
// called when the scanner holds an I/O error.
func (rd *reader) here(format string, args ...any) *ingest.ParseError {
	s := rd.s
	return &ingest.ParseError{File: s.file, Line: s.line, Path: s.pathString(), Msg: fmt.Sprintf(format, args...)}
}

func (rd *reader) recordMember(id int) error {
	rec := &rd.rec
	s := rd.s
	switch id {
	case rkJmhVersion:
		return rd.stringField(&rec.jmhVersion)
	case rkBenchmark:
		return rd.stringField(&rec.benchmark)
	case rkMode:
		return rd.stringField(&rec.mode)
	case rkThreads:
		return rd.intField(&rec.threads, &rec.hasThreads)
	case rkForks:
		return rd.intField(&rec.forks, &rec.hasForks)
	case rkJvm:
		return rd.stringField(&rec.jvm)
	case rkJdkVersion:
		return rd.stringField(&rec.jdkVersion)
	case rkVmName:
		return rd.stringField(&rec.vmName)
	case rkVmVersion:
		return rd.stringField(&rec.vmVersion)
	case rkWarmupIterations:
		return rd.intField(&rec.warmupIterations, nil)
	case rkWarmupBatchSize:
		return rd.intField(&rec.warmupBatchSize, nil)
	case rkMeasurementIterations:
		return rd.intField(&rec.measurementIterations, nil)
	case rkMeasurementBatchSize:
		return rd.intField(&rec.measurementBatchSize, nil)
	case rkWarmupTime:
		rec.warmupTimeLine = s.line
		return rd.stringField(&rec.warmupTime)
	case rkMeasurementTime:
		rec.measurementTimeLine = s.line
		return rd.stringField(&rec.measurementTime)
	case rkJvmArgs:
		return rd.jvmArgs()
	case rkParams:
		return rd.params()
	case rkPrimaryMetric:
		rec.hasPrimary = true
		rec.primary.reset("", s.line)
		return rd.parseMetric(&rec.primary)
	case rkSecondaryMetrics:
		return rd.secondaryMetrics()
	}
	return s.skipValue()
}

// scalarText reads a string, number or literal and returns its text; ok is
// false (and the value is skipped) for containers.
func (rd *reader) scalarText() (text string, isNull, ok bool, err error) {
	s := rd.s
	c, more := s.skipWS()
	if !more {
		return "", false, false, s.eofErr("")
	}
	switch {
	case c == '"':
		t, err := s.str()
		return t, false, true, err
	case c == '-' || c == '+' || c >= '0' && c <= '9':
		b := s.numberBytes()
		if _, ok := parseNumber(b); !ok {
			return "", false, false, s.errf("invalid number %q", b)
		}
		return string(b), false, true, nil
	case c == 't' || c == 'f' || c == 'n':
		w := s.literal()
		switch string(w) {
		case "true", "false":
			return string(w), false, true, nil
		case "null":
			return "", true, true, nil
		}
		return "", false, false, s.errf("invalid literal %q", w)
	}
	return "", false, false, s.skipValue()
}

// stringField reads a string member; null leaves dst unchanged, other
// scalars are taken as their text, containers are ignored and counted.
func (rd *reader) stringField(dst *string) error {
	line := rd.s.line
	t, isNull, ok, err := rd.scalarText()
	if err != nil {
		return err
	}
	if !ok {
		rd.warnType(line, "want a string")
		return nil
	}
	if !isNull {
		*dst = t
	}
	return nil
}

// intField reads an integer member (also accepting an integral number
// written as a string, as hand-made files do); set, when not nil, reports
// whether a number was stored (not for null or a value of another type).
func (rd *reader) intField(dst *int, set *bool) error {
	line := rd.s.line
	t, isNull, ok, err := rd.scalarText()
	if err != nil {
		return err
	}
	if isNull {
		return nil
	}
	if ok {
		if n, ok2 := parseInt([]byte(strings.TrimSpace(t))); ok2 && n >= math.MinInt32 && n <= math.MaxInt32 {
			*dst = int(n)
			if set != nil {
				*set = true
			}
			return nil
		}
	}
	rd.warnType(line, "want an integer")
	return nil
}

func (rd *reader) warnType(line int, msg string) {
	s := rd.s
	rd.rep.Skip(kindBadType, 1, &ingest.ParseError{File: s.file, Line: line, Path: s.pathString(), Msg: msg})
}

func (rd *reader) jvmArgs() error {
	rec := &rd.rec
	return rd.arrayOf(func(line int) { rd.warnType(line, "want an array of strings") }, func(int) error {
		line := rd.s.line
		t, isNull, ok, err := rd.scalarText()
		if err != nil {
			return err
		}
		if !ok {
			rd.warnType(line, "want a string")
		} else if !isNull {
			rec.jvmArgs = append(rec.jvmArgs, t)
		}
		return nil
	})
}

func (rd *reader) params() error {
	s := rd.s
	rec := &rd.rec
	c, ok := s.skipWS()
	if !ok {
		return s.eofErr("")
	}
	if c != '{' {
		if c == 'n' {
			_, _, _, err := rd.scalarText() // null: no params
			return err
		}
		rd.warnType(s.line, "want an object of string values")
		return s.skipValue()
	}
	s.pos++
	rec.params = map[string]string{}
	for i := 0; ; i++ {
		more, err := s.next(i, '}')
		if err != nil {
			return err
		}
		if !more {
			break
		}
		_, name, err := rd.memberName(func([]byte) int { return 0 }, nil)
		if err != nil {
			return err
		}
		s.pushKey(name)
		line := s.line
		t, _, ok, err := rd.scalarText()
		if err != nil {
			return err
		}
		if !ok {
			rd.warnType(line, "want a string")
		} else {
			if _, dup := rec.params[name]; dup {
				rd.skip(kindDupKey, 1, rd.here("duplicate param %q; the first one is used", name))
			} else {
				rec.params[name] = t
			}
		}
		s.pop()
	}
	return nil
}

func (rd *reader) secondaryMetrics() error {
	s := rd.s
	rec := &rd.rec
	c, ok := s.skipWS()
	if !ok {
		return s.eofErr("")
	}
	if c != '{' {
		if c == 'n' {
			_, _, _, err := rd.scalarText()
			return err
		}
		rd.warnType(s.line, "want an object of metrics")
		return s.skipValue()
	}
	s.pos++
	for i := 0; ; i++ {
		more, err := s.next(i, '}')
		if err != nil {
			return err
		}
		if !more {
			break
		}
		_, name, err := rd.memberName(func([]byte) int { return 0 }, nil)
		if err != nil {
			return err
		}
		s.pushKey(name)
		dup := false
		for j := range rec.secondary {
			if rec.secondary[j].key == name {
				dup = true
			}
		}
		if dup {
			rd.skip(kindDupKey, 1, rd.here("duplicate secondary metric %q; the first one is used", name))
			err = s.skipValue()
		} else {
			err = rd.parseMetric(rec.addSecondary(name, s.line))
		}
		if err != nil {
			return err
		}
		s.pop()
	}
	return nil
}

// Metric member keys.
const (
	mkUnknown = iota
	mkScoreUnit
	mkRawData
	mkRawDataHistogram
)

var metricKeyNames = []string{"", "scoreUnit", "rawData", "rawDataHistogram"}

func metricKey(b []byte) int {
	switch string(b) {
	case "scoreUnit":
		return mkScoreUnit
	case "rawData":
		return mkRawData
	case "rawDataHistogram":
		return mkRawDataHistogram
	}
	return mkUnknown
}

func (rd *reader) parseMetric(m *metric) error {
	s := rd.s
	c, ok := s.skipWS()
	if !ok {
		return s.eofErr("")
	}
	m.line = s.line
	if c != '{' {
		m.invalid = true
		rd.warnType(s.line, "want a metric object")
		return s.skipValue()
	}
	s.pos++
	var seen [4]bool
	for i := 0; ; i++ {
		more, err := s.next(i, '}')
		if err != nil {
			return err
		}
		if !more {
			break
		}
		id, name, err := rd.memberName(metricKey, metricKeyNames)
		if err != nil {
			return err
		}
		s.pushKey(name)
		switch {
		case id != mkUnknown && seen[id]:
			rd.skip(kindDupKey, 1, rd.here("duplicate member %q; the first one is used", name))
			err = s.skipValue()
		case id == mkScoreUnit:
			seen[id] = true
			line := s.line
			var isNull, ok bool
			m.unit, isNull, ok, err = rd.scalarText()
			m.hasUnit = ok && !isNull
			if err == nil && !ok {
				rd.warnType(line, "want a string")
			}
		case id == mkRawData:
			seen[id] = true
			err = rd.rawData(m)
		case id == mkRawDataHistogram:
			seen[id] = true
			err = rd.histogram(m)
		default:
			err = s.skipValue()
		}
		if err != nil {
			return err
		}
		s.pop()
	}
	return nil
}

// readFloat reads a number in a value position: a JSON number, a string
// holding a number or "NaN", "+INF", "-INF", "Infinity"… (how JMH writes
// non-finite doubles), or the bare words NaN and Infinity. Valid JSON of
// another kind (null, booleans, other strings, containers) gives bad =
// badNotNumber; invalid JSON is an error.
func (rd *reader) readFloat() (v float64, bad uint8, line int, err error) {
	s := rd.s
	c, ok := s.skipWS()
	if !ok {
		return 0, 0, s.line, s.eofErr("")
	}
	line = s.line
	switch {
	case c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.':
		b := s.numberBytes()
		if v, ok := parseNumber(b); ok {
			return v, badNone, line, nil
		}
		if len(b) == 1 && (b[0] == '-' || b[0] == '+') {
			// A sign before a bare NaN/Infinity (lenient). b aliases the
			// buffer, which ensure may move.
			sign := b[0]
			s.ensure(1)
			if s.pos < s.end && (s.buf[s.pos] == 'I' || s.buf[s.pos] == 'N') {
				w := s.literal()
				if v, ok := parseSpecial(sign, w); ok {
					return v, badNone, line, nil
				}
				return 0, 0, line, s.errf("invalid literal %q", string(sign)+string(w))
			}
			return 0, 0, line, s.errf("invalid number %q", string(sign))
		}
		return 0, 0, line, s.errf("invalid number %q", b)
	case c == '"':
		b, err := s.stringBytes()
		if err != nil {
			return 0, 0, line, err
		}
		if v, ok := parseNumber(bytes.TrimSpace(b)); ok {
			return v, badNone, line, nil
		}
		if v, ok := parseSpecial('+', bytes.TrimSpace(b)); ok {
			return v, badNone, line, nil
		}
		return 0, badNotNumber, line, nil
	case c == 'N' || c == 'I':
		w := s.literal()
		if v, ok := parseSpecial('+', w); ok {
			return v, badNone, line, nil
		}
		return 0, 0, line, s.errf("invalid literal %q", w)
	case c == 'n' || c == 't' || c == 'f':
		w := s.literal()
		switch string(w) {
		case "null", "true", "false":
			return 0, badNotNumber, line, nil
		}
		return 0, 0, line, s.errf("invalid literal %q", w)
	case c == '[' || c == '{':
		return 0, badNotNumber, line, s.skipValue()
	}
	return 0, 0, line, s.unexpected(c, "a number")
}

// parseSpecial parses the non-finite spellings NaN, INF, Inf, Infinity
// (case-insensitive, optionally signed; sign applies when w has none).
func parseSpecial(sign byte, w []byte) (float64, bool) {
	if len(w) > 0 && (w[0] == '+' || w[0] == '-') {
		sign, w = w[0], w[1:]
	}
	switch strings.ToLower(string(w)) {
	case "nan":
		return math.NaN(), true
	case "inf", "infinity":
		if sign == '-' {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	return 0, false
}

// rawData reads forks × iterations of numbers.
func (rd *reader) rawData(m *metric) error {
	m.hasRaw = true
	return rd.forkIterations(&m.raw, &m.rawLine, &m.rawRows, func(fork, iter int32) error {
		v, bad, line, err := rd.readFloat()
		if err != nil {
			return err
		}
		rd.rec.addVal(value{v: v, count: 1, line: int64(line), fork: fork, iter: iter, bucket: -1, bad: bad})
		return nil
	})
}

// histogram reads forks × iterations × [value, count] buckets.
func (rd *reader) histogram(m *metric) error {
	m.hasHist = true
	return rd.forkIterations(&m.hist, &m.histLine, &m.histRows, rd.histIteration)
}

// forkIterations walks the forks × iterations array shape shared by
// rawData and rawDataHistogram, calling elem for each iteration element
// (1-based fork and iteration) to read it. It records the array's line, the
// span of values appended meanwhile, and each fork row's length; a value
// that is not an array (the whole or a fork row) is recorded as one
// badShape value and skipped.
func (rd *reader) forkIterations(dst *span, line *int, rows *[]int32, elem func(fork, iter int32) error) error {
	rec := &rd.rec
	if _, ok := rd.s.skipWS(); !ok {
		return rd.s.eofErr("")
	}
	*line = rd.s.line
	dst.start = len(rec.vals)
	defer func() { dst.end = len(rec.vals) }()
	return rd.arrayOf(func(line int) {
		rec.addVal(value{line: int64(line), bucket: -1, bad: badShape})
	}, func(f int) error {
		fork := int32(f + 1)
		iterations := int32(0)
		err := rd.arrayOf(func(line int) {
			rec.addVal(value{line: int64(line), fork: fork, bucket: -1, bad: badShape})
		}, func(it int) error {
			iterations++
			return elem(fork, int32(it+1))
		})
		*rows = append(*rows, iterations)
		return err
	})
}

// addVal appends v to r.vals; within capacity by reslicing, so that the
// compiler writes no slice pointer (no GC write barrier per value).
func (r *record) addVal(v value) {
	if n := len(r.vals); n < cap(r.vals) {
		r.vals = r.vals[:n+1]
		r.vals[n] = v
		return
	}
	r.vals = append(r.vals, v)
}

// arrayOf reads one JSON value that should be an array, calling elem with
// the 0-based index of each element (the JSON path index set) to read it.
// A value that is not an array is reported to notArray with its line and
// skipped.
func (rd *reader) arrayOf(notArray func(line int), elem func(i int) error) error {
	s := rd.s
	c, ok := s.skipWS()
	if !ok {
		return s.eofErr("")
	}
	if c != '[' {
		notArray(s.line)
		return s.skipValue()
	}
	s.pos++
	s.pushIdx(0)
	for i := 0; ; i++ {
		more, err := s.next(i, ']')
		if err != nil {
			return err
		}
		if !more {
			break
		}
		s.setIdx(i)
		if err := elem(i); err != nil {
			return err
		}
	}
	s.pop()
	return nil
}

// histIteration reads the buckets of one iteration: [value, count] pairs.
func (rd *reader) histIteration(fork, iter int32) error {
	s := rd.s
	rec := &rd.rec
	badValue := func(line, b int, bad uint8) {
		rec.addVal(value{line: int64(line), fork: fork, iter: iter, bucket: int32(b), bad: bad})
	}
	return rd.arrayOf(func(line int) { badValue(line, -1, badShape) }, func(b int) error {
		c, ok := s.skipWS()
		if !ok {
			return s.eofErr("")
		}
		if c != '[' {
			badValue(s.line, b, badBucket)
			return s.skipValue()
		}
		s.pos++
		if d, ok := s.skipWS(); ok && d == ']' {
			s.pos++
			badValue(s.line, b, badBucket)
			return nil
		}
		s.pushIdx(0)
		v, bad, line, err := rd.readFloat()
		if err != nil {
			return err
		}
		count, cbad, err := rd.bucketCount()
		if err != nil {
			return err
		}
		if bad == badNone {
			bad = cbad
		}
		s.pop()
		rec.addVal(value{v: v, count: count, line: int64(line), fork: fork, iter: iter, bucket: int32(b), bad: bad})
		return nil
	})
}

// bucketCount reads ", count ]" after a bucket's value. A bucket with
// fewer or more than two elements, or a count that is not an integer ≥ 1,
// gives a bad code; the bucket is consumed either way.
func (rd *reader) bucketCount() (count int64, bad uint8, err error) {
	s := rd.s
	s.setIdx(1)
	more, err := s.next(1, ']')
	if err != nil || !more {
		return 0, badBucket, err
	}
	c, ok := s.skipWS()
	if !ok {
		return 0, 0, s.eofErr("")
	}
	switch {
	case c >= '0' && c <= '9':
		b := s.numberBytes()
		n, ok := parseInt(b)
		if !ok {
			if _, valid := parseNumber(b); !valid {
				return 0, 0, s.errf("invalid number %q", b)
			}
			bad = badCount
		} else if n < 1 {
			bad = badCount
		}
		count = n
	default:
		// Negative, a string, a literal or a container: not a count.
		if _, _, _, err := rd.readFloat(); err != nil {
			return 0, 0, err
		}
		bad = badCount
	}
	for i := 2; ; i++ {
		more, err := s.next(i, ']')
		if err != nil {
			return 0, 0, err
		}
		if !more {
			return count, bad, nil
		}
		s.setIdx(i)
		bad = badBucket
		if err := s.skipValue(); err != nil {
			return 0, 0, err
		}
	}
}

// emit turns the buffered record into setup and rows.
func (rd *reader) emit() error {
	rec := &rd.rec
	s := rd.s
	recPath := "$[" + strconv.Itoa(rec.index) + "]"
	source := s.file + ":" + recPath
	total := len(rec.vals)
	recErr := func(path, format string, args ...any) *ingest.ParseError {
		return &ingest.ParseError{File: s.file, Line: rec.line, Path: recPath + path, Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case rec.benchmark == "":
		rd.skip(kindNoBenchmark, total, recErr("", "no \"benchmark\" member; record skipped"))
		return nil
	case rec.mode == "":
		rd.skip(kindNoMode, total, recErr("", "no \"mode\" member; record skipped"))
		return nil
	case !rec.hasPrimary || rec.primary.invalid:
		rd.skip(kindNoPrimary, total, recErr("", "no usable \"primaryMetric\"; record skipped"))
		return nil
	}
	mode, ok := ingest.Mode(rec.mode)
	if !ok || mode == "go" {
		rd.skip(ingest.KindUnknownMode, total, &ingest.ParseError{File: s.file, Line: rec.lines[rkMode], Path: recPath + ".mode",
			Msg: fmt.Sprintf("mode %q is not a JMH mode (thrpt, avgt, sample, ss); record skipped", rec.mode)})
		return nil
	}
	rec.mode = mode
	p := &rec.primary
	unitKind, unitNs := ingest.ClassifyUnit(p.unit)
	if unitKind == ingest.UnitOther {
		msg := fmt.Sprintf("unknown primary unit %q: cannot normalise to ns/op (want <time>/op or ops/<time>); record skipped", p.unit)
		if !p.hasUnit {
			msg = "primary metric without scoreUnit; record skipped"
		}
		rd.skip(kindUnknownUnit, total, &ingest.ParseError{File: s.file, Line: p.line, Path: recPath + ".primaryMetric.scoreUnit", Msg: msg})
		return nil
	}
	rd.cleanNames(recPath)
	rd.checkSetupValues(recPath)
	params := table.CanonicalParams(rec.params)
	row := table.Row{
		Project:   rd.src.Project,
		Version:   rd.src.Version,
		Benchmark: rec.benchmark,
		Params:    params,
		Mode:      rec.mode,
		Metric:    table.Primary,
		Unit:      p.unit,
		Instance:  rd.src.Instance,
		Trial:     rd.src.Trial,
		Slice:     1,
		Source:    source,
	}
	if err := table.CheckRow(&row); err != nil {
		rd.skip(ingest.RejectKind(err), total, recErr("", "%v; record skipped", err))
		return nil
	}
	// The records read so far by run number (the Builder's, which its
	// setups share): a map of keys would cost 100 bytes more a record.
	id, _ := rd.dst.RunIDs().IDKeep(table.Key{Project: row.Project, Version: row.Version, Benchmark: rec.benchmark, Params: params, Mode: rec.mode})
	for int(id) >= len(rd.seen) {
		rd.seen = append(rd.seen, firstRun{})
	}
	if first := rd.seen[id]; first.index1 > 0 {
		rd.skip(kindDuplicate, total, recErr("", "same benchmark, mode and params as $[%d] (line %d); JMH writes each once, so this record was skipped", first.index1-1, first.line))
		return nil
	}
	rd.seen[id] = firstRun{rec.index + 1, rec.line}

	rd.addSetup(params, source, recPath)

	// The primary's values: the histogram when there is one.
	data, rows, dataName, dataLine := p.raw, p.rawRows, "rawData", p.rawLine
	if p.hasHist {
		if p.hasRaw && p.raw.end > p.raw.start {
			rd.skip(kindBothRawHist, p.raw.end-p.raw.start, &ingest.ParseError{File: s.file, Line: p.rawLine, Path: recPath + ".primaryMetric.rawData", Msg: "rawData and rawDataHistogram both present; kept the histogram"})
		}
		data, rows, dataName, dataLine = p.hist, p.histRows, "rawDataHistogram", p.histLine
	}
	dataPath := recPath + ".primaryMetric." + dataName
	if !p.hasRaw && !p.hasHist {
		rd.rep.Warn(kindNoRawData, &ingest.ParseError{File: s.file, Line: p.line, Path: recPath + ".primaryMetric",
			Msg: fmt.Sprintf("neither rawData nor rawDataHistogram (mode %s); the record has no primary rows", rec.mode)})
	} else {
		rd.checkPrimaryShape(rows, dataPath, dataLine)
	}

	conv := nsConverter{kind: unitKind, ns: unitNs, threads: rec.threads}
	rd.vals.Reset()
	rd.valIdx = rd.valIdx[:0]
	for i := data.start; i < data.end; i++ {
		v := &rec.vals[i]
		if v.bad != badNone {
			rd.skipBad(v, dataPath)
			continue
		}
		ns := conv.nsPerOp(v.v)
		if reason, ok := ingest.CheckTime(rec.mode, ns); !ok {
			if rd.wantExample(reason) {
				rd.rep.Skip(reason, 1, &ingest.ParseError{File: s.file, Line: int(v.line), Path: dataPath + v.indexPath(), Msg: fmt.Sprintf("%s: %v %s", reason, v.v, p.unit)})
			} else {
				rd.rep.Skip(reason, 1, nil)
			}
			continue
		}
		rd.addValue(i, ns)
	}
	if err := rd.appendValues(&row, dataPath); err != nil {
		return err
	}

	for j := range rec.secondary {
		if err := rd.emitSecondary(&rec.secondary[j], &row, recPath, rows); err != nil {
			return err
		}
	}
	return nil
}

// cleanNames cleans the record's benchmark name and params
// (ingest.CleanName), warning once per distinct name changed.
func (rd *reader) cleanNames(recPath string) {
	rec := &rd.rec
	rec.benchmark = rd.names.Clean(rec.benchmark, "benchmark", rd.memberPlace(recPath, rkBenchmark))
	dirty := false
	for k, v := range rec.params {
		if _, b, c := ingest.CleanName(k); b || c {
			dirty = true
		} else if _, b, c := ingest.CleanName(v); b || c {
			dirty = true
		}
	}
	if !dirty {
		return
	}
	keys := make([]string, 0, len(rec.params))
	for k := range rec.params {
		keys = append(keys, k)
	}
	slices.Sort(keys) // warnings in a fixed order
	clean := make(map[string]string, len(keys))
	for _, k := range keys {
		at := rd.memberPlace(recPath, rkParams)
		at.Path += formatPath([]pathElem{{key: k, idx: -1}})[1:]
		clean[rd.names.Clean(k, "param name", at)] = rd.names.Clean(rec.params[k], "param value", at)
	}
	rec.params = clean
}

// memberPlace is the place of record member k (its line and path).
func (rd *reader) memberPlace(recPath string, k int) ingest.ParseError {
	line := rd.rec.lines[k]
	if line == 0 {
		line = rd.rec.line
	}
	return ingest.ParseError{File: rd.s.file, Line: line, Path: recPath + "." + recordKeyNames[k]}
}

// checkSetupValues reports configuration members that no JMH run can have
// (threads < 1, forks < 0, negative iteration counts or batch sizes) and
// treats them as unknown (0 in the setup; one thread when normalising
// ops/time).
func (rd *reader) checkSetupValues(recPath string) {
	rec := &rd.rec
	warn := func(k, v int, want string) {
		at := rd.memberPlace(recPath, k)
		at.Msg = fmt.Sprintf("%s = %d, want %s; treated as unknown", recordKeyNames[k], v, want)
		if k == rkThreads {
			at.Msg += " (ops/time values are normalised as one thread)"
		}
		rd.rep.Warn(kindBadSetup, &at)
	}
	if rec.hasThreads && rec.threads < 1 {
		warn(rkThreads, rec.threads, "≥ 1")
		rec.threads, rec.hasThreads = 0, false
	}
	if rec.hasForks && rec.forks < 0 {
		warn(rkForks, rec.forks, "≥ 0 (0 runs in the host VM)")
		rec.forks, rec.hasForks = 0, false
	}
	for _, f := range []struct {
		k int
		v *int
	}{{rkWarmupIterations, &rec.warmupIterations}, {rkMeasurementIterations, &rec.measurementIterations},
		{rkWarmupBatchSize, &rec.warmupBatchSize}, {rkMeasurementBatchSize, &rec.measurementBatchSize}} {
		if *f.v < 0 {
			warn(f.k, *f.v, "≥ 0")
			*f.v = 0
		}
	}
}

// checkPrimaryShape reports missing, extra and empty forks and ragged
// iterations of the primary metric.
func (rd *reader) checkPrimaryShape(rows []int32, dataPath string, dataLine int) {
	rec := &rd.rec
	s := rd.s
	at := func(path, format string, args ...any) *ingest.ParseError {
		return &ingest.ParseError{File: s.file, Line: dataLine, Path: dataPath + path, Msg: fmt.Sprintf(format, args...)}
	}
	if len(rows) == 0 {
		rd.rep.Warn(kindNoRawData, at("", "empty: no fork rows (JMH writes [ ] with -Djmh.json.rawData=false); the record has no primary rows"))
		return
	}
	if rec.hasForks {
		want := rec.forks
		if want == 0 {
			want = 1 // forks 0: the benchmark ran in the host VM, one row
		}
		switch {
		case len(rows) < want:
			rd.rep.Warn(kindMissingFork, at("", "forks = %d but %d fork rows; fork numbers are positions in the array", rec.forks, len(rows)))
		case len(rows) > want && rec.forks > 0:
			rd.rep.Warn(kindExtraFork, at("", "forks = %d but %d fork rows", rec.forks, len(rows)))
		}
	}
	want := int32(rec.measurementIterations)
	if want <= 0 {
		want = slices.Max(rows)
	}
	ragged := false
	for f, n := range rows {
		if n == 0 {
			rd.rep.Warn(kindEmptyFork, at("["+strconv.Itoa(f)+"]", "fork %d has no iterations", f+1))
			continue
		}
		if n != want {
			ragged = true
		}
	}
	if ragged {
		lens := make([]string, len(rows))
		for i, n := range rows {
			lens[i] = strconv.Itoa(int(n))
		}
		rd.rep.Warn(kindRagged, at("", "fork rows have %s iterations (measurementIterations = %d)", strings.Join(lens, ", "), rec.measurementIterations))
	}
}

// emitSecondary appends the rows of secondary metric m; it returns an error
// only when the table refuses a row that passed the metric's check.
func (rd *reader) emitSecondary(m *metric, row *table.Row, recPath string, primaryRows []int32) error {
	rec := &rd.rec
	s := rd.s
	path := recPath + ".secondaryMetrics" + formatPath([]pathElem{{key: m.key, idx: -1}})[1:]
	if m.invalid {
		return nil // counted when read
	}
	data, rows, dataName, dataLine := m.raw, m.rawRows, ".rawData", m.rawLine
	if m.hasHist {
		if m.hasRaw && m.raw.end > m.raw.start {
			rd.skip(kindBothRawHist, m.raw.end-m.raw.start, &ingest.ParseError{File: s.file, Line: m.rawLine, Path: path + ".rawData", Msg: "rawData and rawDataHistogram both present; kept the histogram"})
		}
		data, rows, dataName, dataLine = m.hist, m.histRows, ".rawDataHistogram", m.histLine
	}
	if m.unit == "---" && data.end == data.start {
		rd.skip(kindText, 1, &ingest.ParseError{File: s.file, Line: m.line, Path: path, Msg: "text result of a profiler (unit \"---\", empty rawData); its text is not in the JSON"})
		return nil
	}
	if !m.hasRaw && !m.hasHist {
		rd.rep.Warn(kindSecNoData, &ingest.ParseError{File: s.file, Line: m.line, Path: path, Msg: "no rawData; metric has no rows"})
		return nil
	}
	// Ragged: a fork row shorter than the iterations the primary has.
	want := rec.measurementIterations
	if want <= 0 {
		for _, n := range primaryRows {
			want = max(want, int(n))
		}
	}
	ragged := !m.hasHist && len(rows) < len(primaryRows)
	for _, n := range rows {
		if int(n) < want {
			ragged = true
		}
	}
	if ragged {
		lens := make([]string, len(rows))
		for i, n := range rows {
			lens[i] = strconv.Itoa(int(n))
		}
		rd.rep.Warn(kindRaggedSec, &ingest.ParseError{File: s.file, Line: dataLine, Path: path + dataName,
			Msg: fmt.Sprintf("fork rows have [%s] values for %d iterations", strings.Join(lens, ","), want)})
	}
	kind, ns := ingest.ClassifyUnit(m.unit)
	conv := nsConverter{kind: kind, ns: ns, threads: rec.threads}
	rd.vals.Reset()
	rd.valIdx = rd.valIdx[:0]
	at := ingest.ParseError{File: s.file, Line: m.line, Path: path}
	row.Metric = rd.names.Clean(MetricName(m.key, rec.benchmark), "secondary metric", at)
	if row.Metric == "" || row.Metric == table.Primary {
		// Keep such rows apart from the primary metric's.
		row.Metric = "secondary:" + row.Metric
	}
	row.Unit = rd.names.Clean(m.unit, "unit", at)
	if err := table.CheckRow(row); err != nil {
		rd.skip(ingest.RejectKind(err), data.end-data.start, &ingest.ParseError{File: s.file, Line: m.line, Path: recPath + ".secondaryMetrics", Msg: err.Error() + "; metric skipped"})
		return nil
	}
	for i := data.start; i < data.end; i++ {
		v := &rec.vals[i]
		if v.bad != badNone {
			rd.skipBad(v, path+dataName)
			continue
		}
		if math.IsNaN(v.v) || math.IsInf(v.v, 0) {
			if rd.wantExample(kindSecNonFinite) {
				rd.rep.Skip(kindSecNonFinite, 1, &ingest.ParseError{File: s.file, Line: int(v.line), Path: path + dataName + v.indexPath(), Msg: fmt.Sprintf("%v %s", v.v, m.unit)})
			} else {
				rd.rep.Skip(kindSecNonFinite, 1, nil)
			}
			continue
		}
		rd.addValue(i, conv.nsPerOp(v.v))
	}
	return rd.appendValues(row, path+dataName)
}

// addValue adds rec.vals[i], whose value is ns ns/op, to the rows
// appendValues appends.
func (rd *reader) addValue(i int, ns float64) {
	v := &rd.rec.vals[i]
	rd.vals.Add(v.v, ns, v.count, v.line, v.fork, v.iter)
	rd.valIdx = append(rd.valIdx, i)
}

// appendValues appends the rows added since the last call (addValue), each
// row with its value's columns, and starts afresh. A row the table refuses
// ends the read with an error at the value's place below dataPath.
func (rd *reader) appendValues(row *table.Row, dataPath string) error {
	defer func() {
		rd.vals.Reset()
		rd.valIdx = rd.valIdx[:0]
	}()
	if j, err := rd.sink.AppendValues(row, &rd.vals); err != nil {
		v := &rd.rec.vals[rd.valIdx[j]]
		return &ingest.ParseError{File: rd.s.file, Line: int(v.line), Path: dataPath + v.indexPath(), Msg: err.Error()}
	}
	return nil
}

// indexPath is the JSON path of v below its rawData/rawDataHistogram array.
func (v *value) indexPath() string {
	var b strings.Builder
	if v.fork > 0 {
		fmt.Fprintf(&b, "[%d]", v.fork-1)
	}
	if v.iter > 0 {
		fmt.Fprintf(&b, "[%d]", v.iter-1)
	}
	if v.bucket >= 0 {
		fmt.Fprintf(&b, "[%d]", v.bucket)
	}
	return b.String()
}

func (rd *reader) skipBad(v *value, dataPath string) {
	kind := badKind[v.bad]
	if !rd.wantExample(kind) {
		rd.rep.Skip(kind, 1, nil)
		return
	}
	rd.rep.Skip(kind, 1, &ingest.ParseError{File: rd.s.file, Line: int(v.line), Path: dataPath + v.indexPath(), Msg: badMsg[v.bad]})
}

// wantExample reports whether the Report can still keep an example of kind
// from this read, so that paths are only formatted for kept examples.
func (rd *reader) wantExample(kind string) bool {
	n := rd.examples[kind]
	rd.examples[kind] = n + 1
	return n < ingest.MaxExamples
}

func (rd *reader) skip(kind string, n int, pe *ingest.ParseError) {
	if !rd.wantExample(kind) {
		pe = nil
	}
	rd.rep.Skip(kind, n, pe)
}

// addSetup records the record's configuration.
func (rd *reader) addSetup(params, source, recPath string) {
	rec := &rd.rec
	s := rd.s
	st := table.Setup{
		Key:                   table.Key{Project: rd.src.Project, Version: rd.src.Version, Benchmark: rec.benchmark, Params: params, Mode: rec.mode},
		Tool:                  "jmh",
		ToolVersion:           rd.names.Clean(rec.jmhVersion, "jmhVersion", rd.memberPlace(recPath, rkJmhVersion)),
		Forks:                 rec.forks,
		WarmupIterations:      rec.warmupIterations,
		MeasurementIterations: rec.measurementIterations,
		Threads:               rec.threads,
		BatchSize:             rec.measurementBatchSize,
		Source:                source,
	}
	parseTime := func(t string, line int, field string, dst *int64) {
		if t == "" {
			return
		}
		ns, single, err := ParseTime(t)
		if err != nil {
			rd.rep.Warn(kindBadTime, &ingest.ParseError{File: s.file, Line: line, Path: recPath + "." + field, Msg: fmt.Sprintf("%q: %v", t, err)})
			return
		}
		*dst = ns
		st.SingleShot = st.SingleShot || single
	}
	parseTime(rec.warmupTime, rec.warmupTimeLine, "warmupTime", &st.WarmupTimeNs)
	parseTime(rec.measurementTime, rec.measurementTimeLine, "measurementTime", &st.MeasurementTimeNs)
	env := map[string]string{}
	set := func(k, v string) {
		if v != "" {
			env[k] = v
		}
	}
	setText := func(k int, v string) {
		set(recordKeyNames[k], rd.names.Clean(v, recordKeyNames[k], rd.memberPlace(recPath, k)))
	}
	setText(rkJvm, rec.jvm)
	setText(rkJdkVersion, rec.jdkVersion)
	setText(rkVmName, rec.vmName)
	setText(rkVmVersion, rec.vmVersion)
	setText(rkJvmArgs, strings.Join(rec.jvmArgs, " "))
	if rec.warmupBatchSize > 0 {
		set("warmupBatchSize", strconv.Itoa(rec.warmupBatchSize))
	}
	if rec.hasForks && rec.forks == 0 {
		set("inProcess", "true") // forks 0: run inside the host VM
	}
	if len(env) > 0 {
		st.Env = env
	}
	if err := rd.dst.AddSetup(st); err != nil {
		rd.rep.Warn(kindMixedSetups, &ingest.ParseError{File: s.file, Line: rec.line, Path: recPath, Msg: err.Error()})
	}
}

// nsConverter is ingest.NsPerOp with the unit classified once per metric
// instead of once per value; it computes the same expressions:
//
//	time per op:  ns_per_op = value · ns(tu)
//	throughput:   ns_per_op = threads · ns(tu) / value   (+Inf for 0)
//	other units:  NaN
type nsConverter struct {
	kind    ingest.UnitKind
	ns      float64
	threads int
}

func (c nsConverter) nsPerOp(v float64) float64 {
	switch c.kind {
	case ingest.UnitTimePerOp:
		return v * c.ns
	case ingest.UnitOpsPerTime:
		if v == 0 {
			return math.Inf(1)
		}
		t := c.threads
		if t < 1 {
			t = 1
		}
		return float64(t) * c.ns / v
	}
	return math.NaN()
}
