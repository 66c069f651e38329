package reports

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
)

// TestFrameRoundTrip writes a frame with every column kind in each format
// and reads it back with ReadRows: the same cells, nulls as empty cells,
// lists ";"-joined.
func TestFrameRoundTrip(t *testing.T) {
	f := &Frame{}
	f.String("name", []string{"a", "b,c"})
	f.Int("n", []int64{1, -2})
	f.OptionalInt("st_index", []int64{5, 0}, []bool{true, false})
	f.Float("x", []float64{0.1, math.NaN()})
	f.Bool("ok", []bool{true, false})
	f.IntList("changepoints", [][]int64{{3, 17}, nil})
	f.StringList("analyses", [][]string{{"steady", "optimize"}, nil})
	want := [][]string{{"a", "1", "5", "0.1", "true", "3;17", "steady;optimize"}, {"b,c", "-2", "", "", "false", "", ""}}
	dir := t.TempDir()
	for _, ext := range []string{".csv", ".arrow", ".parquet"} {
		path := filepath.Join(dir, "f"+ext)
		if err := f.WriteFile(path); err != nil {
			t.Fatal(err)
		}
		rows, err := ReadRows(path)
		if err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		if !reflect.DeepEqual(rows.Header, []string{"name", "n", "st_index", "x", "ok", "changepoints", "analyses"}) {
			t.Errorf("%s: header %v", ext, rows.Header)
		}
		if !reflect.DeepEqual(rows.Cells, want) {
			t.Errorf("%s: cells %q, want %q", ext, rows.Cells, want)
		}
	}
	// A corrupt file is an error, not a panic.
	path := filepath.Join(dir, "f.parquet")
	data, _ := os.ReadFile(path)
	for i := len(data) / 3; i < len(data)/3+6; i++ {
		data[i] ^= 0xff
	}
	os.WriteFile(path, data, 0o644)
	if _, err := ReadRows(path); err == nil {
		t.Log("corrupted parquet still read (the flipped bytes hit padding)")
	}
}

// TestFormatFloatCell: floats read back exactly; NaN is an empty cell and
// ±Inf is spelled inf and -inf, which DuckDB's CSV sniffer types as DOUBLE
// (it types a column holding "+Inf" as VARCHAR; .ci/readers checks the
// files).
func TestFormatFloatCell(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want string
	}{
		{math.NaN(), ""}, {math.Inf(1), "inf"}, {math.Inf(-1), "-inf"}, {1.5, "1.5"}, {-0.1, "-0.1"}, {math.MaxFloat64, "1.7976931348623157e+308"},
	} {
		got := formatFloatCell(tc.x)
		if got != tc.want {
			t.Errorf("formatFloatCell(%v) = %q, want %q", tc.x, got, tc.want)
		}
		if got == "" {
			continue
		}
		if back, err := strconv.ParseFloat(got, 64); err != nil || back != tc.x {
			t.Errorf("%q reads back as %v, %v", got, back, err)
		}
	}
}
