package nonparam

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// newRand returns the test's deterministic generator for stream.
func newRand(stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(20240917, stream))
}

// normalSample draws n N(mu, 1) values.
func normalSample(r *rand.Rand, n int, mu float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = mu + r.NormFloat64()
	}
	return v
}

// roundedSample draws n values of N(mu, 1) rounded to a multiple of step,
// which produces many ties.
func roundedSample(r *rand.Rand, n int, mu, step float64) []float64 {
	v := normalSample(r, n, mu)
	for i := range v {
		v[i] = math.Round(v[i]/step) * step
	}
	return v
}

// enumerateU returns, for sample sizes n and m without ties, the number of
// n-subsets of the ranks 1..n+m whose U statistic is u, for every u, by
// listing all C(n+m, n) subsets. It is the brute-force definition of the
// exact null distribution.
func enumerateU(n, m int) []float64 {
	counts := make([]float64, n*m+1)
	total := n + m
	for mask := 0; mask < 1<<total; mask++ {
		if popcount(mask) != n {
			continue
		}
		rankSum := 0
		for b := 0; b < total; b++ {
			if mask&(1<<b) != 0 {
				rankSum += b + 1
			}
		}
		counts[rankSum-n*(n+1)/2]++
	}
	return counts
}

func popcount(x int) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}

func TestExactDistributionEnumerated(t *testing.T) {
	for n := 1; n <= 8; n++ {
		for m := 1; n+m <= 14; m++ {
			counts := enumerateU(n, m)
			var all float64
			for _, c := range counts {
				all += c
			}
			var cum float64
			for k := range counts {
				cum += counts[k]
				want := cum / all
				got, err := mwuCDF(n, m, int64(k))
				if err != nil {
					t.Fatal(err)
				}
				if !closeRel(got, want, 1e-13) {
					t.Errorf("n=%d m=%d: P(U ≤ %d) = %.17g, want %.17g", n, m, k, got, want)
				}
			}
			if p, _ := mwuCDF(n, m, -1); p != 0 {
				t.Errorf("n=%d m=%d: P(U ≤ -1) = %v", n, m, p)
			}
		}
	}
}

// TestExactLargeScaled forces the exact distribution on samples of 450,
// whose C(900, 450) ≈ 10^269 overflows the unscaled recursion. The reference
// was computed in exact integer arithmetic by testdata/exact_bigint.py
// (Python 3.11 integers; U from scipy 1.10.1): U = 109992,
// p = 0.024923623797979556. Tolerance: relative 1e-9 (the float64
// recursion loses about 1e-11 to cancellation). The normal approximation
// must agree to 0.5 % relative, its O(1/N) error at this size.
func TestExactLargeScaled(t *testing.T) {
	const wantU, wantP = 109992, 0.024923623797979556
	x := genData(450, 7919, 13, 100003, 2.0, 9000.0)
	y := genData(450, 104729, 17, 100003, 2.0, 1.0)
	exact, err := mannWhitneyU(x, y, mannWhitneyOptions{method: MethodExact})
	if err != nil {
		t.Fatal(err)
	}
	if exact.Method != MethodExact || exact.U != wantU || !closeRel(exact.P, wantP, 1e-9) {
		t.Errorf("%v: U = %v, p = %.17g, want U = %v, p = %.17g", exact.Method, exact.U, exact.P, wantU, wantP)
	}
	approx, err := mannWhitneyU(x, y, mannWhitneyOptions{method: MethodAsymptotic})
	if err != nil {
		t.Fatal(err)
	}
	if !closeRel(approx.P, exact.P, 5e-3) {
		t.Errorf("exact p = %.10g, normal approximation %.10g", exact.P, approx.P)
	}
}

func TestExactTooLarge(t *testing.T) {
	x := genData(5000, 1, 0, 1<<30, 2, 0)
	y := genData(5000, 1, 0, 1<<30, 2, 1)
	_, err := mannWhitneyU(x, y, mannWhitneyOptions{method: MethodExact})
	if !errors.Is(err, errExactTooLarge) {
		t.Fatalf("err = %v, want ErrExactTooLarge", err)
	}
	res, err := mannWhitneyU(x, y, mannWhitneyOptions{})
	if err != nil || res.Method != MethodAsymptotic {
		t.Fatalf("auto: %v, %v", res.Method, err)
	}
}

func TestMannWhitneyMethodChoice(t *testing.T) {
	r := newRand(2)
	cases := []struct {
		name   string
		n, m   int
		ties   bool
		limit  int
		method Method
	}{
		{"both small", 8, 8, false, 0, MethodExact},
		{"one small", 8, 500, false, 0, MethodExact},
		{"both 9", 9, 9, false, 0, MethodAsymptotic},
		{"ties", 5, 5, true, 0, MethodAsymptotic},
		{"limit 3", 4, 4, false, 3, MethodAsymptotic},
		{"limit 20", 20, 30, false, 20, MethodExact},
		{"never", 2, 2, false, -1, MethodAsymptotic},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x, y := normalSample(r, c.n, 0), normalSample(r, c.m, 0)
			if c.ties {
				y[0] = x[0]
			}
			res, err := mannWhitneyU(x, y, mannWhitneyOptions{exactMaxSize: c.limit})
			if err != nil {
				t.Fatal(err)
			}
			if res.Method != c.method || res.ties != c.ties {
				t.Errorf("method %v ties %v, want %v %v", res.Method, res.ties, c.method, c.ties)
			}
			if res.Method == MethodExact && !math.IsNaN(res.z) {
				t.Errorf("exact Z = %v, want NaN", res.z)
			}
		})
	}
}

// TestMannWhitneySwap checks the asymmetry of the alternatives: swapping the
// samples turns U into nm − U, keeps the two-sided p-value, and exchanges
// "greater" and "less"; the exact one-sided p-values of U add up to
// 1 + P(U' = U).
func TestMannWhitneySwap(t *testing.T) {
	r := newRand(3)
	samples := [][2][]float64{
		{normalSample(r, 6, 0.8), normalSample(r, 7, 0)},               // exact
		{normalSample(r, 40, 0.3), normalSample(r, 35, 0)},             // asymptotic
		{roundedSample(r, 30, 0.5, 0.5), roundedSample(r, 25, 0, 0.5)}, // ties
	}
	for i, s := range samples {
		x, y := s[0], s[1]
		run := func(a, b []float64, alt alternative) MannWhitneyResult {
			t.Helper()
			res, err := mannWhitneyU(a, b, mannWhitneyOptions{alternative: alt})
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		two, twoSwap := run(x, y, twoSided), run(y, x, twoSided)
		nm := float64(len(x) * len(y))
		if two.U+twoSwap.U != nm {
			t.Errorf("case %d: U(x,y) + U(y,x) = %v, want %v", i, two.U+twoSwap.U, nm)
		}
		if !closeRel(two.P, twoSwap.P, 1e-14) || !closeRel(two.z, -twoSwap.z, 1e-14) && two.Method == MethodAsymptotic {
			t.Errorf("case %d: two-sided p %v vs %v, Z %v vs %v", i, two.P, twoSwap.P, two.z, twoSwap.z)
		}
		gt, ltSwap := run(x, y, greater), run(y, x, less)
		if !closeRel(gt.P, ltSwap.P, 1e-14) {
			t.Errorf("case %d: greater(x,y) p %v, less(y,x) p %v", i, gt.P, ltSwap.P)
		}
		lt := run(x, y, less)
		// The shift puts x above y: "greater" must be the small one.
		if !(gt.P < lt.P) {
			t.Errorf("case %d: greater p %v not below less p %v for x shifted up", i, gt.P, lt.P)
		}
		if two.Method == MethodExact {
			pmf, err := exactPMF(len(x), len(y), int64(two.U))
			if err != nil {
				t.Fatal(err)
			}
			if !closeRel(gt.P+lt.P, 1+pmf, 1e-13) {
				t.Errorf("case %d: p_greater + p_less = %v, want 1 + %v", i, gt.P+lt.P, pmf)
			}
			if !closeRel(two.P, min(1, 2*min(gt.P, lt.P)), 1e-14) {
				t.Errorf("case %d: two-sided %v, one-sided %v %v", i, two.P, gt.P, lt.P)
			}
		}
	}
}

func exactPMF(n, m int, u int64) (float64, error) {
	a, err := mwuCDF(n, m, u)
	if err != nil {
		return 0, err
	}
	b, err := mwuCDF(n, m, u-1)
	return a - b, err
}

// TestMannWhitneyZ checks that the reported Z is the one the p-value comes
// from, oriented with x.
func TestMannWhitneyZ(t *testing.T) {
	r := newRand(4)
	x, y := roundedSample(r, 50, 0.4, 0.25), roundedSample(r, 60, 0, 0.25)
	for _, alt := range []alternative{twoSided, greater, less} {
		res, err := mannWhitneyU(x, y, mannWhitneyOptions{alternative: alt})
		if err != nil {
			t.Fatal(err)
		}
		if res.z <= 0 {
			t.Errorf("%v: Z = %v, want > 0 for x shifted up", alt, res.z)
		}
		var want float64
		switch alt {
		case twoSided:
			want = math.Erfc(math.Abs(res.z) / math.Sqrt2)
		case greater:
			want = math.Erfc(res.z/math.Sqrt2) / 2
		case less:
			want = math.Erfc(-res.z/math.Sqrt2) / 2
		}
		if !closeRel(res.P, want, 1e-14) {
			t.Errorf("%v: P = %v, from Z %v", alt, res.P, want)
		}
	}
}

func TestMannWhitneyEdgeCases(t *testing.T) {
	inf := math.Inf(1)
	t.Run("infinities", func(t *testing.T) {
		res, err := mannWhitneyU([]float64{inf, -inf}, []float64{1, 2, 3}, mannWhitneyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.U != 3 || res.Method != MethodExact {
			t.Errorf("U = %v (%v), want 3 exact", res.U, res.Method)
		}
	})
	t.Run("all tied", func(t *testing.T) {
		res, err := mannWhitneyU([]float64{7, 7}, []float64{7, 7, 7}, mannWhitneyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.P != 1 || res.z != 0 || res.U != 3 {
			t.Errorf("U, Z, P = %v, %v, %v, want 3, 0, 1", res.U, res.z, res.P)
		}
	})
	t.Run("one vs one tied", func(t *testing.T) {
		res, err := mannWhitneyU([]float64{1}, []float64{1}, mannWhitneyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.P != 1 || res.U != 0.5 {
			t.Errorf("U, P = %v, %v, want 0.5, 1", res.U, res.P)
		}
	})
	bad := []struct {
		name string
		x, y []float64
		want error
		msg  string
	}{
		{"empty x", nil, []float64{1}, errEmpty, "sample x"},
		{"empty y", []float64{1}, []float64{}, errEmpty, "sample y"},
		{"NaN x", []float64{1, math.NaN()}, []float64{1}, errNaN, "x[1]"},
		{"NaN y", []float64{1}, []float64{2, 3, math.NaN()}, errNaN, "y[2]"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			checks := map[string]error{}
			_, checks["MannWhitneyU"] = mannWhitneyU(c.x, c.y, mannWhitneyOptions{})
			_, checks["CliffsDelta"] = CliffsDelta(c.x, c.y)
			_, checks["VarghaDelaneyA12"] = VarghaDelaneyA12(c.x, c.y)
			_, checks["CountDominance"] = countDominance(c.x, c.y)
			for fn, err := range checks {
				if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
					t.Errorf("%s: err = %v, want %v naming %q", fn, err, c.want, c.msg)
				}
			}
		})
	}
}

func TestInputsNotModified(t *testing.T) {
	r := newRand(5)
	x, y := normalSample(r, 30, 0), roundedSample(r, 20, 0, 0.5)
	x0, y0 := slices.Clone(x), slices.Clone(y)
	if _, err := mannWhitneyU(x, y, mannWhitneyOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := CliffsDelta(x, y); err != nil {
		t.Fatal(err)
	}
	if _, err := rank(nil, x); err != nil {
		t.Fatal(err)
	}
	tieCorrection(y)
	if _, err := KruskalWallis([][]float64{x, y}); err != nil {
		t.Fatal(err)
	}
	if _, err := Dunn([][]float64{x, y}, DunnOptions{}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(x, x0) || !slices.Equal(y, y0) {
		t.Error("an input slice was modified")
	}
}

func TestPanics(t *testing.T) {
	x := []float64{1, 2}
	cases := map[string]func(){
		"alternative": func() { mannWhitneyU(x, x, mannWhitneyOptions{alternative: 3}) },
		"method":      func() { mannWhitneyU(x, x, mannWhitneyOptions{method: -1}) },
		"rank dst":    func() { rank(make([]float64, 1), x) },
		"dunn alpha":  func() { Dunn([][]float64{x, x}, DunnOptions{Alpha: 1}) },
		"dunn NaN":    func() { Dunn([][]float64{x, x}, DunnOptions{Alpha: math.NaN()}) },
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			defer func() {
				r := recover()
				if r == nil {
					t.Fatal("no panic")
				}
				if s, ok := r.(string); !ok || !strings.HasPrefix(s, "nonparam: ") {
					t.Errorf("panic %v lacks the package prefix", r)
				}
			}()
			f()
		})
	}
}

// TestMannWhitneyNullRejectionRate is a property test: under H0 the
// rejection rate at α = 0.05 over 1,000 seeded repetitions must lie within
// four binomial standard deviations of its expected value. For the normal
// approximation that is α itself; for the exact test of discrete U it is the
// attained size P(p ≤ α), computed here by enumerating the null
// distribution.
func TestMannWhitneyNullRejectionRate(t *testing.T) {
	const reps, alpha = 1000, 0.05
	cases := []struct {
		name   string
		n, m   int
		round  float64 // 0: continuous data
		method Method
	}{
		{"asymptotic 20x25", 20, 25, 0, MethodAsymptotic},
		{"tied 30x30", 30, 30, 0.5, MethodAsymptotic},
		{"exact 7x7", 7, 7, 0, MethodExact},
	}
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			size := alpha
			if c.method == MethodExact {
				size = attainedSize(c.n, c.m, alpha)
			}
			r := newRand(100 + uint64(ci))
			rejected := 0
			for range reps {
				var x, y []float64
				if c.round > 0 {
					x, y = roundedSample(r, c.n, 0, c.round), roundedSample(r, c.m, 0, c.round)
				} else {
					x, y = normalSample(r, c.n, 0), normalSample(r, c.m, 0)
				}
				res, err := mannWhitneyU(x, y, mannWhitneyOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if res.Method != c.method {
					t.Fatalf("method %v, want %v", res.Method, c.method)
				}
				if res.P <= alpha {
					rejected++
				}
			}
			rate := float64(rejected) / reps
			tol := 4 * math.Sqrt(size*(1-size)/reps)
			t.Logf("rejection rate %.3f, expected %.4f ± %.4f", rate, size, tol)
			if math.Abs(rate-size) > tol {
				t.Errorf("rejection rate %.3f, want %.4f ± %.4f", rate, size, tol)
			}
		})
	}
}

// attainedSize returns P(p ≤ alpha) under H0 for the exact two-sided test,
// from the enumerated distribution.
func attainedSize(n, m int, alpha float64) float64 {
	counts := enumerateU(n, m)
	var all float64
	for _, c := range counts {
		all += c
	}
	cdf := make([]float64, len(counts))
	var cum float64
	for u, c := range counts {
		cum += c
		cdf[u] = cum / all
	}
	nm := n * m
	var size float64
	for u, c := range counts {
		lo := min(u, nm-u)
		if min(1, 2*cdf[lo]) <= alpha {
			size += c / all
		}
	}
	return size
}

func TestKruskalWallisNullRejectionRate(t *testing.T) {
	const reps, alpha = 1000, 0.05
	r := newRand(200)
	rejected := 0
	for range reps {
		g := [][]float64{normalSample(r, 15, 0), normalSample(r, 20, 0), normalSample(r, 25, 0)}
		res, err := KruskalWallis(g)
		if err != nil {
			t.Fatal(err)
		}
		if res.P <= alpha {
			rejected++
		}
	}
	rate := float64(rejected) / reps
	if tol := 4 * math.Sqrt(alpha*(1-alpha)/reps); math.Abs(rate-alpha) > tol {
		t.Errorf("rejection rate %.3f, want %.2f ± %.4f", rate, alpha, tol)
	}
}

// TestTwoGroupIdentities checks, on tied data, that with two groups the
// Kruskal-Wallis H equals the square of the Mann-Whitney Z without
// continuity correction, and that Dunn's z of pair (0, 1) equals that Z
// (group 0 ranking higher ⇔ x larger), with the same p-values.
func TestTwoGroupIdentities(t *testing.T) {
	r := newRand(6)
	x, y := roundedSample(r, 23, 0.3, 0.5), roundedSample(r, 31, 0, 0.5)
	mw, err := mannWhitneyU(x, y, mannWhitneyOptions{method: MethodAsymptotic, noContinuity: true})
	if err != nil {
		t.Fatal(err)
	}
	kw, err := KruskalWallis([][]float64{x, y})
	if err != nil {
		t.Fatal(err)
	}
	if !closeRel(kw.H, mw.z*mw.z, 1e-12) || !closeRel(kw.P, mw.P, 1e-10) {
		t.Errorf("H = %v, p = %v; Z² = %v, p = %v", kw.H, kw.P, mw.z*mw.z, mw.P)
	}
	pairs, err := Dunn([][]float64{x, y}, DunnOptions{Alpha: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 1 || !closeRel(pairs[0].Z, mw.z, 1e-12) || !closeRel(pairs[0].P, mw.P, 1e-10) {
		t.Errorf("Dunn %+v; Mann-Whitney Z = %v, p = %v", pairs, mw.z, mw.P)
	}
	if pairs[0].PAdjusted != pairs[0].P {
		t.Errorf("one comparison: PAdjusted %v != P %v", pairs[0].PAdjusted, pairs[0].P)
	}
}

func TestKruskalDunnEdgeCases(t *testing.T) {
	same := [][]float64{{2, 2}, {2}, {2, 2, 2}}
	kw, err := KruskalWallis(same)
	if err != nil || kw.H != 0 || kw.P != 1 || kw.DF != 2 {
		t.Errorf("all equal: %+v, %v; want H 0, p 1, DF 2", kw, err)
	}
	pairs, err := Dunn(same, DunnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pairs {
		if p.Z != 0 || p.P != 1 || p.PAdjusted != 1 || p.Reject {
			t.Errorf("all equal: %+v", p)
		}
	}
	bad := []struct {
		name   string
		groups [][]float64
		want   error
		msg    string
	}{
		{"no groups", nil, errTooFewGroups, "got 0"},
		{"one group", [][]float64{{1, 2}}, errTooFewGroups, "got 1"},
		{"empty group", [][]float64{{1, 2}, {}}, errEmpty, "groups[1]"},
		{"NaN", [][]float64{{1, 2}, {3}, {4, math.NaN()}}, errNaN, "groups[2][1]"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			if _, err := KruskalWallis(c.groups); !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("KruskalWallis: %v, want %v naming %q", err, c.want, c.msg)
			}
			if _, err := Dunn(c.groups, DunnOptions{}); !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("Dunn: %v, want %v naming %q", err, c.want, c.msg)
			}
		})
	}
}

func TestDunnAlpha(t *testing.T) {
	g := kwGroups["fiveGroups"]
	strict, err := Dunn(g, DunnOptions{Alpha: 1e-6})
	if err != nil {
		t.Fatal(err)
	}
	loose, err := Dunn(g, DunnOptions{Alpha: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	for i := range strict {
		if strict[i].Reject != (strict[i].PAdjusted <= 1e-6) || loose[i].Reject != (loose[i].PAdjusted <= 0.05) {
			t.Errorf("pair %d: Reject %v/%v at p̃ = %v", i, strict[i].Reject, loose[i].Reject, strict[i].PAdjusted)
		}
		if strict[i].Reject && !loose[i].Reject {
			t.Errorf("pair %d rejected at 1e-6 but not at 0.05", i)
		}
	}
}

func TestRank(t *testing.T) {
	dst := make([]float64, 4)
	got, err := rank(dst, []float64{10, -1, 10, 5})
	if err != nil {
		t.Fatal(err)
	}
	if &got[0] != &dst[0] {
		t.Error("Rank did not write into dst")
	}
	if want := []float64{3.5, 1, 3.5, 2}; !slices.Equal(got, want) {
		t.Errorf("Rank = %v, want %v", got, want)
	}
	if _, err := rank(nil, nil); !errors.Is(err, errEmpty) {
		t.Errorf("empty: %v", err)
	}
	if _, err := rank(nil, []float64{1, math.NaN()}); !errors.Is(err, errNaN) {
		t.Errorf("NaN: %v", err)
	}
	// Ranks of a permutation-invariant quantity: the rank sum is n(n+1)/2.
	r := newRand(7)
	x := roundedSample(r, 101, 0, 0.3)
	ranks, err := rank(nil, x)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, v := range ranks {
		sum += v
	}
	if sum != 101*102/2 {
		t.Errorf("rank sum %v, want %v", sum, 101*102/2)
	}
}

func TestTieCorrection(t *testing.T) {
	cases := []struct {
		x    []float64
		want float64
	}{
		{nil, 1},
		{[]float64{4}, 1},
		{[]float64{1, 2, 3}, 1},
		{[]float64{5, 5, 5}, 0},
		{[]float64{1, 1, 2}, 1 - 6.0/24}, // one pair: 1 − (2³−2)/(3³−3)
	}
	for _, c := range cases {
		if got := tieCorrection(c.x); !closeRel(got, c.want, 1e-15) {
			t.Errorf("tieCorrection(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}
