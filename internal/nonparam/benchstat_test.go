package nonparam

import (
	"math"
	"testing"

	moremath "github.com/aclements/go-moremath/stats"
)

// withU returns untied samples x (size n) and y (size m) whose U
// statistic of y over x (pairs with y_j > x_i) is u: y's values are placed
// among x's so that the pair counts add up to u.
func withU(n, m, u int) (x, y []float64) {
	for i := 0; i < n; i++ {
		x = append(x, float64(2*i+1)) // odd: 1, 3, 5, …
	}
	// y_j above c_j of the x values, Σ c_j = u, c_j ≤ n.
	left := u
	for j := 0; j < m; j++ {
		c := min(n, left)
		left -= c
		y = append(y, float64(2*c)+0.001*float64(j)) // even: above c of x
	}
	return x, y
}

// TestUCritical checks UCritical against BenchstatU (go-moremath, as
// benchstat): at the critical U the test's p is ≤ α and one below it is
// > α, for exact sizes and for the normal approximation above 50.
func TestUCritical(t *testing.T) {
	for _, alpha := range []float64{0.05, 0.01} {
		for _, sz := range [][2]int{{4, 4}, {5, 5}, {3, 7}, {10, 10}, {20, 15}, {50, 50}, {60, 60}, {51, 80}, {200, 200}} {
			n, m := sz[0], sz[1]
			c := UCritical(n, m, alpha)
			if c > n*m {
				if p := BenchstatU(withU(n, m, n*m)); p <= alpha {
					t.Errorf("n=%d m=%d α=%v: UCritical says none, but U=nm gives p=%v", n, m, alpha, p)
				}
				continue
			}
			x, y := withU(n, m, c)
			if p := BenchstatU(x, y); p > alpha {
				t.Errorf("n=%d m=%d α=%v: U=%d (critical) has p=%v > α", n, m, alpha, c, p)
			}
			x, y = withU(n, m, c-1)
			if p := BenchstatU(x, y); p <= alpha {
				t.Errorf("n=%d m=%d α=%v: U=%d (below critical) has p=%v ≤ α", n, m, alpha, c-1, p)
			}
		}
	}
	if c := UCritical(3, 3, 0.05); c != 10 {
		t.Errorf("UCritical(3, 3, 0.05) = %d, want 10 (none: the least p of 3+3 values is 0.1)", c)
	}
}

// TestUMinSamples checks the minimum sizes against benchmath's uTestMinP
// table (golang.org/x/perf/benchmath/anone.go: 3: 0.1, 4: 0.0286, 5:
// 0.0079, 6: 0.0022).
func TestUMinSamples(t *testing.T) {
	for _, c := range []struct {
		alpha float64
		want  int
	}{{0.05, 4}, {0.01, 5}, {0.1, 3}, {0.005, 6}, {0.002, 7}} {
		if got := UMinSamples(c.alpha); got != c.want {
			t.Errorf("UMinSamples(%v) = %d, want %d", c.alpha, got, c.want)
		}
	}
}

// TestBenchstatU checks p-values benchstat prints for small samples,
// computed by hand from the exact distribution: 4+4 values apart
// (2/70), and all equal (the test cannot run: p = 1).
func TestBenchstatU(t *testing.T) {
	if p := BenchstatU([]float64{1, 2, 3, 4}, []float64{5, 6, 7, 8}); !close(p, 2.0/70, 1e-12) {
		t.Errorf("4+4 apart: p = %v, want 2/70", p)
	}
	if p := BenchstatU([]float64{1, 1, 1}, []float64{1, 1}); p != 1 {
		t.Errorf("all equal: p = %v, want 1", p)
	}
}

func close(a, b, tol float64) bool { return a-b <= tol && b-a <= tol }

// TestBenchstatUFastPath checks the untied exact path against
// go-moremath's MannWhitneyUTest, the code benchstat runs, on random
// samples of 1 to 50 values (with and without ties): equal to 1e-12.
func TestBenchstatUFastPath(t *testing.T) {
	rng := uint64(12345)
	next := func() float64 {
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		return float64(rng%100000) / 1000
	}
	for trial := 0; trial < 400; trial++ {
		n, m := 1+trial%50, 1+(trial*7)%50
		x, y := make([]float64, n), make([]float64, m)
		for i := range x {
			x[i] = next()
		}
		for i := range y {
			y[i] = next() + float64(trial%5)
		}
		if trial%3 == 0 && n > 1 {
			x[0] = x[1] // a tie: the go-moremath path
		}
		res, err := moremath.MannWhitneyUTest(x, y, moremath.LocationDiffers)
		want := 1.0
		if err == nil {
			want = res.P
		}
		if got := BenchstatU(x, y); !close(got, want, 1e-12) {
			t.Fatalf("n=%d m=%d: p = %v, go-moremath %v", n, m, got, want)
		}
	}
}

// TestBenchstatMedian checks benchstat's median summary: the order
// statistics of the 95 % interval of the median are those of the binomial
// distribution Bin(n, ½) (n = 10: X(2) and X(9), P(2 ≤ B ≤ 8) = 1 −
// 22/1024 = 0.979 ≥ 0.95 while X(3), X(8) cover 0.891; n = 6: X(1) and
// X(6), 1 − 2/64), with an infinite bound below 6 values (benchstat:
// "need >= 6 samples for confidence interval at level 0.95"), and the median of an
// even count is the mean of the middle two.
func TestBenchstatMedian(t *testing.T) {
	ten := []float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}
	for _, c := range []struct {
		x           []float64
		med, lo, hi float64
		confidence  float64
	}{
		{ten, 5.5, 2, 9, 0.95},
		{ten[:6], 7.5, 5, 10, 0.95},
		{[]float64{3, 1, 2, 5, 4}, 3, math.Inf(-1), 5, 0.95}, // go-moremath's orders 0 and 5: infinite below
		{[]float64{3, 1, 2, 5, 4}, 3, 1, 5, 0.9},             // 1 − 2/32 = 0.9375
	} {
		med, lo, hi := BenchstatMedian(c.x, c.confidence)
		if med != c.med || lo != c.lo || hi != c.hi {
			t.Errorf("BenchstatMedian(%v, %v) = %v [%v, %v], want %v [%v, %v]", c.x, c.confidence, med, lo, hi, c.med, c.lo, c.hi)
		}
	}
	if got := MedianCIWarning(0.95); got != "need >= 6 samples for confidence interval at level 0.95" {
		t.Errorf("MedianCIWarning(0.95) = %q", got)
	}
	if op, n := MedianCISamples(0.99); op != ">=" || n != 8 { // 1 − 2/256 = 0.992
		t.Errorf("MedianCISamples(0.99) = %s %d, want >= 8", op, n)
	}
}

// TestBenchstatUWarning checks benchstat's footnotes of a comparison
// (benchmath.AssumeNothing.Compare, as benchstat prints them on
// oastools' B/op tables and on 3+3 samples).
func TestBenchstatUWarning(t *testing.T) {
	three, other := []float64{1, 2, 3}, []float64{4, 5, 6}
	for _, c := range []struct {
		x, y     []float64
		p, alpha float64
		want     string
	}{
		{[]float64{7, 7, 7}, []float64{7, 7}, 1, 0.05, "all samples are equal"},
		{nil, three, 1, 0.05, "sample is too small"},
		{three, other, BenchstatU(three, other), 0.05, "need >= 4 samples to detect a difference at alpha level 0.05"},
		{three, other, 0.1, 0.2, ""},
		{append(three, 4, 5), append(other, 7, 8), 0.5, 0.05, ""},
		{three, other, 0.1, 1e-6, "need > 10 samples to detect a difference at alpha level 1e-06"},
	} {
		if got := BenchstatUWarning(c.x, c.y, c.p, c.alpha); got != c.want {
			t.Errorf("BenchstatUWarning(%v, %v, %v, %v) = %q, want %q", c.x, c.y, c.p, c.alpha, got, c.want)
		}
	}
}
