package compare

import (
	"encoding/csv"
	"github.com/benchtrim/benchtrim/estimate"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"

	"github.com/benchtrim/benchtrim/table"
)

// smallReport compares B (matched), A (only in base) and a failing D.
func smallReport(t *testing.T) *metricRows {
	t.Helper()
	base := []*table.Series{handSeries("A", "v1", []float64{1, 2}), handSeries("B", "v1", []float64{10, 11, 12}, []float64{11, 12}),
		handSeries("D", "v1", []float64{1, 2})}
	test := []*table.Series{handSeries("B", "v2", []float64{20, 21, 22}, []float64{21, 23}), handSeries("D", "v2")}
	rep, err := compareSets(runSet{Label: "old", Series: base}, runSet{Label: "new", Series: test}, testOptions(300))
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestWriteFileCSV(t *testing.T) {
	rep := smallReport(t)
	path := filepath.Join(t.TempDir(), "out.csv")
	if err := writeReport(rep, path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 {
		t.Fatalf("%d CSV rows, want header + 3", len(rows))
	}
	col := map[string]int{}
	for j, n := range rows[0] {
		col[n] = j
	}
	for _, n := range []string{"benchmark", "status", "base_runs", "base_mean_ns", "ratio", "ratio_ci_lower", "ratio_ci_upper",
		"ci_excludes_1", "change_rate", "u_statistic", "u_pvalue", "u_pvalue_below_alpha", "base_median_ns", "test_median_ns", "cliffs_delta", "cliff_magnitude", "change", "verdict", "error", "confidence", "seed"} {
		if _, ok := col[n]; !ok {
			t.Errorf("column %s missing from %v", n, rows[0])
		}
	}
	b := rep.Results[0] // B
	if rows[1][col["benchmark"]] != "B" || rows[1][col["status"]] != "compared" || rows[1][col["base_runs"]] != "p@v1" {
		t.Errorf("row B: %v", rows[1])
	}
	if got, _ := strconv.ParseFloat(rows[1][col["ratio"]], 64); got != b.Ratio.Estimate {
		t.Errorf("ratio %v, want %v (floats must round-trip)", got, b.Ratio.Estimate)
	}
	if rows[1][col["verdict"]] != b.Verdict.String() || rows[1][col["change"]] != "1" || rows[1][col["ci_excludes_1"]] != "true" {
		t.Errorf("row B verdict cells: %v", rows[1])
	}
	num := func(row []string, name string) float64 {
		t.Helper()
		v, err := strconv.ParseFloat(row[col[name]], 64)
		if err != nil {
			t.Fatalf("column %s: %v", name, err)
		}
		return v
	}
	if num(rows[1], "u_pvalue") != b.P || num(rows[1], "u_statistic") != b.U ||
		num(rows[1], "base_median_ns") != b.Base.Median || num(rows[1], "test_median_ns") != b.Test.Median {
		t.Errorf("row B: u_statistic %v u_pvalue %v medians %v %v, want %v %v %v %v", rows[1][col["u_statistic"]], rows[1][col["u_pvalue"]],
			rows[1][col["base_median_ns"]], rows[1][col["test_median_ns"]], b.U, b.P, b.Base.Median, b.Test.Median)
	}
	if rows[1][col["statistic"]] != "mean" || num(rows[1], "min_effect") != 0 {
		t.Errorf("row B settings: statistic %q min_effect %q, want mean and 0", rows[1][col["statistic"]], rows[1][col["min_effect"]])
	}
	if rows[2][col["benchmark"]] != "D" || rows[2][col["status"]] != "failed" || !strings.Contains(rows[2][col["error"]], "no iterations") || rows[2][col["ratio"]] != "" {
		t.Errorf("row D: %v", rows[2])
	}
	if rows[3][col["benchmark"]] != "A" || rows[3][col["status"]] != "only in base" || rows[3][col["test_runs"]] != "" || rows[3][col["u_pvalue"]] != "" || rows[3][col["base_median_ns"]] != "" {
		t.Errorf("row A: %v", rows[3])
	}
}

func TestWriteFileArrowAndParquet(t *testing.T) {
	rep := smallReport(t)
	dir := t.TempDir()
	check := func(t *testing.T, rec arrow.Record) {
		t.Helper()
		if rec.NumRows() != 3 {
			t.Fatalf("%d rows, want 3", rec.NumRows())
		}
		idx := rec.Schema().FieldIndices("ratio")
		if len(idx) != 1 {
			t.Fatalf("no ratio column in %v", rec.Schema())
		}
		ratio := rec.Column(idx[0]).(*array.Float64)
		if ratio.Value(0) != rep.Results[0].Ratio.Estimate || !ratio.IsNull(1) || !ratio.IsNull(2) {
			t.Errorf("ratio column %v: want the estimate, then nulls for the failed and unmatched rows", ratio)
		}
		verdict := rec.Column(rec.Schema().FieldIndices("verdict")[0]).(*array.String)
		if verdict.Value(0) != rep.Results[0].Verdict.String() {
			t.Errorf("verdict %q", verdict.Value(0))
		}
	}
	t.Run("arrow", func(t *testing.T) {
		path := filepath.Join(dir, "out.arrow")
		if err := writeReport(rep, path); err != nil {
			t.Fatal(err)
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		r, err := ipc.NewFileReader(f, ipc.WithAllocator(mem))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		rec, err := r.Record(0)
		if err != nil {
			t.Fatal(err)
		}
		check(t, rec)
	})
	t.Run("parquet", func(t *testing.T) {
		path := filepath.Join(dir, "out.parquet")
		if err := writeReport(rep, path); err != nil {
			t.Fatal(err)
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		pf, err := file.OpenParquetFile(path, false)
		if err != nil {
			t.Fatal(err)
		}
		defer pf.Close()
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, mem)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := fr.ReadTable(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		defer tab.Release()
		tr := array.NewTableReader(tab, -1)
		defer tr.Release()
		if !tr.Next() {
			t.Fatal("empty parquet table")
		}
		check(t, tr.Record())
	})
	if err := writeReport(rep, filepath.Join(dir, "out.xlsx")); err == nil || !strings.Contains(err.Error(), "unknown output extension") {
		t.Errorf("xlsx: err %v", err)
	}
}

func TestAAWriteFile(t *testing.T) {
	s := handSeries("B", "v1", []float64{1, 2}, []float64{2, 3}, []float64{3, 4}, []float64{1, 1})
	opt := aaOptions()
	opt.Bootstrap.Resamples, opt.Repeats = 100, 2
	rep, err := aaSeries([]*table.Series{s}, opt)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "aa.csv")
	if err := rep.frame().WriteFile(path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "project,version,benchmark,params,mode,split,repeat,units_a,units_b,a_iterations,b_iterations,a_mean_ns") {
		t.Fatalf("A/A CSV:\n%s", data)
	}
	if !strings.HasPrefix(lines[1], "p,v1,B,,avgt,fork,1,2,2,4,4,") || !strings.HasPrefix(lines[2], "p,v1,B,,avgt,fork,2,2,2,4,4,") {
		t.Errorf("A/A rows:\n%s", data)
	}
}

// TestWriteFileSettings: the statistic and the minimum effect (a fraction,
// as every rate in the data files) are columns of every row.
func TestWriteFileSettings(t *testing.T) {
	opt := testOptions(200)
	opt.Rule, opt.MinEffect = estimate.TestU, 5
	base := []*table.Series{handSeries("B", "v1", []float64{10, 11, 12}, []float64{11, 12})}
	test := []*table.Series{handSeries("B", "v2", []float64{20, 21, 22}, []float64{21, 23})}
	rep, err := compareSets(runSet{Label: "old", Series: base}, runSet{Label: "new", Series: test}, opt)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "out.csv")
	if err := writeReport(rep, path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	cell := map[string]string{}
	for j, n := range rows[0] {
		cell[n] = rows[1][j]
	}
	if cell["statistic"] != "median" || cell["min_effect"] != "0.05" {
		t.Errorf("statistic %q, min_effect %q; want median and 0.05", cell["statistic"], cell["min_effect"])
	}
}

// writeReport writes an A/B report's data table (frame) to path.
func writeReport(rep *metricRows, path string) error { return reportOf(rep).frame().WriteFile(path) }
