package uoptime

import (
	"bufio"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/table"
)

// goFormat is the reader of the Go layout.
var goFormat = format{goLayout}

// readPath ingests one file with labels p@v and returns the table (released
// at the end of the test, with a leak check) and the report.
func readPath(t *testing.T, path string) (*table.Table, *ingest.Summary, error) {
	t.Helper()
	return ingesttest.ReadFile(t, goFormat, path, ingest.Source{Project: "p", Version: "v"})
}

func readFrom(t *testing.T, r io.Reader, name string) (*table.Table, *ingest.Summary, error) {
	t.Helper()
	return ingesttest.Read(t, goFormat, r, ingest.Source{File: name, Project: "p", Version: "v"})
}

func rowsOf(t *testing.T, tab *table.Table) []table.Row { t.Helper(); return ingesttest.Rows(t, tab) }

var examples = ingesttest.Examples

func TestReadGood(t *testing.T) {
	tab, rep, err := readPath(t, "testdata/good.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Empty() {
		var sb strings.Builder
		rep.WriteTo(&sb)
		t.Errorf("report not empty:\n%s", sb.String())
	}
	rows := rowsOf(t, tab)
	if len(rows) != 10 {
		t.Fatalf("%d rows, want 10", len(rows))
	}
	want0 := table.Row{Project: "p", Version: "v", Benchmark: "BenchmarkA/x=1", Mode: "go", Metric: table.Primary,
		Unit: "ns/op", Value: 100.5, NsPerOp: 100.5, Count: 1000, Instance: 1, Trial: 1, Fork: 1, Iteration: 1, Slice: 1,
		Source: "testdata/good.csv", Line: 2}
	if rows[0] != want0 {
		t.Errorf("row 0 = %+v\nwant %+v", rows[0], want0)
	}
	// m_id 7: ir 1, sr 2, it 2, bed 1.
	if r := rows[6]; r.Trial != 2 || r.Iteration != 2 || r.Slice != 1 || r.Value != 106.5 || r.Count != 1006 || r.Line != 8 {
		t.Errorf("row 6 = %+v, want trial 2 iteration 2 slice 1 value 106.5 count 1006 line 8", r)
	}
	// A quoted name with a comma, integral floats in setup columns, a tiny time.
	if r := rows[9]; r.Benchmark != "BenchmarkB/a,b" || r.Slice != 2 || r.Value != 2.0e-05 || r.Count != 1000000000 || r.Line != 11 {
		t.Errorf("row 9 = %+v", r)
	}
	if len(tab.Setups) != 2 {
		t.Fatalf("%d setups, want 2", len(tab.Setups))
	}
	wantA := table.Setup{Key: table.Key{Project: "p", Version: "v", Benchmark: "BenchmarkA/x=1", Mode: "go"}, Tool: "go",
		Forks: 1, MeasurementIterations: 2, MeasurementTimeNs: 2e9, Instances: 1, Trials: 2, Slices: 2, SliceTimeNs: 1e9,
		Source: "testdata/good.csv:2"}
	if got := tab.Setup(wantA.Key); got == nil || !reflect.DeepEqual(*got, wantA) {
		t.Errorf("setup A = %+v\nwant %+v", got, wantA)
	}
	if got := tab.Setup(table.Key{Project: "p", Version: "v", Benchmark: "BenchmarkB/a,b", Mode: "go"}); got == nil ||
		got.Instances != 1 || got.Trials != 1 || got.MeasurementIterations != 1 || got.Slices != 2 {
		t.Errorf("setup B = %+v, want 1×1×1×2", got)
	}
}

func TestReadCRLF(t *testing.T) {
	tab, rep, err := readPath(t, "testdata/crlf.csv")
	if err != nil || !rep.Empty() {
		t.Fatalf("err %v, report empty %v", err, rep.Empty())
	}
	rows := rowsOf(t, tab)
	if len(rows) != 1 || rows[0].Benchmark != "BenchmarkCRLF" || rows[0].Value != 5.5 || rows[0].Line != 2 {
		t.Errorf("rows = %+v", rows)
	}
}

func TestReadBadRows(t *testing.T) {
	const f = "testdata/bad_rows.csv"
	tab, rep, err := readPath(t, f)
	if err != nil {
		t.Fatal(err)
	}
	// Each kind: how many rows, and the file:line places of its examples.
	want := []ingesttest.Skipped{
		{Kind: kindBadNumber, Lines: []int{3, 4, 19}, Msg: `column n: "ten" is not an integer`},
		{Kind: "NaN value", Lines: []int{5}, Msg: "ns_per_op = NaN"},
		{Kind: "infinite value (an iteration with zero operations?)", Lines: []int{6}, Msg: "ns_per_op = +Inf"},
		{Kind: "zero time", Lines: []int{7}, Msg: "ns_per_op = 0"},
		{Kind: "negative time", Lines: []int{8}, Msg: "ns_per_op = -3.5"},
		{Kind: kindBadN, Lines: []int{9, 10}, Msg: "column n = -4, want ≥ 1"},
		{Kind: kindOutsideSetup, Lines: []int{11, 12}, Msg: "column it_pos = 3 outside 1..it_setup = 2"},
		{Kind: kindBadSetup, Lines: []int{13}, Msg: "column it_setup = 0"},
		{Kind: kindDuplicate, Lines: []int{14}, Msg: "benchmark BenchmarkOK instance 1 trial 1 iteration 1 slice 1 already read at line 2"},
		{Kind: kindFieldCount, Lines: []int{15, 16}, Msg: "row has 11 fields, header has 12"},
		{Kind: kindMalformedCSV, Lines: []int{17}, Msg: `bare " in non-quoted-field`},
		{Kind: kindEmptyName, Lines: []int{18}, Msg: "b_name is empty"},
	}
	ingesttest.CheckSkipped(t, rep, f, want)
	rows := rowsOf(t, tab)
	if len(rows) != 2 || rows[0].Line != 2 || rows[1].Line != 20 || rows[1].Iteration != 2 {
		t.Errorf("kept rows %+v, want lines 2 and 20", rows)
	}
}

func TestReadUnterminatedQuote(t *testing.T) {
	const f = "testdata/unterminated_quote.csv"
	tab, rep, err := readPath(t, f)
	if err != nil {
		t.Fatal(err)
	}
	if tab.NumRows() != 1 || rep.Count(kindMalformedCSV) != 2 {
		t.Errorf("rows %d, malformed %d; want 1 row and the 2 lines of the open quote counted", tab.NumRows(), rep.Count(kindMalformedCSV))
	}
	if ex := examples(rep, kindMalformedCSV); !strings.Contains(ex, f+":3: ") || !strings.Contains(ex, "2 line(s) skipped") {
		t.Errorf("example %q, want place %s:3 and the skipped line count", ex, f)
	}
}

func TestReadUnreadable(t *testing.T) {
	for _, tc := range []struct {
		file string
		line int
		msg  string
	}{
		{"testdata/empty.csv", 0, "empty file"},
		{"testdata/missing_columns.csv", 1, "missing required columns it_setup, ir_pos"},
	} {
		_, _, err := readPath(t, tc.file)
		var pe *ingest.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: err = %v, want *ingest.ParseError", tc.file, err)
			continue
		}
		if pe.File != tc.file || pe.Line != tc.line || !strings.Contains(pe.Msg, tc.msg) {
			t.Errorf("%s: err = %v, want line %d and %q", tc.file, err, tc.line, tc.msg)
		}
	}
	const header = "m_id,n,ns_per_op,bed_setup,it_setup,sr_setup,ir_setup,bed_pos,it_pos,sr_pos,ir_pos,b_name"
	_, _, err := readFrom(t, strings.NewReader(header+",n\n"), "dup.csv")
	if err == nil || err.Error() != `dup.csv:1: header: column "n" appears twice (fields 2 and 13)` {
		t.Errorf("duplicate column: err = %v", err)
	}
	_, _, err = readFrom(t, strings.NewReader("1,10,5.5,1,1,1,1,1,1,1,1,BenchmarkX\n"), "data.csv")
	if err == nil || !strings.HasPrefix(err.Error(), "data.csv:1: no header line: line 1 is a data row (a µOpTime Go CSV starts with the header m_id,n,ns_per_op,") {
		t.Errorf("data line as header: err = %v", err)
	}
	tab, rep, err := readFrom(t, strings.NewReader(header+",note,note\n1,10,5.5,1,1,1,1,1,1,1,1,BenchmarkX,a,b\n"), "extra.csv")
	if err != nil || tab.NumRows() != 1 || rep.Count(kindUnknownColumn) != 2 {
		t.Errorf("unknown columns: err %v rows %d warnings %d", err, tab.NumRows(), rep.Count(kindUnknownColumn))
	}
	tab, rep, err = readPath(t, "testdata/header_only.csv")
	if err != nil || tab.NumRows() != 0 || rep.Count(kindNoRows) != 1 {
		t.Errorf("header only: err %v, rows %d, no-rows warnings %d", err, tab.NumRows(), rep.Count(kindNoRows))
	}
}

var errDisk = errors.New("disk on fire")

func TestReadIOError(t *testing.T) {
	_, _, err := readFrom(t, ingesttest.ErrReader("m_id,n,ns_per_op,bed_setup,it_setup,sr_setup,ir_setup,bed_pos,it_pos,sr_pos,ir_pos,b_name\n1,10,5.5,1,1,1,1,1,1,1,1,BenchmarkX\n", errDisk), "io.csv")
	if !errors.Is(err, errDisk) || !strings.HasPrefix(err.Error(), "io.csv: ") {
		t.Errorf("err = %v, want a wrapped %v naming the file", err, errDisk)
	}
}

func TestReadRaggedAndMixed(t *testing.T) {
	const f = "testdata/ragged.csv"
	tab, rep, err := readPath(t, f)
	if err != nil {
		t.Fatal(err)
	}
	if tab.NumRows() != 8 || rep.SkippedRows() != 0 {
		t.Errorf("rows %d skipped %d, want 8 and 0", tab.NumRows(), rep.SkippedRows())
	}
	if rep.Count(kindRaggedGo) != 1 {
		t.Errorf("ragged warnings %d, want 1", rep.Count(kindRaggedGo))
	}
	wantRagged := f + ":2: benchmark BenchmarkRagged: 3 of 8 slices missing from the setup grid (2 instances × 1 trials × 2 iterations × 2 slices): missing instance 1 trial 1 iteration 2 slice 2; instance 2 trial 1 iteration 2"
	if got := examples(rep, kindRaggedGo); got != wantRagged {
		t.Errorf("ragged warning\n%s\nwant\n%s", got, wantRagged)
	}
	if rep.Count(kindMixedSetups) != 1 {
		t.Errorf("mixed setup warnings %d, want 1", rep.Count(kindMixedSetups))
	}
	wantMixed := f + ":9: benchmark BenchmarkMixed: 1 row(s) state setup ir_setup=1 sr_setup=1 it_setup=1 bed_setup=3, but line 7 stated ir_setup=1 sr_setup=1 it_setup=1 bed_setup=2"
	if got := examples(rep, kindMixedSetups); !strings.HasPrefix(got, wantMixed) {
		t.Errorf("mixed warning\n%s\nwant prefix\n%s", got, wantMixed)
	}
	s := tab.Setup(table.Key{Project: "p", Version: "v", Benchmark: "BenchmarkMixed", Mode: "go"})
	if s == nil || s.Slices != 2 {
		t.Errorf("mixed setup record %+v, want the first (2 slices)", s)
	}
}

// TestRaggedMessageLarge checks the map-backed grid and truncation of the
// missing list on a setup too large for the dense grid.
func TestRaggedMessageLarge(t *testing.T) {
	b := newBench("BenchmarkBig", [maxLevels]int32{1000, 1000, 10, 10}, 2)
	if b.grid != nil {
		t.Fatal("dense grid allocated for 1e8 cells")
	}
	for s := int32(1); s <= 10; s++ {
		b.mark([maxLevels]int32{1, 1, 1, s}, int64(s+1))
	}
	if first := b.mark([maxLevels]int32{1, 1, 1, 4}, 99); first != 5 {
		t.Errorf("duplicate mark returned %d, want 5", first)
	}
	msg := b.raggedMessage(goLayout)
	want := "benchmark BenchmarkBig: 99999990 of 100000000 slices missing from the setup grid (1000 instances × 1000 trials × 10 iterations × 10 slices): missing instance 1 trial 1 iteration 2; instance 1 trial 1 iteration 3; instance 1 trial 1 iteration 4; instance 1 trial 1 iteration 5; instance 1 trial 1 iteration 6; …"
	if msg != want {
		t.Errorf("message\n%s\nwant\n%s", msg, want)
	}
}

func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		head string
		want bool
	}{
		{"m_id,n,ns_per_op,bed_setup,it_setup,sr_setup,ir_setup,bed_pos,it_pos,sr_pos,ir_pos,b_name\n1,2", true},
		{"\ufeffB_NAME,NS_PER_OP\r\n", true},
		{"goos: linux\nBenchmarkX-8 1 2 ns/op\n", false},
		{"project;commit;benchmark;params;instance;trial;fork;iteration;mode;unit;value_count;value\n", false},
		{`[{"benchmark":"x","primaryMetric":{}}]`, false},
		{"x,y\nns_per_op,b_name\n", false},
	} {
		if got := (goFormat).Sniff([]byte(tc.head)); got != tc.want {
			t.Errorf("Sniff(%q) = %v, want %v", tc.head, got, tc.want)
		}
	}
}

// sharedData locates ../shared/data/<parts> relative to the repository root
// and skips the test when it is absent.
func sharedData(t testing.TB, parts ...string) string {
	t.Helper()
	return testenv.Shared(t, append([]string{"data"}, parts...)...)
}

// independentCount counts a real file's data lines (non-blank lines minus
// the header), the benchmarks and the sum of ns_per_op with a plain line
// splitter. The real files have no quoted fields.
func independentCount(t *testing.T, path string) (rows int, benchmarks int, sum float64) {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	names := map[string]bool{}
	nsCol, nameCol := -1, -1
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "" {
			continue
		}
		f := strings.Split(line, ",")
		if nsCol < 0 {
			for i, h := range f {
				switch h {
				case "ns_per_op":
					nsCol = i
				case "b_name":
					nameCol = i
				}
			}
			continue
		}
		rows++
		names[f[nameCol]] = true
		v, err := strconv.ParseFloat(f[nsCol], 64)
		if err != nil {
			t.Fatal(err)
		}
		sum += v
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows, len(names), sum
}

func TestRealFiles(t *testing.T) {
	dir := sharedData(t, "uoptime-go")
	for _, tc := range []struct {
		file             string
		rows, benchmarks int
		ragged           string
	}{
		{"prometheus-v0.35.0.csv", 6970, 31, "benchmark BenchmarkEmptyLabelSignature: 5 of 225 slices missing from the setup grid (3 instances × 3 trials × 5 iterations × 5 slices): missing instance 2 trial 1 iteration 2"},
		{"toml-v2.0.1.csv", 7875, 35, ""},
		{"zap-v1.19.1.csv", 4725, 21, ""},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			if _, err := os.Stat(path); err != nil {
				testenv.Skip(t, "%s absent", path)
			}
			wantRows, wantBench, wantSum := independentCount(t, path)
			if wantRows != tc.rows || wantBench != tc.benchmarks {
				t.Fatalf("independent count %d rows %d benchmarks; README says %d and %d", wantRows, wantBench, tc.rows, tc.benchmarks)
			}
			tab, rep, err := readPath(t, path)
			if err != nil {
				t.Fatal(err)
			}
			if got := tab.NumRows(); got != int64(wantRows) {
				t.Errorf("%d rows, want %d", got, wantRows)
			}
			if rep.SkippedRows() != 0 {
				t.Errorf("%d rows skipped", rep.SkippedRows())
			}
			names := map[string]bool{}
			var sum float64
			for _, r := range rowsOf(t, tab) {
				names[r.Benchmark] = true
				sum += r.NsPerOp
				if r.Instance < 1 || r.Instance > 3 || r.Trial < 1 || r.Trial > 3 || r.Iteration < 1 || r.Iteration > 5 || r.Slice < 1 || r.Slice > 5 {
					t.Fatalf("row out of the 3×3×5×5 grid: %+v", r)
				}
			}
			if len(names) != wantBench || len(tab.Setups) != wantBench {
				t.Errorf("%d benchmarks, %d setups; want %d", len(names), len(tab.Setups), wantBench)
			}
			if math.Abs(sum-wantSum) > 1e-9*wantSum {
				t.Errorf("sum of ns_per_op %v, independent %v", sum, wantSum)
			}
			for _, s := range tab.Setups {
				if s.Instances != 3 || s.Trials != 3 || s.MeasurementIterations != 5 || s.Slices != 5 || s.MeasurementTimeNs != 5e9 {
					t.Errorf("setup %+v, want 3×3×5×5 and 5 s iterations", s)
				}
			}
			got := examples(rep, kindRaggedGo)
			if tc.ragged == "" && got != "" || tc.ragged != "" && !strings.HasSuffix(got, tc.ragged) {
				t.Errorf("ragged warnings %q, want %q", got, tc.ragged)
			}
			kinds := make([]string, 0)
			for _, k := range rep.Kinds() {
				kinds = append(kinds, k.Kind)
			}
			sort.Strings(kinds)
			if tc.ragged != "" && !reflect.DeepEqual(kinds, []string{kindRaggedGo}) || tc.ragged == "" && len(kinds) != 0 {
				t.Errorf("report kinds %v", kinds)
			}
		})
	}
}
