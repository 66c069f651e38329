package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// stepValues is a seeded series: 120 × N(10, 0.5²), then 80 × N(14, 0.5²).
func stepValues() []float64 {
	rng := rand.New(rand.NewPCG(21, 0))
	x := make([]float64, 200)
	for i := range x {
		m := 10.0
		if i >= 120 {
			m = 14
		}
		x[i] = m + 0.5*rng.NormFloat64()
	}
	return x
}

func writeLines(t *testing.T, name string, lines []string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestChangepointCommandStep(t *testing.T) {
	x := stepValues()
	var lines, csvLines []string
	csvLines = append(csvLines, "iteration,ns_per_op")
	for i, v := range x {
		lines = append(lines, fmt.Sprintf("%.17g", v))
		csvLines = append(csvLines, fmt.Sprintf("%d,%.17g", i+1, v))
	}
	plain := writeLines(t, "x.txt", lines)
	csvFile := writeLines(t, "x.csv", csvLines)
	for _, args := range [][]string{
		{"changepoint", "--penalty", "15log", plain},
		{"changepoint", "--penalty", "15log", "--column", "ns_per_op", csvFile},
		{"changepoint", "--penalty", "50", plain},
		{"changepoint", "--cost", "mean", "--penalty", "15log", plain}, // unit-variance cost on sd 0.5 data
		{"changepoint", plain},                                         // CROPS + Kneedle (falls back to 15·log n: one step only)
	} {
		out, _, err := runCLI(t, args...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if out != "120\n" {
			t.Errorf("%v: output %q, want \"120\\n\"", args, out)
		}
	}

	out, _, err := runCLI(t, "changepoint", "--json", "--penalty", "2log", "--min-seg-len", "3", plain)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		N            int
		Cost         string
		MinSegLen    int     `json:"min_seg_len"`
		PenaltyRule  string  `json:"penalty_rule"`
		Penalty      float64 `json:"penalty"`
		Changepoints []int
		Segments     []struct {
			Start, End     int
			Mean, Variance float64
		}
		CROPS *json.RawMessage `json:"crops"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if res.N != 200 || res.Cost != "meanvar" || res.MinSegLen != 3 || res.PenaltyRule != "manual" ||
		math.Abs(res.Penalty-2*math.Log(200)) > 1e-12 || res.CROPS != nil {
		t.Errorf("header fields: %+v", res)
	}
	// Segments tile 1..n, end at the change points, and carry the sample
	// mean and MLE variance of their points.
	if len(res.Segments) != len(res.Changepoints)+1 || res.Segments[0].Start != 1 || res.Segments[len(res.Segments)-1].End != 200 {
		t.Fatalf("segments %+v for change points %v", res.Segments, res.Changepoints)
	}
	for k, s := range res.Segments {
		if k < len(res.Changepoints) && s.End != res.Changepoints[k] {
			t.Errorf("segment %d ends at %d, change point %d", k, s.End, res.Changepoints[k])
		}
		v := x[s.Start-1 : s.End]
		var m, ss float64
		for _, y := range v {
			m += y
		}
		m /= float64(len(v))
		for _, y := range v {
			ss += (y - m) * (y - m)
		}
		if math.Abs(s.Mean-m) > 1e-12*math.Abs(m) || math.Abs(s.Variance-ss/float64(len(v))) > 1e-9*s.Variance {
			t.Errorf("segment %d: mean %v variance %v, direct %v %v", k, s.Mean, s.Variance, m, ss/float64(len(v)))
		}
	}
}

// TestChangepointCommandReference runs the command on the reference series
// s07_short and compares with R changepoint 2.3 and kneed 0.8.6 (values
// from changepoint/testdata/reference/s07_short.json): cpts [6] at
// 15·log n, and with CROPS over [4·log n, 1e5·log n] the Traini protocol
// selects 69.6049723803536 (a breakpoint: R's PELT there gives [6]) from
// pen.value.full (11.98…, 12.62…, 14.99…, 16.21…, 20.45…, 69.60…, 299573.2…).
func TestChangepointCommandReference(t *testing.T) {
	file := repoFile("changepoint", "testdata", "reference", "s07_short.csv")
	out, _, err := runCLI(t, "--quiet", "changepoint", "--penalty", "15log", file)
	if err != nil || out != "6\n" {
		t.Fatalf("15log: %q %v, want \"6\\n\"", out, err)
	}
	out, _, err = runCLI(t, "--quiet", "changepoint", "--json", file)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Penalty      float64 `json:"penalty"`
		Changepoints []int   `json:"changepoints"`
		CROPS        struct {
			Outcome      string    `json:"outcome"`
			PenValueFull []float64 `json:"pen_value_full"`
			Rows         []struct {
				N int `json:"n_changepoints"`
			} `json:"segmentations"`
		} `json:"crops"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	rel := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Abs(b) }
	if !rel(res.Penalty, 69.6049723803536) || !slices.Equal(res.Changepoints, []int{6}) || res.CROPS.Outcome != "elbow found" {
		t.Errorf("penalty %v cpts %v outcome %q", res.Penalty, res.Changepoints, res.CROPS.Outcome)
	}
	want := []float64{11.982929094215963, 12.6192498427896, 14.985032936886384, 16.21045119033528, 20.447636976210468, 69.6049723803536, 299573.2273553991}
	if len(res.CROPS.PenValueFull) != len(want) {
		t.Fatalf("pen_value_full %v", res.CROPS.PenValueFull)
	}
	for i := range want {
		if !rel(res.CROPS.PenValueFull[i], want[i]) {
			t.Errorf("pen_value_full[%d] = %v, want %v", i, res.CROPS.PenValueFull[i], want[i])
		}
	}
	var counts []int
	for _, r := range res.CROPS.Rows {
		counts = append(counts, r.N)
	}
	if !slices.Equal(counts, []int{6, 5, 4, 2, 1, 0}) {
		t.Errorf("change-point counts %v, want [6 5 4 2 1 0]", counts)
	}
	// The paper's range [4, 1e5] given explicitly: R's pen.value.full
	// starts 4, 7.416343341258539 and ends 100000.
	out, _, err = runCLI(t, "--quiet", "changepoint", "--json", "--pen-range", "4,1e5", file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	p := res.CROPS.PenValueFull
	if len(p) != 8 || p[0] != 4 || !rel(p[1], 7.416343341258539) || p[7] != 1e5 {
		t.Errorf("--pen-range 4,1e5: pen_value_full %v", p)
	}
}

func TestChangepointCommandErrors(t *testing.T) {
	good := writeLines(t, "good.txt", []string{"1", "2", "3", "4", "5", "6"})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"changepoint", writeLines(t, "bad.txt", []string{"1", "2", "x3", "4"})}, "bad.txt:3:"},
		{[]string{"changepoint", writeLines(t, "nan.txt", []string{"1", "NaN", "3", "4"})}, "nan.txt:2:"},
		{[]string{"changepoint", "--column", "y", writeLines(t, "c.csv", []string{"a,b", "1,2"})}, `no column "y"`},
		{[]string{"changepoint", "--column", "b", writeLines(t, "d.csv", []string{"a,b", "1,2", "3,oops"})}, "d.csv:3:"},
		{[]string{"changepoint", "--cost", "var", good}, "--cost"},
		{[]string{"changepoint", "--penalty", "lots", good}, "--penalty"},
		{[]string{"changepoint", "--penalty", "-1", good}, "penalty"},
		{[]string{"changepoint", "--penalty", "15log", "--pen-range", "1,2", good}, "--pen-range applies"},
		{[]string{"changepoint", "--pen-range", "1", good}, "--pen-range"},
		{[]string{"changepoint", "--min-seg-len", "4", "--penalty", "1", good}, "shorter than"},
		{[]string{"changepoint", filepath.Join(t.TempDir(), "missing.txt")}, "missing.txt"},
		{[]string{"changepoint"}, "FILE"},
	} {
		_, _, err := runCLI(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want it to mention %q", c.args[1:], err, c.want)
		}
	}
	// A header line and blank lines are skipped and reported on stderr.
	f := writeLines(t, "h.txt", []string{"value", "1", "", "2", "3", "4", "9", "10", "11", "12"})
	out, stderr, err := runCLI(t, "changepoint", "--penalty", "1", f)
	if err != nil || !strings.Contains(stderr, "taken as a header") || !strings.Contains(stderr, "1 blank line(s) skipped") {
		t.Errorf("header: out %q stderr %q err %v", out, stderr, err)
	}
}

func TestChangepointPenRangeOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.txt")
	os.WriteFile(path, []byte("1\n2\n3\n4\n5\n6\n"), 0o644)
	_, _, err := runCLI(t, "changepoint", "--pen-range", "5,1", path)
	if err == nil || !strings.Contains(err.Error(), `--pen-range: penalty range 5,1: want 0 <= a < b`) {
		t.Errorf("err %v", err)
	}
}

func TestChangepointSaysWhyNoneWasFound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "flat.txt")
	var b strings.Builder
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "%d\n", 100+i%3)
	}
	os.WriteFile(path, []byte(b.String()), 0o644)
	stdout, stderr, err := runCLI(t, "changepoint", "--penalty", "1e6", path)
	if err != nil || stdout != "" || !strings.Contains(stderr, "no change point: at penalty 1e+06 (manual) the series of 60 values is best kept as one segment; a smaller --penalty") {
		t.Errorf("stdout %q, stderr %q, err %v", stdout, stderr, err)
	}
}

// TestChangepointBinSeg: --binseg Q runs binary segmentation at 15·log n
// unless --penalty names a fixed one, lists its search in --json, and
// refuses a CROPS penalty and a negative Q.
func TestChangepointBinSeg(t *testing.T) {
	in := repoFile("testdata", "changepoint", "warmup.txt")
	out, _, err := runCLI(t, "changepoint", "--binseg", "5", "--json", in)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		PenaltyRule  string `json:"penalty_rule"`
		Changepoints []int
		BinSeg       *struct {
			Q     int
			Found []int
			Gains []float64
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.PenaltyRule != "15log" || rep.BinSeg == nil || rep.BinSeg.Q != 5 || len(rep.BinSeg.Found) != 5 || len(rep.BinSeg.Gains) != 5 ||
		len(rep.Changepoints) == 0 || rep.Changepoints[0] != rep.BinSeg.Found[0] {
		t.Fatalf("--binseg 5 --json: %+v (binseg %+v)", rep, rep.BinSeg)
	}
	for _, args := range [][]string{{"--binseg", "5", "--penalty", "crops"}, {"--binseg", "-1"}} {
		if _, _, err := runCLI(t, append(append([]string{"changepoint"}, args...), in)...); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

// TestChangepointShortSeries: a series of one value, an empty file and
// empty stdin are too short or empty, whatever the penalty; the CROPS
// range (the default --penalty crops at 4log,1e5log, which is 0 or −Inf
// at n ≤ 1) is not what the message is about.
func TestChangepointShortSeries(t *testing.T) {
	one := writeLines(t, "one.txt", []string{"5"})
	empty := filepath.Join(t.TempDir(), "empty.txt")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"changepoint", one}, one + ": changepoint: series shorter than 2·MinSegLen: n = 1, MinSegLen = 2"},
		{[]string{"changepoint", "--penalty", "crops-ascending", "--cost", "mean", one}, one + ": changepoint: series shorter than 2·MinSegLen: n = 1, MinSegLen = 1"},
		{[]string{"changepoint", "--binseg", "3", one}, one + ": changepoint: series shorter than 2·MinSegLen: n = 1, MinSegLen = 2"},
		{[]string{"changepoint", empty}, empty + ": no values"},
		{[]string{"changepoint", "--penalty", "15log", empty}, empty + ": no values"},
		{[]string{"changepoint", "-"}, "-: no values"},
	} {
		if c.args[len(c.args)-1] == "-" {
			stdin, err := os.Open(empty)
			if err != nil {
				t.Fatal(err)
			}
			saved := os.Stdin
			os.Stdin = stdin
			_, _, err = runCLI(t, c.args...)
			os.Stdin = saved
			stdin.Close()
			if err == nil || err.Error() != c.want {
				t.Errorf("%v (empty stdin): error %v, want %q", c.args[1:], err, c.want)
			}
			continue
		}
		_, _, err := runCLI(t, c.args...)
		if err == nil || err.Error() != c.want || strings.Contains(err.Error(), "pen-range") {
			t.Errorf("%v: error %v, want %q", c.args[1:], err, c.want)
		}
	}
}
