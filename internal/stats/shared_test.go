package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/testenv"
)

// refShared recomputes BootstrapCIsShared plainly: the same index draws,
// each resample materialised, its mean, sorted median and studentized mean,
// and the intervals by sorting all replicates.
func refShared(x []float64, opt estimate.BootstrapOptions, rng *Stream) [3]estimate.Interval {
	n := len(x)
	sorted := slices.Clone(x)
	slices.Sort(sorted)
	m := Mean(x, nil)
	centred := make([]float64, n)
	var ss float64
	for i, v := range sorted {
		centred[i] = v - m
		ss += centred[i] * centred[i]
	}
	se := math.Sqrt(ss/float64(n-1)) / math.Sqrt(float64(n))
	draw := func(out []int) {
		for i := 0; i < n; i += 4 {
			r := rng.pcg.Uint64()
			for k := 0; k < 4 && i+k < n; k++ {
				p := (r >> (16 * k) & 0xffff) * uint64(n)
				if p&0xffff < uint64(65536%n) {
					p = uint64(rng.uint32n(uint32(n))) << 16
				}
				out[i+k] = int(p >> 16)
			}
		}
	}
	reps := [3][]float64{}
	idx := make([]int, n)
	res := make([]float64, n)
	for b := 0; b < opt.Resamples; b++ {
		draw(idx)
		var s, sc, q [2]float64 // draws 0, 2 of each four in [0], 1, 3 in [1]
		allEqual := true
		for i, j := range idx {
			a := i % 2
			if i >= n-n%4 {
				a = 0
			}
			res[i] = sorted[j]
			s[a] += sorted[j]
			sc[a] += centred[j]
			q[a] += centred[j] * centred[j]
			allEqual = allEqual && centred[j] == centred[idx[0]]
		}
		reps[0] = append(reps[0], (s[0]+s[1])/float64(n))
		slices.Sort(res)
		reps[1] = append(reps[1], QuantileSorted(res, 0.5, nil))
		mean := (sc[0] + sc[1]) / float64(n)
		v := (q[0] + q[1] - (sc[0]+sc[1])*mean) / float64(n-1)
		t := 0.0
		switch {
		case !allEqual && v > 0:
			t = mean / math.Sqrt(v/float64(n))
		case mean > 0:
			t = math.Inf(1)
		case mean < 0:
			t = math.Inf(-1)
		}
		reps[2] = append(reps[2], t)
	}
	var out [3]estimate.Interval
	for k := range out {
		slices.Sort(reps[k])
		lo, hi := Quantile(reps[k], (1-opt.Confidence)/2, nil), Quantile(reps[k], 1-(1-opt.Confidence)/2, nil)
		out[k] = estimate.Interval{Estimate: m, Lower: lo, Upper: hi}
	}
	out[1].Estimate = QuantileSorted(sorted, 0.5, nil)
	out[2].Lower, out[2].Upper = m-out[2].Upper*se, m-out[2].Lower*se
	if constant(x) {
		out[2].Lower, out[2].Upper = m, m
	}
	return out
}

// TestBootstrapCIsShared: the shared resampling gives the plain
// recomputation's intervals bit for bit, and intervals of the same width
// as BootstrapCI's within bootstrap noise.
func TestBootstrapCIsShared(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	ws := new(Workspace)
	var ratio [3]float64
	count := 0
	for trial := 0; trial < 60; trial++ {
		n := []int{2, 3, 4, 5, 9, 20, 75}[trial%7]
		x := make([]float64, n)
		sd := []float64{0.001, 0.01, 0.05, 0}[trial%4]
		for i := range x {
			x[i] = 100 * math.Exp(sd*r.NormFloat64())
			if trial%11 == 0 {
				x[i] = math.Round(x[i])
			}
		}
		opt := []estimate.BootstrapOptions{{Resamples: 10000, Confidence: 0.99}, {Resamples: 999, Confidence: 0.9}, {Resamples: 50, Confidence: 0.99}}[trial%3]
		got, errs := BootstrapCIsShared(x, opt, NewStream(2, "shared", uint64(trial)), ws)
		want := refShared(x, opt, NewStream(2, "shared", uint64(trial)))
		for k := range got {
			if errs[k] != nil {
				t.Fatal(errs[k])
			}
			if !same(got[k], want[k]) {
				t.Fatalf("method %d n=%d %+v: got %+v, want %+v", k, n, opt, got[k], want[k])
			}
			if opt.Resamples == 10000 && sd > 0 && n >= 9 {
				own, err := BootstrapCI(CIMethod(k), x, opt, NewStream(3, "own", uint64(trial)), ws)
				if err != nil {
					t.Fatal(err)
				}
				ratio[k] += (got[k].Upper - got[k].Lower) / (own.Upper - own.Lower)
				if k == 0 {
					count++
				}
			}
		}
	}
	if count < 5 {
		t.Fatalf("only %d samples compared with BootstrapCI", count)
	}
	// Samples too large for 64 rows of counts (medianRows), so that the
	// shared kernel's batches are split, and one of 2¹⁶ values or more,
	// whose 16-bit draws are all redrawn as 32-bit ones.
	for _, n := range []int{3000, 70000} {
		x := make([]float64, n)
		for i := range x {
			x[i] = 100 * math.Exp(0.01*r.NormFloat64())
		}
		if medianRows(len(x)) >= sharedBatch {
			t.Fatalf("%d values fit %d rows; the case needs fewer than %d", len(x), medianRows(len(x)), sharedBatch)
		}
		opt := estimate.BootstrapOptions{Resamples: 50, Confidence: 0.9}
		got, _ := BootstrapCIsShared(x, opt, NewStream(2, "large", uint64(n)), ws)
		if want := refShared(x, opt, NewStream(2, "large", uint64(n))); got != want {
			t.Fatalf("%d values: got %+v, want %+v", n, got, want)
		}
	}
	for k := range ratio {
		if m := ratio[k] / float64(count); math.Abs(m-1) > 0.05 {
			t.Errorf("method %d: shared width / own width %.3f on average over %d samples, want 1 ± 0.05", k, m, count)
		}
	}
	if _, errs := BootstrapCIsShared([]float64{5}, estimate.DefaultBootstrap, NewStream(1, "one", 1), ws); errs[0] != nil || errs[1] != nil || errs[2] == nil {
		t.Errorf("one value: errors %v, want only the studentized one", errs)
	}
}

// BenchmarkSharedCIs compares the shared resampling of the three intervals
// with three BootstrapCI calls (10,000 resamples of 75 values, the full
// configuration of µOpTime's Go data).
func BenchmarkSharedCIs(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 75)
	for i := range x {
		x[i] = 100 * (1 + 0.02*r.NormFloat64())
	}
	ws := new(Workspace)
	b.Run("shared", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			BootstrapCIsShared(x, estimate.DefaultBootstrap, NewStream(1, "b", uint64(i)), ws)
		}
	})
	b.Run("three", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for m := MeanPercentile; m <= MeanStudentized; m++ {
				BootstrapCI(m, x, estimate.DefaultBootstrap, NewStream(1, "b", uint64(i)), ws)
			}
		}
	})
}

// TestSharedRecords: sharedVecAsm's records hold (sorted, centred,
// centred², 0) 32-byte aligned, and distinct is sharedAsm's diff ≠ 0 (some
// draw's centred value has other bits than the first draw's) on samples
// with runs of ties, checked on every resample of up to 5 values and on
// random ones of more; a centred −0 gives no records.
func TestSharedRecords(t *testing.T) {
	if !haveVecPCG {
		testenv.Skip(t, "no sharedVecAsm in this build (purego, not amd64 or no AVX)")
	}
	src := NewStream(5, "records", 0)
	samples := [][]float64{{3}, {2, 2}, {1, 2}, {4, 4, 9}, {1, 5, 5, 5}, {7, 7, 7, 7, 7}, {1, 1, 2, 2, 3}}
	for _, n := range []int{9, 40, 75} {
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(src.IntN(4)) // long runs
		}
		samples = append(samples, x)
	}
	ws := new(Workspace)
	for _, x := range samples {
		n := len(x)
		sorted := slices.Sorted(slices.Values(x))
		m := Mean(x, nil)
		centred := make([]float64, n)
		for i, v := range sorted {
			centred[i] = v - m
		}
		vec := newSharedRecords(sorted, centred, ws)
		if vec == nil {
			t.Fatalf("%v: no records", x)
		}
		if p := uintptr(unsafe.Pointer(unsafe.SliceData(vec.rec))); p%32 != 0 || len(vec.rec) != 4*n {
			t.Fatalf("%v: records at %#x, %d long; want 32-byte aligned, %d", x, p, len(vec.rec), 4*n)
		}
		for j := range n {
			if r := vec.rec[4*j : 4*j+4]; r[0] != sorted[j] || r[1] != centred[j] || r[2] != centred[j]*centred[j] || r[3] != 0 {
				t.Fatalf("%v: record %d is %v", x, j, r)
			}
		}
		draws := make([]int, n)
		counts := make([]int32, n)
		check := func() {
			clear(counts)
			diff := false
			for _, d := range draws {
				counts[d]++
				diff = diff || math.Float64bits(centred[d]) != math.Float64bits(centred[draws[0]])
			}
			if got := vec.distinct(counts, uint64(draws[0])) != 0; got != diff {
				t.Fatalf("%v, draws %v: distinct %v, want %v", x, draws, got, diff)
			}
		}
		if n <= 5 {
			// every sequence of n draws
			for code := 0; code < int(math.Pow(float64(n), float64(n))); code++ {
				for i, c := 0, code; i < n; i, c = i+1, c/n {
					draws[i] = c % n
				}
				check()
			}
			continue
		}
		for range 2000 {
			// a random resample, and one of a single run's indices
			for i := range draws {
				draws[i] = src.IntN(n)
			}
			check()
			j := src.IntN(n)
			lo, hi := int(vec.runs[2*j]), int(vec.runs[2*j+1])
			for i := range draws {
				draws[i] = lo + src.IntN(hi-lo+1)
			}
			check()
		}
	}
	// −0 and +0 compare equal but have other bits: no runs.
	sorted := []float64{-1, math.Copysign(0, -1), 0, math.Copysign(0, -1), 1}
	centred := slices.Clone(sorted) // the mean is +0
	if newSharedRecords(sorted, centred, ws) != nil {
		t.Error("records for centred values with −0")
	}
}
