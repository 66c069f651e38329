package optimize

import (
	"bytes"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"

	"github.com/benchtrim/benchtrim/internal/testenv"
)

var wantResultColumns = "project,version,benchmark,params,mode,metric,method,status,instance,trial,fork,iteration,slice," +
	"observations,repetitions,value,time_s,average,ci_lower,ci_upper,full_instance,full_trial,full_fork,full_iteration,full_slice," +
	"full_observations,full_value,full_time_s,full_average,full_ci_lower,full_ci_upper,time_saved_s,time_saved,change_rate," +
	"ci_lower_diff,ci_upper_diff,configurations,candidates,evaluated,missing,ragged,assumed_time,threshold,seed"

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestWriteResults(t *testing.T) {
	series := handSeries(t)
	opt := fastOptions()
	opt.Metrics = []Metric{CV, RMAD}
	opt.MinRepetitions = 2
	opt.AllConfigs = true
	rep, err := optimize(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "res.csv")
	if err := writeResults(path, rep); err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, path)
	if got := strings.Join(recs[0], ","); got != wantResultColumns {
		t.Fatalf("header\n%s\nwant\n%s", got, wantResultColumns)
	}
	// 2 metrics × (3 methods + 9 evaluated configurations).
	if len(recs) != 1+2*(3+9) {
		t.Fatalf("%d rows", len(recs)-1)
	}
	col := map[string]int{}
	for i, n := range recs[0] {
		col[n] = i
	}
	row := recs[1]
	if row[col["method"]] != "uoptime" || row[col["status"]] != "reduced" || row[col["trial"]] != "2" || row[col["iteration"]] != "1" ||
		row[col["slice"]] != "1" || row[col["time_s"]] != "2" || row[col["full_time_s"]] != "12" || row[col["time_saved_s"]] != "10" {
		t.Errorf("first row %v", row)
	}
	if v, _ := strconv.ParseFloat(row[col["value"]], 64); v != rep.Results[0].Chosen.Value {
		t.Errorf("value %s, want %v", row[col["value"]], rep.Results[0].Chosen.Value)
	}
	configs := 0
	for _, r := range recs[1:] {
		if r[col["method"]] == "config" {
			configs++
			if r[col["status"]] != "stable" && r[col["status"]] != "unstable" {
				t.Errorf("config row status %q", r[col["status"]])
			}
		}
	}
	if configs != 18 {
		t.Errorf("%d config rows, want 18", configs)
	}

	// Arrow and Parquet hold the same rows.
	ap := filepath.Join(dir, "res.arrow")
	if err := writeResults(ap, rep); err != nil {
		t.Fatal(err)
	}
	af, err := os.Open(ap)
	if err != nil {
		t.Fatal(err)
	}
	defer af.Close()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	fr, err := ipc.NewFileReader(af, ipc.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	var rows int64
	for i := 0; i < fr.NumRecords(); i++ {
		rec, err := fr.Record(i)
		if err != nil {
			t.Fatal(err)
		}
		rows += rec.NumRows()
	}
	if rows != 24 || fr.Schema().NumFields() != len(recs[0]) {
		t.Errorf("arrow: %d rows, %d columns", rows, fr.Schema().NumFields())
	}
	fr.Close()
	pp := filepath.Join(dir, "res.parquet")
	if err := writeResults(pp, rep); err != nil {
		t.Fatal(err)
	}
	pf, err := file.OpenParquetFile(pp, false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	pr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	tab, err := pr.ReadTable(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if tab.NumRows() != 24 || tab.NumCols() != int64(len(recs[0])) {
		t.Errorf("parquet: %d rows, %d columns", tab.NumRows(), tab.NumCols())
	}
	tab.Release()
	if err := writeResults(filepath.Join(dir, "res.xlsx"), rep); err == nil {
		t.Error("unknown extension: no error")
	}

	// Summary and version files.
	sp := filepath.Join(dir, "sum.csv")
	if err := writeSummary(sp, summarize(rep.Results)); err != nil {
		t.Fatal(err)
	}
	srecs := readCSV(t, sp)
	if len(srecs) != 1+2*3 || srecs[1][3] != "uoptime" || srecs[1][4] != "1" {
		t.Errorf("summary %v", srecs)
	}
	var md bytes.Buffer
	timeSavingTable(summarize(rep.Results)).WriteMarkdown(&md)
	if !strings.Contains(md.String(), "| hand    | v1      | cv     |") || !strings.Contains(md.String(), "83.3 %") {
		t.Errorf("markdown:\n%s", md.String())
	}
}

func TestWriteScript(t *testing.T) {
	series := build(t, append(goSuite("p", "v1", 4, 3, nil),
		spec{project: "j", version: "1", name: "org.ex.C.m", mode: "avgt", params: "size=16", mean: 100, noise: 0.002,
			grid: grid{instances: 1, trials: 1, forks: 3, iterations: 10, slices: 1}, seed: 1})...)
	opt := fastOptions()
	opt.Metrics = []Metric{RMAD, CV}
	rep, err := optimize(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := writeScript(&b, rep.Results, opt.Metrics); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, want := range []string{"metric=${1:-rmad}", "\nrmad)\n", "\ncv)\n", "go test -run '^$' -bench '^BenchmarkGenAa$'",
		"java -jar benchmarks.jar '^org\\.ex\\.C\\.m$' -p size=16 -f ", "# on each of"} {
		if !strings.Contains(s, want) {
			t.Errorf("script lacks %q:\n%s", want, s)
		}
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		testenv.Skip(t, "no sh to check the script's syntax")
	}
	path := filepath.Join(t.TempDir(), "r.sh")
	os.WriteFile(path, b.Bytes(), 0o644)
	if out, err := exec.Command(sh, "-n", path).CombinedOutput(); err != nil {
		t.Errorf("sh -n: %v\n%s", err, out)
	}
}
