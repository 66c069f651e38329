package changepoint

import (
	"math"
	"slices"
	"testing"
)

// TestCROPSIntervals checks the defining property of CROPS on seeded
// series: for penalties inside a row's interval [β_k, β_{k+1}), PELT
// returns that row's segmentation, the rows have strictly decreasing
// numbers of change points, and the intervals tile the range.
func TestCROPSIntervals(t *testing.T) {
	series := map[string][]float64{
		"three steps": stepSeries(5, []int{60, 80, 60}, []float64{1, 2, 1.4}, []float64{0.2, 0.3, 0.2}),
		"warmup":      warmupSeries(8, 300, 30),
	}
	for name, x := range series {
		for _, c := range []Cost{MeanVar, Mean} {
			lo, hi := trainiRange(len(x))
			if c == Mean {
				lo, hi = 0.5, 50 // Mean's RSS scale: unit-ish data
			}
			r, err := crops(x, cropsOptions{cost: c, PenMin: lo, PenMax: hi})
			if err != nil {
				t.Fatal(err)
			}
			rows := r.Segmentations
			if len(r.PenValueFull) != len(rows)+1 || r.PenValueFull[len(rows)] != hi {
				t.Fatalf("%s %v: pen.value.full %v for %d rows", name, c, r.PenValueFull, len(rows))
			}
			if len(rows) < 2 {
				t.Fatalf("%s %v: only %d segmentation(s)", name, c, len(rows))
			}
			for k, row := range rows {
				if k > 0 && len(row.Changepoints) >= len(rows[k-1].Changepoints) {
					t.Errorf("%s %v: row %d has %d change points, row %d %d", name, c, k, len(row.Changepoints), k-1, len(rows[k-1].Changepoints))
				}
				if row.NumSegments != len(row.Changepoints)+1 {
					t.Errorf("%s %v: row %d NumSegments %d for %d change points", name, c, k, row.NumSegments, len(row.Changepoints))
				}
				a, b := max(row.PenaltyLow, lo), row.PenaltyHigh
				if !(a < b) {
					continue // an empty interval can occur where PELT is not exact
				}
				for _, frac := range []float64{0.05, 0.5, 0.95} {
					pen := a + frac*(b-a)
					seg, err := PELT(x, Options{Cost: c, Penalty: pen})
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(seg.Changepoints, row.Changepoints) {
						t.Errorf("%s %v: PELT at %v gives %v, CROPS row %d [%v, %v) has %v",
							name, c, pen, seg.Changepoints, k, row.PenaltyLow, row.PenaltyHigh, row.Changepoints)
					}
				}
			}
			// Every PELT run is recorded with its own cost identity.
			for _, run := range r.Runs {
				if got := run.Objective - float64(run.NumSegments-1)*run.Penalty; got != run.Cost {
					t.Errorf("run at %v: cost %v, F - (nseg-1)·pen = %v", run.Penalty, run.Cost, got)
				}
			}
		}
	}
}

// TestCROPSHandChecked: x = (0, 0, 10, 10) with the Mean cost (RSS) and
// MinSegLen 1. The segmentations are {} (RSS 100), {2} (RSS 0); the three-
// and four-segment ones also have RSS 0, so only the first change point is
// worth any positive penalty: {2} is optimal below β = 100 - 0 = 100 and {}
// above. With the range [1, 1000] CROPS runs PELT at 1 and 1000 (1 and 0
// change points, counts differ by 1, so nothing else to test).
func TestCROPSHandChecked(t *testing.T) {
	r, err := crops([]float64{0, 0, 10, 10}, cropsOptions{cost: Mean, PenMin: 1000, PenMax: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.PenMin != 1 || r.PenMax != 1000 {
		t.Fatalf("range not swapped: [%v, %v]", r.PenMin, r.PenMax)
	}
	if len(r.Runs) != 2 || r.MaxRuns != 3 {
		t.Fatalf("runs %d, MaxRuns %d; want 2, 3", len(r.Runs), r.MaxRuns)
	}
	want := []CROPSSegmentation{
		{Changepoints: []int{2}, PenaltyLow: 1, PenaltyHigh: 100, NumSegments: 2, Cost: 0, TestedPenalty: 1},
		{Changepoints: []int{}, PenaltyLow: 100, PenaltyHigh: 1000, NumSegments: 1, Cost: 100, TestedPenalty: 1000},
	}
	if len(r.Segmentations) != 2 {
		t.Fatalf("rows %+v", r.Segmentations)
	}
	for k, w := range want {
		g := r.Segmentations[k]
		if !slices.Equal(g.Changepoints, w.Changepoints) || g.PenaltyLow != w.PenaltyLow || g.PenaltyHigh != w.PenaltyHigh ||
			g.NumSegments != w.NumSegments || g.Cost != w.Cost || g.TestedPenalty != w.TestedPenalty {
			t.Errorf("row %d = %+v, want %+v", k, g, w)
		}
	}
	if !slices.Equal(r.PenValueFull, []float64{1, 100, 1000}) {
		t.Errorf("pen.value.full %v", r.PenValueFull)
	}
}

// TestCROPSPathsAgree runs CROPS with every kernel mode on seeded series
// of several shapes: every PELT run must agree bit for bit between the
// modes and with the plain PELT loop at its penalty (CROPS runs the
// penalties of a round together, sharing the segment costs).
func TestCROPSPathsAgree(t *testing.T) {
	series := map[string][]float64{
		"warmup":   warmupSeries(12, 500, 40),
		"steps":    stepSeries(13, []int{100, 150, 90}, []float64{5, 5.3, 4.9}, []float64{0.05, 0.2, 0.05}),
		"constant": slices.Repeat([]float64{0.1}, 80),
		"levels":   append(slices.Repeat([]float64{0.25}, 60), slices.Repeat([]float64{0.5}, 40)...),
		"offset":   floatsAdd(warmupSeries(14, 300, 30), 1e7),
	}
	for name, x := range series {
		for _, c := range []Cost{MeanVar, Mean} {
			var ref *CROPSResult
			for _, m := range kernelModes() {
				restore := useKernels(m)
				r, err := crops(x, cropsOptions{cost: c, PenMin: 1, PenMax: 1e5})
				restore()
				if err != nil {
					t.Fatal(err)
				}
				if ref == nil {
					ref = r
					for i, run := range r.Runs {
						f, cpts := peltPlain(x, c, c.defaultMinSegLen(), run.Penalty)
						if math.Float64bits(run.Objective) != math.Float64bits(f) || !slices.Equal(run.Changepoints, nonNil(cpts)) {
							t.Fatalf("%s %v: run %d = %+v, plain loop F = %.17g %v", name, c, i, run, f, cpts)
						}
					}
					continue
				}
				if len(r.Runs) != len(ref.Runs) {
					t.Fatalf("%s %v %s: %d runs, portable %d", name, c, m.name, len(r.Runs), len(ref.Runs))
				}
				for i := range r.Runs {
					a, b := r.Runs[i], ref.Runs[i]
					if math.Float64bits(a.Penalty) != math.Float64bits(b.Penalty) || math.Float64bits(a.Objective) != math.Float64bits(b.Objective) ||
						!slices.Equal(a.Changepoints, b.Changepoints) {
						t.Fatalf("%s %v %s: run %d = %+v, portable %+v", name, c, m.name, i, a, b)
					}
				}
			}
		}
	}
}

func TestCROPSWorkersDeterministic(t *testing.T) {
	x := warmupSeries(3, 400, 40)
	opt := cropsOptions{cost: MeanVar, PenMin: 4, PenMax: 1e5}
	a, err := crops(x, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.workers = 3
	b, err := crops(x, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Runs) != len(b.Runs) || !slices.EqualFunc(a.PenValueFull, b.PenValueFull, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }) {
		t.Fatalf("workers change the result: %d vs %d runs", len(a.Runs), len(b.Runs))
	}
	for i := range a.Runs {
		if a.Runs[i].Penalty != b.Runs[i].Penalty || a.Runs[i].Objective != b.Runs[i].Objective {
			t.Fatalf("run %d differs: %+v vs %+v", i, a.Runs[i], b.Runs[i])
		}
	}
}

func TestCROPSErrors(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5, 6}
	for _, opt := range []cropsOptions{
		{cost: MeanVar, PenMin: 5, PenMax: 5},
		{cost: MeanVar, PenMin: -1, PenMax: 5},
		{cost: MeanVar, PenMin: 1, PenMax: math.Inf(1)},
		{cost: MeanVar, minSegLen: 4, PenMin: 1, PenMax: 2},
	} {
		if _, err := crops(x, opt); err == nil {
			t.Errorf("%+v: no error", opt)
		}
	}
	lo, hi := trainiRange(3000)
	if math.Abs(lo-4*math.Log(3000)) > 1e-12 || math.Abs(hi-1e5*math.Log(3000)) > 1e-7 {
		t.Errorf("TrainiRange(3000) = %v, %v", lo, hi)
	}
}

// TestAllEqual checks the all.equal emulation at its tolerance edge:
// relative 1.5e-8 for |target| > 1.5e-8, absolute below.
func TestAllEqual(t *testing.T) {
	for _, c := range []struct {
		a, b float64
		want bool
	}{
		{100, 100 * (1 + 1.4e-8), true},
		{100, 100 * (1 + 1.6e-8), false},
		{1e-9, 2e-9, true}, // absolute difference 1e-9 <= 1.49e-8
		{1e-9, 3e-8, false},
		{0, 0, true},
	} {
		if got := allEqual(c.a, c.b); got != c.want {
			t.Errorf("allEqual(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	// R's 3^-1 goes through powl: the correctly rounded 1/3 here.
	if rPowMinusOne(3) != 1.0/3 || rPowMinusOne(-7) != -1.0/7 {
		t.Error("rPowMinusOne")
	}
}
