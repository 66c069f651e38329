package jmh

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/table"
)

// place is where a report example or error must point.
type place struct {
	line int
	path string // exact, or a prefix when it ends in "…"
	msg  string // substring of the message
}

func (p place) check(t *testing.T, file string, pe *ingest.ParseError) {
	t.Helper()
	if pe.File != file || !strings.HasPrefix(pe.Error(), file+":") {
		t.Errorf("%q does not name the file %s", pe.Error(), file)
	}
	if p.line != 0 && pe.Line != p.line {
		t.Errorf("%q: line %d, want %d", pe.Error(), pe.Line, p.line)
	}
	if prefix, ok := strings.CutSuffix(p.path, "…"); ok {
		if !strings.HasPrefix(pe.Path, prefix) {
			t.Errorf("%q: path %q, want prefix %q", pe.Error(), pe.Path, prefix)
		}
	} else if pe.Path != p.path {
		t.Errorf("%q: path %q, want %q", pe.Error(), pe.Path, p.path)
	}
	if !strings.Contains(pe.Msg, p.msg) {
		t.Errorf("%q: message lacks %q", pe.Error(), p.msg)
	}
}

// TestBadInputFatal: inputs that cannot be read on give a ParseError with
// the file and the line and/or JSON path.
func TestBadInputFatal(t *testing.T) {
	for _, tc := range []struct {
		file string
		want place
	}{
		{"empty.json", place{0, "", "empty file (JMH touches the result file before running; the run was probably aborted)"}},
		{"whitespace.json", place{0, "", "only white space"}},
		{"truncated.json", place{45, "$[0].primaryMetric.rawData[1]…", "unexpected end of file"}},
		{"conflict.json", place{37, "$[0].primaryMetric", "git merge conflict marker \"<<<<<<< Updated upstream\""}},
		{"raw_newline_param.json", place{9, "$[0].params.input", "JMH ≤ 1.21"}},
		{"top_object.json", place{1, "$", "top level is an object"}},
		{"trailing.json", place{3, "$", "unexpected '['"}},
		{"invalid_number.json", place{8, "$[0].primaryMetric.rawData[0][1]", `invalid number "1.2.3"`}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			res := readFile(t, filepath.Join("testdata", tc.file))
			var pe *ingest.ParseError
			if !errors.As(res.err, &pe) {
				t.Fatalf("error %v (%T), want *ingest.ParseError", res.err, res.err)
			}
			tc.want.check(t, tc.file, pe)
		})
	}
}

// kindWant is an expected report kind: its count and its first example.
type kindWant struct {
	kind  string
	count int
	first place
}

// TestBadInputCounted: anomalies that leave the JSON readable are counted
// with their place and the rest of the file is ingested.
func TestBadInputCounted(t *testing.T) {
	for _, tc := range []struct {
		file  string
		rows  int
		kinds []kindWant
	}{
		{"empty_array.json", 0, nil},
		{"valid_avgt.json", 17, []kindWant{
			{kindText, 1, place{81, `$[0].secondaryMetrics["·stack"]`, "text result"}},
			{kindRaggedSec, 1, place{71, `$[0].secondaryMetrics["·gc.time"].rawData`, "[1,2] values for 3 iterations"}},
		}},
		{"valid_sample.json", 19, nil},
		{"legacy_reordered.json", 4, nil},
		{"nonfinite.json", 12, []kindWant{
			{"NaN value", 2, place{14, "$[0].primaryMetric.rawData[0][1]", "NaN value: NaN ns/op"}},
			{"infinite value (an iteration with zero operations?)", 4, place{15, "$[0].primaryMetric.rawData[0][2]", "+Inf"}},
			{"zero time", 1, place{19, "$[0].primaryMetric.rawData[0][6]", "zero time"}},
			{"negative time", 2, place{20, "$[0].primaryMetric.rawData[0][7]", "-1.5"}},
			{kindSecNonFinite, 1, place{31, `$[0].secondaryMetrics["·gc.alloc.rate"].rawData[0][0]`, "NaN MB/sec"}},
		}},
		{"missing_fork.json", 4, []kindWant{
			{kindMissingFork, 1, place{11, "$[0].primaryMetric.rawData", "forks = 3 but 2 fork rows"}},
		}},
		{"empty_fork.json", 2, []kindWant{
			{kindEmptyFork, 1, place{11, "$[0].primaryMetric.rawData[1]", "fork 2 has no iterations"}},
		}},
		{"ragged.json", 5, []kindWant{
			{kindRagged, 1, place{13, "$[0].primaryMetric.rawData", "3, 2 iterations"}},
		}},
		{"duplicate.json", 4, []kindWant{
			{kindDuplicate, 4, place{25, "$[1]", "same benchmark, mode and params as $[0] (line 2)"}},
			{kindMissingFork, 1, place{11, "$[0].primaryMetric.rawData", "forks = 3"}}, // of $[0] only
		}},
		{"sample_nodata.json", 1, []kindWant{
			{kindNoRawData, 2, place{7, "$[0].primaryMetric", "neither rawData nor rawDataHistogram"}},
		}},
		// A misspelled key: the record is skipped, counted, and the key named.
		{"misspelled.json", 2, []kindWant{
			{kindNoRawData, 1, place{7, "$[0].primaryMetric", `a member "rawDta", which JMH does not write: misspelled?`}},
		}},
		{"unknown_unit.json", 2, []kindWant{
			{kindUnknownUnit, 4, place{7, "$[0].primaryMetric.scoreUnit", `unknown primary unit "widgets/op"`}},
		}},
		{"bad_values.json", 3, []kindWant{
			{kindNotNumber, 4, place{12, "$[0].primaryMetric.rawData[0][1]", "not a number"}},
			{kindBadBucket, 4, place{30, "$[1].primaryMetric.rawDataHistogram[0][0][0]", "[value, count]"}},
			{kindBadCount, 3, place{31, "$[1].primaryMetric.rawDataHistogram[0][0][1]", "integer ≥ 1"}},
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			res := readFile(t, filepath.Join("testdata", tc.file))
			if res.err != nil {
				t.Fatal(res.err)
			}
			if len(res.rows) != tc.rows {
				t.Errorf("%d rows, want %d", len(res.rows), tc.rows)
			}
			got := map[string]int{}
			for _, k := range res.rep.Kinds() {
				got[k.Kind] = res.rep.Count(k.Kind)
			}
			want := map[string]int{}
			for _, k := range tc.kinds {
				want[k.kind] = k.count
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("report kinds %v, want %v\n%s", got, want, reportString(res.rep))
			}
			for _, k := range tc.kinds {
				if ex := examples(res.rep, k.kind); len(ex) > 0 {
					k.first.check(t, tc.file, ex[0])
				}
			}
		})
	}
}

// TestValidFilesAgainstTree runs the independent encoding/json check on the
// valid hand-written files.
func TestValidFilesAgainstTree(t *testing.T) {
	for _, f := range []string{"valid_avgt.json", "valid_sample.json", "bom_crlf.json", "legacy_reordered.json", "nonfinite.json", "missing_fork.json", "ragged.json"} {
		t.Run(f, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", f))
			if err != nil {
				t.Fatal(err)
			}
			res := read(t, f, bytes.NewReader(data))
			if res.err != nil {
				t.Fatal(res.err)
			}
			checkAgainstTree(t, res, treeOf(t, data))
		})
	}
}

func TestValidAvgtDetails(t *testing.T) {
	res := readFile(t, "testdata/valid_avgt.json")
	if res.err != nil {
		t.Fatal(res.err)
	}
	const params = "kind=a%2Cb%3Dc,size=1024"
	var avgt, thrpt, alloc, gcTime []table.Row
	for _, r := range res.rows {
		if r.Params != params {
			t.Fatalf("params %q, want %q", r.Params, params)
		}
		switch {
		case r.Mode == "avgt" && r.Metric == table.Primary:
			avgt = append(avgt, r)
		case r.Mode == "thrpt":
			thrpt = append(thrpt, r)
		case r.Metric == "gc.alloc.rate":
			alloc = append(alloc, r)
		case r.Metric == "gc.time":
			gcTime = append(gcTime, r)
		}
	}
	// rawData[1][1] = 2.5 us/op on line 46.
	if r := avgt[4]; r.Fork != 2 || r.Iteration != 2 || r.Value != 2.5 || r.NsPerOp != 2500 || r.Line != 46 || r.Source != "valid_avgt.json:$[0]" || r.Unit != "us/op" {
		t.Errorf("avgt row 4 = %+v", r)
	}
	// thrpt, threads 2: ns_per_op = 2·1e6/value.
	if len(thrpt) != 2 || thrpt[0].NsPerOp != 1000 || thrpt[1].NsPerOp != 500 || thrpt[1].Value != 4000 {
		t.Errorf("thrpt rows %+v", thrpt)
	}
	if len(alloc) != 6 || !math.IsNaN(alloc[0].NsPerOp) || alloc[0].Unit != "MB/sec" {
		t.Errorf("gc.alloc.rate rows %+v", alloc)
	}
	// Ragged gc.time [[3], [2, 2]]: iteration = position.
	if len(gcTime) != 3 || gcTime[0].Fork != 1 || gcTime[0].Iteration != 1 || gcTime[2].Fork != 2 || gcTime[2].Iteration != 2 || gcTime[0].Unit != "ms" {
		t.Errorf("gc.time rows %+v", gcTime)
	}
	var s *table.Setup
	for i := range res.setups {
		if res.setups[i].Mode == "avgt" {
			s = &res.setups[i]
		}
	}
	want := table.Setup{
		Key:  table.Key{Project: "proj", Version: "v1", Benchmark: "org.example.Bench.parse", Params: params, Mode: "avgt"},
		Tool: "jmh", ToolVersion: "1.23", Forks: 2, WarmupIterations: 2, WarmupTimeNs: 500e6,
		MeasurementIterations: 3, MeasurementTimeNs: 1e9, Threads: 1, BatchSize: 1,
		Env: map[string]string{
			"jvm": `C:\Program Files\Java\bin\java.exe`, "jvmArgs": `-Xmx1g -Dname="quoted"`,
			"jdkVersion": "11.0.6", "vmName": "OpenJDK 64-Bit Server VM", "vmVersion": "11.0.6+10",
			"warmupBatchSize": "1", table.EnvProfilers: "gc,stack",
		},
		Source: "valid_avgt.json:$[0]",
	}
	if s == nil || !reflect.DeepEqual(*s, want) {
		t.Errorf("setup\n%+v\nwant\n%+v", s, want)
	}
}

func TestValidSampleDetails(t *testing.T) {
	res := readFile(t, "testdata/valid_sample.json")
	if res.err != nil {
		t.Fatal(res.err)
	}
	metrics := map[string]int{}
	var prim []table.Row
	for _, r := range res.rows {
		metrics[r.Metric]++
		if r.Metric == table.Primary {
			prim = append(prim, r)
		}
	}
	if want := map[string]int{table.Primary: 7, "p0.50": 4, "p0.90": 4, "worker:p0.99": 4}; !reflect.DeepEqual(metrics, want) {
		t.Errorf("metrics %v, want %v", metrics, want)
	}
	// The zero-valued bucket is a real sample (a coarse timer records zeros; docs/formats/jmh.md).
	if r := prim[0]; r.Value != 0 || r.Count != 2 || r.Fork != 1 || r.Iteration != 1 || r.Line != 18 {
		t.Errorf("first bucket %+v", r)
	}
	if r := prim[6]; r.Value != 0.016 || r.Count != 12337 || r.Fork != 2 || r.Iteration != 2 || r.NsPerOp != 0.016*1e6 || r.Line != 32 {
		t.Errorf("last bucket %+v", r)
	}
}

func TestLegacyReordered(t *testing.T) {
	res := readFile(t, "testdata/legacy_reordered.json")
	if res.err != nil {
		t.Fatal(res.err)
	}
	// Fields after primaryMetric still apply: thrpt, threads 4, ops/s.
	var ns []float64
	for _, r := range res.rows {
		if r.Benchmark != "org.example.Legacy.run" || r.Params != "n=1" || r.Mode != "thrpt" {
			t.Fatalf("row %+v", r)
		}
		if r.Metric == table.Primary {
			ns = append(ns, r.NsPerOp)
		} else if r.Metric != "gc.count" {
			t.Errorf("metric %q, want gc.count", r.Metric)
		}
	}
	if !reflect.DeepEqual(ns, []float64{4e8, 2e8}) {
		t.Errorf("ns_per_op %v, want [4e8 2e8] (threads 4 × 1e9 / value)", ns)
	}
	s := res.setups[0]
	if s.Env["inProcess"] != "true" || s.ToolVersion != "" || s.MeasurementTimeNs != 2e9 {
		t.Errorf("setup %+v", s)
	}
}

// TestBOMAndCRLF: a UTF-8 BOM and CRLF line ends give the same rows (and
// lines) as the plain file.
func TestBOMAndCRLF(t *testing.T) {
	plain := readFile(t, "testdata/valid_avgt.json")
	crlf := readFile(t, "testdata/bom_crlf.json")
	if plain.err != nil || crlf.err != nil {
		t.Fatal(plain.err, crlf.err)
	}
	if len(crlf.rows) != len(plain.rows) || len(plain.rows) == 0 {
		t.Fatalf("%d rows, want %d", len(crlf.rows), len(plain.rows))
	}
	for i := range plain.rows {
		a, b := plain.rows[i], crlf.rows[i]
		a.Source, b.Source = "", ""
		if !sameRow(a, b) {
			t.Fatalf("row %d: %+v, want %+v", i, b, a)
		}
	}
	if !(format{}).Sniff([]byte("\xEF\xBB\xBF[\r\n    {\r\n        \"jmhVersion\" : \"1.23\",\r\n        \"benchmark\" : \"x\"")) {
		t.Error("Sniff rejects BOM + CRLF")
	}
}

func TestMixedSetups(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := table.NewBuilder(mem, 0)
	defer b.Release()
	rep := &ingest.Summary{}
	for _, f := range []string{"mixed_setup_2.json", "mixed_setup_3.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := (format{}).Read(bytes.NewReader(data), ingest.Source{File: f, Project: "p", Version: "v"}, b, rep); err != nil {
			t.Fatal(err)
		}
	}
	tb := b.Finish()
	defer tb.Release()
	if tb.NumRows() != 2 || len(tb.Setups) != 1 || tb.Setups[0].Forks != 2 {
		t.Errorf("%d rows, setups %+v; want 2 rows and the first setup (forks 2)", tb.NumRows(), tb.Setups)
	}
	ex := examples(rep, kindMixedSetups)
	if rep.Count(kindMixedSetups) != 1 || len(ex) != 1 {
		t.Fatalf("report:\n%s", reportString(rep))
	}
	place{2, "$[0]", "forks 2 vs 3"}.check(t, "mixed_setup_3.json", ex[0])
}

// chunkReader returns at most n bytes per Read.
type chunkReader struct {
	r io.Reader
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(p) > c.n {
		p = p[:c.n]
	}
	return c.r.Read(p)
}

// TestChunkBoundaries: reading one byte at a time, or in odd-sized chunks
// with io.EOF on the last data, gives exactly the rows, setups, report and
// errors of a single read; this moves every token across buffer refills.
func TestChunkBoundaries(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil || len(files) < 10 {
		t.Fatalf("testdata: %v, %d files", err, len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		want := read(t, name, bytes.NewReader(data))
		for _, r := range []io.Reader{
			iotest.OneByteReader(bytes.NewReader(data)),
			iotest.DataErrReader(&chunkReader{bytes.NewReader(data), 7}),
			iotest.HalfReader(bytes.NewReader(data)),
		} {
			got := read(t, name, r)
			if fmt.Sprint(got.err) != fmt.Sprint(want.err) || !sameRows(got.rows, want.rows) ||
				!reflect.DeepEqual(got.setups, want.setups) || reportString(got.rep) != reportString(want.rep) {
				t.Errorf("%s via %T: err %v, %d rows; single read: err %v, %d rows", name, r, got.err, len(got.rows), want.err, len(want.rows))
			}
		}
	}
}

// TestIOError: a failing reader gives its error wrapped, not a ParseError.
func TestIOError(t *testing.T) {
	data, err := os.ReadFile("testdata/valid_avgt.json")
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("disk on fire")
	r := io.MultiReader(bytes.NewReader(data[:700]), iotest.ErrReader(boom))
	res := read(t, "valid_avgt.json", r)
	var pe *ingest.ParseError
	if !errors.Is(res.err, boom) || errors.As(res.err, &pe) || !strings.Contains(res.err.Error(), "valid_avgt.json") {
		t.Errorf("error %v, want a wrapped %v naming the file", res.err, boom)
	}
}

// TestLongToken: a string longer than the scanner's buffer is read whole
// (here the jvm path, kept in the setup; a benchmark name this long is
// longer than the table holds, see TestNameTooLong).
func TestLongToken(t *testing.T) {
	long := strings.Repeat("x", 3*initialBufSize+17)
	doc := `[{"benchmark":"b.B","jvm":"/` + long + `","mode":"avgt","primaryMetric":{"scoreUnit":"ns/op","rawData":[[1.0,2.0]]},"secondaryMetrics":{}}]`
	res := read(t, "long.json", strings.NewReader(doc))
	if res.err != nil || len(res.rows) != 2 || len(res.setups) != 1 || res.setups[0].Env["jvm"] != "/"+long {
		t.Fatalf("err %v, %d rows, %d setups", res.err, len(res.rows), len(res.setups))
	}
}

// TestNameTooLong: a record whose benchmark name or parameter value is
// longer than table.MaxStringBytes is skipped and counted with its place;
// a secondary metric with such a name loses its rows; the other records
// are kept.
func TestNameTooLong(t *testing.T) {
	long := strings.Repeat("x", table.MaxStringBytes+1)
	doc := `[
{"benchmark":"b.` + long + `","mode":"avgt","primaryMetric":{"scoreUnit":"ns/op","rawData":[[1.0,2.0]]}},
{"benchmark":"b.P","mode":"avgt","params":{"p":"` + long + `"},"primaryMetric":{"scoreUnit":"ns/op","rawData":[[1.0]]}},
{"benchmark":"b.M","mode":"avgt","primaryMetric":{"scoreUnit":"ns/op","rawData":[[3.0]]},
 "secondaryMetrics":{"` + long + `":{"scoreUnit":"B/op","rawData":[[5.0]]}}},
{"benchmark":"b.Q","mode":"fast","primaryMetric":{"scoreUnit":"ns/op","rawData":[[1.0]]}}
]`
	res := read(t, "long.json", strings.NewReader(doc))
	if res.err != nil {
		t.Fatal(res.err)
	}
	if len(res.rows) != 1 || res.rows[0].Benchmark != "b.M" || res.rows[0].Value != 3 {
		t.Fatalf("%d rows, want b.M's primary row only", len(res.rows))
	}
	if n := res.rep.Count(ingest.KindTooLong); n != 4 {
		t.Errorf("%d rows counted as too long, want 4 (2 + 1 of records, 1 of the metric)", n)
	}
	ex := ingesttest.Examples(res.rep, ingest.KindTooLong)
	for _, want := range []string{
		"long.json:2: $[0]: column benchmark: value of 65539 bytes is longer than the table's limit of 65536 bytes (table.MaxStringBytes); record skipped",
		"long.json:3: $[1]: column params: value of 65539 bytes",
		"long.json:5: $[2].secondaryMetrics: column metric: value of 65537 bytes",
	} {
		if !strings.Contains(ex, want) {
			t.Errorf("examples lack %q", want)
		}
	}
	if n := res.rep.Count(ingest.KindUnknownMode); n != 1 {
		t.Errorf("%d rows counted as unknown mode, want 1:\n%s", n, reportString(res.rep))
	}
}

func TestEscapesAndNonFiniteSpellings(t *testing.T) {
	doc := `[{"benchmark":"a\"b\\c\u00e9\ud83d\ude00\/","mode":"avgt","params":{"p":"x\ty","n":5},
"primaryMetric":{"scoreUnit":"ns/op","rawData":[[1.5e0, "2", NaN, -Infinity, "-infinity", "+Inf", "inf", 3E+0]]}}]`
	res := read(t, "esc.json", strings.NewReader(doc))
	if res.err != nil {
		t.Fatal(res.err)
	}
	if len(res.rows) != 3 || res.rows[0].Benchmark != "a\"b\\c\u00e9\U0001F600/" || res.rows[0].Params != `n=5,p=x\ty` {
		t.Fatalf("rows %+v", res.rows)
	}
	if got := []float64{res.rows[0].Value, res.rows[1].Value, res.rows[2].Value}; !reflect.DeepEqual(got, []float64{1.5, 2, 3}) {
		t.Errorf("values %v", got)
	}
	if n := res.rep.Count("NaN value") + res.rep.Count("infinite value (an iteration with zero operations?)"); n != 5 {
		t.Errorf("%d non-finite values counted, want 5:\n%s", n, reportString(res.rep))
	}
	// The tab of the param value is a control character: escaped, with a warning.
	if n := res.rep.Count(ingest.KindControlName); n != 1 {
		t.Errorf("%d control-character warnings, want 1:\n%s", n, reportString(res.rep))
	}
}

// TestLinesUnderIndentation: every value's line is right whatever the
// indentation before it (skipWS steps over spaces eight at a time after
// a newline), with LF and CRLF line ends, when the reader hands the
// scanner one byte at a time, a few at a time, or everything at once.
func TestLinesUnderIndentation(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n"} {
		var sb strings.Builder
		line := 1
		nl := func() { sb.WriteString(eol); line++ }
		sb.WriteString(`[{"benchmark": "b.X", "mode": "avgt", "forks": 1,`)
		nl()
		sb.WriteString(`"primaryMetric": {"score": 1, "scoreUnit": "ns/op", "rawData": [[`)
		var want []int64
		for i := 0; i < 90; i++ {
			if i > 0 {
				sb.WriteString(",")
			}
			nl()
			// 0 to 44 spaces, some followed by a tab.
			sb.WriteString(strings.Repeat(" ", i%45))
			if i%7 == 3 {
				sb.WriteString("\t")
			}
			fmt.Fprintf(&sb, "%d.5", i)
			want = append(want, int64(line))
		}
		nl()
		sb.WriteString("]]}}]")
		nl()
		doc := sb.String()
		for name, r := range map[string]io.Reader{
			"whole":  strings.NewReader(doc),
			"bytes":  iotest.OneByteReader(strings.NewReader(doc)),
			"halves": iotest.HalfReader(strings.NewReader(doc)),
		} {
			res := read(t, "ind.json", r)
			if res.err != nil {
				t.Fatalf("%q %s: %v", eol, name, res.err)
			}
			if len(res.rows) != len(want) {
				t.Fatalf("%q %s: %d rows, want %d", eol, name, len(res.rows), len(want))
			}
			for i, row := range res.rows {
				if row.Line != want[i] || row.Value != float64(i)+0.5 {
					t.Errorf("%q %s: row %d: value %v on line %d, want %v on line %d", eol, name, i, row.Value, row.Line, float64(i)+0.5, want[i])
				}
			}
		}
	}
}

// TestLongMetricInChunks: a metric with more values than emitChunk (a
// primary histogram of 2.5 chunks, a secondary rawData of 1.5) reaches the
// table a chunk at a time, every value once, in order, with its place.
func TestLongMetricInChunks(t *testing.T) {
	nHist, nSec := emitChunk*5/2, emitChunk*3/2
	var hist, sec strings.Builder
	for i := 0; i < nHist; i++ {
		if i > 0 {
			hist.WriteString(",")
		}
		fmt.Fprintf(&hist, "[%d.5,%d]", i, 1+i%7)
	}
	for i := 0; i < nSec; i++ {
		if i > 0 {
			sec.WriteString(",")
		}
		fmt.Fprintf(&sec, "%d.25", i)
	}
	doc := fmt.Sprintf(`[{"jmhVersion":"1.37","benchmark":"a.B.c","mode":"sample","threads":1,"forks":1,
"warmupIterations":0,"measurementIterations":%d,"measurementTime":"1 s","warmupTime":"1 s",
"primaryMetric":{"score":1,"scoreUnit":"us/op","rawDataHistogram":[[[%s]]]},
"secondaryMetrics":{"gc.count":{"score":1,"scoreUnit":"counts","rawData":[[%s]]}}}]`, nSec, hist.String(), sec.String())
	res := read(t, "long.json", strings.NewReader(doc))
	if res.err != nil {
		t.Fatal(res.err)
	}
	var prim, second []table.Row
	for _, r := range res.rows {
		if r.Metric == table.Primary {
			prim = append(prim, r)
		} else {
			second = append(second, r)
		}
	}
	if len(prim) != nHist || len(second) != nSec {
		t.Fatalf("%d primary and %d secondary rows, want %d and %d", len(prim), len(second), nHist, nSec)
	}
	for i, r := range prim {
		if r.Value != float64(i)+0.5 || r.Count != int64(1+i%7) || r.Iteration != 1 {
			t.Fatalf("primary row %d: value %v count %d iteration %d", i, r.Value, r.Count, r.Iteration)
		}
	}
	for i, r := range second {
		if r.Value != float64(i)+0.25 || r.Iteration != int32(i+1) {
			t.Fatalf("secondary row %d: value %v iteration %d", i, r.Value, r.Iteration)
		}
	}
}
