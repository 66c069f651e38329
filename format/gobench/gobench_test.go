package gobench

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/table"
)

func readPath(t *testing.T, path string, src ingest.Source) (*table.Table, *ingest.Summary, error) {
	t.Helper()
	return ingesttest.ReadFile(t, gobenchFormat{}, path, src)
}

func readFrom(t *testing.T, r io.Reader, src ingest.Source) (*table.Table, *ingest.Summary, error) {
	t.Helper()
	return ingesttest.Read(t, gobenchFormat{}, r, src)
}

func rowsOf(t *testing.T, tab *table.Table) []table.Row { t.Helper(); return ingesttest.Rows(t, tab) }

var (
	examples   = ingesttest.Examples
	reportText = ingesttest.ReportText
)

// pairsInText counts the value/unit pairs of the result lines of a text
// file with a plain field splitter (independent of the parser).
func pairsInText(t *testing.T, path string) (lines, pairs int) {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 4 && strings.HasPrefix(f[0], "Benchmark") {
			lines++
			pairs += (len(f) - 2) / 2
		}
	}
	return lines, pairs
}

// find returns the rows of benchmark/params with the given metric.
func find(rows []table.Row, bench, params, metric string) []table.Row {
	var out []table.Row
	for _, r := range rows {
		if r.Benchmark == bench && r.Params == params && r.Metric == metric {
			out = append(out, r)
		}
	}
	return out
}

func TestReadMulti(t *testing.T) {
	const f = "testdata/multi.txt"
	tab, rep, err := readPath(t, f, ingest.Source{Project: "mod", Version: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Empty() {
		t.Errorf("report:\n%s", reportText(rep))
	}
	rows := rowsOf(t, tab)
	nLines, nPairs := pairsInText(t, f)
	if nLines != 30 || len(rows) != nPairs {
		t.Fatalf("%d rows; the file has %d result lines with %d value/unit pairs", len(rows), nLines, nPairs)
	}
	enc := find(rows, "BenchmarkEncode", "size=1k", table.Primary)
	if len(enc) != 5 {
		t.Fatalf("BenchmarkEncode size=1k: %d primary rows, want 5", len(enc))
	}
	wantEnc := []struct {
		n    int64
		v    float64
		line int64
	}{{1000000, 1234, 5}, {998752, 1241, 6}, {987654, 1238, 7}, {1000000, 1229, 8}, {999999, 1240, 9}}
	for i, w := range wantEnc {
		r := enc[i]
		if r.Iteration != int32(i+1) || r.Count != w.n || r.Value != w.v || r.NsPerOp != w.v || r.Line != w.line ||
			r.Unit != "ns/op" || r.Mode != "go" || r.Fork != 1 || r.Instance != 1 || r.Trial != 1 || r.Slice != 1 ||
			r.Project != "mod" || r.Version != "v1" || r.Source != f {
			t.Errorf("BenchmarkEncode size=1k row %d = %+v, want iteration %d count %d value %v line %d", i, r, i+1, w.n, w.v, w.line)
		}
	}
	mbs := find(rows, "BenchmarkEncode", "size=64k", "MB/s")
	if len(mbs) != 5 || mbs[2].Value != 946.37 || mbs[2].Unit != "MB/s" || !math.IsNaN(mbs[2].NsPerOp) || mbs[2].Iteration != 3 || mbs[2].Count != 17302 {
		t.Errorf("MB/s rows %+v", mbs)
	}
	dec := find(rows, "BenchmarkDecode/fast", "level=speed,text=digits", "items/s")
	if len(dec) != 5 || dec[0].Value != 4.150e+06 || dec[4].Value != 4.141e+06 {
		t.Errorf("custom metric items/s rows %+v", dec)
	}
	tiny := find(rows, "BenchmarkTiny", "", table.Primary)
	if len(tiny) != 5 || tiny[0].Value != 0.4012 || tiny[0].Count != 1000000000 {
		t.Errorf("BenchmarkTiny rows %+v", tiny)
	}
	if allocs := find(rows, "BenchmarkTiny", "", "allocs/op"); len(allocs) != 5 || allocs[0].Value != 0 {
		t.Errorf("zero allocs/op must be kept: %+v", allocs)
	}
	if p99 := find(rows, "BenchmarkGet", "", "p99-ns"); len(p99) != 5 || p99[2].Value != 830.1 || p99[2].Line != 35 {
		t.Errorf("p99-ns rows %+v", p99)
	}
	if scan := find(rows, "BenchmarkScan/rows_100#01", "", table.Primary); len(scan) != 5 || scan[4].Value != 61300 {
		t.Errorf("BenchmarkScan rows %+v", scan)
	}

	if len(tab.Setups) != 6 {
		t.Errorf("%d setups, want 6", len(tab.Setups))
	}
	// go test's own time per line of the codec run: its printed wall time
	// 42.117 s less Σ N × ns/op of its 20 result lines, over 20.
	var codecNs float64
	for _, r := range rows {
		if r.Metric == table.Primary && r.Line <= 26 {
			codecNs += float64(r.Count) * r.NsPerOp
		}
	}
	harness := strconv.FormatFloat(math.Round((42.117e9-codecNs)/20), 'f', -1, 64)
	wantSetup := table.Setup{
		Key:  table.Key{Project: "mod", Version: "v1", Benchmark: "BenchmarkEncode", Params: "size=1k", Mode: "go"},
		Name: "BenchmarkEncode/size=1k", Tool: "go", Forks: 1, Source: f + ":5",
		Env: map[string]string{"goos": "linux", "goarch": "amd64", "pkg": "example.com/mod/codec",
			"cpu": "Intel(R) Xeon(R) CPU @ 2.20GHz", "gomaxprocs": "8", table.EnvHarnessNsPerLine: harness, table.EnvBenchmem: "true"},
	}
	if got := tab.Setup(wantSetup.Key); got == nil || !reflect.DeepEqual(*got, wantSetup) {
		t.Errorf("setup\n got %+v\nwant %+v", got, wantSetup)
	}
	get := tab.Setup(table.Key{Project: "mod", Version: "v1", Benchmark: "BenchmarkGet", Mode: "go"})
	if get == nil || get.Env["pkg"] != "example.com/mod/store" || get.Env["gomaxprocs"] != "8" {
		t.Errorf("BenchmarkGet setup %+v: want pkg example.com/mod/store", get)
	}
	// The name as printed, key=value parts in place, where Benchmark and
	// Params do not give it back; "" where they do.
	if dec := tab.Setup(table.Key{Project: "mod", Version: "v1", Benchmark: "BenchmarkDecode/fast", Params: "level=speed,text=digits", Mode: "go"}); dec == nil || dec.Name != "BenchmarkDecode/text=digits/level=speed/fast" {
		t.Errorf("BenchmarkDecode setup %+v: want its printed name", dec)
	}
	if get.Name != "" {
		t.Errorf("BenchmarkGet setup: name %q, want none (the benchmark is its name)", get.Name)
	}
}

// TestReadJSON reads the -json form of multi.txt (every result line split
// over two events, as go test prints it) and wants the same rows.
func TestReadJSON(t *testing.T) {
	text, _, err := readPath(t, "testdata/multi.txt", ingest.Source{})
	if err != nil {
		t.Fatal(err)
	}
	js, rep, err := readPath(t, "testdata/multi.json", ingest.Source{})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Empty() {
		t.Errorf("report:\n%s", reportText(rep))
	}
	a, b := rowsOf(t, text), rowsOf(t, js)
	if len(a) != len(b) {
		t.Fatalf("%d rows from text, %d from -json", len(a), len(b))
	}
	for i := range a {
		x, y := a[i], b[i]
		if y.Source != "testdata/multi.json" || y.Line < 6 {
			t.Errorf("json row %d place %s:%d", i, y.Source, y.Line)
		}
		x.Source, x.Line, y.Source, y.Line = "", 0, "", 0
		if math.IsNaN(x.NsPerOp) && math.IsNaN(y.NsPerOp) {
			x.NsPerOp, y.NsPerOp = 0, 0
		}
		if x != y {
			t.Errorf("row %d: text %+v, json %+v", i, x, y)
		}
	}
	if b[0].Line != 6 {
		t.Errorf("first result at json line %d, want 6 (where its name event is)", b[0].Line)
	}
	if len(text.Setups) != len(js.Setups) {
		t.Fatalf("setups %d vs %d", len(text.Setups), len(js.Setups))
	}
	for i := range text.Setups {
		x, y := text.Setups[i], js.Setups[i]
		x.Source, y.Source = "", ""
		if !reflect.DeepEqual(x, y) {
			t.Errorf("setup %d: text %+v, json %+v", i, x, y)
		}
	}
}

// TestReadJSONTimes: in a real go test -json stream (testdata/timed.json,
// `go test -json -bench . -benchtime 20x -count 2` of a package with a
// 0.3 s test that ran twice before two sub-benchmarks), the events'
// times give the binary's start-up and exit (from its start event to the
// next, from its PASS line to go test's ok line) and go test's time per
// result line from the benchmarks' part of the run alone, without the
// tests (from goos: to PASS).
func TestReadJSONTimes(t *testing.T) {
	tab, rep, err := readPath(t, "testdata/timed.json", ingest.Source{})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Empty() {
		t.Errorf("report:\n%s", reportText(rep))
	}
	at := func(s string) int64 {
		ts, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return ts.UnixNano()
	}
	// From the start event to the test's run event, and from PASS to ok.
	startup := float64(at("2026-12-01T22:47:32.088477785Z")-at("2026-12-01T22:47:32.086019815Z")) +
		float64(at("2026-12-01T22:47:32.931772264Z")-at("2026-12-01T22:47:32.896410569Z"))
	lines := 20.0 * (1091665 + 1088268 + 2155665 + 2176577)
	// From goos: to PASS, less the benchmarks' loops, over 4 lines.
	harness := (float64(at("2026-12-01T22:47:32.896410569Z")-at("2026-12-01T22:47:32.701447583Z")) - lines) / 4
	for _, sub := range []string{"BenchmarkSleep/1ms", "BenchmarkSleep/2ms"} {
		s := tab.Setup(table.Key{Benchmark: sub, Mode: "go"})
		if s == nil {
			t.Fatalf("no setup for %s", sub)
		}
		if got, want := s.Env[table.EnvStartupNs], strconv.FormatFloat(math.Round(startup), 'f', -1, 64); got != want {
			t.Errorf("%s: startup %s ns, want %s", sub, got, want)
		}
		if got, want := s.Env[table.EnvHarnessNsPerLine], strconv.FormatFloat(math.Round(harness), 'f', -1, 64); got != want {
			t.Errorf("%s: harness %s ns per line, want %s (the printed 0.845 s would give %.0f)", sub, got, want, (0.845e9-lines)/4)
		}
		if s.Env[table.EnvBenchmem] != "" {
			t.Errorf("%s: benchmem without B/op", sub)
		}
	}
}

func TestReadInterleavedJSON(t *testing.T) {
	const f = "testdata/interleaved.json"
	tab, rep, err := readPath(t, f, ingest.Source{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rowsOf(t, tab) {
		got = append(got, fmt.Sprintf("%s#%d=%v@%d", r.Benchmark, r.Iteration, r.Value, r.Line))
	}
	want := []string{"BenchmarkB#1=30@5", "BenchmarkA#1=10@4", "BenchmarkA#2=11@7", "BenchmarkA#3=12@11"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
	if rep.Count(kindBadJSON) != 1 || !strings.HasPrefix(examples(rep, kindBadJSON), f+":9: ") {
		t.Errorf("malformed event report: %q", examples(rep, kindBadJSON))
	}
	if s := tab.Setup(table.Key{Benchmark: "BenchmarkB", Mode: "go"}); s == nil || s.Env["pkg"] != "example.com/b" {
		t.Errorf("BenchmarkB setup %+v, want pkg example.com/b (configuration per package)", s)
	}
}

func TestReadBadLines(t *testing.T) {
	const f = "testdata/bad.txt"
	tab, rep, err := readPath(t, f, ingest.Source{})
	if err != nil {
		t.Fatal(err)
	}
	skips := []ingesttest.Skipped{
		{Kind: kindBadIterations, Lines: []int{3, 4, 5, 21}, Msg: `BenchmarkAbc-4: iteration count "abc": invalid syntax`},
		{Kind: kindNoMeasurements, Lines: []int{6}, Msg: "BenchmarkNoMeas-4: no measurements"},
		{Kind: kindMissingUnit, Lines: []int{7}, Msg: `BenchmarkOdd-4: value "7" has no unit`},
		{Kind: kindBadValue, Lines: []int{8}, Msg: `value "5x" of unit ns/op is not a number`},
		{Kind: "NaN value", Lines: []int{9}, Msg: "BenchmarkNaN-4: NaN ns/op"},
		{Kind: "infinite value (an iteration with zero operations?)", Lines: []int{10}, Msg: "BenchmarkInf-4: +Inf ns/op"},
		{Kind: "zero time", Lines: []int{11}, Msg: "BenchmarkZero-4: 0 ns/op"},
		{Kind: "negative time", Lines: []int{12}, Msg: "BenchmarkNeg-4: -1 ns/op"},
		{Kind: kindNonFiniteMetric, Lines: []int{15}, Msg: "NaN p50-ns"},
		{Kind: kindInvalidUTF8, Lines: []int{23}, Msg: "not valid UTF-8"},
	}
	ingesttest.CheckSkipped(t, rep, f, skips)
	warns := []struct {
		kind string
		want string
	}{
		{kindNoTime, f + ":13: BenchmarkNoTime-4: no <time>/op value; its other metrics are kept"},
		{kindDuplicateUnit, f + ":16: BenchmarkDupUnit-4: unit ns/op appears twice; keeping the last value"},
		{kindUnitConflict, f + ":18: metadata better of unit ns/op already set to lower at line 17; keeping it"},
		{kindBadUnitLine, f + ":19: Unit line without a unit\n" + f + `:20: Unit B/op: "nokey" is not key=value`},
		{kindMixedConfig, f + `:25: BenchmarkOK (go): configuration note changed from "" to "hello" (the setup keeps the configuration of line 2)`},
	}
	for _, w := range warns {
		if got := examples(rep, w.kind); got != w.want {
			t.Errorf("%s:\n got %q\nwant %q", w.kind, got, w.want)
		}
	}
	var got []string
	for _, r := range rowsOf(t, tab) {
		got = append(got, fmt.Sprintf("%s#%d %s %v %v@%d", r.Benchmark, r.Iteration, r.Metric, r.Value, r.NsPerOp, r.Line))
	}
	want := []string{
		"BenchmarkOK#1 primary 50 50@2", "BenchmarkOK#1 B/op 8 NaN@2",
		"BenchmarkNaN#1 B/op 8 NaN@9",
		"BenchmarkNoTime#1 B/op 8 NaN@13", "BenchmarkNoTime#1 allocs/op 1 NaN@13",
		"BenchmarkSec#1 primary 1.5e-06 1500@14", "BenchmarkSec#1 widgets 3 NaN@14",
		"BenchmarkCustomNaN#1 primary 5 5@15",
		"BenchmarkDupUnit#1 primary 6 6@16",
		"BenchmarkOK#2 primary 52 52@25", "BenchmarkOK#2 B/op 8 NaN@25",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows\n got %q\nwant %q", got, want)
	}
	ok := tab.Setup(table.Key{Benchmark: "BenchmarkOK", Mode: "go"})
	if ok == nil || ok.Env["note"] != "" || ok.Env["gomaxprocs"] != "4" {
		t.Errorf("BenchmarkOK setup %+v: want the configuration of its first result", ok)
	}
	if s := tab.Setup(table.Key{Benchmark: "BenchmarkDupUnit", Mode: "go"}); s == nil || s.Env["unit:ns/op:better"] != "" {
		t.Errorf("Unit metadata must apply only to following results: %+v", s)
	}
	if s := tab.Setup(table.Key{Benchmark: "BenchmarkOK", Mode: "go"}); s == nil {
		t.Error("no setup for BenchmarkOK")
	}
}

// TestNamesBenchfmtReads reads every name benchfmt reads as a result, in
// text and in a go test -json stream: any line that starts with
// "Benchmark" (go test runs Benchmark_Parse, Benchmark1KB, Benchmark日本語;
// benchfmt reads even Benchmarklower), and counts the one that does not
// parse as a result.
func TestNamesBenchfmtReads(t *testing.T) {
	const text = "pkg: example.com/p\nBenchmark_Parse-8 1000 120 ns/op\nBenchmark1KB-8 1000 130 ns/op\n" +
		"BenchmarkParse-8 1000 140 ns/op\nBenchmark日本語-8 1000 150 ns/op\nBenchmarklower 1000 160 ns/op\n" +
		"Benchmarking is fun\nBenchmark01CallOverhead-4\n"
	var js strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if l != "" {
			fmt.Fprintf(&js, `{"Action":"output","Package":"example.com/p","Output":%q}`+"\n", l)
		}
	}
	want := []string{"Benchmark_Parse 120@2", "Benchmark1KB 130@3", "BenchmarkParse 140@4", "Benchmark日本語 150@5", "Benchmarklower 160@6"}
	for _, in := range []struct{ name, data string }{{"g.txt", text}, {"g.json", js.String()}} {
		tab, rep, err := readFrom(t, strings.NewReader(in.data), ingest.Source{File: in.name})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range rowsOf(t, tab) {
			got = append(got, fmt.Sprintf("%s %v@%d", r.Benchmark, r.Value, r.Line))
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: rows %q, want %q", in.name, got, want)
		}
		// The bare name of go test -v (line 8) is no result; line 7 is one
		// that does not parse, as benchfmt reports it.
		ingesttest.CheckSkipped(t, rep, in.name, []ingesttest.Skipped{
			{Kind: kindBadIterations, Lines: []int{7}, Msg: `Benchmarking: iteration count "is": invalid syntax`}})
	}
}

// TestIgnoredLinesCounted: the lines go test prints besides results,
// configuration and run ends (the tests' output, --- BENCH logs, a
// package without tests) are not data, and are counted as ignored with
// their places; blank lines and the bare name of go test -v are not
// counted, and the results are read as without them.
func TestIgnoredLinesCounted(t *testing.T) {
	const text = "PASS\nok  \texample.com/a\t0.1s\n?   \texample.com/a/cmd\t[no test files]\n" +
		"=== RUN   TestX\n    x_test.go:12: some log\n\n   \n" +
		"goos: linux\npkg: example.com/b\nBenchmarkB\nBenchmarkB-8 100 5 ns/op\n--- BENCH: BenchmarkB-8\n    b_test.go:9: n=100\n" +
		"BenchmarkB-8 100 6 ns/op\nPASS\nok  \texample.com/b\t1.2s\n"
	tab, rep, err := readFrom(t, strings.NewReader(text), ingest.Source{File: "g.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if rows := rowsOf(t, tab); len(rows) != 2 || rows[0].Value != 5 || rows[1].Value != 6 {
		t.Errorf("rows %+v", rows)
	}
	if !rep.Empty() || rep.IgnoredLines() != 5 {
		t.Fatalf("report (want 5 ignored lines, nothing else):\n%s", reportText(rep))
	}
	want := `g.txt:3: "?   \texample.com/a/cmd\t[no test files]"` + "\n" + `g.txt:4: "=== RUN   TestX"` + "\n" +
		`g.txt:5: "    x_test.go:12: some log"` + "\n" + `g.txt:12: "--- BENCH: BenchmarkB-8"` + "\n" + `g.txt:13: "    b_test.go:9: n=100"`
	if got := examples(rep, kindIgnoredLine); got != want {
		t.Errorf("ignored lines:\n got %s\nwant %s", got, want)
	}
}

func TestUnitMetadataInEnv(t *testing.T) {
	tab, rep, err := readFrom(t, strings.NewReader("Unit ns/op better=lower assume=exact\nBenchmarkX 10 5 ns/op\n"), ingest.Source{File: "u.txt"})
	if err != nil || !rep.Empty() {
		t.Fatalf("err %v report %s", err, reportText(rep))
	}
	s := tab.Setup(table.Key{Benchmark: "BenchmarkX", Mode: "go"})
	if s == nil || s.Env["unit:ns/op:better"] != "lower" || s.Env["unit:ns/op:assume"] != "exact" {
		t.Errorf("setup %+v, want unit metadata in Env", s)
	}
	if _, ok := s.Env["gomaxprocs"]; ok {
		t.Error("gomaxprocs recorded for a name without -N suffix")
	}
}

func TestSameNameInTwoPackages(t *testing.T) {
	tab, rep, err := readPath(t, "testdata/samename.txt", ingest.Source{})
	if err != nil || !rep.Empty() {
		t.Fatalf("err %v report %s", err, reportText(rep))
	}
	var got []string
	for _, r := range rowsOf(t, tab) {
		got = append(got, fmt.Sprintf("%s#%d=%v", r.Benchmark, r.Iteration, r.Value))
	}
	want := []string{"example.com/a.BenchmarkGet#1=10", "BenchmarkOnlyA#1=11", "example.com/a.BenchmarkGet#2=12",
		"example.com/b.BenchmarkGet#1=20", "example.com/b.BenchmarkGet#2=22"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
	// Configuration applies until it is set again: goos carries over to package b.
	s := tab.Setup(table.Key{Benchmark: "example.com/b.BenchmarkGet", Mode: "go"})
	if s == nil || s.Env["pkg"] != "example.com/b" || s.Env["goos"] != "linux" {
		t.Errorf("setup %+v, want pkg example.com/b and goos linux", s)
	}
}

func TestSeveralGOMAXPROCS(t *testing.T) {
	tab, rep, err := readPath(t, "testdata/cpus.txt", ingest.Source{})
	if err != nil || !rep.Empty() {
		t.Fatalf("err %v report %s", err, reportText(rep))
	}
	var got []string
	for _, r := range rowsOf(t, tab) {
		got = append(got, fmt.Sprintf("%s[%s]#%d=%v", r.Benchmark, r.Params, r.Iteration, r.Value))
	}
	want := []string{
		"BenchmarkPar[gomaxprocs=1,n=10]#1=40", "BenchmarkPar[gomaxprocs=2,n=10]#1=21", "BenchmarkPar[gomaxprocs=4,n=10]#1=11",
		"BenchmarkPar[gomaxprocs=1,n=10]#2=41", "BenchmarkPar[gomaxprocs=2,n=10]#2=22", "BenchmarkPar[gomaxprocs=4,n=10]#2=12",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
}

func TestCommitAsVersion(t *testing.T) {
	tab, rep, err := readPath(t, "testdata/commits.txt", ingest.Source{})
	if err != nil || !rep.Empty() {
		t.Fatalf("err %v report %s", err, reportText(rep))
	}
	var got []string
	for _, r := range rowsOf(t, tab) {
		got = append(got, fmt.Sprintf("%s@%s#%d=%v", r.Benchmark, r.Version, r.Iteration, r.Value))
	}
	want := []string{"BenchmarkX@abc123#1=10", "BenchmarkX@abc123#2=11", "BenchmarkX@def456#1=9"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
	if s := tab.Setup(table.Key{Version: "abc123", Benchmark: "BenchmarkX", Mode: "go"}); s == nil || s.ToolVersion != "go1.22.1" {
		t.Errorf("setup %+v, want tool version go1.22.1", s)
	}
	// The commit configuration wins over a file-name label, the user's label over both.
	tab2, _, _ := readPath(t, "testdata/commits.txt", ingest.Source{Version: "v9"})
	if rows := rowsOf(t, tab2); len(rows) != 3 || rows[2].Version != "def456" {
		t.Errorf("with a file-name Version: rows %+v", rows)
	}
	tab3, _, _ := readPath(t, "testdata/commits.txt", ingest.Source{Version: "v9", VersionFromUser: true})
	if rows := rowsOf(t, tab3); len(rows) != 3 || rows[2].Version != "v9" || rows[2].Iteration != 3 {
		t.Errorf("with the user's Version: rows %+v", rows)
	}
}

func TestReadEmpty(t *testing.T) {
	_, _, err := readPath(t, "testdata/empty.txt", ingest.Source{})
	var pe *ingest.ParseError
	if !errors.As(err, &pe) || pe.File != "testdata/empty.txt" || !strings.Contains(pe.Msg, "empty") {
		t.Errorf("err = %v, want a ParseError naming the file", err)
	}
	tab, rep, err := readFrom(t, strings.NewReader("PASS\nok  \tx\t1s\n"), ingest.Source{File: "none.txt"})
	if err != nil || tab.NumRows() != 0 || examples(rep, kindNoResults) != "none.txt: no benchmark result lines" {
		t.Errorf("no results: err %v rows %d report %s", err, tab.NumRows(), reportText(rep))
	}
}

var errDisk = errors.New("disk on fire")

func TestReadIOError(t *testing.T) {
	_, _, err := readFrom(t, ingesttest.ErrReader("BenchmarkX 10 5 ns/op\n", errDisk), ingest.Source{File: "io.txt"})
	if !errors.Is(err, errDisk) || !strings.HasPrefix(err.Error(), "io.txt:1: ") {
		t.Errorf("err = %v, want a wrapped %v with the place", err, errDisk)
	}
}

func TestLongLine(t *testing.T) {
	long := "BenchmarkLong 10 5 ns/op " + strings.Repeat("1 x/op ", maxLineBytes/7+1) + "\n"
	in := "BenchmarkA 10 5 ns/op\n" + long + "# " + strings.Repeat("y", maxLineBytes) + "\nBenchmarkB 10 6 ns/op\n"
	tab, rep, err := readFrom(t, strings.NewReader(in), ingest.Source{File: "long.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if tab.NumRows() != 2 || rep.SkippedRows() != 1 || rep.Count(kindLongLine) != 2 {
		t.Errorf("rows %d, report:\n%s", tab.NumRows(), reportText(rep))
	}
	if ex := examples(rep, kindLongLine); !strings.Contains(ex, "long.txt:2: result line longer") || !strings.Contains(ex, "long.txt:3: line longer") {
		t.Errorf("long line report %q", ex)
	}
}

func TestParseName(t *testing.T) {
	for _, tc := range []struct {
		in, base string
		params   map[string]string
		procs    int32
		hasProcs bool
	}{
		{"BenchmarkEncode/size=1k-8", "BenchmarkEncode", map[string]string{"size": "1k"}, 8, true},
		{"BenchmarkDecode/text=digits/level=speed/size=1e4", "BenchmarkDecode", map[string]string{"text": "digits", "level": "speed", "size": "1e4"}, 0, false},
		{"BenchmarkX/fast/n=2/slow-16", "BenchmarkX/fast/slow", map[string]string{"n": "2"}, 16, true},
		{"BenchmarkX/a=1/a=2", "BenchmarkX/a=2", map[string]string{"a": "1"}, 0, false},
		{"BenchmarkX/=v/k=a=b", "BenchmarkX/=v", map[string]string{"k": "a=b"}, 0, false},
		{"BenchmarkX-", "BenchmarkX-", nil, 0, false},
		{"BenchmarkX/offset-0", "BenchmarkX/offset-0", nil, 0, false}, // GOMAXPROCS ≥ 1: -0 is part of the name
		{"BenchmarkX-v2", "BenchmarkX-v2", nil, 0, false},
		{"BenchmarkX-99999999999", "BenchmarkX-99999999999", nil, 0, false},
		{"Benchmark", "Benchmark", nil, 0, false},
	} {
		n := parseName(tc.in)
		if n.base != tc.base || !reflect.DeepEqual(n.params, tc.params) || n.procs != tc.procs || n.hasProcs != tc.hasProcs {
			t.Errorf("parseName(%q) = %+v, want %q %v %d %v", tc.in, n, tc.base, tc.params, tc.procs, tc.hasProcs)
		}
	}
}

func TestParseKeyValue(t *testing.T) {
	for _, tc := range []struct {
		in, key, val string
		ok           bool
	}{
		{"goos: linux", "goos", "linux", true},
		{"cpu-count:\t8  ", "cpu-count", "8", true},
		{"note:", "note", "", true},
		{"note:x", "", "", false},
		{"BenchmarkGenerate: 6.6 MiB/op", "", "", false},
		{"ok  \tpkg\t1s", "", "", false},
		{"keyWith: upper", "", "", false},
		{"PASS", "", "", false},
		{"", "", "", false},
	} {
		k, v, ok := parseKeyValue([]byte(tc.in))
		if string(k) != tc.key || string(v) != tc.val || ok != tc.ok {
			t.Errorf("parseKeyValue(%q) = %q, %q, %v; want %q, %q, %v", tc.in, k, v, ok, tc.key, tc.val, tc.ok)
		}
	}
}

func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		head string
		want bool
	}{
		{"goos: linux\ngoarch: amd64\n", true},
		{"pkg: example.com/x\n", true},
		{"BenchmarkX-8   \t1000\t5 ns/op\n", true},
		{"Some preamble\nBenchmarkÄ 1 2 ns/op\n", true},
		{"BenchmarkVerbose\n", false},
		{"BenchmarkX-8 \t--- FAIL\n", false},
		{`{"Time":"2024-05-01T10:00:00Z","Action":"start","Package":"x"}` + "\n", true},
		{"Benchmarking 1 2 ns/op\n", true}, // benchfmt reads it: "Benchmarking", N 1, 2 ns/op
		{"Benchmark_Parse-8 1000 120 ns/op\n", true},
		{"test output\nBenchmark01CallOverhead-4 \t1000000000\t 0.29 ns/op\n", true},
		{"m_id,n,ns_per_op,bed_setup,it_setup,sr_setup,ir_setup,bed_pos,it_pos,sr_pos,ir_pos,b_name\n1,2,3,5,5,3,3,1,1,1,1,BenchmarkX\n", false},
		{"project;commit;benchmark;params\nBenchmarkX;a;b;c\n", false},
		{`[{"jmhVersion":"1.37","benchmark":"x"}]`, false},
		{`{"benchmark":"x"}`, false},
	} {
		if got := (gobenchFormat{}).Sniff([]byte(tc.head)); got != tc.want {
			t.Errorf("Sniff(%q) = %v, want %v", tc.head, got, tc.want)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	tab, _, err := readPath(t, "testdata/multi.txt", ingest.Source{Project: "mod", Version: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	ingesttest.CheckTableFiles(t, tab)
}

// TestInvocationsAreForks reads two concatenated go test runs: the second
// run's lines are fork 2, with iterations counted again from 1.
func TestInvocationsAreForks(t *testing.T) {
	tab, rep, err := readPath(t, "testdata/invocations.txt", ingest.Source{})
	if err != nil || !rep.Empty() {
		t.Fatalf("err %v report %s", err, reportText(rep))
	}
	var got []string
	for _, r := range rowsOf(t, tab) {
		got = append(got, fmt.Sprintf("%s f%d i%d =%v", r.Benchmark, r.Fork, r.Iteration, r.Value))
	}
	want := []string{"BenchmarkA f1 i1 =10", "BenchmarkA f1 i2 =11", "BenchmarkB f1 i1 =50", "BenchmarkA f2 i1 =12", "BenchmarkA f2 i2 =13"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
	if s := tab.Setup(table.Key{Benchmark: "BenchmarkA", Mode: "go"}); s == nil || s.Forks != 2 {
		t.Errorf("setup A %+v, want 2 forks", s)
	}
	if s := tab.Setup(table.Key{Benchmark: "BenchmarkB", Mode: "go"}); s == nil || s.Forks != 1 {
		t.Errorf("setup B %+v, want 1 fork", s)
	}
}

func TestIsRunEnd(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{{"PASS", true}, {"FAIL", true}, {"ok  \tpkg\t1s", true}, {"FAIL\tpkg\t1s", true}, {"ok", false}, {"okay: x", false}, {"--- FAIL: BenchmarkX", false}, {"PASSED", false}} {
		if got := isRunEnd([]byte(tc.line)); got != tc.want {
			t.Errorf("isRunEnd(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

// TestManyUnits checks duplicate units on a line with more units than the
// linear scan handles, and that the next line starts afresh.
func TestManyUnits(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("BenchmarkWide 10 5 ns/op")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&sb, " %d u%d/op", i, i)
	}
	sb.WriteString(" 99 u3/op 77 u30/op\nBenchmarkWide 10 6 ns/op 1 u3/op 2 u30/op\n")
	tab, rep, err := readFrom(t, strings.NewReader(sb.String()), ingest.Source{File: "wide.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Count(kindDuplicateUnit) != 2 {
		t.Errorf("duplicate unit warnings %d, want 2", rep.Count(kindDuplicateUnit))
	}
	rows := rowsOf(t, tab)
	if len(rows) != 41+3 {
		t.Fatalf("%d rows, want 44", len(rows))
	}
	if u3 := find(rows, "BenchmarkWide", "", "u3/op"); len(u3) != 2 || u3[0].Value != 99 || u3[1].Value != 1 {
		t.Errorf("u3/op rows %+v, want 99 (last on line 1) then 1", u3)
	}
	if u30 := find(rows, "BenchmarkWide", "", "u30/op"); len(u30) != 2 || u30[0].Value != 77 || u30[1].Value != 2 {
		t.Errorf("u30/op rows %+v", u30)
	}
}

// TestInstanceTrialLabels reads the labelled form benchtrim export --to
// gobench --labels writes: instance: and trial: lines with positive integers
// set those levels (forks count runs within them, restarting at 1), are
// not reported as mixed configuration and stay out of Setup.Env; a
// non-numeric instance: stays configuration.
func TestInstanceTrialLabels(t *testing.T) {
	text := `commit: v1
instance: 1
trial: 1
BenchmarkA  10  5 ns/op
BenchmarkA  10  6 ns/op
PASS
BenchmarkA  10  7 ns/op
PASS
instance: 1
trial: 2
BenchmarkA  10  8 ns/op
PASS
instance: 2
trial: 1
BenchmarkA  10  9 ns/op
PASS
instance: 1
trial: 1
BenchmarkA  10  10 ns/op
PASS
`
	tab, rep, err := readFrom(t, strings.NewReader(text), ingest.Source{Project: "p", Instance: 1, Trial: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Empty() {
		t.Errorf("report: %s", reportText(rep))
	}
	var got [][5]int
	for _, r := range rowsOf(t, tab) {
		got = append(got, [5]int{int(r.Instance), int(r.Trial), int(r.Fork), int(r.Iteration), int(r.Value)})
	}
	want := [][5]int{{1, 1, 1, 1, 5}, {1, 1, 1, 2, 6}, {1, 1, 2, 1, 7}, {1, 2, 1, 1, 8}, {2, 1, 1, 1, 9}, {1, 1, 3, 1, 10}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("instance, trial, fork, iteration, value = %v, want %v", got, want)
	}
	s := tab.Setups[0]
	if s.Forks != 3 || s.Env["instance"] != "" || s.Env["trial"] != "" || s.Env["commit"] != "v1" || s.Key.Version != "v1" {
		t.Errorf("setup %+v", s)
	}

	tab, rep, err = readFrom(t, strings.NewReader("instance: m1\nBenchmarkA 1 5 ns/op\ninstance: m2\nBenchmarkA 1 6 ns/op\n"), ingest.Source{Instance: 1, Trial: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rows := rowsOf(t, tab); len(rows) != 2 || rows[1].Instance != 1 || rows[1].Iteration != 2 || rep.Count(kindMixedConfig) != 1 {
		t.Errorf("non-numeric instance labels: rows %+v, report %s", rows, reportText(rep))
	}
}
