package nonparam

import (
	"math"
	"testing"

	"github.com/benchtrim/benchtrim/estimate"
)

// bruteDominance compares all n·m pairs.
func bruteDominance(x, y []float64) dominance {
	d := dominance{N: len(x), M: len(y)}
	for _, a := range x {
		for _, b := range y {
			switch {
			case a > b:
				d.Greater++
			case a < b:
				d.Less++
			default:
				d.Equal++
			}
		}
	}
	return d
}

func TestDominanceHandCounted(t *testing.T) {
	// Pairs of x = {1, 2, 3} against y = {2, 4}:
	// (1,2) <  (1,4) <  (2,2) =  (2,4) <  (3,2) >  (3,4) <
	// → 1 greater, 4 less, 1 equal out of 6.
	x, y := []float64{3, 1, 2}, []float64{4, 2}
	d, err := countDominance(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if d != (dominance{Greater: 1, Less: 4, Equal: 1, N: 3, M: 2}) {
		t.Errorf("counts %+v", d)
	}
	delta, err := CliffsDelta(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if delta != -0.5 { // (1 − 4)/6
		t.Errorf("δ = %v, want -0.5", delta)
	}
	a12, err := VarghaDelaneyA12(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if a12 != 0.25 { // (1 + 0.5·1)/6
		t.Errorf("Â12 = %v, want 0.25", a12)
	}
	// Complete separation and identity.
	if d, _ := CliffsDelta([]float64{5, 6}, []float64{1, 2, 3}); d != 1 {
		t.Errorf("δ(separated) = %v, want 1", d)
	}
	if a, _ := VarghaDelaneyA12([]float64{1, 2, 3}, []float64{1, 2, 3}); a != 0.5 {
		t.Errorf("Â12(same) = %v, want 0.5", a)
	}
	if d, _ := CliffsDelta([]float64{math.Inf(-1)}, []float64{math.Inf(-1), 0}); d != -0.5 {
		t.Errorf("δ(-Inf) = %v, want -0.5", d)
	}
}

// TestDominanceRandom compares the O((n+m) log(n+m)) counts with all pairs
// on seeded tied data, and checks Â12 = (δ+1)/2, δ(x,y) = −δ(y,x) and
// Â12 = U/(nm).
func TestDominanceRandom(t *testing.T) {
	r := newRand(8)
	for trial := range 50 {
		n, m := 1+r.IntN(60), 1+r.IntN(60)
		x := roundedSample(r, n, r.Float64(), 0.25)
		y := roundedSample(r, m, 0, 0.25)
		got, err := countDominance(x, y)
		if err != nil {
			t.Fatal(err)
		}
		if want := bruteDominance(x, y); got != want {
			t.Fatalf("trial %d: %+v, want %+v", trial, got, want)
		}
		delta, _ := CliffsDelta(x, y)
		back, _ := CliffsDelta(y, x)
		a12, _ := VarghaDelaneyA12(x, y)
		if delta != -back {
			t.Errorf("trial %d: δ(x,y) = %v, δ(y,x) = %v", trial, delta, back)
		}
		if math.Abs(a12-(delta+1)/2) > 1e-15 {
			t.Errorf("trial %d: Â12 = %v, (δ+1)/2 = %v", trial, a12, (delta+1)/2)
		}
		mw, err := mannWhitneyU(x, y, mannWhitneyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(a12-mw.U/float64(n*m)) > 1e-15 {
			t.Errorf("trial %d: Â12 = %v, U/nm = %v", trial, a12, mw.U/float64(n*m))
		}
	}
}

func TestMagnitudes(t *testing.T) {
	cliff := []struct {
		d    float64
		want estimate.Magnitude
	}{
		{0, estimate.Negligible}, {0.1469, estimate.Negligible}, {-0.1469, estimate.Negligible},
		{0.147, estimate.Small}, {-0.147, estimate.Small}, {0.3299, estimate.Small},
		{0.33, estimate.Medium}, {-0.4739, estimate.Medium},
		{0.474, estimate.Large}, {-1, estimate.Large}, {1, estimate.Large},
		{math.NaN(), estimate.Negligible},
	}
	for _, c := range cliff {
		if got := CliffMagnitude(c.d); got != c.want {
			t.Errorf("CliffMagnitude(%v) = %v, want %v", c.d, got, c.want)
		}
	}
	a12 := []struct {
		a    float64
		want estimate.Magnitude
	}{
		{0.5, estimate.Negligible}, {0.5599, estimate.Negligible}, {0.4401, estimate.Negligible},
		{0.56, estimate.Small}, {0.44, estimate.Small}, {0.6399, estimate.Small}, {0.3601, estimate.Small},
		{0.64, estimate.Medium}, {0.36, estimate.Medium}, {0.7099, estimate.Medium}, {0.2901, estimate.Medium},
		{0.71, estimate.Large}, {0.29, estimate.Large}, {1, estimate.Large}, {0, estimate.Large},
		{math.NaN(), estimate.Negligible},
	}
	for _, c := range a12 {
		if got := A12Magnitude(c.a); got != c.want {
			t.Errorf("A12Magnitude(%v) = %v, want %v", c.a, got, c.want)
		}
	}
	// Boundaries reached as count ratios: 14/25 = 0.56 and 11/25 = 0.44.
	if got := A12Magnitude(14.0 / 25); got != estimate.Small {
		t.Errorf("A12Magnitude(14/25) = %v", got)
	}
	if got := A12Magnitude(11.0 / 25); got != estimate.Small {
		t.Errorf("A12Magnitude(11/25) = %v", got)
	}
	names := map[estimate.Magnitude]string{estimate.Negligible: "negligible", estimate.Small: "small", estimate.Medium: "medium", estimate.Large: "large", 9: "Magnitude(9)"}
	for m, s := range names {
		if m.String() != s {
			t.Errorf("%d.String() = %q, want %q", int(m), m.String(), s)
		}
	}
}
