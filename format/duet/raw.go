package duet

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/linecap"
	"github.com/benchtrim/benchtrim/table"
)

// More report kinds, of the directory reader.
const (
	kindNotResult    = "not a duetbench result file (ignored)"
	kindUnknownSuite = "suite without a reader (ignored)"
	kindBadResult    = "unreadable result file (left out)"
	kindFirstScheme  = "first-scheme result name BENCH.RUNID.PAIR.results.json (read as renaissance duet, order None)"
	kindOldDaCapo    = "DaCapo/ScalaBench without start_unix (times placed at the date artifact, approximate)"
	kindRateUnpaired = "SPEC Rate Start without Rate End (or the reverse)"
	kindBadArtifact  = "artifact that is not text (NUL bytes, invalid UTF-8 or over 64 KiB; stored as \"\")"
	kindBadDate      = "date artifact that is not an output of date(1) (kept; not used to place times)"
)

// fileName is duetbench's result name (duet/config.py::ResultFile):
// SUITE.BENCHMARK.RUNID.TYPE.ORDER.PAIR.RESULT, with '.' in suite and
// benchmark written as '_'.
var fileName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([a-zA-Z0-9_-]+)\.([a-zA-Z0-9_-]+)\.(\d+)\.(duet|seqn|syncduet)\.(AB|BA|None)\.([AB])\.(.*)$`)
})

// firstSchemeName is the name of the first duetbench (asynchronous-duet
// 557308c, duet/process_renaissance.py): Renaissance only, asynchronous
// duet only, BENCHMARK.RUNID.PAIR.results.json.
var firstSchemeName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([a-zA-Z0-9_-]+)\.(\d+)\.([AB])\.results\.json$`) })

// artifactsDir is the folder of artifacts in a duetbench output directory.
const artifactsDir = "artifacts"

// isInvocation reports whether dir is one duetbench output directory: it
// holds artifacts/ or a result named as duetbench names them.
func isInvocation(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		n := e.Name()
		if n == artifactsDir && e.IsDir() || fileName().MatchString(n) || firstSchemeName().MatchString(n) {
			return true
		}
	}
	return false
}

// SniffDir reports whether dir is a duetbench output directory (it holds
// artifacts/ or a file named SUITE.BENCH.RUNID.TYPE.ORDER.PAIR.*) or a
// directory of nothing but such directories.
func (format) SniffDir(dir string) bool {
	if isInvocation(dir) {
		return true
	}
	return len(subInvocations(dir)) > 0
}

// subInvocations lists the duetbench output directories inside dir when
// every entry of dir but hidden ones (.name) is one, else nil: a folder
// that also holds other results is not taken for a duet data set.
func subInvocations(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if !e.IsDir() || !isInvocation(p) {
			return nil
		}
		out = append(out, p)
	}
	return out
}

// ReadDir reads a duetbench output directory (FORMAT.md §A1–A2), or a
// directory holding only such directories (one invocation each, read in
// name order; hidden entries are passed over), and appends its rows and setups to dst as
// Read does for a CSV. Every result of one directory gets the artifacts of
// its artifacts/ folder. A directory that cannot be listed is an error;
// result files that cannot be read are left out and counted in rep.
func (format) ReadDir(dir string, src ingest.Source, dst *table.Builder, rep *ingest.Summary) error {
	src.File = dir
	c := newCollector(src, rep)
	dirs := []string{dir}
	if !isInvocation(dir) {
		if dirs = subInvocations(dir); len(dirs) == 0 {
			if _, err := os.ReadDir(dir); err != nil {
				return fmt.Errorf("%s: %w", dir, err)
			}
			return &ingest.ParseError{File: dir, Msg: "not a duetbench output directory: no artifacts/ and no result named SUITE.BENCH.RUNID.TYPE.ORDER.PAIR.* (nor a folder of nothing but such directories)"}
		}
	}
	for _, d := range dirs {
		if err := readInvocation(d, c); err != nil {
			return err
		}
	}
	if c.nrecs == 0 {
		rep.Warn(kindNoRows, &ingest.ParseError{File: dir, Msg: "no iterations read"})
	}
	c.finish(dst)
	return nil
}

// readInvocation reads one duetbench output directory into c.
func readInvocation(dir string, c *collector) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	a, haveDate, dateNs := readArtifacts(dir, c)
	inst := c.instance(a, ingest.ParseError{File: filepath.Join(dir, artifactsDir)})
	var firstScheme []string
	for _, e := range entries {
		name := e.Name()
		path := filepath.Join(dir, name)
		if name == artifactsDir {
			continue
		}
		var rf resultFile
		if m := fileName().FindStringSubmatch(name); m != nil {
			rf = resultFile{path: path, suite: m[1], bench: m[2], typ: m[4], order: m[5], pair: m[6]}
			rf.runid, _ = strconv.ParseInt(m[3], 10, 64)
		} else if m := firstSchemeName().FindStringSubmatch(name); m != nil && !e.IsDir() {
			rf = resultFile{path: path, suite: "renaissance", bench: m[1], typ: "duet", order: "None", pair: m[3]}
			rf.runid, _ = strconv.ParseInt(m[2], 10, 64)
			firstScheme = append(firstScheme, name)
		} else {
			c.warn(kindNotResult, &ingest.ParseError{File: path}, "name does not match SUITE.BENCH.RUNID.(duet|seqn|syncduet).(AB|BA|None).(A|B).RESULT")
			continue
		}
		if rf.runid >= math.MaxInt32 {
			c.skip(kindBadResult, &ingest.ParseError{File: path}, "runid %d out of range", rf.runid)
			continue
		}
		rf.inst, rf.haveDate, rf.dateNs = inst, haveDate, dateNs
		var err error
		switch rf.suite {
		case "renaissance":
			err = readRenaissance(&rf, c)
		case "dacapo", "scalabench":
			err = readDaCapo(&rf, c)
		case "speccpu":
			err = readSPEC(&rf, c)
		default:
			c.warn(kindUnknownSuite, &ingest.ParseError{File: path}, "suite %q has no reader (renaissance, dacapo, scalabench, speccpu)", rf.suite)
			continue
		}
		var pe *ingest.ParseError
		switch {
		case errors.As(err, &pe):
			c.rep.Skip(kindBadResult, 1, pe)
		case err != nil:
			return err
		}
	}
	if len(firstScheme) > 0 {
		c.warn(kindFirstScheme, &ingest.ParseError{File: dir}, "%d result(s) named BENCH.RUNID.PAIR.results.json (%s), as the first duetbench (asynchronous-duet 557308c) named Renaissance asynchronous-duet results",
			len(firstScheme), strings.Join(firstScheme, ", "))
	}
	return nil
}

// resultFile is one result of a duetbench directory, as its name says.
type resultFile struct {
	path                     string
	suite, bench, typ, order string
	pair                     string
	runid                    int64
	inst                     int32
	haveDate                 bool
	dateNs                   int64
}

func (rf *resultFile) record() record {
	return record{suite: rf.suite, bench: rf.bench, typ: rf.typ, order: rf.order, pair: rf.pair,
		runid: rf.runid, inst: rf.inst, source: rf.path}
}

// maxArtifactBytes bounds what is read of one artifact file, and
// maxArtifactText the size of one that is taken for a command's output:
// lscpu and meminfo print a few KiB, date, hostname and uname a line.
const (
	maxArtifactBytes = 1 << 20
	maxArtifactText  = 64 << 10
)

// readArtifacts reads dir/artifacts as duet/parsers_artifact.py does:
// date, hostname and uname stripped whole, lscpu the text after "Model
// name:", meminfo the text after "MemTotal:"; a missing one is "". The
// environment is derived from the hostname. dateNs is the date's epoch
// time (for DaCapo results without start_unix) when it parses.
func readArtifacts(dir string, c *collector) (a artifacts, haveDate bool, dateNs int64) {
	adir := filepath.Join(dir, artifactsDir)
	if fi, err := os.Stat(adir); err != nil || !fi.IsDir() {
		c.warn(kindNoArtifacts, &ingest.ParseError{File: dir}, "no %s/ folder", artifactsDir)
		return a, false, 0
	}
	read := func(name string) string {
		path := filepath.Join(adir, name)
		f, err := os.Open(path)
		if err != nil {
			return ""
		}
		defer f.Close()
		b, _ := io.ReadAll(io.LimitReader(f, maxArtifactBytes+1))
		if why := notText(b); why != "" {
			c.warn(kindBadArtifact, &ingest.ParseError{File: path}, "%s: not the output of %s, stored as \"\"", why, name)
			return ""
		}
		return string(b)
	}
	a.Date = strings.TrimSpace(read("date"))
	a.Hostname = strings.TrimSpace(read("hostname"))
	a.Uname = strings.TrimSpace(read("uname"))
	a.Lscpu = afterLabel(read("lscpu"), "Model name:")
	a.Meminfo = afterLabel(read("meminfo"), "MemTotal:")
	a.Environment = environment(a.Hostname)
	if a.Date != "" {
		t, err := parseDate(a.Date)
		if err == nil {
			return a, true, t.UnixNano()
		}
		c.warn(kindBadDate, &ingest.ParseError{File: filepath.Join(adir, "date")}, "%v", err)
	}
	return a, false, 0
}

// notText says why b, an artifact's bytes, is not the text output of a
// command (NUL bytes, invalid UTF-8, more than maxArtifactText bytes), or
// "" when it is.
func notText(b []byte) string {
	switch {
	case bytes.IndexByte(b, 0) >= 0:
		return fmt.Sprintf("NUL byte at offset %d", bytes.IndexByte(b, 0))
	case len(b) > maxArtifactBytes:
		return fmt.Sprintf("more than %d bytes", maxArtifactBytes)
	case len(b) > maxArtifactText:
		return fmt.Sprintf("%d bytes (more than %d)", len(b), maxArtifactText)
	case !utf8.Valid(b):
		return "invalid UTF-8"
	}
	return ""
}

// afterLabel is the text of the first line holding label between its first
// and second ':' (Python's line.split(":")[1]), stripped; "" when no line
// holds it.
func afterLabel(text, label string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, label) {
			parts := strings.Split(l, ":")
			return strings.TrimSpace(parts[1])
		}
	}
	return ""
}

// dateLayouts are the outputs of date(1) ParseDate accepts, after runs of
// spaces are collapsed: the C locale, a 12-hour locale (en_US), and numeric
// zones.
var dateLayouts = []string{
	"Mon Jan 2 15:04:05 MST 2006",
	"Mon Jan 2 03:04:05 PM MST 2006",
	"Mon 2 Jan 15:04:05 MST 2006",
	"Mon 2 Jan 03:04:05 PM MST 2006",
	"Mon Jan 2 15:04:05 -0700 2006",
	"Mon 2 Jan 2006 15:04:05 MST",
	"Mon 2 Jan 2006 03:04:05 PM MST",
	time.RFC3339Nano,
}

// parseDate parses the output of date(1), the date artifact. A zone
// abbreviation other than UTC or GMT counts as UTC (the wall clock is read
// as UTC), as pandas.to_datetime does with abbreviations it does not know
// (duet/parsers_benchmark.py::post_process_dacapo): "Sun May 15 07:32:04
// PM CEST 2022" is 2022-05-15T19:32:04Z.
func parseDate(s string) (time.Time, error) {
	s = strings.Join(strings.Fields(s), " ")
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			if l != time.RFC3339Nano && !strings.Contains(l, "-0700") {
				// A fabricated zone of an unknown abbreviation has offset 0;
				// a known one (UTC) too. Drop it either way.
				t = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, time.UTC)
			}
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("date %q: not an output of date(1)", s)
}

// readRenaissance reads a Renaissance --json result (format_version 5):
// iteration k of data.BENCH.results has start = environment.vm.start_unix_ms·10⁶
// + uptime_ns and time duration_ns (duet/parsers_benchmark.py::process_renaissance).
func readRenaissance(rf *resultFile, c *collector) error {
	f, err := os.Open(rf.path)
	if err != nil {
		return &ingest.ParseError{File: rf.path, Msg: err.Error()}
	}
	defer f.Close()
	var doc struct {
		Data map[string]struct {
			Results []struct {
				DurationNs *json.Number `json:"duration_ns"`
				UptimeNs   *json.Number `json:"uptime_ns"`
			} `json:"results"`
		} `json:"data"`
		Environment struct {
			VM struct {
				StartUnixMs *json.Number `json:"start_unix_ms"`
			} `json:"vm"`
		} `json:"environment"`
	}
	dec := json.NewDecoder(bufio.NewReader(f))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return &ingest.ParseError{File: rf.path, Msg: fmt.Sprintf("not a Renaissance JSON result: %v (at byte %d)", err, se.Offset)}
		}
		return &ingest.ParseError{File: rf.path, Msg: "not a Renaissance JSON result: " + err.Error()}
	}
	if doc.Environment.VM.StartUnixMs == nil {
		return &ingest.ParseError{File: rf.path, Path: "$.environment.vm.start_unix_ms", Msg: "missing: the VM start time places the iterations"}
	}
	vmStart, err := numberNs(*doc.Environment.VM.StartUnixMs, 1e6)
	if err != nil {
		return &ingest.ParseError{File: rf.path, Path: "$.environment.vm.start_unix_ms", Msg: err.Error()}
	}
	keys := make([]string, 0, len(doc.Data))
	for k := range doc.Data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		return &ingest.ParseError{File: rf.path, Path: "$.data", Msg: "no benchmark"}
	}
	if len(keys) > 1 {
		// Keep the one the file name names; duetprocess would pool them all
		// under that name.
		var match []string
		for _, k := range keys {
			if strings.ReplaceAll(k, ".", "_") == rf.bench {
				match = append(match, k)
			}
		}
		if len(match) != 1 {
			return &ingest.ParseError{File: rf.path, Path: "$.data", Msg: fmt.Sprintf("%d benchmarks (%s); a duet result holds one, the file name's %s", len(keys), strings.Join(keys, ", "), rf.bench)}
		}
		keys = match
	}
	for k, it := range doc.Data[keys[0]].Results {
		r := rf.record()
		r.path = fmt.Sprintf("$.data[%q].results[%d]", keys[0], k)
		r.iter = int64(k)
		if it.DurationNs == nil || it.UptimeNs == nil {
			c.skip(kindMissingValue, r.at(), "duration_ns or uptime_ns missing")
			continue
		}
		d, err1 := numberNs(*it.DurationNs, 1)
		up, err2 := numberNs(*it.UptimeNs, 1)
		if err := errors.Join(err1, err2); err != nil {
			c.skip(kindBadNumber, r.at(), "%v", err)
			continue
		}
		r.timeNs = float64(d)
		r.start = vmStart + up
		r.end = r.start + d
		c.add(r)
	}
	return nil
}

// numberNs is n·scale as integer nanoseconds (rounded).
func numberNs(n json.Number, scale int64) (int64, error) {
	if v, err := n.Int64(); err == nil && v < math.MaxInt64/scale && v > math.MinInt64/scale {
		return v * scale, nil
	}
	f, err := n.Float64()
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f*float64(scale)) >= 1<<63 {
		return 0, fmt.Errorf("%s is not a number of the nanosecond range", n.String())
	}
	return int64(math.Round(f * float64(scale))), nil
}

// epoch2000 is 2000-01-01T00:00:00Z in ns: DaCapo starts below it are
// harness times, not epoch times (post_process_dacapo).
const epoch2000 = 946684800 * int64(time.Second)

// readDaCapo reads a DaCapo or ScalaBench result CSV of the D3S harnesses
// (-o results.csv): one row per iteration, iteration = row number
// (1-based), time iteration_time_ns, start start_unix·10⁶ (ms) or, for
// old jars, total_ms·10⁶ plus the epoch of the date artifact
// (duet/parsers_benchmark.py::process_dacapo, post_process_dacapo).
func readDaCapo(rf *resultFile, c *collector) error {
	f, err := os.Open(rf.path)
	if err != nil {
		return &ingest.ParseError{File: rf.path, Msg: err.Error()}
	}
	defer f.Close()
	cr := csv.NewReader(bufio.NewReader(linecap.NewCSVReader(f)))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
		if err == io.EOF {
			return &ingest.ParseError{File: rf.path, Msg: "empty file"}
		}
		return &ingest.ParseError{File: rf.path, Line: 1, Msg: "header: " + err.Error()}
	}
	head = append([]string(nil), head...) // ReuseRecord: the next Read overwrites it
	idx := map[string]int{}
	for i, h := range head {
		idx[strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))] = i
	}
	iTime, ok := idx["iteration_time_ns"]
	if !ok {
		return &ingest.ParseError{File: rf.path, Line: 1, Msg: "header lacks iteration_time_ns"}
	}
	iStart, newJar := idx["start_unix"]
	if !newJar {
		if iStart, ok = idx["total_ms"]; !ok {
			return &ingest.ParseError{File: rf.path, Line: 1, Msg: "header lacks start_unix and total_ms: no iteration start"}
		}
	}
	warned := false
	for n := int64(1); ; n++ {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		line, _ := cr.FieldPos(0)
		r := rf.record()
		r.iter, r.line = n, int64(line)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				c.skip(kindMalformedCSV, &ingest.ParseError{File: rf.path, Line: pe.StartLine}, "%v", pe.Err)
				continue
			}
			return fmt.Errorf("%s: %w", rf.path, err)
		}
		if len(rec) != len(head) {
			c.skip(kindFieldCount, r.at(), "row has %d fields, want %d", len(rec), len(head))
			continue
		}
		t, err := parseFloat(strings.TrimSpace(rec[iTime]))
		if err != nil {
			c.skip(kindBadNumber, r.at(), "iteration_time_ns: %v", err)
			continue
		}
		start, err := decimalNs(rec[iStart], 6)
		if err != nil {
			c.skip(kindBadNumber, r.at(), "%s: %v", head[iStart], err)
			continue
		}
		if start < epoch2000 {
			if !rf.haveDate {
				c.skip(kindOldDaCapo, r.at(), "start %s = %s ms is harness time, and the date artifact is missing or unreadable", head[iStart], rec[iStart])
				continue
			}
			if !warned {
				warned = true
				c.warn(kindOldDaCapo, r.at(), "no start_unix column: starts are total_ms after the date artifact")
			}
			start += rf.dateNs
		}
		r.timeNs = t
		r.start = start
		r.end = start + int64(math.Round(t))
		c.add(r)
	}
}

// rateRE matches a Rate Start/End line of a duet log; like every regexp
// here it is compiled on first use, not at every command's start-up.
var rateRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`Rate (Start|End):.*\(([^()]*)\)`) })

// readSPEC reads a SPEC CPU 2017 result directory: its one *002.log holds
// "Rate Start: DATE (EPOCH)" and "Rate End: DATE (EPOCH)" lines, the k-th
// pair being iteration k (0-based) with time end − start
// (duet/parsers_benchmark.py::process_spec). Epoch seconds are read as
// decimals, exactly (the reference rounds them through float64, ±256 ns).
func readSPEC(rf *resultFile, c *collector) error {
	logs, _ := filepath.Glob(filepath.Join(escapeGlob(rf.path), "*002.log"))
	if len(logs) != 1 {
		return &ingest.ParseError{File: rf.path, Msg: fmt.Sprintf("a SPEC CPU result directory holds one *002.log, found %d", len(logs))}
	}
	f, err := os.Open(logs[0])
	if err != nil {
		return &ingest.ParseError{File: logs[0], Msg: err.Error()}
	}
	defer f.Close()
	type stamp struct {
		ns   int64
		line int64
	}
	var starts, ends []stamp
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for line := int64(1); sc.Scan(); line++ {
		m := rateRE().FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		ns, err := decimalNs(m[2], 9)
		if err != nil {
			c.skip(kindBadNumber, &ingest.ParseError{File: logs[0], Line: int(line)}, "Rate %s: %v", m[1], err)
			continue
		}
		if m[1] == "Start" {
			starts = append(starts, stamp{ns, line})
		} else {
			ends = append(ends, stamp{ns, line})
		}
	}
	if err := sc.Err(); err != nil {
		return &ingest.ParseError{File: logs[0], Msg: err.Error()}
	}
	n := min(len(starts), len(ends))
	if len(starts) != len(ends) {
		c.warn(kindRateUnpaired, &ingest.ParseError{File: logs[0]}, "%d Rate Start and %d Rate End lines; the first %d pairs are read", len(starts), len(ends), n)
	}
	for k := 0; k < n; k++ {
		r := rf.record()
		r.source, r.line, r.iter = logs[0], starts[k].line, int64(k)
		r.start, r.end = starts[k].ns, ends[k].ns
		r.timeNs = float64(r.end - r.start)
		c.add(r)
	}
	return nil
}

// decimalNs parses a decimal number of units of 10^digits ns ("1654092292.28303"
// seconds with digits 9, "1652636049905.5" ms with digits 6) as
// nanoseconds without rounding through a float; other spellings (an
// exponent) go through float64.
func decimalNs(s string, digits int) (int64, error) {
	s = strings.TrimSpace(s)
	scale := int64(1)
	for i := 0; i < digits; i++ {
		scale *= 10
	}
	whole, frac, _ := strings.Cut(s, ".")
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || strings.HasPrefix(whole, "+") || strings.HasPrefix(frac, "+") || strings.HasPrefix(frac, "-") {
		f, ferr := parseFloat(s)
		if ferr != nil || math.IsInf(f, 0) || math.Abs(f*float64(scale)) >= 1<<62 {
			return 0, fmt.Errorf("%q is not a number", s)
		}
		return int64(math.Round(f * float64(scale))), nil
	}
	if w < 0 || w > math.MaxInt64/scale-1 {
		return 0, fmt.Errorf("%q is out of range", s)
	}
	if len(frac) > digits {
		frac = frac[:digits]
	}
	var ns int64
	if frac != "" {
		v, err := strconv.ParseUint(frac, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%q is not a number", s)
		}
		ns = int64(v)
		for i := len(frac); i < digits; i++ {
			ns *= 10
		}
	}
	return w*scale + ns, nil
}

// escapeGlob escapes the glob metacharacters of a literal path.
func escapeGlob(p string) string {
	return strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`, `\`, `\\`).Replace(p)
}
