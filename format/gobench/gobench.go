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
// The text is read line by line, as golang.org/x/perf/benchfmt does (a
// lineReader's Scan, Line and Err; lines.go parses the lines, emit.go
// turns the results into rows):
//
//   - Configuration lines "key: value" (key starts with a lower-case letter,
//     has no upper-case or space) set a value that applies to the following
//     results until the key is set again; an empty value deletes the key.
//     The configuration in effect at a benchmark's first result becomes its
//     Setup.Env.
//   - Result lines "BenchmarkName-8  N  v unit [v unit]…": as in benchfmt,
//     every line that starts with "Benchmark" is one, whatever follows
//     (Benchmark_Parse, Benchmark1KB, Benchmark日本語; go test runs every
//     BenchmarkX whose X does not start with a lower-case letter), except
//     the bare name go test -v prints before running a benchmark. One that
//     does not parse is skipped and counted with its line.
//   - Unit metadata lines "Unit ns/op better=lower" are kept in Setup.Env as
//     "unit:ns/op:better" = "lower"; redefining one with a different value
//     is reported and the first kept.
//   - PASS, FAIL and ok lines end a run of the test binary (see fork).
//   - Everything else but blank lines and the bare name line of go test -v
//     (the tests' output, --- BENCH logs) is ignored, as benchfmt ignores
//     it, and counted with its place (ingest.Summary.Ignore).
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
	"fmt"
	"io"
	"time"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/table"
)

// Format returns the reader of `go test -bench` text and `go test -json`
// streams.
func Format() ingest.Format { return gobenchFormat{} }

// gobenchFormat is the gobench reader; it has no state.
type gobenchFormat struct{}

var _ ingest.Format = gobenchFormat{}

// Name is "gobench".
func (gobenchFormat) Name() string { return "gobench" }

// mode is the canonical mode of Go benchmark rows.
const mode = "go"

// maxLineBytes is the longest line Read parses; longer lines are reported
// and skipped.
const maxLineBytes = 16 << 20

// Summary kinds used by Read.
const (
	kindBadIterations   = "bad iteration count"
	kindNoMeasurements  = "missing measurements"
	kindMissingUnit     = "value without unit"
	kindBadValue        = "bad measurement value"
	kindInvalidUTF8     = "invalid UTF-8 in result line"
	kindInvalidUTF8JSON = "invalid UTF-8 in a -json event (replaced by U+FFFD)"
	kindLongLine        = "line too long"
	kindNonFiniteMetric = "non-finite metric value"
	kindNoTime          = "result without a time metric"
	kindDuplicateUnit   = "unit repeated on a result line"
	kindBadUnitLine     = "bad Unit metadata line"
	kindUnitConflict    = "conflicting Unit metadata"
	kindBadJSON         = "malformed -json event"
	kindMixedConfig     = "mixed configuration"
	kindMixedSetups     = "mixed setups"
	kindNoResults       = "no benchmark results"
	kindIgnoredLine     = "line that is no result, configuration or Unit line (other go test output, ignored as benchstat ignores it)"
)

// Sniff reports whether head looks like go test -bench output: a line
// starting with a Benchmark name followed by white space and a digit (the
// iteration count), a goos:, goarch: or pkg: configuration line, or a -json
// stream whose first line is an object with an "Action".
func (gobenchFormat) Sniff(head []byte) bool {
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
		if sniffLine(bytes.TrimRight(line, "\r")) {
			return true
		}
	}
	return false
}

var _ ingest.LineSniffer = gobenchFormat{}

// SniffLine reports whether line is a result line (a Benchmark name,
// white space and a digit) or a goos:, goarch: or pkg: configuration line,
// for detection past the head (ingest.LineSniffer): go test output may
// hold thousands of lines of test output before its first result.
func (gobenchFormat) SniffLine(line []byte) bool { return sniffLine(line) }

func sniffLine(line []byte) bool {
	for _, p := range [][]byte{[]byte("goos: "), []byte("goarch: "), []byte("pkg: ")} {
		if bytes.HasPrefix(line, p) {
			return true
		}
	}
	name, rest := splitField(line)
	return isBenchmarkName(name) && len(rest) > 0 && rest[0] >= '0' && rest[0] <= '9'
}

// Likely scores a head that no format sniffed (see ingest.Format): 1 when
// a line starts with a Benchmark name (a result line whose iteration count
// is missing or malformed), else 0. Read skips such lines and counts them,
// so a file that is only likely gobench is reported as unrecognised with a
// hint to use --format gobench.
func (gobenchFormat) Likely(head []byte) int {
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

// isBenchmarkName reports whether f starts with "Benchmark": the lines
// golang.org/x/perf/benchfmt's Reader parses as results (reader.go, Scan),
// a superset of the names go test runs (testing's isTest: "Benchmark"
// followed by nothing or a rune that is not lower case).
func isBenchmarkName(f []byte) bool {
	return bytes.HasPrefix(f, []byte("Benchmark"))
}

// Read parses go test -bench output (text or -json) from r and appends its
// rows and setups to dst. Bad lines are counted in rep and skipped.
func (gobenchFormat) Read(r io.Reader, src ingest.Source, dst *table.Builder, rep *ingest.Summary) error {
	p := newParser(src, rep)
	lr := newLineReader(r)
	for lr.Scan() {
		if line, n := lr.Line(); len(line) > maxLineBytes {
			p.tooLong(line, n)
		} else {
			p.physicalLine(line, n)
		}
	}
	if err := lr.Err(); err != nil {
		return fmt.Errorf("%s:%d: reading: %w", p.file, lr.n, err)
	}
	if lr.n == 0 {
		return &ingest.ParseError{File: p.file, Msg: "empty file"}
	}
	p.flushStreams()
	p.emit(dst)
	return nil
}

// lineReader reads its input a line at a time, as benchfmt's Reader does:
// Scan reads the next line and reports whether there is one, Line returns
// it without its line break (valid until the next Scan) and its 1-based
// number, Err the read error that ended the scan (nil at the end of the
// input). A line longer than maxLineBytes is returned with its line break
// and cut a little past that length, so that its length tells it apart.
type lineReader struct {
	br   *bufio.Reader
	long []byte
	line []byte
	n    int
	err  error
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10)}
}

// Scan reads the next line.
func (lr *lineReader) Scan() bool {
	for lr.err == nil {
		line, err := lr.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// Assemble a long line up to maxLineBytes.
			lr.long = append(lr.long[:0], line...)
			for err == bufio.ErrBufferFull {
				line, err = lr.br.ReadSlice('\n')
				if len(lr.long) <= maxLineBytes {
					lr.long = append(lr.long, line...)
				}
			}
			line = lr.long
		}
		if err != nil {
			lr.err = err
		}
		if len(line) > 0 {
			lr.n++
			lr.line = line
			if len(line) <= maxLineBytes {
				lr.line = trimEOL(line)
			}
			return true
		}
	}
	return false
}

// Line is the line Scan read and its number.
func (lr *lineReader) Line() ([]byte, int) { return lr.line, lr.n }

// Err is the error that ended Scan; nil at the end of the input.
func (lr *lineReader) Err() error {
	if lr.err == io.EOF {
		return nil
	}
	return lr.err
}

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// event is the part of a test2json event Read uses.
type event struct {
	Time    time.Time
	Action  string
	Package string
	Test    string
	Output  *string
}

// runTiming is when a run of a test binary in a -json stream started
// (its "start" event), sent its next event (firstOut), started its first
// benchmark (the first event of a benchmark, or its goos: or first
// result line), ended (its PASS or FAIL line) and exited (go test's ok or
// FAIL line with the elapsed time), in Unix ns; 0 where the stream did
// not say.
type runTiming struct {
	start, firstOut, bench, end, exit int64
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
	key        int32 // the result's benchmark and params (assignKeys)
}

type value struct {
	v    float64
	unit string // interned
}

// parser is the state of one Read.
type parser struct {
	src     ingest.Source
	file    string
	rep     *ingest.Summary
	streams map[string]*stream
	order   []*stream // streams in order of first output
	sawJSON bool

	results resultStore
	values  []value
	snaps   []map[string]string
	// elapsed is the wall time (ns) of each (stream, run) that printed one.
	elapsed map[[2]int32]float64
	// timing holds the event times of each (stream, run) of a -json
	// stream whose events carry them; evTime is the time of the event
	// whose output is being read (0 outside -json).
	timing  map[[2]int32]*runTiming
	evTime  int64
	interns map[string]string
	fields  [][]byte
	// lineUnits indexes the units of a result line with many values.
	lineUnits map[string]int
	// ignored counts the lines ignore was given.
	ignored int
	names   ingest.Names
}

func newParser(src ingest.Source, rep *ingest.Summary) *parser {
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
		if name != "" {
			// A test2json stream: its events' Package is the package,
			// whether or not its output has a pkg: line (which, when it
			// comes, says the same and replaces it).
			s.config.kv["pkg"] = name
		}
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
		p.rep.Skip(kindLongLine, 1, p.place(lineNo, "result line longer than %d bytes", maxLineBytes))
		return
	}
	p.rep.Warn(kindLongLine, p.place(lineNo, "line longer than %d bytes ignored", maxLineBytes))
}
