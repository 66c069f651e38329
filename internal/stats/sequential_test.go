package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/testenv"
)

// refCI is the interval of method m computed as before BootstrapCIUntil:
// all B replicates stored, then selected.
func refCI(m CIMethod, x []float64, opt estimate.BootstrapOptions, rng *Stream) estimate.Interval {
	reps := make([]float64, opt.Resamples)
	switch m {
	case MeanPercentile:
		resampleMeans(x, reps, rng)
		lo, hi := percentileInterval(reps, opt.Confidence)
		return estimate.Interval{Estimate: Mean(x, nil), Lower: lo, Upper: hi}
	case MedianPercentile:
		sorted := slices.Clone(x)
		slices.Sort(sorted)
		resampleMedians(sorted, reps, make([]int32, len(x)), rng)
		lo, hi := percentileInterval(reps, opt.Confidence)
		return estimate.Interval{Estimate: QuantileSorted(sorted, 0.5, nil), Lower: lo, Upper: hi}
	}
	mean := Mean(x, nil)
	if constant(x) {
		return estimate.Interval{Estimate: mean, Lower: mean, Upper: mean}
	}
	centred := make([]float64, len(x))
	var ss float64
	for i, v := range x {
		centred[i] = v - mean
		ss += centred[i] * centred[i]
	}
	n := float64(len(x))
	se := math.Sqrt(ss/(n-1)) / math.Sqrt(n)
	resampleT(centred, reps, rng)
	tlo, thi := percentileInterval(reps, opt.Confidence)
	return estimate.Interval{Estimate: mean, Lower: mean - thi*se, Upper: mean - tlo*se}
}

// TestBootstrapCIUntilExact: BootstrapCIUntil gives bit for bit the
// interval of the stored-and-selected bootstrap on the same stream when it
// completes, and when it stops early the full interval's RCIW is at least
// the limit and contains the returned one.
func TestBootstrapCIUntilExact(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ws := new(Workspace)
	stopped, completed := 0, 0
	for trial := 0; trial < 140; trial++ {
		n := []int{2, 3, 4, 5, 9, 20, 75}[trial%7]
		x := make([]float64, n)
		sd := []float64{0.001, 0.01, 0.05, 0}[trial%4]
		for i := range x {
			x[i] = 100 * math.Exp(sd*r.NormFloat64())
			if trial%11 == 0 {
				x[i] = math.Round(x[i]) // ties
			}
		}
		opt := []estimate.BootstrapOptions{{Resamples: 10000, Confidence: 0.99}, {Resamples: 2000, Confidence: 0.95},
			{Resamples: 999, Confidence: 0.9}, {Resamples: 50, Confidence: 0.99}, {Resamples: 3001, Confidence: 0.5}}[trial%5]
		for m := MeanPercentile; m <= MeanStudentized; m++ {
			want := refCI(m, x, opt, NewStream(1, "seq", uint64(trial)))
			got, err := BootstrapCI(m, x, opt, NewStream(1, "seq", uint64(trial)), ws)
			if err != nil {
				t.Fatal(err)
			}
			if !same(got, want) {
				t.Fatalf("method %d n=%d %+v: got %+v, want %+v", m, n, opt, got, want)
			}
			rciw := math.Abs(want.Upper-want.Lower) / want.Estimate
			for _, limit := range []float64{0.001, 0.01, 0.05, rciw, math.Nextafter(rciw, 0)} {
				iv, complete, err := BootstrapCIUntil(m, x, opt, limit, NewStream(1, "seq", uint64(trial)), ws)
				if err != nil {
					t.Fatal(err)
				}
				if complete {
					completed++
					if !same(iv, want) {
						t.Fatalf("method %d n=%d limit %v: complete %+v, want %+v", m, n, limit, iv, want)
					}
					continue
				}
				stopped++
				if !(rciw >= limit) || iv.Lower < want.Lower || iv.Upper > want.Upper || !((iv.Upper-iv.Lower)/iv.Estimate >= limit) {
					t.Fatalf("method %d n=%d limit %v: stopped with %+v, but the full interval is %+v (RCIW %v)", m, n, limit, iv, want, rciw)
				}
			}
		}
	}
	if stopped == 0 || completed == 0 {
		t.Fatalf("stopped %d, completed %d: both cases must occur", stopped, completed)
	}
	t.Logf("%d stopped early, %d complete", stopped, completed)
}

func same(a, b estimate.Interval) bool {
	eq := func(x, y float64) bool { return x == y || (math.IsNaN(x) && math.IsNaN(y)) }
	return eq(a.Estimate, b.Estimate) && eq(a.Lower, b.Lower) && eq(a.Upper, b.Upper)
}

// TestTailsMask: tailsMask marks the values below lmax or above hmin, as
// Go's comparisons do (NaN never; ±0 equal), at every length up to 64;
// and pushAll with it keeps the heaps pushScan keeps, bit for bit.
func TestTailsMask(t *testing.T) {
	if !haveTailsMask {
		testenv.Skip(t, "no tailsMask in this build (purego, not amd64 or no AVX-512)")
	}
	src := NewStream(4, "tails", 0)
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1, 2}
	vs := make([]float64, 64)
	for trial := range 3000 {
		n := trial % 65
		lmax, hmin := special[src.IntN(len(special))], special[src.IntN(len(special))]
		if trial%3 == 0 {
			lmax, hmin = src.Float64()-0.5, src.Float64()+0.5
		}
		for i := range n {
			vs[i] = special[src.IntN(len(special))]
			if src.IntN(2) == 0 {
				vs[i] = 3*src.Float64() - 1
			}
		}
		var want uint64
		for i, v := range vs[:n] {
			if v < lmax || v > hmin {
				want |= 1 << i
			}
		}
		if got := tailsMask(vs[:n], lmax, hmin); got != want {
			t.Fatalf("%v, lmax %v, hmin %v: mask %b, want %b", vs[:n], lmax, hmin, got, want)
		}
	}
	for _, n := range []int{1, 63, 64, 65, 1000, 10000} {
		x := make([]float64, n)
		for i := range x {
			x[i] = math.Round(100 * src.Float64()) // ties
		}
		var a, b tails
		a.reset(51, 51)
		b.reset(51, 51)
		a.pushAll(x)
		for len(x) > 0 && !b.full() {
			b.push(x[0])
			x = x[1:]
		}
		if len(x) > 0 {
			b.pushScan(x)
		}
		if !slices.Equal(a.lo, b.lo) || !slices.Equal(a.hi, b.hi) {
			t.Fatalf("n %d: heaps %v %v, want %v %v", n, a.lo, a.hi, b.lo, b.hi)
		}
	}
}

// TestMedianPos: medianPos finds the first running count above k as a
// plain loop does, at every length up to 70 and every k up to the total.
func TestMedianPos(t *testing.T) {
	if !haveTailsMask {
		testenv.Skip(t, "no medianPos in this build (purego, not amd64 or no AVX-512)")
	}
	src := NewStream(6, "median", 0)
	for n := 1; n <= 70; n++ {
		counts := make([]int32, n)
		for trial := range 20 {
			var total int32
			for i := range counts {
				counts[i] = int32(src.IntN(4)) * int32(src.IntN(2)) // zeros, and runs of them
				if trial%5 == 0 {
					counts[i] = 0
				}
				total += counts[i]
			}
			for k := int32(-1); k <= total; k++ {
				wj, wc := n, total
				var c int32
				for j, v := range counts {
					if c += v; c > k {
						wj, wc = j, c
						break
					}
				}
				if j, c := medianPos(counts, k); j != wj || c != wc {
					t.Fatalf("counts %v, k %d: (%d, %d), want (%d, %d)", counts, k, j, c, wj, wc)
				}
			}
		}
	}
}

// TestMedianFromCounts32: the same medians as medianFromCounts, for odd
// and even totals, across medianPosMin.
func TestMedianFromCounts32(t *testing.T) {
	src := NewStream(7, "median32", 0)
	for n := 1; n <= 100; n++ {
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = float64(i) + src.Float64()
		}
		counts := make([]int32, n)
		for range 50 {
			clear(counts)
			for range n {
				counts[src.IntN(n)]++
			}
			got, want := medianFromCounts32(vals, counts, uint64(n)), medianFromCounts(vals, counts, uint64(n))
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("n %d, counts %v: %v, want %v", n, counts, got, want)
			}
		}
	}
}
