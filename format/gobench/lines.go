package gobench

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/benchtrim/benchtrim/ingest"
)

// physicalLine handles one line of the input: a test2json event or text.
func (p *parser) physicalLine(line []byte, lineNo int) {
	if len(line) > 0 && line[0] == '{' {
		var ev event
		if err := json.Unmarshal(line, &ev); err == nil && ev.Action != "" {
			p.sawJSON = true
			if !utf8.Valid(line) {
				p.rep.Warn(kindInvalidUTF8JSON, p.place(lineNo, "-json event with invalid UTF-8; its output was read with U+FFFD in place of the bad bytes"))
			}
			p.evTime = 0
			if !ev.Time.IsZero() && ev.Package != "" {
				p.evTime = ev.Time.UnixNano()
				p.noteEvent(p.stream(ev.Package), &ev)
			}
			if ev.Action == "output" && ev.Output != nil {
				p.output(p.stream(ev.Package), *ev.Output, lineNo)
			}
			p.evTime = 0
			return
		} else if p.sawJSON {
			msg := "not a test2json event"
			if err != nil {
				msg = err.Error()
			}
			p.rep.Warn(kindBadJSON, p.place(lineNo, "%s; line ignored", msg))
			return
		}
	}
	p.textLine(p.stream(""), line, lineNo)
}

// noteEvent records the times of ev, an event of stream s with a Time,
// in the timing of the run it belongs to: the run after the last one
// ended, when one ended (its results will start it, see resultLine).
func (p *parser) noteEvent(s *stream, ev *event) {
	run := s.run
	if s.runEnded {
		run++
	}
	k := [2]int32{s.idx, run}
	if p.timing == nil {
		p.timing = map[[2]int32]*runTiming{}
	}
	rt := p.timing[k]
	if rt == nil {
		rt = &runTiming{}
		p.timing[k] = rt
	}
	t := p.evTime
	switch {
	case ev.Action == "start" && ev.Test == "":
		if rt.start == 0 {
			rt.start = t
		}
	case rt.start != 0 && rt.firstOut == 0:
		rt.firstOut = t
	}
	if rt.bench == 0 && rt.start != 0 {
		out := ""
		if ev.Output != nil {
			out = *ev.Output
		}
		if strings.HasPrefix(ev.Test, "Benchmark") || (ev.Action == "output" && (strings.HasPrefix(out, "goos:") || strings.HasPrefix(out, "Benchmark"))) {
			rt.bench = t
		}
	}
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
		if rt := p.timing[[2]int32{s.idx, s.run}]; rt != nil && p.evTime != 0 {
			if rt.end == 0 {
				rt.end = p.evTime // PASS or FAIL: the binary is done
			}
			if _, ok := runElapsed(line); ok {
				rt.exit = p.evTime // go test's ok or FAIL line: the binary has exited
			}
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
	key, val, ok := parseKeyValue(line)
	if !ok {
		p.ignore(line, lineNo)
		return
	}
	if !utf8.Valid(line) {
		p.rep.Warn(kindInvalidUTF8, p.place(lineNo, "configuration line with invalid UTF-8 ignored"))
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

// ignore counts a line that is no result, run end, Unit or configuration
// line (the tests' output, --- BENCH logs), which benchfmt ignores; blank
// lines are not counted.
func (p *parser) ignore(line []byte, lineNo int) {
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	if !p.wantIgnoredExample() {
		p.rep.Ignore(kindIgnoredLine, 1, nil)
		return
	}
	text := []rune(string(bytes.ToValidUTF8(line, []byte("\uFFFD"))))
	if len(text) > 60 {
		text = append(text[:57], '…')
	}
	p.rep.Ignore(kindIgnoredLine, 1, p.place(lineNo, "%q", string(text)))
}

// wantIgnoredExample reports whether the next ignored line is one of the
// report's examples (the first ingest.MaxExamples), so that the others
// cost no formatting.
func (p *parser) wantIgnoredExample() bool {
	p.ignored++
	return p.ignored <= ingest.MaxExamples
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
//
// In a -json stream whose events carry times, the wall time is the
// benchmarks' part of the run instead, from its first benchmark's first
// event to its PASS (or FAIL) line (runTiming), and startup holds the
// process's own time outside its tests and benchmarks: from its start
// event to its next event (the binary's start and its packages' init;
// a test's first event is when it starts) plus from its PASS line to go
// test's ok line (the binary's exit). Times that contradict the results
// (the benchmarks' part shorter than their Σ N × ns/op: a stream written
// by hand) are not used.
func (p *parser) harnessPerLine() (harness, startup map[[2]int32]float64) {
	if len(p.elapsed) == 0 && len(p.timing) == 0 {
		return nil, nil
	}
	sum := map[[2]int32]float64{}
	lines := map[[2]int32]int{}
	for r := range p.results.all() {
		k := [2]int32{r.stream, r.run}
		if ns, ok := p.primaryNs(*r); ok {
			sum[k] += ns * float64(r.iters)
			lines[k]++
		}
	}
	wall := make(map[[2]int32]float64, len(p.elapsed))
	for k, d := range p.elapsed {
		wall[k] = d
	}
	for k, rt := range p.timing {
		if rt.bench == 0 || rt.end <= rt.bench || float64(rt.end-rt.bench) < sum[k] {
			continue
		}
		wall[k] = float64(rt.end - rt.bench)
		if rt.start != 0 && rt.firstOut >= rt.start {
			if startup == nil {
				startup = map[[2]int32]float64{}
			}
			startup[k] = float64(rt.firstOut - rt.start)
			if rt.exit >= rt.end {
				startup[k] += float64(rt.exit - rt.end)
			}
		}
	}
	harness = make(map[[2]int32]float64, len(lines))
	for k, n := range lines {
		if w, ok := wall[k]; ok {
			harness[k] = max(0, w-sum[k]) / float64(n)
		}
	}
	return harness, startup
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
		p.rep.Warn(kindBadUnitLine, p.place(lineNo, "Unit line without a unit"))
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
			p.rep.Warn(kindBadUnitLine, p.place(lineNo, "Unit %s: %q is not key=value", unit, f))
			continue
		}
		at := ingest.ParseError{File: p.file, Line: lineNo}
		key := p.names.Clean("unit:"+string(unit)+":"+string(k), "Unit metadata", at)
		val := p.names.Clean(string(v), "Unit metadata value", at)
		if have, ok := s.config.units[key]; ok {
			if have.value != val {
				p.rep.Warn(kindUnitConflict, p.place(lineNo, "metadata %s of unit %s already set to %s at line %d; keeping it", k, unit, have.value, have.line))
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
		p.rep.Skip(kindInvalidUTF8, 1, p.place(lineNo, "result line is not valid UTF-8"))
		return
	}
	iters, err := strconv.ParseInt(string(f[1]), 10, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) {
			err = ne.Err
		}
		p.rep.Skip(kindBadIterations, 1, p.place(lineNo, "%s: iteration count %q: %v", f[0], f[1], err))
		return
	}
	if iters <= 0 {
		p.rep.Skip(kindBadIterations, 1, p.place(lineNo, "%s: iteration count %d, want ≥ 1", f[0], iters))
		return
	}
	if len(f) == 2 {
		p.rep.Skip(kindNoMeasurements, 1, p.place(lineNo, "%s: no measurements after the iteration count", f[0]))
		return
	}
	if len(f)%2 != 0 {
		p.rep.Skip(kindMissingUnit, 1, p.place(lineNo, "%s: value %q has no unit", f[0], f[len(f)-1]))
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
			p.rep.Skip(kindBadValue, 1, p.place(lineNo, "%s: value %q of unit %s is not a number", f[0], f[i], f[i+1]))
			return
		}
		unit := p.names.Clean(p.intern(f[i+1]), "unit", ingest.ParseError{File: p.file, Line: lineNo})
		// A custom metric overrides a standard one of the same unit.
		if j, dup := p.unitIndex(from, unit); dup {
			p.values[j].v = v
			p.rep.Warn(kindDuplicateUnit, p.place(lineNo, "%s: unit %s appears twice; keeping the last value", f[0], unit))
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
	p.results.add(result{
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
