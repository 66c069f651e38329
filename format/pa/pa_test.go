package pa

import (
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/table"
)

func readPath(t *testing.T, path string, src ingest.Source) (*table.Table, *ingest.Summary, error) {
	t.Helper()
	return ingesttest.ReadFile(t, paFormat{}, path, src)
}

func readFrom(t *testing.T, r io.Reader, src ingest.Source) (*table.Table, *ingest.Summary, error) {
	t.Helper()
	return ingesttest.Read(t, paFormat{}, r, src)
}

func rowsOf(t *testing.T, tab *table.Table) []table.Row { t.Helper(); return ingesttest.Rows(t, tab) }

var (
	examples   = ingesttest.Examples
	reportText = ingesttest.ReportText
)

func approxEqual(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Abs(b) }

func TestReadGood(t *testing.T) {
	const f = "testdata/good.csv"
	tab, rep, err := readPath(t, f, ingest.Source{Project: "label", Version: "fromname"})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Empty() {
		t.Errorf("report:\n%s", reportText(rep))
	}
	rows := rowsOf(t, tab)
	if len(rows) != 10 {
		t.Fatalf("%d rows, want 10", len(rows))
	}
	const hollow = "com.netflix.hollow.core.read.engine.object.HollowObjectTypeReadStateReshardingBenchmark.testReadString"
	want0 := table.Row{Project: "hollow", Version: "6d75aa9", Benchmark: hollow,
		Params: "countStrings=500,countStringsDb=100000,deltaChanges=2000,maxStringLength=5,shardSizeMBs=1",
		Mode:   "thrpt", Metric: table.Primary, Unit: "ops/ms", Value: 47.89633, NsPerOp: 1e6 / 47.89633, Count: 1,
		Instance: 1, Trial: 1, Fork: 1, Iteration: 1, Slice: 1, Source: f, Line: 2}
	if r := rows[0]; !approxEqual(r.NsPerOp, want0.NsPerOp) || func() bool { r.NsPerOp = want0.NsPerOp; return r != want0 }() {
		t.Errorf("row 0\n got %+v\nwant %+v", rows[0], want0)
	}
	if r := rows[2]; r.Fork != 2 || r.Iteration != 1 || r.Value != 47.01234 {
		t.Errorf("row 2 = %+v, want fork 2 iteration 1", r)
	}
	if r := rows[3]; r.Instance != 2 || r.Value != 49 {
		t.Errorf("row 3 = %+v, want instance 2 (m2)", r)
	}
	if r := rows[4]; r.Params != "mode=a;b,query=SELECTNOW()" || r.Mode != "avgt" || !approxEqual(r.NsPerOp, 1234.568) || r.Instance != 2 || r.Trial != 2 {
		t.Errorf("row 4 = %+v, want quoted params split and 1234.568 ns", r)
	}
	if r := rows[5]; r.Mode != "sample" || r.Count != 12 || !approxEqual(r.NsPerOp, 17824) {
		t.Errorf("row 5 = %+v, want a sample bucket of 12 at 17824 ns", r)
	}
	if r := rows[7]; r.Value != 0 || r.NsPerOp != 0 || r.Count != 1 {
		t.Errorf("row 7 = %+v, want a zero sample kept", r)
	}
	if r := rows[9]; r.Mode != "ss" || r.NsPerOp != 2.1e11 || r.Value != 210 {
		t.Errorf("row 9 = %+v, want 210 s/op", r)
	}
	if len(tab.Setups) != 4 {
		t.Fatalf("%d setups, want 4", len(tab.Setups))
	}
	s := tab.Setup(table.Key{Project: "hollow", Version: "6d75aa9", Benchmark: hollow, Params: want0.Params, Mode: "thrpt"})
	wantEnv := map[string]string{"instance.1": "m1", "instance.2": "m2"}
	if s == nil || s.Tool != "jmh" || !reflect.DeepEqual(s.Env, wantEnv) || s.Source != f+":2" {
		t.Errorf("setup %+v, want tool jmh, env %v, source %s:2", s, wantEnv, f)
	}
	s = tab.Setup(table.Key{Project: "hollow", Version: "6d75aa9", Benchmark: "com.example.Bench.avg", Params: "mode=a;b,query=SELECTNOW()", Mode: "avgt"})
	if s == nil || !reflect.DeepEqual(s.Env, map[string]string{"instance.2": "m2"}) {
		t.Errorf("avg setup %+v, want only instance 2", s)
	}
}

func TestDecimalComma(t *testing.T) {
	const f = "testdata/decimal_comma.csv"
	tab, rep, err := readPath(t, f, ingest.Source{})
	if err != nil {
		t.Fatal(err)
	}
	rows := rowsOf(t, tab)
	if len(rows) != 2 || rows[0].Value != 1.234568e+07 || rows[1].Value != 1.5 {
		t.Errorf("rows %+v, want 1.234568e+07 and 1.5", rows)
	}
	want := f + ":2: 2 value(s) written with a decimal comma (first here) were read with ',' as the decimal point"
	if got := examples(rep, kindDecimalComma); got != want {
		t.Errorf("report %q, want %q", got, want)
	}
}

func TestLabelPrecedence(t *testing.T) {
	for _, tc := range []struct {
		src  ingest.Source
		want []string
	}{
		// File-name labels fill empty columns only.
		{ingest.Source{Project: "name", Version: "v1"}, []string{"name@v1", "own@c9"}},
		// The user's labels win; an empty one leaves the column.
		{ingest.Source{Project: "flag", Version: "v2", ProjectFromUser: true, VersionFromUser: true}, []string{"flag@v2", "flag@v2"}},
		{ingest.Source{Project: "flag", ProjectFromUser: true}, []string{"flag@", "flag@c9"}},
		// Only --project given: the file-name version does not override the commit column.
		{ingest.Source{Project: "flag", Version: "fromname", ProjectFromUser: true}, []string{"flag@fromname", "flag@c9"}},
	} {
		tab, rep, err := readPath(t, "testdata/labels.csv", tc.src)
		if err != nil || !rep.Empty() {
			t.Fatalf("err %v report %s", err, reportText(rep))
		}
		var got []string
		for _, r := range rowsOf(t, tab) {
			got = append(got, r.Project+"@"+r.Version)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("source %+v: labels %v, want %v", tc.src, got, tc.want)
		}
	}
}

func TestReadBadRows(t *testing.T) {
	const f = "testdata/bad.csv"
	tab, rep, err := readPath(t, f, ingest.Source{})
	if err != nil {
		t.Fatal(err)
	}
	skips := []ingesttest.Skipped{
		{Kind: kindFieldCount, Lines: []int{3, 4}, Msg: "row has 7 fields, want 12"},
		{Kind: kindEmptyName, Lines: []int{5}, Msg: "column benchmark is empty"},
		{Kind: kindBadNumber, Lines: []int{6, 10, 11}, Msg: `column trial: "one" is not an integer`},
		{Kind: kindBadLevel, Lines: []int{7, 8}, Msg: "column iteration = -1, want ≥ 1"},
		{Kind: kindBadCount, Lines: []int{9}, Msg: "column value_count = 0"},
		{Kind: kindUnknownUnit, Lines: []int{12}, Msg: `unknown unit "furlongs/op"`},
		{Kind: "NaN value", Lines: []int{13}, Msg: "value NaN ns/op"},
		{Kind: "infinite value (an iteration with zero operations?)", Lines: []int{14, 17}, Msg: `value 0 ops/s (mode "thrpt")`},
		{Kind: "negative time", Lines: []int{15}, Msg: "value -5 ns/op"},
		{Kind: "zero time", Lines: []int{16}, Msg: "value 0 ns/op"},
		{Kind: kindDuplicate, Lines: []int{18}, Msg: `p@c b.B.ok (avgt) instance "m1" trial 1 fork 1 iteration 1 already read at line 2`},
		{Kind: kindMalformedCSV, Lines: []int{19}, Msg: `bare " in non-quoted-field`},
	}
	ingesttest.CheckSkipped(t, rep, f, skips)
	warns := []struct{ kind, want string }{
		{kindMalformedParams, f + `:20: params ",x=1,x=2": empty piece before the first key ignored`},
		{kindEmptyMode, f + ":21: p@c b.B.ok: column mode is empty"},
		{kindMixedUnits, f + ":22: p@c b.B.ok (avgt): unit us/op, but line 2 has ns/op (ns_per_op normalises both)"},
	}
	for _, w := range warns {
		if got := examples(rep, w.kind); got != w.want {
			t.Errorf("%s:\n got %q\nwant %q", w.kind, got, w.want)
		}
	}
	var got []string
	for _, r := range rowsOf(t, tab) {
		got = append(got, fmt.Sprintf("%s[%s](%s)#%d=%v@%d", r.Benchmark, r.Params, r.Mode, r.Iteration, r.NsPerOp, r.Line))
	}
	want := []string{"b.B.ok[](avgt)#1=5@2", "b.B.ok[x=2](avgt)#1=5@20", "b.B.ok[]()#2=5@21", "b.B.ok[](avgt)#2=6@22"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
}

func TestReadUnreadable(t *testing.T) {
	for _, tc := range []struct {
		file string
		line int
		msg  string
	}{
		{"testdata/empty.csv", 0, "empty file"},
		{"testdata/missing_columns.csv", 1, "missing columns instance, value_count"},
		{"testdata/no_header.csv", 1, "no header line: line 1 is a data row (a pa/bencher CSV starts with the header project;commit;benchmark;params;instance;trial;fork;iteration;mode;unit;value_count;value)"},
	} {
		_, _, err := readPath(t, tc.file, ingest.Source{})
		var pe *ingest.ParseError
		if !errors.As(err, &pe) || pe.File != tc.file || pe.Line != tc.line || !strings.Contains(pe.Msg, tc.msg) {
			t.Errorf("%s: err = %v, want a ParseError at line %d with %q", tc.file, err, tc.line, tc.msg)
		}
	}
	dup := "project;commit;benchmark;params;instance;trial;fork;iteration;mode;unit;value_count;value;mode\n"
	if _, _, err := readFrom(t, strings.NewReader(dup), ingest.Source{File: "d.csv"}); err == nil || !strings.Contains(err.Error(), `d.csv:1: header: column "mode" appears twice (fields 9 and 13)`) {
		t.Errorf("duplicate column: err = %v", err)
	}
	extra := "project;commit;benchmark;params;instance;trial;fork;iteration;mode;unit;value_count;value;note\n"
	if _, _, err := readFrom(t, strings.NewReader(extra), ingest.Source{File: "x.csv"}); err == nil || !strings.Contains(err.Error(), "x.csv:1: header: 13 columns") {
		t.Errorf("extra column: err = %v", err)
	}
	tab, rep, err := readPath(t, "testdata/header_only.csv", ingest.Source{})
	if err != nil || tab.NumRows() != 0 || rep.Count(kindNoRows) != 1 {
		t.Errorf("header only: err %v rows %d report %s", err, tab.NumRows(), reportText(rep))
	}
}

var errDisk = errors.New("disk on fire")

func TestReadIOError(t *testing.T) {
	_, _, err := readFrom(t, ingesttest.ErrReader("project;commit;benchmark;params;instance;trial;fork;iteration;mode;unit;value_count;value\np;c;b;;i;1;1;1;avgt;ns/op;1;5\n", errDisk), ingest.Source{File: "io.csv"})
	if !errors.Is(err, errDisk) || !strings.HasPrefix(err.Error(), "io.csv: ") {
		t.Errorf("err = %v, want a wrapped %v naming the file", err, errDisk)
	}
}

func TestSplitParams(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want map[string]string
		bad  bool
	}{
		{"", nil, false},
		{"a=1", map[string]string{"a": "1"}, false},
		{"a=1,b=2", map[string]string{"a": "1", "b": "2"}, false},
		{"a=1,2,b=3", map[string]string{"a": "1,2", "b": "3"}, false},
		{"q=x=y,b=", map[string]string{"q": "x=y", "b": ""}, false},
		{"flag,a=1", map[string]string{"flag": "", "a": "1"}, true},
		{"a=1,a=2", map[string]string{"a": "2"}, true},
		{"a=1,,2", map[string]string{"a": "1,,2"}, false},
		{"flag,x,b=2", map[string]string{"flag": ",x", "b": "2"}, true},
		{",a=1", map[string]string{"a": "1"}, true},
		{"a=" + strings.Repeat(",x", 100000), map[string]string{"a": strings.Repeat(",x", 100000)}, false},
	} {
		m, bad := splitParams(tc.raw)
		if !reflect.DeepEqual(m, tc.want) || (bad != "") != tc.bad {
			t.Errorf("splitParams(%q) = %v, %q; want %v, bad %v", tc.raw, m, bad, tc.want, tc.bad)
		}
	}
}

func TestParseValue(t *testing.T) {
	for _, tc := range []struct {
		s     string
		want  float64
		comma bool
		ok    bool
	}{
		{"4.789633e+01", 47.89633, false, true},
		{"2e+07", 2e7, false, true},
		{"210", 210, false, true},
		{"1,234568e+07", 1.234568e7, true, true},
		{"0,5", 0.5, true, true},
		{"0x1p-2", 0.25, false, true},
		{"1e400", math.Inf(1), false, true},
		{"1,2,3", 0, false, false},
		{"1.5,2", 0, false, false},
		{"", 0, false, false},
	} {
		v, comma, err := parseValue(tc.s)
		if (err == nil) != tc.ok || comma != tc.comma || tc.ok && v != tc.want {
			t.Errorf("parseValue(%q) = %v, %v, %v; want %v, %v, ok %v", tc.s, v, comma, err, tc.want, tc.comma, tc.ok)
		}
	}
}

func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		head string
		want bool
	}{
		{"project;commit;benchmark;params;instance;trial;fork;iteration;mode;unit;value_count;value\n", true},
		{"\ufeff\"project\";\"commit\";\"benchmark\";\"params\";\"instance\";\"trial\"\r\n", true},
		{"m_id,n,ns_per_op,bed_setup,it_setup,sr_setup,ir_setup,bed_pos,it_pos,sr_pos,ir_pos,b_name\n", false},
		{"goos: linux\nBenchmarkX 1 1 ns/op\n", false},
		{"x;y\nproject;commit;benchmark;params;instance\n", false},
	} {
		if got := (paFormat{}).Sniff([]byte(tc.head)); got != tc.want {
			t.Errorf("Sniff(%q) = %v, want %v", tc.head, got, tc.want)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	tab, _, err := readPath(t, "testdata/good.csv", ingest.Source{})
	if err != nil {
		t.Fatal(err)
	}
	ingesttest.CheckTableFiles(t, tab)
}

// TestNumericInstancesKeepTheirNumbers reads two per-instance files, as
// bencher writes them with -i 2 and -i 3, into one table: their instances
// stay 2 and 3, and a named instance takes the next free number.
func TestNumericInstancesKeepTheirNumbers(t *testing.T) {
	const head = "project;commit;benchmark;params;instance;trial;fork;iteration;mode;unit;value_count;value\n"
	var got []int32
	for _, body := range []string{
		"p;c;b.B.x;;3;1;1;1;avgt;ns/op;1;5\np;c;b.B.x;;vm-a;1;1;1;avgt;ns/op;1;6\n",
		"p;c;b.B.x;;2;1;1;1;avgt;ns/op;1;7\n",
	} {
		tab, _, err := readFrom(t, strings.NewReader(head+body), ingest.Source{File: "x.csv"})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rowsOf(t, tab) {
			got = append(got, r.Instance)
		}
		if env := tab.Setups[0].Env; body[len("p;c;b.B.x;;")] == '3' && (env["instance.3"] != "3" || env["instance.4"] != "vm-a") {
			t.Errorf("setup env = %v, want instance.3 = 3 and instance.4 = vm-a", env)
		}
	}
	if !reflect.DeepEqual(got, []int32{3, 4, 2}) {
		t.Errorf("instances = %v, want [3 4 2]", got)
	}
}
