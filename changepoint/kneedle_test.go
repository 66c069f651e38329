package changepoint

import (
	"errors"
	"math"
	"slices"
	"testing"
)

// TestKneedleFigure2 is the example of Satopää et al. (2011, Fig. 2) that
// kneed's README uses: x = linspace(0, 1, 10), y = 5 - 1/(x + 0.1),
// concave, increasing, S = 1. kneed reports knee 0.222 (= 2/9) with
// knee_y 1.897 (kneed README, "round(kneedle.knee, 3)").
func TestKneedleFigure2(t *testing.T) {
	x := make([]float64, 10)
	y := make([]float64, 10)
	for i := range x {
		x[i] = float64(i) / 9
		y[i] = -1/(x[i]+0.1) + 5
	}
	r, err := kneedle(x, y, kneedleOptions{S: 1, Curve: concave, Direction: increasing})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Found || r.KneeIndex != 2 || math.Abs(r.Knee-0.222) > 5e-4 || math.Abs(r.KneeY-1.897) > 5e-4 {
		t.Fatalf("knee %v (index %d) y %v found %v, want 0.222 (index 2), 1.897", r.Knee, r.KneeIndex, r.KneeY, r.Found)
	}
	// The same curve mirrored into each of the other three shapes (x kept
	// increasing, as kneed expects) gives the same difference curve, so
	// the knee is at index 2 or, for the shapes kneed reads from the end,
	// at index n-1-2 = 7.
	rev := func(v []float64) []float64 { w := slices.Clone(v); slices.Reverse(w); return w }
	neg := func(v []float64) []float64 {
		w := make([]float64, len(v))
		for i := range v {
			w[i] = 10 - v[i]
		}
		return w
	}
	for _, c := range []struct {
		name string
		y    []float64
		opt  kneedleOptions
		want int
	}{
		{"concave decreasing", rev(y), kneedleOptions{S: 1, Curve: concave, Direction: decreasing}, 7},
		{"convex increasing", neg(rev(y)), kneedleOptions{S: 1, Curve: convex, Direction: increasing}, 7},
		{"convex decreasing", neg(y), kneedleOptions{S: 1, Curve: convex, Direction: decreasing}, 2},
	} {
		r, err := kneedle(x, c.y, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Found || r.KneeIndex != c.want || r.Knee != x[c.want] {
			t.Errorf("%s: knee %v (index %d) found %v, want x[%d]", c.name, r.Knee, r.KneeIndex, r.Found, c.want)
		}
	}
}

// TestKneedleVersions builds curves on which kneed 0.7.0 and 0.8.6
// differ (docs/changepoint.md, quirk 8).
func TestKneedleVersions(t *testing.T) {
	// Decreasing x (Traini's order) whose first difference maximum is at
	// index 0, where x_normalized == 1. By hand: x_n = (1, .9, .1, 0),
	// y_n = (0, 5/6, 11/12, 1), 1 - y_n = (1, 1/6, 1/12, 0),
	// d = (0, -.733, -.017, 0): maxima {0, 3}, minima {1},
	// Tmx = 0 - mean|Δx_n| = -1/3. 0.8.6 starts at 0 with threshold -1/3
	// and d(1) < -1/3: knee x(0) = 100. 0.7.0 stops at once (x_n = 1).
	x := []float64{100, 90, 10, 0}
	y := []float64{0, 5, 5.5, 6}
	opt := defaultKneedleOptions
	opt.Version = kneed070
	r6, err := kneedle(x, y, defaultKneedleOptions)
	if err != nil {
		t.Fatal(err)
	}
	r7, err7 := kneedle(x, y, opt)
	if !slices.Equal(r6.MaximaIndices, []int{0, 3}) || !slices.Equal(r6.MinimaIndices, []int{1}) {
		t.Fatalf("maxima %v minima %v, want [0 3] [1]", r6.MaximaIndices, r6.MinimaIndices)
	}
	if !r6.Found || r6.Knee != 100 || r6.KneeY != 0 {
		t.Errorf("0.8.6: knee %v (y %v) found %v, want 100 (0)", r6.Knee, r6.KneeY, r6.Found)
	}
	if err7 != nil || r7.Found {
		t.Errorf("0.7.0: found %v err %v, want no knee and no error", r7.Found, err7)
	}

	// A straight line: d = 0 everywhere (exact binary fractions), every
	// point a maximum and a minimum, threshold 0 after each: no knee in
	// either version, and 0.7.0 stops cleanly at x_n = 1.
	for _, o := range []kneedleOptions{defaultKneedleOptions, opt} {
		if r, err := kneedle([]float64{0, 1, 2, 3, 4}, []float64{4, 3, 2, 1, 0}, o); err != nil || r.Found {
			t.Errorf("line, %v: found %v err %v", o.Version, r.Found, err)
		}
	}

	// Decreasing x whose only maximum is the last point: x_n = (1, .5,
	// .25, 0), y = (1, 0, 0, 0) gives d = (-1, .5, .75, 1). 0.8.6 stops at
	// the last index with no knee; 0.7.0 reads d(4): IndexError.
	xd := []float64{4, 2, 1, 0}
	yd := []float64{1, 0, 0, 0}
	if r, err := kneedle(xd, yd, defaultKneedleOptions); err != nil || r.Found || !slices.Equal(r.MaximaIndices, []int{3}) {
		t.Errorf("0.8.6: found %v err %v maxima %v", r.Found, err, r.MaximaIndices)
	}
	if _, err := kneedle(xd, yd, opt); !errors.Is(err, errKneedIndex) {
		t.Errorf("0.7.0: err %v, want ErrKneedIndex", err)
	}
}

func TestKneedleEdgeCases(t *testing.T) {
	if _, err := kneedle([]float64{1}, []float64{1}, defaultKneedleOptions); !errors.Is(err, errKneedleTooFewPoints) {
		t.Errorf("one point: %v", err)
	}
	if _, err := kneedle([]float64{1, math.NaN()}, []float64{1, 2}, defaultKneedleOptions); err == nil {
		t.Error("NaN x: no error")
	}
	// Constant y: normalisation divides 0 by 0, numpy gives NaN and kneed
	// finds no local maximum.
	r, err := kneedle([]float64{2, 1}, []float64{0, 0}, defaultKneedleOptions)
	if err != nil || r.Found || len(r.MaximaIndices) != 0 || !math.IsNaN(r.YDifference[0]) {
		t.Errorf("constant y: %+v %v", r, err)
	}
	defer func() {
		if recover() == nil {
			t.Error("length mismatch did not panic")
		}
	}()
	kneedle([]float64{1, 2}, []float64{1}, defaultKneedleOptions)
}

// TestInterpAtSamples checks the interp1d step on duplicated x: numpy.interp
// over the stably sorted samples gives every duplicate the y of the last
// one.
func TestInterpAtSamples(t *testing.T) {
	x := []float64{3, 1, 3, 2}
	y := []float64{10, 20, 30, 40}
	if got := interpAtSamples(x, y); !slices.Equal(got, []float64{30, 20, 30, 40}) {
		t.Errorf("got %v", got)
	}
}

// TestNumpyPairwiseSum checks the summation order against a case where it
// matters: 1 followed by 200 × 2⁻⁵³ sums to 1 left to right, but the
// pairwise blocks add the small terms together first.
func TestNumpyPairwiseSum(t *testing.T) {
	a := append([]float64{1}, slices.Repeat([]float64{0x1p-53}, 200)...)
	naive := 0.0
	for _, v := range a {
		naive += v
	}
	if naive != 1 {
		t.Fatalf("naive sum %v", naive)
	}
	// By hand: n = 201 > 128 splits at 96. Left block [1, 95 small]: r0
	// takes 1 then 11 small terms, each lost to ties-to-even, r1..r7 hold
	// 12 each, total 1 + 84·2⁻⁵³. Right block: 105 small terms, exact.
	// 1 + 189·2⁻⁵³ = 1 + 94.5·2⁻⁵² rounds to even: 1 + 94·2⁻⁵².
	got := numpyPairwiseSum(a)
	if want := 1 + 94*0x1p-52; got != want {
		t.Errorf("pairwise sum = 1 + %v·2⁻⁵², want 1 + 94·2⁻⁵²", (got-1)/0x1p-52)
	}
}

// TestTrainiProtocolQuirk checks the transpose quirk and the protocol's
// outcomes on hand-made CROPS results.
func TestTrainiProtocolQuirk(t *testing.T) {
	mk := func(pvf []float64, cpts ...[]int) *CROPSResult {
		r := &CROPSResult{N: 100, PenValueFull: pvf}
		for _, c := range cpts {
			r.Segmentations = append(r.Segmentations, CROPSSegmentation{Changepoints: c})
		}
		return r
	}
	// Two rows with at most one change point: R's cpts.full is 1×2, the
	// script counts one row and fails its assertion.
	r := mk([]float64{18, 2000, 460000}, []int{60}, []int{})
	if got := trainiNCpts(r, false); !slices.Equal(got, []int{1}) {
		t.Errorf("quirk counts %v, want [1]", got)
	}
	if got := trainiNCpts(r, true); !slices.Equal(got, []int{1, 0}) {
		t.Errorf("fixed counts %v, want [1 0]", got)
	}
	sel, err := applyTrainiProtocol(r, kneed086, false)
	if err != nil || sel.Outcome != AssertionFailure || !math.IsNaN(sel.Penalty) {
		t.Errorf("quirk: %+v %v, want AssertionFailure", sel, err)
	}
	// One row without change points: [0] + appended 0, a flat curve, no
	// elbow: the script's default 15·log n.
	r = mk([]float64{27, 690000}, []int{})
	sel, err = applyTrainiProtocol(r, kneed086, false)
	if err != nil || sel.Outcome != NoElbowDefault || sel.Penalty != BarrettPenalty(100) || !slices.Equal(sel.NCpts, []int{0, 0}) {
		t.Errorf("flat: %+v %v", sel, err)
	}
	asc, err := applyAscendingProtocol(r, kneed086)
	if err != nil || asc.Outcome != TooFewPoints {
		t.Errorf("ascending, one row: %+v %v", asc, err)
	}
}

func TestSelectPenaltyFallback(t *testing.T) {
	// One clean step: every CROPS row has at most one change point, so the
	// Traini protocol hits the quirk and SelectPenalty falls back to
	// 15·log n, which finds the step.
	x := stepSeries(11, []int{150, 150}, []float64{100, 130}, []float64{2, 3})
	sel, err := selectPenalty(x, defaultSelectOptions)
	if err != nil {
		t.Fatal(err)
	}
	if sel.Knee.Outcome != AssertionFailure || !sel.Fallback || sel.Penalty != BarrettPenalty(len(x)) {
		t.Fatalf("outcome %v fallback %v penalty %v", sel.Knee.Outcome, sel.Fallback, sel.Penalty)
	}
	if !slices.Equal(sel.Segmentation.Changepoints, []int{150}) {
		t.Fatalf("changepoints %v, want [150]", sel.Segmentation.Changepoints)
	}
	// A warm-up curve: many segmentations, the protocol finds an elbow and
	// the segmentation is PELT at it.
	w := warmupSeries(4, 1000, 60)
	sel, err = selectPenalty(w, defaultSelectOptions)
	if err != nil {
		t.Fatal(err)
	}
	if sel.Fallback || sel.Knee.Outcome != ElbowFound {
		t.Fatalf("warm-up: outcome %v fallback %v", sel.Knee.Outcome, sel.Fallback)
	}
	seg, _ := PELT(w, Options{Cost: MeanVar, Penalty: sel.Penalty})
	if !slices.Equal(seg.Changepoints, sel.Segmentation.Changepoints) {
		t.Fatalf("segmentation %v, PELT at the penalty %v", sel.Segmentation.Changepoints, seg.Changepoints)
	}
}
