package reports

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

func sample() *Table {
	t := &Table{Title: "Time saved", Columns: []string{"project", "benchmarks", "saved", "time", "cv"}}
	t.AddRow("zap_1", 21, Percent(0.9512), Seconds(9000), 0.012345678)
	t.AddRow("a|b & c", 3, Percent(0.5), Seconds(30), 1.5e-7)
	t.Notes = []string{"CV threshold 0.01"}
	return t
}

func TestMarkdown(t *testing.T) {
	var b bytes.Buffer
	sample().WriteMarkdown(&b)
	want := "### Time saved\n\n" +
		"| project  | benchmarks |  saved |  time |        cv |\n" +
		"| -------- | ---------: | -----: | ----: | --------: |\n" +
		"| zap_1    |         21 | 95.1 % | 2.5 h |   0.01235 |\n" +
		"| a\\|b & c |          3 | 50.0 % |  30 s | 1.500e-07 |\n" +
		"\nCV threshold 0.01\n"
	if b.String() != want {
		t.Errorf("markdown =\n%s\nwant\n%s", b.String(), want)
	}
}

func TestCSVKeepsExactValues(t *testing.T) {
	var b bytes.Buffer
	sample().writeCSV(&b)
	want := "project,benchmarks,saved,time,cv\nzap_1,21,0.9512,9000,0.012345678\na|b & c,3,0.5,30,1.5e-07\n"
	if b.String() != want {
		t.Errorf("csv =\n%s\nwant\n%s", b.String(), want)
	}
}

func TestLaTeXAndHTMLEscape(t *testing.T) {
	var l, h bytes.Buffer
	sample().writeLaTeX(&l)
	sample().writeHTML(&h)
	if !strings.Contains(l.String(), `a|b \& c`) || !strings.Contains(l.String(), `95.1 \%`) || !strings.Contains(l.String(), "{lrrrr}") {
		t.Errorf("latex:\n%s", l.String())
	}
	if !strings.Contains(h.String(), "a|b &amp; c") || !strings.Contains(h.String(), `<td style="text-align:right">21</td>`) {
		t.Errorf("html:\n%s", h.String())
	}
}

func TestWriteFileByExtension(t *testing.T) {
	dir := t.TempDir()
	for _, ext := range []string{".md", ".csv", ".tex", ".html"} {
		p := filepath.Join(dir, "t"+ext)
		if err := sample().WriteFile(p); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(p); !strings.Contains(string(b), "21") {
			t.Errorf("%s lacks content", ext)
		}
	}
	if err := sample().WriteFile(filepath.Join(dir, "t.xlsx")); err == nil {
		t.Error("unknown extension accepted")
	}
}

func TestAddRowPanicsOnWrongWidth(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	sample().AddRow(1, 2)
}

func TestArrowAndParquetKeepTypes(t *testing.T) {
	tab := sample()
	tab.AddRow("nils", nil, nil, Seconds(1), nil)
	rec := tab.record(memory.DefaultAllocator)
	defer rec.Release()
	want := []string{"utf8", "int64", "float64", "float64", "float64"}
	for j, f := range rec.Schema().Fields() {
		if f.Type.String() != want[j] {
			t.Errorf("column %s type %s, want %s", f.Name, f.Type, want[j])
		}
	}
	if v := rec.Column(2).(*array.Float64).Value(0); v != 0.9512 {
		t.Errorf("percent cell = %v, want the fraction 0.9512", v)
	}
	if !rec.Column(1).IsNull(2) || rec.Column(1).(*array.Int64).Value(0) != 21 {
		t.Errorf("benchmarks column wrong: %v", rec.Column(1))
	}
	dir := t.TempDir()
	for _, ext := range []string{".arrow", ".parquet"} {
		p := filepath.Join(dir, "t"+ext)
		if err := tab.WriteFile(p); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(p); err != nil || st.Size() < 100 {
			t.Errorf("%s: %v, %v", ext, st, err)
		}
	}
	f, _ := os.Open(filepath.Join(dir, "t.arrow"))
	defer f.Close()
	r, err := ipc.NewFileReader(f)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	back, _ := r.Record(0)
	if back.NumRows() != 3 || back.Column(0).(*array.String).Value(1) != "a|b & c" {
		t.Errorf("arrow read back: %v", back)
	}
}

func TestSelect(t *testing.T) {
	tab := &Table{Title: "x", Columns: []string{"a", "b", "c"}, Notes: []string{"n"}}
	tab.AddRow(1, "two", 3.5)
	tab.AddRow(4, "five", 6.5)
	got := tab.Select("c", "a")
	if len(got.Notes) != 0 || len(got.Columns) != 2 || got.Columns[0] != "c" || got.rows[1][0] != 6.5 || got.rows[1][1] != 4 {
		t.Errorf("Select = %+v", got)
	}
}

// TestHumanLargeValues: values with more integer digits than significant
// ones are rounded to integers, not printed with every binary digit.
func TestHumanLargeValues(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{Seconds(15_000_000), "4167 h"},
		{Seconds(969_000), "269 h"},
		{Seconds(7200), "2 h"},
		{12345.678, "12346"},
		{Seconds(90), "90 s"},
	} {
		if got := Human(tc.v); got != tc.want {
			t.Errorf("Human(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}
