package uoptime

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/table"
)

// jmhFormat is the reader of the Java layout.
var jmhFormat = format{jmhLayout}

const jmhHeader = "m_id,n,ns_per_op,it_setup,fork_setup,it_pos,fork_pos,b_name\n"

func readJMH(t *testing.T, path string, src ingest.Source) (*table.Table, *ingest.Summary, error) {
	t.Helper()
	return ingesttest.ReadFile(t, jmhFormat, path, src)
}

func readJMHFrom(t *testing.T, doc, name string) (*table.Table, *ingest.Summary, error) {
	t.Helper()
	return ingesttest.Read(t, jmhFormat, strings.NewReader(doc), ingest.Source{File: name, Project: "p", Version: "v"})
}

// TestReadJMHGood reads a data set 2 (FSE'20) file: project, benchmark and
// params from b_name, forks × iterations, mode sample, n as the count.
func TestReadJMHGood(t *testing.T) {
	const f = "testdata/jmh_good.csv"
	tab, rep, err := readJMH(t, f, ingest.Source{Project: "jmh_good", Version: ""})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Empty() {
		t.Errorf("report not empty:\n%s", ingesttest.ReportText(rep))
	}
	rows := rowsOf(t, tab)
	if len(rows) != 9 {
		t.Fatalf("%d rows, want 9", len(rows))
	}
	const ser = "io.protostuff.benchmarks.StringSerializerBenchmark.builtInSerializer"
	want0 := table.Row{Project: "protostuff", Benchmark: ser, Params: "stringLength=10", Mode: "sample",
		Metric: table.Primary, Unit: "ns/op", Value: 15726.44476814761, NsPerOp: 15726.44476814761, Count: 16476,
		Instance: 1, Trial: 1, Fork: 1, Iteration: 1, Slice: 1, Source: f, Line: 2}
	if rows[0] != want0 {
		t.Errorf("row 0 = %+v\nwant %+v", rows[0], want0)
	}
	// m_id 2: iteration 1 of fork 2.
	if r := rows[2]; r.Fork != 2 || r.Iteration != 1 || r.Value != 14900.5 || r.Count != 16990 || r.Line != 4 {
		t.Errorf("row 2 = %+v, want fork 2 iteration 1 value 14900.5 count 16990 line 4", r)
	}
	// An empty params part, and a quoted b_name whose params hold a comma
	// (escaped in the canonical form) and two keys.
	if r := rows[4]; r.Benchmark != "io.protostuff.benchmarks.RuntimeSchemaBenchmark.runtime_deserialize_10_int_field" || r.Params != "" {
		t.Errorf("row 4 = %+v, want no params", r)
	}
	if r := rows[8]; r.Project != "jctools" || r.Benchmark != "org.jctools.Q.offer" || r.Params != "burstSize=1,qType=Mpsc%2CArray" || r.Value != 1500 || r.Count != 12 {
		t.Errorf("row 8 = %+v", r)
	}
	if len(tab.Setups) != 3 {
		t.Fatalf("%d setups, want 3", len(tab.Setups))
	}
	want := table.Setup{Key: table.Key{Project: "protostuff", Benchmark: ser, Params: "stringLength=10", Mode: "sample"},
		Tool: "jmh", Forks: 2, MeasurementIterations: 2, Source: f + ":2"}
	if got := tab.Setup(want.Key); got == nil || !reflect.DeepEqual(*got, want) {
		t.Errorf("setup = %+v\nwant %+v", got, want)
	}
}

// TestReadJMHFileLabels checks the labels of a data set 3 file name, and
// that the user's labels and a NAME=FILE version win over them.
func TestReadJMHFileLabels(t *testing.T) {
	const f = "testdata/laaber_demo-01_10_07-jmh121.csv"
	stem := "laaber_demo-01_10_07-jmh121"
	for _, tc := range []struct {
		name             string
		src              ingest.Source
		project, version string
		instance, trial  int32
	}{
		{"file name", ingest.Source{Project: stem}, "demo", "1.10.7", 1, 1},
		{"suite labels", ingest.Source{Project: "laaber_demo-01", Version: stem}, "demo", "1.10.7", 1, 1},
		{"NAME=FILE", ingest.Source{Project: "laaber_demo-01", Version: "new"}, "demo", "new", 1, 1},
		{"user", ingest.Source{Project: "bb", ProjectFromUser: true, Version: "v9", VersionFromUser: true, Instance: 2, Trial: 3}, "bb", "v9", 2, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, rep, err := readJMH(t, f, tc.src)
			if err != nil || !rep.Empty() {
				t.Fatalf("err %v, report:\n%s", err, ingesttest.ReportText(rep))
			}
			rows := rowsOf(t, tab)
			if len(rows) != 12 {
				t.Fatalf("%d rows, want 12", len(rows))
			}
			for _, r := range rows {
				if r.Project != tc.project || r.Version != tc.version || r.Instance != tc.instance || r.Trial != tc.trial || r.Params != "" || r.Mode != "sample" {
					t.Fatalf("row %+v, want %s@%s instance %d trial %d", r, tc.project, tc.version, tc.instance, tc.trial)
				}
			}
			if r := rows[3]; r.Benchmark != "net.bytebuddy.benchmark.ClassByExtensionBenchmark.baseline" || r.Fork != 2 || r.Iteration != 1 || r.Count != 21150 {
				t.Errorf("row 3 = %+v", r)
			}
			for _, s := range tab.Setups {
				if s.Project != tc.project || s.Version != tc.version || s.Tool != "jmh" || s.ToolVersion != "1.21" || s.Forks != 2 || s.MeasurementIterations != 3 {
					t.Errorf("setup %+v", s)
				}
			}
		})
	}
}

func TestFileLabels(t *testing.T) {
	for _, tc := range []struct {
		stem, project, version, jmh string
		ok                          bool
	}{
		{"laaber_bytebuddy-01_10_07-jmh121", "bytebuddy", "1.10.7", "1.21", true},
		{"laaber_jenetics-05_02_00-jmh121", "jenetics", "5.2.0", "1.21", true},
		{"laaber_log-4j-02_00_10-jmh137", "log-4j", "2.0.10", "1.37", true},
		{"zipkin-02_21_00-jmh1", "zipkin", "2.21.0", "", true},
		{"laaber_zipkin", "", "", "", false},
		{"laaber_byte-buddy", "", "", "", false},
		{"laaber_x-01_02-jmh121", "", "", "", false},
		{"laaber_x-01_02_0a-jmh121", "", "", "", false},
		{"laaber_-01_02_03-jmh121", "", "", "", false},
		{"laaber_x-01_02_03-jmh", "", "", "", false},
	} {
		p, v, j, ok := fileLabels(tc.stem)
		if p != tc.project || v != tc.version || j != tc.jmh || ok != tc.ok {
			t.Errorf("fileLabels(%q) = %q, %q, %q, %v; want %q, %q, %q, %v", tc.stem, p, v, j, ok, tc.project, tc.version, tc.jmh, tc.ok)
		}
	}
}

func TestReadJMHBadRows(t *testing.T) {
	const f = "testdata/jmh_bad_rows.csv"
	tab, rep, err := readJMH(t, f, ingest.Source{Project: "p"})
	if err != nil {
		t.Fatal(err)
	}
	want := []ingesttest.Skipped{
		{Kind: kindBadNumber, Lines: []int{3, 4, 18}, Msg: `column n: "ten" is not an integer`},
		{Kind: "NaN value", Lines: []int{5}, Msg: "ns_per_op = NaN"},
		{Kind: "infinite value (an iteration with zero operations?)", Lines: []int{6}, Msg: "ns_per_op = -inf"},
		{Kind: "zero time", Lines: []int{7}, Msg: "ns_per_op = 0.0"},
		{Kind: "negative time", Lines: []int{8}, Msg: "ns_per_op = -1.5"},
		{Kind: kindBadN, Lines: []int{9}, Msg: "column n = 0, want ≥ 1"},
		{Kind: kindOutsideSetup, Lines: []int{10, 11}, Msg: "column it_pos = 3 outside 1..it_setup = 2"},
		{Kind: kindBadSetup, Lines: []int{12}, Msg: "column fork_setup = 0"},
		{Kind: kindDuplicate, Lines: []int{13}, Msg: "benchmark a.B.ok fork 1 iteration 1 already read at line 2"},
		{Kind: kindFieldCount, Lines: []int{14, 15}, Msg: "row has 7 fields, header has 8"},
		{Kind: kindMalformedCSV, Lines: []int{16}, Msg: `bare " in non-quoted-field`},
		{Kind: kindEmptyName, Lines: []int{17}, Msg: "b_name is empty"},
	}
	ingesttest.CheckSkipped(t, rep, f, want)
	rows := rowsOf(t, tab)
	if len(rows) != 2 || rows[0].Line != 2 || rows[1].Line != 19 || rows[1].Iteration != 2 || rows[1].Fork != 1 {
		t.Errorf("kept rows %+v, want lines 2 and 19", rows)
	}
	if s := examples(rep, kindFieldCount); !strings.Contains(s, "row has 9 fields, header has 8") {
		t.Errorf("field count examples lack the 9-field row:\n%s", s)
	}
	// a.B.ok has fork 1 only of its 2 forks.
	if s := examples(rep, kindRaggedJMH); !strings.Contains(s, f+":2: benchmark a.B.ok: 2 of 4 iterations missing from the setup grid (2 forks × 2 iterations): missing fork 2") {
		t.Errorf("ragged warning:\n%s", s)
	}
}

// TestReadJMHTruncated reads a file cut in the middle of a quoted name: the
// complete rows are kept, the open quote's lines counted.
func TestReadJMHTruncated(t *testing.T) {
	const f = "testdata/jmh_truncated.csv"
	tab, rep, err := readJMH(t, f, ingest.Source{Project: "p"})
	if err != nil {
		t.Fatal(err)
	}
	rows := rowsOf(t, tab)
	if len(rows) != 2 || rows[1].Value != 5.6 {
		t.Errorf("rows %+v, want the two complete ones", rows)
	}
	if rep.Count(kindMalformedCSV) != 2 {
		t.Errorf("malformed %d, want the 2 lines of the open quote:\n%s", rep.Count(kindMalformedCSV), ingesttest.ReportText(rep))
	}
	if ex := examples(rep, kindMalformedCSV); !strings.Contains(ex, f+":4: ") {
		t.Errorf("example %q, want place %s:4", ex, f)
	}
	// Cut after a field: a row with too few fields.
	tab, rep, err = readJMHFrom(t, jmhHeader+"0,10.0,5.5,2,1,1,1,a.B.c\n1,10.0,5.6,2,1", "cut.csv")
	if err != nil || tab.NumRows() != 1 || rep.Count(kindFieldCount) != 1 || !strings.Contains(examples(rep, kindFieldCount), "cut.csv:3: row has 5 fields") {
		t.Errorf("cut row: err %v, rows %d, report:\n%s", err, tab.NumRows(), ingesttest.ReportText(rep))
	}
}

func TestReadJMHRaggedAndMixed(t *testing.T) {
	const f = "testdata/jmh_ragged.csv"
	tab, rep, err := readJMH(t, f, ingest.Source{Project: "p"})
	if err != nil {
		t.Fatal(err)
	}
	if tab.NumRows() != 8 || rep.SkippedRows() != 0 {
		t.Errorf("rows %d skipped %d, want 8 and 0", tab.NumRows(), rep.SkippedRows())
	}
	wantRagged := f + ":2: benchmark a.B.ragged: 4 of 9 iterations missing from the setup grid (3 forks × 3 iterations): missing fork 2 iteration 2; fork 3"
	if got := examples(rep, kindRaggedJMH); got != wantRagged {
		t.Errorf("ragged warning\n%s\nwant\n%s", got, wantRagged)
	}
	wantMixed := f + ":9: benchmark a.B.mixed: 1 row(s) state setup fork_setup=1 it_setup=3, but line 7 stated fork_setup=1 it_setup=2"
	if got := examples(rep, kindMixedSetups); !strings.HasPrefix(got, wantMixed) {
		t.Errorf("mixed warning\n%s\nwant prefix\n%s", got, wantMixed)
	}
}

// TestReadJMHParams checks the params that are not key=value (kept and
// warned about once per benchmark) and two spellings of the same params.
func TestReadJMHParams(t *testing.T) {
	doc := jmhHeader +
		"0,10.0,5.5,1,1,1,1,p#a.B.c#x=1&flag&x=2\n" +
		"1,10.0,5.5,1,1,1,1,p#a.B.d#=3\n" +
		"2,10.0,5.5,2,1,1,1,#a.B.e#y=1\n" +
		"3,10.0,5.5,2,1,2,1,#a.B.e#y=1\n" +
		"4,10.0,5.5,1,1,1,1,p##y=1\n" +
		"5,10.0,5.5,1,1,1,1,q#a.B.f#k=a#b\n" +
		"6,10.0,5.5,1,1,1,1,p#a.B.g#x=1&y=2\n" +
		"7,10.0,5.6,1,1,1,1,p#a.B.g#y=2&x=1\n"
	tab, rep, err := readJMHFrom(t, doc, "params.csv")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rowsOf(t, tab) {
		got[r.Project+" "+r.Benchmark] = r.Params
	}
	want := map[string]string{"p a.B.c": "flag=,x=2", "p a.B.d": "=3", "p a.B.e": "y=1", "p p##y=1": "", "q a.B.f": "k=a#b", "p a.B.g": "x=1,y=2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("params %v, want %v", got, want)
	}
	// The two spellings of a.B.g's params are one benchmark run: the second
	// row is a duplicate.
	if rep.Count(kindBadParams) != 2 || rep.SkippedRows() != 1 || !strings.Contains(examples(rep, kindDuplicate), "params.csv:9: benchmark p#a.B.g#x=1&y=2 fork 1 iteration 1 already read at line 8") {
		t.Errorf("report:\n%s", ingesttest.ReportText(rep))
	}
	if ex := examples(rep, kindBadParams); !strings.Contains(ex, `params.csv:2: benchmark p#a.B.c#x=1&flag&x=2: params "x=1&flag&x=2": "flag", "x=2" not key=value with a new key; kept as "flag=,x=2"`) {
		t.Errorf("examples:\n%s", ex)
	}
}

// TestReadJMHHeaders checks the header errors: the other layout's header
// names the --format to use, a data row and another delimiter are named.
func TestReadJMHHeaders(t *testing.T) {
	goHeader := goLayout.header() + "\n"
	for _, tc := range []struct {
		f         format
		doc, want string
	}{
		{jmhFormat, goHeader + "1,10,5.5,1,1,1,1,1,1,1,1,BenchmarkX\n", "h.csv:1: header names bed_setup: this is the µOpTime Go CSV layout (read it with --format uoptime)"},
		{goFormat, jmhHeader + "0,10.0,5.5,1,1,1,1,a.B.c\n", "h.csv:1: header names fork_setup: this is the µOpTime Java CSV layout (read it with --format uoptime-jmh)"},
		{jmhFormat, "0,10.0,5.5,1,1,1,1,a.B.c\n", "h.csv:1: no header line: line 1 is a data row (a µOpTime Java CSV starts with the header m_id,n,ns_per_op,it_setup,fork_setup,it_pos,fork_pos,b_name)"},
		{jmhFormat, strings.ReplaceAll(jmhHeader, ",", ";"), "h.csv:1: header separated by ';', not ',' (a µOpTime Java CSV is comma-separated"},
		{jmhFormat, "m_id,n,ns_per_op,it_setup,it_pos,b_name\n", `h.csv:1: header: missing required columns fork_setup, fork_pos (header is "m_id,n,ns_per_op,it_setup,it_pos,b_name")`},
	} {
		_, _, err := ingesttest.Read(t, tc.f, strings.NewReader(tc.doc), ingest.Source{File: "h.csv"})
		var pe *ingest.ParseError
		if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s on %q: err = %v, want %q", tc.f.Name(), tc.doc, err, tc.want)
		}
	}
	if goHeader != "m_id,n,ns_per_op,bed_setup,it_setup,sr_setup,ir_setup,bed_pos,it_pos,sr_pos,ir_pos,b_name\n" || jmhLayout.header()+"\n" != jmhHeader {
		t.Errorf("headers %q, %q", goHeader, jmhLayout.header())
	}
}

func TestSniffLayouts(t *testing.T) {
	for _, tc := range []struct {
		head            string
		sniffGo, sniffJ bool
		likelyGo, likeJ int
	}{
		{jmhHeader + "0,1", false, true, 0, 2},
		{"M_ID,N,NS_PER_OP,IT_SETUP,FORK_SETUP,IT_POS,FORK_POS,B_NAME\r\n", false, true, 0, 2},
		{goLayout.header() + "\n1", true, false, 2, 0},
		{strings.ReplaceAll(jmhHeader, ",", ";"), false, false, 0, 2},
		{"0,21133.0,42.5,20,3,1,1,net.bytebuddy.B.baseline\n", false, false, 0, 1},
		{"1,10,5.5,1,1,1,1,1,1,1,1,BenchmarkX\n", false, false, 1, 0},
		{`[{"benchmark":"x"}]`, false, false, 0, 0},
	} {
		if g, j := goFormat.Sniff([]byte(tc.head)), jmhFormat.Sniff([]byte(tc.head)); g != tc.sniffGo || j != tc.sniffJ {
			t.Errorf("Sniff(%q) = %v (go), %v (jmh); want %v, %v", tc.head, g, j, tc.sniffGo, tc.sniffJ)
		}
		if g, j := goFormat.Likely([]byte(tc.head)), jmhFormat.Likely([]byte(tc.head)); g != tc.likelyGo || j != tc.likeJ {
			t.Errorf("Likely(%q) = %d (go), %d (jmh); want %d, %d", tc.head, g, j, tc.likelyGo, tc.likeJ)
		}
	}
}

func TestReadJMHIOError(t *testing.T) {
	_, _, err := ingesttest.Read(t, jmhFormat, ingesttest.ErrReader(jmhHeader+"0,10.0,5.5,1,1,1,1,a.B.c\n", errDisk), ingest.Source{File: "io.csv"})
	if !errors.Is(err, errDisk) || !strings.HasPrefix(err.Error(), "io.csv: ") {
		t.Errorf("err = %v, want a wrapped %v naming the file", err, errDisk)
	}
}

// TestRealJMHFiles reads every Java CSV of ../shared/data/jmh-versions
// (µOpTime's data sets 2 and 3) and checks each against an independent
// count of its lines: every line a row, none skipped, the benchmarks, the
// sum of ns_per_op, the full forks × iterations grid and the labels.
func TestRealJMHFiles(t *testing.T) {
	dir := sharedData(t, "jmh-versions")
	type set struct {
		folder              string
		files, forks, iters int
		rows                int // over the set's files
		projects            map[string]bool
	}
	for _, s := range []set{
		{"laaber-ese21", 52, 3, 20, 119220, map[string]bool{"bytebuddy": true, "jenetics": true}},
		{"laaber-fse20", 4, 5, 100, 85500, map[string]bool{"byte-buddy": true, "jenetics": true, "protostuff": true, "zipkin": true}},
	} {
		t.Run(s.folder, func(t *testing.T) {
			files, _ := filepath.Glob(filepath.Join(dir, s.folder, "*.csv"))
			if len(files) != s.files {
				t.Fatalf("%d files in %s, want %d", len(files), s.folder, s.files)
			}
			total := 0
			for _, path := range files {
				wantRows, wantBench, wantSum := independentCount(t, path)
				total += wantRows
				stem := strings.TrimSuffix(filepath.Base(path), ".csv")
				tab, rep, err := readJMH(t, path, ingest.Source{Project: stem})
				if err != nil {
					t.Fatal(err)
				}
				if got := tab.NumRows(); got != int64(wantRows) {
					t.Errorf("%s: %d rows, want %d", stem, got, wantRows)
				}
				if !rep.Empty() {
					t.Errorf("%s: report:\n%s", stem, ingesttest.ReportText(rep))
				}
				var sum float64
				for _, r := range rowsOf(t, tab) {
					sum += r.NsPerOp
					if r.Fork < 1 || int(r.Fork) > s.forks || r.Iteration < 1 || int(r.Iteration) > s.iters || r.Count < 1 || r.Mode != "sample" || !s.projects[r.Project] {
						t.Fatalf("%s: row %+v outside the %d × %d grid or labels", stem, r, s.forks, s.iters)
					}
				}
				if math.Abs(sum-wantSum) > 1e-9*wantSum {
					t.Errorf("%s: sum of ns_per_op %v, independent %v", stem, sum, wantSum)
				}
				if len(tab.Setups) != wantBench || wantRows != wantBench*s.forks*s.iters {
					t.Errorf("%s: %d setups, %d benchmarks, %d rows; want a full %d × %d grid each", stem, len(tab.Setups), wantBench, wantRows, s.forks, s.iters)
				}
				_, version, _, named := fileLabels(stem)
				for _, st := range tab.Setups {
					if st.Forks != s.forks || st.MeasurementIterations != s.iters || st.Version != version || named && st.ToolVersion != "1.21" {
						t.Errorf("%s: setup %+v", stem, st)
					}
				}
			}
			if total != s.rows {
				t.Errorf("%d rows in %s, want %d", total, s.folder, s.rows)
			}
			t.Logf("%s: %d files, %d rows, each file's rows equal to its data lines", s.folder, len(files), total)
		})
	}
}

// generateJMH writes a Java-layout file of benchmarks × 5 forks × 100
// iterations (data set 2's shape) with lognormal times.
func generateJMH(benchmarks int) []byte {
	var buf bytes.Buffer
	buf.WriteString(jmhHeader)
	id := 0
	for b := 0; b < benchmarks; b++ {
		level := math.Exp(float64(b%17) - 2)
		for fork := 1; fork <= 5; fork++ {
			for it := 1; it <= 100; it++ {
				ns := level * (1 + 0.01*float64((id*7919)%101)/101)
				fmt.Fprintf(&buf, "%d,%d.0,%v,100,5,%d,%d,proj#org.example.B.m%d#size=%d\n", id, int64(1e9/ns)+1, ns, it, fork, b/4, b%4)
				id++
			}
		}
	}
	return buf.Bytes()
}

// BenchmarkReadJMH ingests a generated Java-layout file of 200
// benchmarks × 500 rows and, when present, a real data set 2 file.
func BenchmarkReadJMH(b *testing.B) {
	data := generateJMH(200)
	b.Run("generated/benchmarks=200", func(b *testing.B) { ingesttest.BenchRead(b, jmhFormat, data, "gen.csv", 200*500) })
	real, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "jmh-versions", "laaber-fse20", "laaber_zipkin.csv"))
	if err == nil {
		b.Run("real/laaber_zipkin.csv", func(b *testing.B) {
			ingesttest.BenchRead(b, jmhFormat, real, "laaber_zipkin.csv", bytes.Count(real, []byte("\n"))-1)
		})
	}
}

// TestJMHRoundTripThroughTableFiles writes Java-layout tables as .arrow,
// .parquet and .csv: tablefile.ReadFile gives back every row, column and setup
// (params, mode sample and the JMH version included).
func TestJMHRoundTripThroughTableFiles(t *testing.T) {
	for _, path := range []string{"testdata/jmh_good.csv", "testdata/laaber_demo-01_10_07-jmh121.csv", "testdata/jmh_ragged.csv"} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			tab, rep, err := readJMH(t, path, ingest.Source{Project: "p"})
			if err != nil || rep.SkippedRows() != 0 {
				t.Fatalf("err %v, report:\n%s", err, ingesttest.ReportText(rep))
			}
			ingesttest.CheckTableFiles(t, tab)
		})
	}
}

// TestJMHInvalidNames checks that a b_name with a quoted line break or
// invalid UTF-8 is stored cleaned, its parts split after cleaning.
func TestJMHInvalidNames(t *testing.T) {
	doc := jmhHeader +
		"0,10.0,5.5,2,1,1,1,\"p#a.B.new\nline#x=1\"\n" +
		"1,10.0,5.6,2,1,2,1,\"p#a.B.new\nline#x=1\"\n" +
		"2,10.0,7.5,1,1,1,1,p#a.B.c#x=\xff\n"
	tab, rep, err := readJMHFrom(t, doc, "inv.csv")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, r := range rowsOf(t, tab) {
		got[r.Benchmark+"["+r.Params+"]"]++
	}
	if want := map[string]int{`a.B.new\nline[x=1]`: 2, "a.B.c[x=\uFFFD]": 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("rows per benchmark %v, want %v", got, want)
	}
	if rep.SkippedRows() != 0 || rep.Count(ingest.KindControlName) != 1 || rep.Count(ingest.KindInvalidUTF8Name) != 1 {
		t.Errorf("report:\n%s", ingesttest.ReportText(rep))
	}
	ingesttest.CheckClean(t, tab)
}
