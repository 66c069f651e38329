// Package gobench reads `go test -bench` output (the Go benchmark data
// format, design doc 14313, and `go test -json` streams of it) into the
// canonical measurement table (Format), and writes the table as such text
// for benchstat (Write, WriteWith); it owns everything about those bytes.
//
// Flow: ingest.ReadFiles (or a caller) picks this Format for text holding
// Benchmark result lines, goos:/pkg: configuration lines or a -json event
// stream; Read appends canonical rows and one table.Setup per benchmark to a
// table.Builder; analyzers then read the table (package table).
//
// # Lines
//
// The text is read line by line, as golang.org/x/perf/benchfmt does:
//
//   - Configuration lines "key: value" (key starts with a lower-case letter,
//     has no upper-case or space) set a value that applies to the following
//     results until the key is set again; an empty value deletes the key.
//     The configuration in effect at a benchmark's first result becomes its
//     Setup.Env.
//   - Result lines "BenchmarkName-8  N  v unit [v unit]…" (the name starts
//     with "Benchmark" followed by an upper-case rune or its end).
//   - Unit metadata lines "Unit ns/op better=lower" are kept in Setup.Env as
//     "unit:ns/op:better" = "lower"; redefining one with a different value
//     is reported and the first kept.
//   - Everything else (PASS, ok, FAIL, --- BENCH logs, blank lines, the bare
//     name line of go test -v) is ignored.
//
// A `go test -json` stream is recognised line by line: a line holding a JSON
// object with an "Action" is a test2json event; the Output of "output"
// events is joined per package before it is split into lines, because
// go test may split one result line over two events (the name, then the
// measurements). Places in such a stream are the line of the event where a
// text line starts. Configuration is tracked per package.
//
// # Mapping to the canonical table
//
//	benchmark  the name without the -GOMAXPROCS suffix and without /key=value
//	           parts: "BenchmarkDecode/text=digits/fast-8" → "BenchmarkDecode/fast";
//	           positional sub-benchmark parts stay in the name, in order
//	params     the /key=value parts, canonical (table.CanonicalParams); a key
//	           repeated in one name stays positional after its first use
//	project    Source.Project
//	version    the "commit" configuration value when there is one, unless the
//	           user gave Source.Version (Source.VersionFromUser); else Source.Version
//	mode       "go";  slice 1
//	instance, trial  the "instance" and "trial" configuration values when
//	           they are positive integers (benchtrim export --to gobench
//	           --labels writes them), else from Source; such values are
//	           levels, not configuration: they are left out of Setup.Env
//	           and of the mixed-configuration check
//	fork       which run of the test binary printed the line: 1, and +1 for
//	           each later run that prints the benchmark again within the
//	           same instance and trial (a run ends at a PASS, FAIL or "ok"
//	           line), so output of several go test invocations concatenated
//	           in one file keeps them apart, as separate JVMs are forks in
//	           JMH (docs/formats/gobench.md)
//	iteration  the occurrence index of the benchmark within its fork (go
//	           test -count N gives N iterations in one fork), so every
//	           result line is one iteration and a benchmark has as many as
//	           benchstat counts samples
//	count      N, the line's iteration count (b.N)
//	primary    the ns/op value, else the first "<time>/op" unit (sec/op, us/op, …),
//	           normalised by ingest.NsPerOp
//	metrics    every other value/unit pair (B/op, allocs/op, MB/s, custom
//	           ReportMetric units) is an extra row with Metric = Unit = the
//	           unit and ns_per_op NaN
//
// The setup of each benchmark has Tool "go", ToolVersion from a go:,
// goversion: or go-version: configuration line, Forks = the most runs
// (forks) seen in one instance and trial, and Env = the configuration at its first result plus
// "gomaxprocs".
//
// Disambiguation. The package path is not part of the benchmark name,
// except when the same name occurs in two packages of one file: then every
// occurrence is named "pkg.Name" (pkg from the pkg: configuration line).
// GOMAXPROCS is recorded as Env["gomaxprocs"]; when one benchmark occurs
// with several GOMAXPROCS values in a file (go test -cpu 1,2,4), each gets a
// "gomaxprocs=N" param so the runs do not merge into one series (no suffix
// means GOMAXPROCS 1). These rules need the whole file, so Read keeps the
// parsed results (a compact form, linear in the number of rows) until EOF
// and appends the rows then.
//
// # Bad input
//
// Nothing in this format is fatal except an empty input (a
// *ingest.ParseError) and an I/O error (wrapped with %w). Result lines
// with a missing or bad iteration count, no measurements, an odd number of
// value/unit fields, a bad number or invalid UTF-8 are skipped and counted
// with file:line; so are primary times that are NaN, infinite, zero or
// negative (ingest.CheckTime) and non-finite secondary values. A result
// line without a time unit is kept (its other metrics) and counted as a
// warning. A benchmark whose results see different configuration values
// is reported once as a warning. Control characters in benchmark names,
// units and configuration lines are escaped (ingest.CleanName) and warned
// about once per name; a -json event with invalid UTF-8 (which
// encoding/json reads as U+FFFD) is warned about. A "-0" name suffix is
// part of the name, not a GOMAXPROCS (which is at least 1).
package gobench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/table"
)

// Format reads `go test -bench` text and `go test -json` streams. The zero
// value is ready to use.
type Format struct{}

var _ ingest.Format = Format{}

// Name is "gobench".
func (Format) Name() string { return "gobench" }

// Mode is the canonical mode of Go benchmark rows.
const Mode = "go"

// MaxLineBytes is the longest line Read parses; longer lines are reported
// and skipped.
const MaxLineBytes = 16 << 20

// Report kinds used by Read.
const (
	KindBadIterations   = "bad iteration count"
	KindNoMeasurements  = "missing measurements"
	KindMissingUnit     = "value without unit"
	KindBadValue        = "bad measurement value"
	KindInvalidUTF8     = "invalid UTF-8 in result line"
	KindInvalidUTF8JSON = "invalid UTF-8 in a -json event (replaced by U+FFFD)"
	KindLongLine        = "line too long"
	KindNonFiniteMetric = "non-finite metric value"
	KindNoTime          = "result without a time metric"
	KindDuplicateUnit   = "unit repeated on a result line"
	KindBadUnitLine     = "bad Unit metadata line"
	KindUnitConflict    = "conflicting Unit metadata"
	KindBadJSON         = "malformed -json event"
	KindMixedConfig     = "mixed configuration"
	KindMixedSetups     = "mixed setups"
	KindNoResults       = "no benchmark results"
)

// Sniff reports whether head looks like go test -bench output: a line
// starting with a Benchmark name followed by white space and a digit (the
// iteration count), a goos:, goarch: or pkg: configuration line, or a -json
// stream whose first line is an object with an "Action".
func (Format) Sniff(head []byte) bool {
	trimmed := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(trimmed) > 0 && trimmed[0] == '{' {
		first := trimmed
		if i := bytes.IndexByte(first, '\n'); i >= 0 {
			first = first[:i]
		}
		return bytes.Contains(first, []byte(`"Action"`))
	}
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		line = bytes.TrimRight(line, "\r")
		for _, p := range [][]byte{[]byte("goos: "), []byte("goarch: "), []byte("pkg: ")} {
			if bytes.HasPrefix(line, p) {
				return true
			}
		}
		if name, rest := splitField(line); isBenchmarkName(name) && len(rest) > 0 && rest[0] >= '0' && rest[0] <= '9' {
			return true
		}
	}
	return false
}

// Likely scores a head that no format sniffed (see ingest.Format): 1 when
// a line starts with a Benchmark name (a result line whose iteration count
// is missing or malformed), else 0. Read skips such lines and counts them,
// so a file that is only likely gobench is reported as unrecognised with a
// hint to use --format gobench.
func (Format) Likely(head []byte) int {
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		if name, _ := splitField(line); isBenchmarkName(name) {
			return 1
		}
	}
	return 0
}

// isBenchmarkName reports whether f is "Benchmark" followed by an upper-case
// rune or nothing.
func isBenchmarkName(f []byte) bool {
	rest, ok := bytes.CutPrefix(f, []byte("Benchmark"))
	if !ok {
		return false
	}
	if len(rest) == 0 {
		return true
	}
	r, _ := utf8.DecodeRune(rest)
	return unicode.IsUpper(r)
}

// Read parses go test -bench output (text or -json) from r and appends its
// rows and setups to dst. Bad lines are counted in rep and skipped.
func (Format) Read(r io.Reader, src ingest.Source, dst *table.Builder, rep *ingest.Report) error {
	p := newParser(src, rep)
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	lineNo := 0
	sawAny := false
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// Assemble a long line up to MaxLineBytes.
			long = append(long[:0], line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				if len(long) <= MaxLineBytes {
					long = append(long, line...)
				}
			}
			line = long
		}
		if len(line) > 0 {
			sawAny = true
			lineNo++
			if len(line) > MaxLineBytes {
				p.tooLong(line, lineNo)
			} else {
				p.physicalLine(trimEOL(line), lineNo)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("%s:%d: reading: %w", p.file, lineNo, err)
		}
	}
	if !sawAny {
		return &ingest.ParseError{File: p.file, Msg: "empty file"}
	}
	p.flushStreams()
	p.emit(dst)
	return nil
}

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// event is the part of a test2json event Read uses.
type event struct {
	Action  string
	Package string
	Output  *string
}

// stream is the output of one package (the text input is the stream "").
type stream struct {
	name string
	// idx is the stream's position in parser.order.
	idx int32
	// run counts the runs of a test binary in this stream (1-based);
	// runEnded is set by a PASS, FAIL or ok line.
	run      int32
	runEnded bool

	pending []byte // start of a line whose end has not arrived
	pendAt  int    // line of the event where pending began
	config  config
}

// config is the configuration in effect: key/value pairs and unit metadata.
type config struct {
	kv    map[string]string
	snap  int32 // index of the snapshot of kv in parser.snaps; -1 when kv changed since
	units map[string]unitMeta
}

type unitMeta struct {
	value string
	line  int
}

// result is one parsed result line, kept until the whole file is read.
type result struct {
	name       string // full name as printed, interned
	pkg        string // pkg configuration value, interned
	iters      int64
	line       int
	snap       int32 // configuration snapshot
	run        int32 // stream run (see stream.run)
	stream     int32 // stream.idx
	valuesFrom int32 // values[valuesFrom:valuesTo]
	valuesTo   int32
}

type value struct {
	v    float64
	unit string // interned
}

// parser is the state of one Read.
type parser struct {
	src     ingest.Source
	file    string
	rep     *ingest.Report
	streams map[string]*stream
	order   []*stream // streams in order of first output
	sawJSON bool

	results []result
	values  []value
	snaps   []map[string]string
	// elapsed is the wall time (ns) of each (stream, run) that printed one.
	elapsed map[[2]int32]float64
	interns map[string]string
	fields  [][]byte
	// lineUnits indexes the units of a result line with many values.
	lineUnits map[string]int
	names     ingest.Names
}

func newParser(src ingest.Source, rep *ingest.Report) *parser {
	file := src.File
	if file == "" {
		file = "<input>"
	}
	return &parser{src: src, file: file, rep: rep, streams: map[string]*stream{}, interns: map[string]string{}, names: ingest.Names{Rep: rep}}
}

func (p *parser) intern(b []byte) string {
	if s, ok := p.interns[string(b)]; ok {
		return s
	}
	s := string(b)
	p.interns[s] = s
	return s
}

func (p *parser) stream(name string) *stream {
	s := p.streams[name]
	if s == nil {
		s = &stream{name: name, idx: int32(len(p.streams)), run: 1, config: config{kv: map[string]string{}, snap: -1, units: map[string]unitMeta{}}}
		p.streams[name] = s
		p.order = append(p.order, s)
	}
	return s
}

func (p *parser) place(line int, format string, args ...any) *ingest.ParseError {
	return &ingest.ParseError{File: p.file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) tooLong(line []byte, lineNo int) {
	if bytes.HasPrefix(line, []byte("Benchmark")) {
		p.rep.Skip(KindLongLine, 1, p.place(lineNo, "result line longer than %d bytes", MaxLineBytes))
		return
	}
	p.rep.Warn(KindLongLine, p.place(lineNo, "line longer than %d bytes ignored", MaxLineBytes))
}

// physicalLine handles one line of the input: a test2json event or text.
func (p *parser) physicalLine(line []byte, lineNo int) {
	if len(line) > 0 && line[0] == '{' {
		var ev event
		if err := json.Unmarshal(line, &ev); err == nil && ev.Action != "" {
			p.sawJSON = true
			if !utf8.Valid(line) {
				p.rep.Warn(KindInvalidUTF8JSON, p.place(lineNo, "-json event with invalid UTF-8; its output was read with U+FFFD in place of the bad bytes"))
			}
			if ev.Action == "output" && ev.Output != nil {
				p.output(p.stream(ev.Package), *ev.Output, lineNo)
			}
			return
		} else if p.sawJSON {
			msg := "not a test2json event"
			if err != nil {
				msg = err.Error()
			}
			p.rep.Warn(KindBadJSON, p.place(lineNo, "%s; line ignored", msg))
			return
		}
	}
	p.textLine(p.stream(""), line, lineNo)
}

// output appends an event's Output to s and parses the lines it completes.
func (p *parser) output(s *stream, out string, lineNo int) {
	for len(out) > 0 {
		i := strings.IndexByte(out, '\n')
		if i < 0 {
			if len(s.pending) == 0 {
				s.pendAt = lineNo
			}
			s.pending = append(s.pending, out...)
			return
		}
		if len(s.pending) > 0 {
			s.pending = append(s.pending, out[:i]...)
			p.textLine(s, bytes.TrimSuffix(s.pending, []byte("\r")), s.pendAt)
			s.pending = s.pending[:0]
		} else {
			p.textLine(s, bytes.TrimSuffix([]byte(out[:i]), []byte("\r")), lineNo)
		}
		out = out[i+1:]
	}
}

// flushStreams parses unterminated last lines of -json outputs.
func (p *parser) flushStreams() {
	for _, s := range p.order {
		if len(s.pending) > 0 {
			p.textLine(s, s.pending, s.pendAt)
			s.pending = nil
		}
	}
}

// textLine handles one line of benchmark text.
func (p *parser) textLine(s *stream, line []byte, lineNo int) {
	if isRunEnd(line) {
		s.runEnded = true
		if d, ok := runElapsed(line); ok {
			if p.elapsed == nil {
				p.elapsed = map[[2]int32]float64{}
			}
			p.elapsed[[2]int32{s.idx, s.run}] = d
		}
		return
	}
	if bytes.HasPrefix(line, []byte("Benchmark")) {
		name, _ := splitField(line)
		if isBenchmarkName(name) {
			p.resultLine(s, line, lineNo)
			return
		}
	}
	if len(line) > 0 && line[0] == 'U' {
		if f, rest := splitField(line); string(f) == "Unit" {
			p.unitLine(s, rest, lineNo)
			return
		}
	}
	if key, val, ok := parseKeyValue(line); ok {
		if !utf8.Valid(line) {
			p.rep.Warn(KindInvalidUTF8, p.place(lineNo, "configuration line with invalid UTF-8 ignored"))
			return
		}
		at := ingest.ParseError{File: p.file, Line: lineNo}
		k := p.names.Clean(p.intern(key), "configuration key", at)
		if len(val) == 0 {
			if _, ok := s.config.kv[k]; ok {
				delete(s.config.kv, k)
				s.config.snap = -1
			}
			return
		}
		v := p.names.Clean(string(val), "configuration "+k, at)
		if old, ok := s.config.kv[k]; !ok || old != v {
			s.config.kv[k] = v
			s.config.snap = -1
		}
	}
}

// isRunEnd reports whether line ends the run of a test binary: PASS, FAIL,
// or go test's "ok  \tpkg\t1.2s" and "FAIL\tpkg\t1.2s".
func isRunEnd(line []byte) bool {
	f, _ := splitField(line)
	switch string(f) {
	case "PASS", "FAIL":
		return true
	case "ok":
		return len(f) < len(line)
	}
	return false
}

// runElapsed is the wall time in ns that go test prints for a package
// run, "ok  \tpkg\t1.234s" or "FAIL\tpkg\t1.234s" (false without one).
func runElapsed(line []byte) (float64, bool) {
	f := strings.Fields(string(line))
	if len(f) < 3 || (f[0] != "ok" && f[0] != "FAIL") {
		return 0, false
	}
	d, err := time.ParseDuration(f[2])
	if err != nil || d <= 0 {
		return 0, false
	}
	return float64(d), true
}

// harnessPerLine is go test's own time per result line, per (stream, run)
// that printed its wall time ("ok pkg 1.2s"): (wall time − Σ N × ns/op of
// the run's result lines) / its result lines, at least 0. A benchmark's
// Setup.Env[table.EnvHarnessNsPerLine] is the mean over its lines.
func (p *parser) harnessPerLine() map[[2]int32]float64 {
	if len(p.elapsed) == 0 {
		return nil
	}
	sum := map[[2]int32]float64{}
	lines := map[[2]int32]int{}
	for _, r := range p.results {
		k := [2]int32{r.stream, r.run}
		if _, ok := p.elapsed[k]; !ok {
			continue
		}
		if ns, ok := p.primaryNs(r); ok {
			sum[k] += ns * float64(r.iters)
			lines[k]++
		}
	}
	out := make(map[[2]int32]float64, len(lines))
	for k, n := range lines {
		out[k] = max(0, p.elapsed[k]-sum[k]) / float64(n)
	}
	return out
}

// primaryIndex is the index of a result line's primary time among its
// values: the ns/op value, else the first <time>/op unit (−1 when none).
func primaryIndex(vals []value) int {
	primary := -1
	for i, v := range vals {
		if v.unit == "ns/op" {
			return i
		}
		if kind, _ := ingest.ClassifyUnit(v.unit); kind == ingest.UnitTimePerOp && primary < 0 {
			primary = i
		}
	}
	return primary
}

// primaryNs is r's <time>/op value in ns (the value appendValues takes as
// the primary), false without one.
func (p *parser) primaryNs(r result) (float64, bool) {
	vals := p.values[r.valuesFrom:r.valuesTo]
	primary := primaryIndex(vals)
	if primary < 0 {
		return 0, false
	}
	ns, err := ingest.NsPerOp(vals[primary].unit, vals[primary].v, 1)
	return ns, err == nil && !math.IsNaN(ns) && !math.IsInf(ns, 0)
}

// parseKeyValue splits a configuration line "key: value" (benchfmt rules).
func parseKeyValue(line []byte) (key, val []byte, ok bool) {
	for i := 0; i < len(line); {
		r, n := utf8.DecodeRune(line[i:])
		if i == 0 && !unicode.IsLower(r) {
			return nil, nil, false
		}
		if unicode.IsSpace(r) || unicode.IsUpper(r) {
			return nil, nil, false
		}
		if i > 0 && r == ':' {
			key, val = line[:i], line[i+1:]
			break
		}
		i += n
	}
	if len(key) == 0 {
		return nil, nil, false
	}
	if len(val) == 0 {
		return key, nil, true
	}
	if val[0] != ' ' && val[0] != '\t' {
		return nil, nil, false
	}
	return key, bytes.TrimSpace(val), true
}

// unitLine parses "Unit <unit> key=value…" (rest is after "Unit").
func (p *parser) unitLine(s *stream, rest []byte, lineNo int) {
	unit, rest := splitField(rest)
	if len(unit) == 0 {
		p.rep.Warn(KindBadUnitLine, p.place(lineNo, "Unit line without a unit"))
		return
	}
	for {
		var f []byte
		f, rest = splitField(rest)
		if len(f) == 0 {
			return
		}
		k, v, ok := bytes.Cut(f, []byte("="))
		if !ok || len(k) == 0 {
			p.rep.Warn(KindBadUnitLine, p.place(lineNo, "Unit %s: %q is not key=value", unit, f))
			continue
		}
		at := ingest.ParseError{File: p.file, Line: lineNo}
		key := p.names.Clean("unit:"+string(unit)+":"+string(k), "Unit metadata", at)
		val := p.names.Clean(string(v), "Unit metadata value", at)
		if have, ok := s.config.units[key]; ok {
			if have.value != val {
				p.rep.Warn(KindUnitConflict, p.place(lineNo, "metadata %s of unit %s already set to %s at line %d; keeping it", k, unit, have.value, have.line))
			}
			continue
		}
		s.config.units[key] = unitMeta{val, lineNo}
		s.config.kv[key] = val
		s.config.snap = -1
	}
}

// resultLine parses a result line and keeps it, or reports why not.
func (p *parser) resultLine(s *stream, line []byte, lineNo int) {
	p.fields = appendFields(p.fields[:0], line)
	f := p.fields
	if len(f) == 1 {
		return // the bare name go test -v prints before running a benchmark
	}
	if !utf8.Valid(line) {
		p.rep.Skip(KindInvalidUTF8, 1, p.place(lineNo, "result line is not valid UTF-8"))
		return
	}
	iters, err := strconv.ParseInt(string(f[1]), 10, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) {
			err = ne.Err
		}
		p.rep.Skip(KindBadIterations, 1, p.place(lineNo, "%s: iteration count %q: %v", f[0], f[1], err))
		return
	}
	if iters <= 0 {
		p.rep.Skip(KindBadIterations, 1, p.place(lineNo, "%s: iteration count %d, want ≥ 1", f[0], iters))
		return
	}
	if len(f) == 2 {
		p.rep.Skip(KindNoMeasurements, 1, p.place(lineNo, "%s: no measurements after the iteration count", f[0]))
		return
	}
	if len(f)%2 != 0 {
		p.rep.Skip(KindMissingUnit, 1, p.place(lineNo, "%s: value %q has no unit", f[0], f[len(f)-1]))
		return
	}
	from := len(p.values)
	if len(p.lineUnits) > 0 {
		p.lineUnits = nil // used by an earlier long line
	}
	for i := 2; i < len(f); i += 2 {
		v, err := strconv.ParseFloat(string(f[i]), 64)
		if err != nil {
			p.values = p.values[:from]
			p.rep.Skip(KindBadValue, 1, p.place(lineNo, "%s: value %q of unit %s is not a number", f[0], f[i], f[i+1]))
			return
		}
		unit := p.names.Clean(p.intern(f[i+1]), "unit", ingest.ParseError{File: p.file, Line: lineNo})
		// A custom metric overrides a standard one of the same unit.
		if j, dup := p.unitIndex(from, unit); dup {
			p.values[j].v = v
			p.rep.Warn(KindDuplicateUnit, p.place(lineNo, "%s: unit %s appears twice; keeping the last value", f[0], unit))
			continue
		}
		p.values = append(p.values, value{v, unit})
	}
	if s.runEnded {
		s.run++
		s.runEnded = false
	}
	if s.config.snap < 0 {
		snap := make(map[string]string, len(s.config.kv))
		for k, v := range s.config.kv {
			snap[k] = v
		}
		p.snaps = append(p.snaps, snap)
		s.config.snap = int32(len(p.snaps) - 1)
	}
	p.results = append(p.results, result{
		name: p.names.Clean(p.intern(f[0]), "benchmark", ingest.ParseError{File: p.file, Line: lineNo}), pkg: s.config.kv["pkg"], iters: iters, line: lineNo, snap: s.config.snap,
		valuesFrom: int32(from), valuesTo: int32(len(p.values)), run: s.run, stream: s.idx,
	})
}

// unitIndex finds unit among the values of the current line
// (p.values[from:]). A linear scan serves the usual few units; lines with
// many units use p.lineUnits so a long line costs linear time.
func (p *parser) unitIndex(from int, unit string) (int, bool) {
	const scanLimit = 16
	n := len(p.values) - from
	if n <= scanLimit {
		for j := from; j < len(p.values); j++ {
			if p.values[j].unit == unit {
				return j, true
			}
		}
		if n == scanLimit {
			// The next value needs the map: fill it with the line so far.
			if p.lineUnits == nil {
				p.lineUnits = map[string]int{}
			}
			for j := from; j < len(p.values); j++ {
				p.lineUnits[p.values[j].unit] = j
			}
			p.lineUnits[unit] = len(p.values)
		}
		return 0, false
	}
	if j, ok := p.lineUnits[unit]; ok {
		return j, true
	}
	p.lineUnits[unit] = len(p.values)
	return 0, false
}

// appendFields appends the white-space separated fields of line to dst.
func appendFields(dst [][]byte, line []byte) [][]byte {
	for {
		var f []byte
		f, line = splitField(bytes.TrimLeftFunc(line, unicode.IsSpace))
		if len(f) == 0 {
			return dst
		}
		dst = append(dst, f)
	}
}

// splitField returns the leading run of non-space runes of x and the rest
// after the white space that follows it.
func splitField(x []byte) (field, rest []byte) {
	i := 0
	for i < len(x) {
		if c := x[i]; c < utf8.RuneSelf {
			if c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' {
				break
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(x[i:])
		if unicode.IsSpace(r) {
			break
		}
		i += n
	}
	return x[:i], bytes.TrimLeftFunc(x[i:], unicode.IsSpace)
}

// name is a parsed benchmark name.
type name struct {
	base     string            // "Benchmark" + positional parts
	params   map[string]string // key=value parts
	procs    int32             // GOMAXPROCS suffix; 0 when absent
	hasProcs bool
}

// parseName splits a printed benchmark name into its positional path,
// key=value parts and GOMAXPROCS suffix:
//
//	BenchmarkDecode/text=digits/fast-8 → "BenchmarkDecode/fast", {text: digits}, 8
func parseName(full string) name {
	var n name
	if i := strings.LastIndexByte(full, '-'); i >= 0 && i+1 < len(full) && allDigits(full[i+1:]) {
		if v, err := strconv.ParseInt(full[i+1:], 10, 32); err == nil && v >= 1 {
			n.procs, n.hasProcs = int32(v), true
			full = full[:i]
		}
	}
	parts := strings.Split(full, "/")
	var base []string
	for i, part := range parts {
		if i > 0 {
			if k, v, ok := strings.Cut(part, "="); ok && k != "" {
				if _, dup := n.params[k]; !dup {
					if n.params == nil {
						n.params = map[string]string{}
					}
					n.params[k] = v
					continue
				}
			}
		}
		base = append(base, part)
	}
	n.base = strings.Join(base, "/")
	return n
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// keyed is what a result's (name, pkg) maps to.
type keyed struct {
	benchmark, params string
	procs             int32
	hasProcs          bool
}

// namePkg is a result's printed name and package.
type namePkg struct{ name, pkg string }

// emit assigns keys and appends the rows and setups of all results.
func (p *parser) emit(dst *table.Builder) {
	if len(p.results) == 0 {
		p.rep.Warn(KindNoResults, p.place(0, "no benchmark result lines"))
		return
	}
	keyOf := p.assignKeys()
	harness := p.harnessPerLine()
	states := map[table.Key]*keyState{}
	var setupOrder []*keyState
	row := table.Row{Project: p.src.Project, Mode: Mode, Instance: p.src.Instance, Trial: p.src.Trial,
		Slice: 1, Source: p.file}
	for _, r := range p.results {
		k := keyOf[namePkg{r.name, r.pkg}]
		snap := p.snaps[r.snap]
		version := p.src.Version
		if c := snap["commit"]; c != "" && !(p.src.VersionFromUser && version != "") {
			version = c
		}
		key := table.Key{Project: p.src.Project, Version: version, Benchmark: k.benchmark, Params: k.params, Mode: Mode}
		st := states[key]
		if st == nil {
			st = &keyState{snap: r.snap, line: r.line, setup: p.setupFor(key, snap, k, r.line), forks: map[[2]int32]*forkState{}}
			states[key] = st
			setupOrder = append(setupOrder, st)
		} else if r.snap != st.snap && !st.warned {
			if diff := configDiff(p.snaps[st.snap], snap); diff != "" {
				st.warned = true
				p.rep.Warn(KindMixedConfig, p.place(r.line, "%s: %s (the setup keeps the configuration of line %d)", key, diff, st.line))
			}
		}
		row.Instance, row.Trial = p.src.Instance, p.src.Trial
		if v, ok := levelLabel(snap, "instance"); ok {
			row.Instance = v
		}
		if v, ok := levelLabel(snap, "trial"); ok {
			row.Trial = v
		}
		fs := st.forks[[2]int32{row.Instance, row.Trial}]
		if fs == nil {
			fs = &forkState{}
			st.forks[[2]int32{row.Instance, row.Trial}] = fs
		}
		if r.run != fs.lastRun {
			fs.fork++
			fs.lastRun = r.run
			fs.iteration = 0
		}
		fs.iteration++
		row.Fork = fs.fork
		row.Version, row.Benchmark, row.Params = version, k.benchmark, k.params
		row.Iteration, row.Count, row.Line = fs.iteration, r.iters, int64(r.line)
		p.appendValues(dst, r, &row)
		if h, ok := harness[[2]int32{r.stream, r.run}]; ok {
			st.harness += h
			st.harnessLines++
		}
	}
	for _, st := range setupOrder {
		for _, fs := range st.forks {
			st.setup.Forks = max(st.setup.Forks, int(fs.fork))
		}
		if st.harnessLines > 0 {
			st.setup.Env[table.EnvHarnessNsPerLine] = strconv.FormatFloat(math.Round(st.harness/float64(st.harnessLines)), 'f', -1, 64)
		}
		if err := dst.AddSetup(*st.setup); err != nil {
			p.rep.Warn(KindMixedSetups, p.place(st.line, "%v", err))
		}
	}
}

// assignKeys maps every (name, package) of the results to its benchmark
// and params: the package joins the name only when one base name occurs in
// several packages, and GOMAXPROCS becomes a "gomaxprocs" param only when a
// benchmark ran under several values of it.
func (p *parser) assignKeys() map[namePkg]*keyed {
	names := map[string]name{}
	pkgsOf := map[string]map[string]bool{} // base → packages
	for _, r := range p.results {
		n, ok := names[r.name]
		if !ok {
			n = parseName(r.name)
			names[r.name] = n
		}
		if pkgsOf[n.base] == nil {
			pkgsOf[n.base] = map[string]bool{}
		}
		pkgsOf[n.base][r.pkg] = true
	}
	keyOf := map[namePkg]*keyed{}
	procsOf := map[[2]string]map[int32]bool{} // (benchmark, params) → GOMAXPROCS values
	for _, r := range p.results {
		np := namePkg{r.name, r.pkg}
		if keyOf[np] != nil {
			continue
		}
		n := names[r.name]
		bench := n.base
		if len(pkgsOf[n.base]) > 1 && r.pkg != "" {
			bench = r.pkg + "." + n.base
		}
		procs := n.procs
		if !n.hasProcs {
			procs = 1
		}
		k := &keyed{benchmark: bench, params: table.CanonicalParams(n.params), procs: procs, hasProcs: n.hasProcs}
		keyOf[np] = k
		bp := [2]string{k.benchmark, k.params}
		if procsOf[bp] == nil {
			procsOf[bp] = map[int32]bool{}
		}
		procsOf[bp][procs] = true
	}
	for np, k := range keyOf {
		if len(procsOf[[2]string{k.benchmark, k.params}]) > 1 {
			n := names[np.name]
			m := map[string]string{"gomaxprocs": strconv.Itoa(int(k.procs))}
			for pk, pv := range n.params {
				if pk != "gomaxprocs" {
					m[pk] = pv
				}
			}
			k.params = table.CanonicalParams(m)
		}
	}

	return keyOf
}

// forkState numbers the forks of a benchmark in one instance and trial.
type forkState struct {
	fork, lastRun, iteration int32
}
type keyState struct {
	forks  map[[2]int32]*forkState
	setup  *table.Setup
	snap   int32
	line   int
	warned bool
	// harness sums go test's own time of the key's lines whose run printed
	// its wall time, over harnessLines of them.
	harness      float64
	harnessLines int
}

// appendValues appends the rows of one result line: its primary time
// (ns/op, else the first <time>/op value) and every other metric, skipping
// and counting values the table cannot hold.
func (p *parser) appendValues(dst *table.Builder, r result, row *table.Row) {
	vals := p.values[r.valuesFrom:r.valuesTo]
	primary := primaryIndex(vals)
	if primary < 0 {
		p.rep.Warn(KindNoTime, p.place(r.line, "%s: no <time>/op value; its other metrics are kept", r.name))
	}
	for i, v := range vals {
		row.Unit, row.Value = v.unit, v.v
		if i == primary {
			ns, err := ingest.NsPerOp(v.unit, v.v, 1)
			if err != nil {
				ns = math.NaN()
			}
			if reason, ok := ingest.CheckTime(Mode, ns); !ok {
				p.rep.Skip(reason, 1, p.place(r.line, "%s: %s %s", r.name, strconv.FormatFloat(v.v, 'g', -1, 64), v.unit))
				continue
			}
			row.Metric, row.NsPerOp = table.Primary, ns
		} else {
			if math.IsNaN(v.v) || math.IsInf(v.v, 0) {
				p.rep.Skip(KindNonFiniteMetric, 1, p.place(r.line, "%s: %v %s", r.name, v.v, v.unit))
				continue
			}
			row.Metric, row.NsPerOp = v.unit, math.NaN()
		}
		if err := dst.Append(row); err != nil {
			p.rep.Skip(ingest.RejectKind(err), 1, p.place(r.line, "%v", err))
		}
	}
}

// setupFor builds the setup of key from the configuration snap in effect
// at its first result.
func (p *parser) setupFor(key table.Key, snap map[string]string, k *keyed, line int) *table.Setup {
	env := make(map[string]string, len(snap)+1)
	for kk, v := range snap {
		if _, isLevel := levelLabel(snap, kk); !isLevel {
			env[kk] = v
		}
	}
	if k.hasProcs {
		env["gomaxprocs"] = strconv.Itoa(int(k.procs))
	}
	s := &table.Setup{Key: key, Tool: "go", Env: env, Source: fmt.Sprintf("%s:%d", p.file, line)}
	for _, kk := range []string{"go", "goversion", "go-version"} {
		if v := snap[kk]; v != "" {
			s.ToolVersion = v
			break
		}
	}
	return s
}

// levelLabel returns the configuration value of key as a level when key is
// "instance" or "trial" and the value is a positive integer.
func levelLabel(snap map[string]string, key string) (int32, bool) {
	if key != "instance" && key != "trial" {
		return 0, false
	}
	v, err := strconv.ParseInt(snap[key], 10, 32)
	if err != nil || v < 1 {
		return 0, false
	}
	return int32(v), true
}

// configDiff names the first configuration key (sorted) whose value differs
// between a and b, or "".
func configDiff(a, b map[string]string) string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		_, levelA := levelLabel(a, k)
		_, levelB := levelLabel(b, k)
		if levelA && levelB {
			continue
		}
		va, oka := a[k]
		vb, okb := b[k]
		if oka != okb || va != vb {
			return fmt.Sprintf("configuration %s changed from %q to %q", k, va, vb)
		}
	}
	return ""
}
