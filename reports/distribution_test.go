package reports

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/table"
)

// TestDistributionFrame: 100 values keep 41 type-7 quantiles (p = 0.5 is
// the median 50.5, p = 0.025 is 1 + 0.025·99), the mean and the count of
// the finite values; 3 values are kept whole, one value at p = 0.5, and a
// run without finite values has no rows.
func TestDistributionFrame(t *testing.T) {
	k := table.Key{Project: "p", Version: "v1", Benchmark: "B", Mode: "avgt"}
	var x []float64
	for i := 100; i >= 1; i-- {
		x = append(x, float64(i))
	}
	x = append(x, math.NaN(), math.Inf(1))
	f := DistributionFrame([]Distribution{
		{Key: k, Configuration: "recorded", Values: x},
		{Key: k, Configuration: "three", Values: []float64{3, 1, 2}},
		{Key: k, Configuration: "one", Values: []float64{7}},
		{Key: k, Configuration: "none", Values: []float64{math.NaN()}},
	})
	if f.Rows() != distributionPoints+3+1 {
		t.Fatalf("%d rows, want %d", f.Rows(), distributionPoints+4)
	}
	var buf bytes.Buffer
	if err := f.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	rows, err := ReadCSVRows(&buf, "distributions.csv")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rows.Header, ","); got != strings.Join(distributionColumns, ",") {
		t.Errorf("columns %s, want %s", got, strings.Join(distributionColumns, ","))
	}
	cell := func(i int, c string) string {
		for j, h := range rows.Header {
			if h == c {
				return rows.Cells[i][j]
			}
		}
		return ""
	}
	want := map[int][4]string{ // row: configuration, iterations, quantile, value_ns
		0:  {"recorded", "100", "0", "1"},
		1:  {"recorded", "100", "0.025", "3.475"},
		20: {"recorded", "100", "0.5", "50.5"},
		40: {"recorded", "100", "1", "100"},
		41: {"three", "3", "0", "1"},
		42: {"three", "3", "0.5", "2"},
		43: {"three", "3", "1", "3"},
		44: {"one", "1", "0.5", "7"},
	}
	for i, w := range want {
		got := [4]string{cell(i, "configuration"), cell(i, "iterations"), cell(i, "quantile"), cell(i, "value_ns")}
		if got != w {
			t.Errorf("row %d: %q, want %q", i, got, w)
		}
	}
	if m := cell(0, "mean_ns"); m != "50.5" {
		t.Errorf("mean %s, want 50.5", m)
	}
}

// TestSummarize: a summary (41 quantile points of 100 values, every value
// of 3, the one of 1) gives the frame rows of the whole values, in a
// fraction of the values, and summarising twice changes nothing.
func TestSummarize(t *testing.T) {
	k := table.Key{Project: "p", Version: "v1", Benchmark: "B", Mode: "avgt"}
	var x []float64
	for i := 100; i >= 1; i-- {
		x = append(x, float64(i*i%97))
	}
	x = append(x, math.Inf(-1))
	ds := []Distribution{{Key: k, Configuration: "a", Values: x}, {Key: k, Configuration: "b", Values: []float64{3, 1, 2}},
		{Key: k, Configuration: "c", Values: []float64{7}}, {Key: k, Configuration: "d", Values: []float64{math.NaN()}}}
	var sum []Distribution
	for _, d := range ds {
		sum = append(sum, Summarize(d))
	}
	if len(sum[0].Values) != distributionPoints || sum[0].Iterations != 100 || sum[1].Iterations != 3 || sum[3].Iterations != 0 {
		t.Fatalf("summaries: %d values of %d, %d, %d", len(sum[0].Values), sum[0].Iterations, sum[1].Iterations, sum[3].Iterations)
	}
	if again := Summarize(sum[0]); len(again.Values) != len(sum[0].Values) || again.Mean != sum[0].Mean {
		t.Errorf("Summarize of a summary changed it: %+v", again)
	}
	var a, b bytes.Buffer
	if err := DistributionFrame(ds).WriteCSV(&a); err != nil {
		t.Fatal(err)
	}
	if err := DistributionFrame(sum).WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() || a.Len() < 1000 {
		t.Errorf("frames differ (%d and %d bytes)", a.Len(), b.Len())
	}
}
