package changepoint

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// opResult is the outcome of exact optimal partitioning.
type opResult struct {
	objective float64
	ends      []int // 1-based segment ends, n included
}

// optimalPartitioning is exact Optimal Partitioning (Jackson et al. 2005),
// O(n²), with the same cost, clamp and minimum segment length as PELT and
// the first minimum on ties:
//
//	F(0) = -β;  F(t) = min_{s = 0 or m <= s <= t-m} F(s) + C(s, t) + β
func optimalPartitioning(x []float64, c Cost, m int, pen float64) opResult {
	n := len(x)
	st := newSumStats(x, extendedSum)
	f := make([]float64, n+1)
	last := make([]int, n+1)
	f[0] = -pen
	for t := m; t <= n; t++ {
		best, arg := math.Inf(1), -1
		for s := 0; s <= t-m; s++ {
			if s != 0 && s < m {
				continue
			}
			if v := f[s] + st.cost(c, s, t) + pen; v < best {
				best, arg = v, s
			}
		}
		f[t], last[t] = best, arg
	}
	var ends []int
	for t := n; t > 0; t = last[t] {
		ends = append(ends, t)
	}
	slices.Reverse(ends)
	return opResult{objective: f[n], ends: ends}
}

// stepSeries returns a seeded series of Normal segments with the given
// lengths, means and standard deviations.
func stepSeries(seed uint64, lens []int, means, sds []float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	var x []float64
	for k, l := range lens {
		for i := 0; i < l; i++ {
			x = append(x, means[k]+sds[k]*rng.NormFloat64())
		}
	}
	return x
}

func TestPELTKnownChangepoints(t *testing.T) {
	cases := []struct {
		name  string
		cost  Cost
		lens  []int
		means []float64
		sds   []float64
		want  []int
	}{
		// Large steps relative to the noise: PELT at 15·log n must find
		// exactly the generating change points.
		{"mean steps meanvar", MeanVar, []int{200, 300, 250}, []float64{10, 14, 9}, []float64{0.5, 0.5, 0.5}, []int{200, 500}},
		{"variance change meanvar", MeanVar, []int{400, 400}, []float64{5, 5}, []float64{0.1, 2}, []int{400}},
		// Mean cost assumes unit variance: use unit noise.
		{"mean steps mean", Mean, []int{150, 150, 150, 150}, []float64{0, 5, 0, -5}, []float64{1, 1, 1, 1}, []int{150, 300, 450}},
		{"no change", MeanVar, []int{1000}, []float64{3}, []float64{0.2}, []int{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			x := stepSeries(42, tc.lens, tc.means, tc.sds)
			seg, err := PELT(x, Options{Cost: tc.cost, Penalty: BarrettPenalty(len(x))})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(seg.Changepoints, tc.want) {
				t.Fatalf("changepoints %v, want %v", seg.Changepoints, tc.want)
			}
			// Segments tile the series and their means are near the truth.
			if len(seg.Segments) != len(tc.lens) {
				t.Fatalf("%d segments, want %d", len(seg.Segments), len(tc.lens))
			}
			for k, s := range seg.Segments {
				if math.Abs(s.Mean-tc.means[k]) > 4*tc.sds[k]/math.Sqrt(float64(s.Len())) {
					t.Errorf("segment %d mean %v, true %v", k, s.Mean, tc.means[k])
				}
			}
		})
	}
}

// TestPELTMatchesOptimalPartitioning compares PELT with exact OP at
// 15·log n on small seeded series. At this penalty R's pruning rule loses
// nothing on non-degenerate data (docs/changepoint.md, quirk 1), so F(n) and the
// segmentation must agree.
func TestPELTMatchesOptimalPartitioning(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := 0; trial < 40; trial++ {
		n := 20 + rng.IntN(180)
		var lens []int
		var means, sds []float64
		for left := n; left > 0; {
			l := min(left, 5+rng.IntN(60))
			lens = append(lens, l)
			means = append(means, rng.NormFloat64()*3)
			sds = append(sds, 0.2+rng.Float64())
			left -= l
		}
		x := stepSeries(uint64(trial), lens, means, sds)
		for _, c := range []Cost{MeanVar, Mean} {
			for _, m := range []int{c.defaultMinSegLen(), 3} {
				pen := BarrettPenalty(n)
				seg, err := PELT(x, Options{Cost: c, MinSegLen: m, Penalty: pen})
				if err != nil {
					t.Fatal(err)
				}
				op := optimalPartitioning(x, c, m, pen)
				ends := append(slices.Clone(seg.Changepoints), n)
				if !closeRel(seg.objective, op.objective, 1e-12) || !slices.Equal(ends, op.ends) {
					t.Errorf("trial %d %v m=%d: PELT F=%.17g ends %v, OP F=%.17g ends %v",
						trial, c, m, seg.objective, ends, op.objective, op.ends)
				}
			}
		}
	}
}

// TestPELTHandChecked checks a case small enough to verify by hand.
// x = (0, 0, 10, 10), Mean cost (RSS), MinSegLen 1, penalty 1: the
// segmentation {0,0 | 10,10} costs 0 + 0 + 1 = 1; no change costs
// RSS = 4·25 = 100; every other split leaves RSS >= 50 or pays more
// penalty. So F(4) = 1 with the change point after point 2.
func TestPELTHandChecked(t *testing.T) {
	x := []float64{0, 0, 10, 10}
	seg, err := PELT(x, Options{Cost: Mean, Penalty: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(seg.Changepoints, []int{2}) || seg.objective != 1 || seg.cost != 0 {
		t.Fatalf("got cpts %v F %v cost %v, want [2] 1 0", seg.Changepoints, seg.objective, seg.cost)
	}
	want := []Segment{{Start: 0, End: 2, Mean: 0, Variance: 0, Cost: 0}, {Start: 2, End: 4, Mean: 10, Variance: 0, Cost: 0}}
	if !slices.Equal(seg.Segments, want) {
		t.Fatalf("segments %+v, want %+v", seg.Segments, want)
	}
	// With penalty 200 the change is not worth it: F = RSS = 100.
	seg, err = PELT(x, Options{Cost: Mean, Penalty: 200})
	if err != nil {
		t.Fatal(err)
	}
	if len(seg.Changepoints) != 0 || seg.objective != 100 {
		t.Fatalf("penalty 200: cpts %v F %v, want [] 100", seg.Changepoints, seg.objective)
	}
	if s := seg.Segments[0]; s.Mean != 5 || s.Variance != 25 {
		t.Fatalf("single segment mean %v variance %v, want 5 25", s.Mean, s.Variance)
	}

	// MeanVar on (1, 3, 10, 14): segments of two points have σ² = 1 and
	// 4, so with penalty 0 the split costs
	// 2(log 2π + log 1 + 1) + 2(log 2π + log 4 + 1) = 4 log 2π + 4 + 2 log 4.
	y := []float64{1, 3, 10, 14}
	seg, err = PELT(y, Options{Cost: MeanVar, Penalty: 0})
	if err != nil {
		t.Fatal(err)
	}
	want2 := 4*math.Log(2*math.Pi) + 4 + 2*math.Log(4)
	if !slices.Equal(seg.Changepoints, []int{2}) || !closeRel(seg.objective, want2, 1e-15) {
		t.Fatalf("meanvar: cpts %v F %.17g, want [2] %.17g", seg.Changepoints, seg.objective, want2)
	}
}

func TestPELTEdgeCases(t *testing.T) {
	t.Run("too short", func(t *testing.T) {
		_, err := PELT([]float64{1, 2, 3}, Options{Cost: MeanVar, Penalty: 1})
		if !errors.Is(err, ErrTooShort) {
			t.Fatalf("n=3 meanvar: err %v, want ErrTooShort", err)
		}
		_, err = PELT([]float64{1, 2, 3, 4, 5}, Options{Cost: Mean, MinSegLen: 3, Penalty: 1})
		if !errors.Is(err, ErrTooShort) {
			t.Fatalf("n=5 m=3: err %v, want ErrTooShort", err)
		}
		// n == 2m is the smallest accepted length.
		if _, err := PELT([]float64{1, 2, 3, 4}, Options{Cost: MeanVar, Penalty: 1}); err != nil {
			t.Fatalf("n=4 m=2: %v", err)
		}
		if _, err := PELT([]float64{1, 2}, Options{Cost: Mean, Penalty: 1}); err != nil {
			t.Fatalf("n=2 m=1: %v", err)
		}
	})
	t.Run("non-finite", func(t *testing.T) {
		for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			x := []float64{1, 2, 3, bad, 5, 6}
			if _, err := PELT(x, Options{Cost: MeanVar, Penalty: 1}); err == nil {
				t.Errorf("value %v: no error", bad)
			}
			if _, err := crops(x, cropsOptions{cost: MeanVar}); err == nil {
				t.Errorf("CROPS value %v: no error", bad)
			}
		}
	})
	t.Run("overflowing squares", func(t *testing.T) {
		x := []float64{1e200, -1e200, 1e200, 5, 6, 7}
		if _, err := PELT(x, Options{Cost: MeanVar, Penalty: 1}); err == nil {
			t.Error("no error")
		}
	})
	t.Run("bad options", func(t *testing.T) {
		x := []float64{1, 2, 3, 4, 5, 6}
		for _, opt := range []Options{
			{Cost: MeanVar, Penalty: -1},
			{Cost: MeanVar, Penalty: math.NaN()},
			{Cost: MeanVar, MinSegLen: 1, Penalty: 1},
			{Cost: Mean, MinSegLen: -1, Penalty: 1},
			{Cost: Cost(9), Penalty: 1},
		} {
			if _, err := PELT(x, opt); err == nil {
				t.Errorf("%+v: no error", opt)
			}
		}
	})
	t.Run("constant series", func(t *testing.T) {
		// Exactly representable constant: every segment has σ² = 0,
		// clamped to 1e-11, and splitting only adds penalty.
		x := slices.Repeat([]float64{0.25}, 50)
		seg, err := PELT(x, DefaultOptions(len(x)))
		if err != nil {
			t.Fatal(err)
		}
		want := 50 * (log2Pi + math.Log(1e-11) + 1)
		if len(seg.Changepoints) != 0 || !closeRel(seg.objective, want, 1e-15) {
			t.Fatalf("cpts %v F %v, want none and %v", seg.Changepoints, seg.objective, want)
		}
		if s := seg.Segments[0]; s.Mean != 0.25 || s.Variance != 0 {
			t.Fatalf("segment %+v", s)
		}
	})
	t.Run("input not modified", func(t *testing.T) {
		x := stepSeries(3, []int{30, 30}, []float64{0, 4}, []float64{1, 1})
		orig := slices.Clone(x)
		if _, err := PELT(x, DefaultOptions(len(x))); err != nil {
			t.Fatal(err)
		}
		if _, err := crops(x, defaultCROPSOptions); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(x, orig) {
			t.Fatal("input modified")
		}
	})
}

func TestSegmentsAt(t *testing.T) {
	x := []float64{1, 3, 10, 14, 20}
	segs := segmentsAt(x, []int{2, 4}, Mean)
	want := []Segment{
		{Start: 0, End: 2, Mean: 2, Variance: 1, Cost: 2},
		{Start: 2, End: 4, Mean: 12, Variance: 4, Cost: 8},
		{Start: 4, End: 5, Mean: 20, Variance: 0, Cost: 0},
	}
	if !slices.Equal(segs, want) {
		t.Fatalf("got %+v, want %+v", segs, want)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("out-of-range change point did not panic")
		}
	}()
	segmentsAt(x, []int{5}, Mean)
}

// TestExtendedCumsum checks the long double emulation on the case the
// README used to show that R sums in extended precision:
// cumsum(c(1, rep(1e-16, 10)))[11] - 1 is 1.11e-15 in R, 0 in double.
func TestExtendedCumsum(t *testing.T) {
	x := append([]float64{1}, slices.Repeat([]float64{1e-16}, 10)...)
	ext := make([]float64, len(x)+1)
	dbl := make([]float64, len(x)+1)
	cumsumExtended(ext, x, false)
	cumsumDouble(dbl, x, false)
	if got := ext[11] - 1; got != 0x1.4p-50 { // 1.1102230246251565e-15
		t.Errorf("extended: %v, want 1.1102230246251565e-15", got)
	}
	if got := dbl[11] - 1; got != 0 {
		t.Errorf("double: %v, want 0", got)
	}
	// R's mean() of 0.1 repeated is exactly 0.1 (long double sum is exact
	// for up to 2^11 copies); a float64 sum is not.
	e := newExtended()
	if m := meanExtended(e, slices.Repeat([]float64{0.1}, 100)); m != 0.1 {
		t.Errorf("mean of 100 × 0.1 = %v, want 0.1", m)
	}
}

// peltPlain is PELTC written as plainly as possible (one exactValue per
// candidate, no kernels), the reference for the optimised engine.
func peltPlain(x []float64, c Cost, m int, pen float64) (float64, []int) {
	n := len(x)
	st := newSumStats(x, extendedSum)
	f := make([]float64, n+1)
	last := make([]int, n+1)
	f[0] = -pen
	for j := m; j < 2*m; j++ {
		f[j] = st.cost(c, 0, j)
	}
	cands := []int{0, m}
	for t := 2 * m; t <= n; t++ {
		vals := make([]float64, len(cands))
		which := 0
		for i, s := range cands {
			vals[i] = exactValue(c, float64(t-s), st.s1[t]-st.s1[s], st.s2[t]-st.s2[s], f[s], pen)
			if vals[i] < vals[which] {
				which = i
			}
		}
		f[t], last[t] = vals[which], cands[which]
		var keep []int
		for i, s := range cands {
			if vals[i] <= f[t]+pen {
				keep = append(keep, s)
			}
		}
		cands = append(keep, t-m+1)
	}
	var cpts []int
	for t := last[n]; t > 0; t = last[t] {
		cpts = append(cpts, t)
	}
	slices.Reverse(cpts)
	return f[n], cpts
}

// checkAgainstPlain runs PELT with every kernel mode and compares each
// with peltPlain bit for bit.
func checkAgainstPlain(t *testing.T, name string, x []float64, c Cost, m int, pen float64) {
	t.Helper()
	wantF, wantC := peltPlain(x, c, m, pen)
	for _, km := range kernelModes() {
		restore := useKernels(km)
		seg, err := PELT(x, Options{Cost: c, MinSegLen: m, Penalty: pen})
		restore()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if math.Float64bits(seg.objective) != math.Float64bits(wantF) || !slices.Equal(seg.Changepoints, nonNil(wantC)) {
			t.Fatalf("%s %v m=%d pen=%v %s: F=%.17g cpts %v, plain loop F=%.17g cpts %v",
				name, c, m, pen, km.name, seg.objective, seg.Changepoints, wantF, wantC)
		}
	}
}

// TestKernelsMatchPlainLoop checks the optimised engine (portable and
// AVX2 kernels, bounded evaluation) against the plain loop on seeded
// series of many shapes, including the degenerate ones where the bounds
// give up (zero variance, huge offsets, tiny scales, ties).
func TestKernelsMatchPlainLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(99, 1))
	shapes := map[string]func(n int) []float64{
		"steps": func(n int) []float64 {
			return stepSeries(rng.Uint64(), []int{n / 3, n / 3, n - 2*(n/3)}, []float64{1, 1.5, 0.8}, []float64{0.1, 0.2, 0.05})
		},
		"offset 1e9": func(n int) []float64 {
			x := stepSeries(rng.Uint64(), []int{n}, []float64{0}, []float64{1})
			for i := range x {
				x[i] += 1e9
			}
			return x
		},
		"scale 1e-9": func(n int) []float64 {
			return stepSeries(rng.Uint64(), []int{n / 2, n - n/2}, []float64{3e-9, 4e-9}, []float64{1e-11, 1e-11})
		},
		"constant 0.1": func(n int) []float64 { return slices.Repeat([]float64{0.1}, n) },
		"two exact levels": func(n int) []float64 {
			return append(slices.Repeat([]float64{0.25}, n/2), slices.Repeat([]float64{0.5}, n-n/2)...)
		},
		"integers": func(n int) []float64 {
			x := make([]float64, n)
			for i := range x {
				x[i] = float64(rng.IntN(3))
			}
			return x
		},
		"warmup": func(n int) []float64 { return warmupSeries(rng.Uint64(), n, float64(n)/25) },
	}
	for name, gen := range shapes {
		for _, n := range []int{9, 40, 257} {
			x := gen(n)
			for _, c := range []Cost{MeanVar, Mean} {
				for _, pen := range []float64{0, 1, BarrettPenalty(n), 1e6} {
					checkAgainstPlain(t, name, x, c, c.defaultMinSegLen(), pen)
				}
				checkAgainstPlain(t, name, x, c, 4, 2*math.Log(float64(n)))
			}
		}
	}
}
