package jmh

import (
	"bytes"
	"fmt"
	"math"
	"strings"

	"github.com/benchtrim/benchtrim/ingest"
)

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
	// stray is the first member JMH does not write in a metric (a
	// misspelled "rawDta"), named when the metric has no values.
	stray string
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

// recordReader reads a JMH result file one record (one element of the
// top-level array) at a time, as golang.org/x/perf/benchfmt's Reader reads
// results: Scan reads the next record and reports whether there is one,
// Record returns it (valid until the next Scan), Err the error that ended
// the scan (nil at the end of a well-formed file). Elements that are not
// objects, and bad items inside records, are counted in the Summary as it
// goes.
type recordReader struct {
	s *scanner
	*reporter
	rec  record
	next int // index of the next array element; -1 before the '['
	err  error
	done bool
}

func newRecordReader(s *scanner, rep *reporter) *recordReader {
	return &recordReader{s: s, reporter: rep, next: -1}
}

// Scan reads the next record.
func (rd *recordReader) Scan() bool {
	if rd.done {
		return false
	}
	if rd.next < 0 {
		if err := rd.start(); err != nil {
			return rd.fail(err)
		}
		rd.next = 0
	}
	s := rd.s
	for {
		more, err := s.next(rd.next, ']')
		if err != nil {
			return rd.fail(err)
		}
		if !more {
			return rd.fail(rd.end())
		}
		s.setIdx(rd.next)
		rd.next++
		ok, err := rd.parseRecord(rd.next - 1)
		if err != nil {
			return rd.fail(err)
		}
		if ok {
			return true
		}
	}
}

// Record is the record Scan read.
func (rd *recordReader) Record() *record { return &rd.rec }

// Err is the error that ended Scan, nil at the end of the file.
func (rd *recordReader) Err() error { return rd.err }

func (rd *recordReader) fail(err error) bool {
	rd.err, rd.done = err, true
	return false
}

// start reads up to the top-level array's '['.
func (rd *recordReader) start() error {
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
	return nil
}

// end checks that nothing follows the top-level array's ']'.
func (rd *recordReader) end() error {
	s := rd.s
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

// members reads the members of the object whose '{' is next, calling
// member with each member's id (classify's, 0 for names it does not know
// or when classify is nil) and name, with the name on the JSON path while
// member reads the value.
func (rd *recordReader) members(classify func([]byte) int, names []string, member func(id int, name string) error) error {
	s := rd.s
	s.pos++ // '{'
	for i := 0; ; i++ {
		more, err := s.next(i, '}')
		if err != nil || !more {
			return err
		}
		id, name, err := rd.memberName(classify, names)
		if err != nil {
			return err
		}
		s.pushKey(name)
		if err := member(id, name); err != nil {
			return err
		}
		s.pop()
	}
}

// objectOrNull reports whether the value next is an object. null is
// consumed (the member is absent); any other value is counted as of the
// wrong type (want names what belongs there) and skipped.
func (rd *recordReader) objectOrNull(want string) (bool, error) {
	s := rd.s
	c, ok := s.skipWS()
	if !ok {
		return false, s.eofErr("")
	}
	if c == '{' {
		return true, nil
	}
	if c == 'n' {
		_, _, _, err := rd.scalarText()
		return false, err
	}
	rd.warnType(s.line, want)
	return false, s.skipValue()
}

// memberName reads an object member name and the ':' after it, returning
// the name as a string (for the path) and its id among known.
func (rd *recordReader) memberName(classify func([]byte) int, names []string) (id int, name string, err error) {
	kb, err := rd.s.key()
	if err != nil {
		return 0, "", err
	}
	if classify != nil {
		id = classify(kb)
	}
	if id != 0 {
		name = names[id]
	} else {
		name = string(kb) // as written; cleaned where it is stored
	}
	return id, name, rd.s.expect(':')
}

// parseRecord reads element i of the top-level array into rd.rec; ok is
// false when the element is not an object (skipped and counted).
func (rd *recordReader) parseRecord(i int) (ok bool, err error) {
	s := rd.s
	c, more := s.skipWS()
	if !more {
		return false, s.eofErr("")
	}
	rec := &rd.rec
	rec.reset(i, s.line)
	if c != '{' {
		rd.skip(kindNotRecord, 1, rd.here("%s where a record object belongs", describeByte(c)))
		return false, s.skipValue()
	}
	err = rd.members(recordKey, recordKeyNames[:], func(id int, name string) error {
		if id != rkUnknown && rec.seen&(1<<id) != 0 {
			rd.skip(kindDupKey, 1, rd.here("duplicate member %q; the first one is used", name))
			return s.skipValue()
		}
		rec.seen |= 1 << id
		rec.lines[id] = s.line
		return rd.recordMember(id)
	})
	return err == nil, err
}

// here is a ParseError at the scanner's line and path; it must not be
// called when the scanner holds an I/O error.
func (rd *recordReader) here(format string, args ...any) *ingest.ParseError {
	s := rd.s
	return &ingest.ParseError{File: s.file, Line: s.line, Path: s.pathString(), Msg: fmt.Sprintf(format, args...)}
}

func (rd *recordReader) recordMember(id int) error {
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
func (rd *recordReader) scalarText() (text string, isNull, ok bool, err error) {
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
func (rd *recordReader) stringField(dst *string) error {
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
func (rd *recordReader) intField(dst *int, set *bool) error {
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

func (rd *recordReader) warnType(line int, msg string) {
	s := rd.s
	rd.rep.Skip(kindBadType, 1, &ingest.ParseError{File: s.file, Line: line, Path: s.pathString(), Msg: msg})
}

func (rd *recordReader) jvmArgs() error {
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

func (rd *recordReader) params() error {
	rec := &rd.rec
	if ok, err := rd.objectOrNull("want an object of string values"); !ok {
		return err
	}
	rec.params = map[string]string{}
	return rd.members(nil, nil, func(_ int, name string) error {
		line := rd.s.line
		t, _, ok, err := rd.scalarText()
		if err != nil || !ok {
			if err == nil {
				rd.warnType(line, "want a string")
			}
			return err
		}
		if _, dup := rec.params[name]; dup {
			rd.skip(kindDupKey, 1, rd.here("duplicate param %q; the first one is used", name))
			return nil
		}
		rec.params[name] = t
		return nil
	})
}
