package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// refCI is the interval of method m computed as before BootstrapCIUntil:
// all B replicates stored, then selected.
func refCI(m CIMethod, x []float64, opt bootstrapOptions, rng *Stream) interval {
	reps := make([]float64, opt.Resamples)
	switch m {
	case MeanPercentile:
		resampleMeans(x, reps, rng)
		lo, hi := percentileInterval(reps, opt.Confidence)
		return interval{Estimate: Mean(x, nil), Lower: lo, Upper: hi}
	case MedianPercentile:
		sorted := slices.Clone(x)
		slices.Sort(sorted)
		resampleMedians(sorted, reps, make([]int32, len(x)), rng)
		lo, hi := percentileInterval(reps, opt.Confidence)
		return interval{Estimate: QuantileSorted(sorted, 0.5, nil), Lower: lo, Upper: hi}
	}
	mean := Mean(x, nil)
	if constant(x) {
		return interval{Estimate: mean, Lower: mean, Upper: mean}
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
	return interval{Estimate: mean, Lower: mean - thi*se, Upper: mean - tlo*se}
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
		opt := []bootstrapOptions{{Resamples: 10000, Confidence: 0.99}, {Resamples: 2000, Confidence: 0.95},
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

func same(a, b interval) bool {
	eq := func(x, y float64) bool { return x == y || (math.IsNaN(x) && math.IsNaN(y)) }
	return eq(a.Estimate, b.Estimate) && eq(a.Lower, b.Lower) && eq(a.Upper, b.Upper)
}
