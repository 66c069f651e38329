package changepoint

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// binsegCase is one block of testdata/binseg/binseg.txt (binseg.R): R's
// BinSeg on a reference series.
type binsegCase struct {
	file  string
	cost  Cost
	q     int
	pen   float64
	keep  int
	found []int
	gains []float64
}

func readBinsegCases(t *testing.T) []binsegCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "binseg", "binseg.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []binsegCase
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		w := strings.Fields(sc.Text())
		num := func(s string) float64 {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("binseg.txt:%d: %v", line, err)
			}
			return v
		}
		switch {
		case len(w) == 6 && w[0] == "case":
			c := binsegCase{file: w[1], cost: MeanVar, q: int(num(w[3])), pen: num(w[4]), keep: int(num(w[5]))}
			if w[2] == "mean" {
				c.cost = Mean
			}
			out = append(out, c)
		case len(w) > 0 && w[0] == "cpts" && len(out) > 0:
			for _, s := range w[1:] {
				out[len(out)-1].found = append(out[len(out)-1].found, int(num(s)))
			}
		case len(w) > 0 && w[0] == "gain" && len(out) > 0:
			for _, s := range w[1:] {
				out[len(out)-1].gains = append(out[len(out)-1].gains, num(s))
			}
		default:
			t.Fatalf("binseg.txt:%d: unexpected line %q", line, sc.Text())
		}
	}
	return out
}

// TestBinSegReference: BinSeg finds R changepoint 2.3's change points, in
// R's order, with R's gains bit for bit and the same number kept, for the
// mean and mean-and-variance costs, Q = 5 and 20 and three penalties on
// every reference series (117 cases of binseg.R, whose answers range from
// 0 to 20 change points).
func TestBinSegReference(t *testing.T) {
	cases := readBinsegCases(t)
	if len(cases) != 117 {
		t.Fatalf("%d cases in binseg.txt, want 117", len(cases))
	}
	series := map[string][]float64{}
	kept := 0
	for _, c := range cases {
		x, ok := series[c.file]
		if !ok {
			x = readSeriesCSV(t, filepath.Join("testdata", "reference", c.file))
			series[c.file] = x
		}
		got, err := binSeg(x, binSegOptions{Cost: c.cost, Penalty: c.pen, Q: c.q})
		// R keeps "change point" 0 (no split left; here the constant
		// series at penalty 0): BinSeg says so instead.
		degenerate := false
		for _, f := range c.found[:c.keep] {
			degenerate = degenerate || f == 0
		}
		if degenerate {
			if err == nil || !strings.Contains(err.Error(), "degenerate split at 0") {
				t.Errorf("%s %v Q=%d: R keeps change point 0; err = %v, want a degenerate-split error", c.file, c.cost, c.q, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %v Q=%d: %v", c.file, c.cost, c.q, err)
			continue
		}
		name := c.file + " " + c.cost.String() + " Q=" + strconv.Itoa(c.q) + " pen=" + strconv.FormatFloat(c.pen, 'g', 6, 64)
		for k := range c.found {
			if k >= len(got.Found) || got.Found[k] != c.found[k] || math.Float64bits(got.Gains[k]) != math.Float64bits(c.gains[k]) {
				t.Errorf("%s: candidate %d: got %v (gain %v), R %d (gain %v)", name, k+1, got.Found, got.Gains, c.found[k], c.gains[k])
				break
			}
		}
		if len(got.Changepoints) != c.keep {
			t.Errorf("%s: kept %d change points, R %d", name, len(got.Changepoints), c.keep)
		}
		kept += c.keep
	}
	if kept == 0 {
		t.Error("no case keeps a change point: the comparison would not see a wrong selection")
	}
}

// TestBinSegSegmentation: the kept change points are the first found ones,
// sorted, their segments are those of segmentsAt, and Objective is their
// cost plus the penalty per change point; bad settings are errors.
func TestBinSegSegmentation(t *testing.T) {
	x := make([]float64, 300)
	for i := range x {
		x[i] = 10 + math.Sin(float64(i))
		if i >= 100 {
			x[i] += 5
		}
		if i >= 220 {
			x[i] -= 8
		}
	}
	r, err := binSeg(x, binSegOptions{Cost: MeanVar, Penalty: BarrettPenalty(len(x)), Q: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Changepoints) != 2 || r.Changepoints[0] != 100 || r.Changepoints[1] != 220 {
		t.Fatalf("change points %v (found %v, gains %v), want [100 220]", r.Changepoints, r.Found, r.Gains)
	}
	want := segmentsAt(x, r.Changepoints, MeanVar)
	cost := 0.0
	for i, s := range r.Segments {
		if s != want[i] {
			t.Errorf("segment %d: %+v, segmentsAt %+v", i, s, want[i])
		}
		cost += s.Cost
	}
	if r.cost != cost || r.objective != cost+2*BarrettPenalty(len(x)) {
		t.Errorf("cost %v objective %v, want %v and %v", r.cost, r.objective, cost, cost+2*BarrettPenalty(len(x)))
	}
	for _, bad := range []binSegOptions{{Cost: MeanVar, Q: 0}, {Cost: MeanVar, Q: 200}, {Cost: MeanVar, Q: 5, Penalty: -1}, {Cost: MeanVar, Q: 5, MinSegLen: 1}} {
		if _, err := binSeg(x, bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}
