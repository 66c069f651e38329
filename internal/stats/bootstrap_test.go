package stats

import (
	"errors"
	"math"
	"slices"
	"sort"
	"testing"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/testenv"
)

// TestPercentileDefinition checks the replicate percentiles against
// np.percentile (numpy 1.24.2, method 'linear'; testdata/reference.py),
// tolerance 1e-12.
func TestPercentileDefinition(t *testing.T) {
	r := make([]float64, 101)
	for i := range r {
		r[i] = float64((i*37)%101) / 7
	}
	for _, c := range []struct {
		conf, lo, hi float64
	}{
		{0.99, 0.07142857142857142, 14.214285714285715},
		{0.95, 0.3571428571428571, 13.928571428571429},
	} {
		lo, hi := percentileInterval(slices.Clone(r), c.conf)
		checkClose(t, "lower", lo, c.lo, 1e-12)
		checkClose(t, "upper", hi, c.hi, 1e-12)
	}
}

func TestSelectK(t *testing.T) {
	s := NewStream(5, "select", 0)
	for _, n := range []int{1, 2, 3, 10, 101, 1000} {
		for _, distinct := range []int{2, 1000000} {
			a := make([]float64, n)
			for i := range a {
				a[i] = float64(s.IntN(distinct))
			}
			sorted := slices.Clone(a)
			slices.Sort(sorted)
			for _, k := range []int{0, n / 3, n / 2, n - 1} {
				b := slices.Clone(a)
				selectK(b, k)
				if b[k] != sorted[k] {
					t.Fatalf("n=%d distinct=%d: selectK(%d) = %v, want %v", n, distinct, k, b[k], sorted[k])
				}
				if slices.Max(b[:k+1]) > b[k] || slices.Min(b[k:]) < b[k] {
					t.Fatalf("n=%d k=%d: not partitioned", n, k)
				}
			}
		}
	}
}

// exactBootstrap enumerates all n^n resamples of x (equally likely) and
// returns the sorted values of stat over them: the exact bootstrap
// distribution, computed by brute force.
func exactBootstrap(x []float64, stat func([]float64) float64) []float64 {
	n := len(x)
	idx := make([]int, n)
	res := make([]float64, n)
	var out []float64
	for {
		for i, j := range idx {
			res[i] = x[j]
		}
		out = append(out, stat(res))
		i := 0
		for ; i < n; i++ {
			idx[i]++
			if idx[i] < n {
				break
			}
			idx[i] = 0
		}
		if i == n {
			break
		}
	}
	sort.Float64s(out)
	return out
}

// checkDistribution compares the empirical distribution of got with the
// exact distribution want (both sorted) by the largest CDF difference; by the
// Dvoretzky-Kiefer-Wolfowitz inequality a correct sampler exceeds 0.005 with
// B = 200,000 with probability below 2·e^−10.
func checkDistribution(t *testing.T, name string, got, want []float64) {
	t.Helper()
	slices.Sort(got)
	values := slices.Compact(slices.Clone(want))
	var worst float64
	for _, v := range values {
		// the kernels and the brute force round differently: compare CDFs
		// just above each possible value
		above := v + 1e-9*math.Max(1, math.Abs(v))
		fg := float64(sort.Search(len(got), func(i int) bool { return got[i] > above })) / float64(len(got))
		fw := float64(sort.Search(len(want), func(i int) bool { return want[i] > above })) / float64(len(want))
		worst = math.Max(worst, math.Abs(fg-fw))
	}
	// values the exact distribution cannot produce
	for _, g := range got {
		j := sort.SearchFloat64s(values, g)
		ok := j < len(values) && math.Abs(values[j]-g) <= 1e-12*math.Max(1, math.Abs(g)) ||
			j > 0 && math.Abs(values[j-1]-g) <= 1e-12*math.Max(1, math.Abs(g))
		if !ok && !math.IsInf(g, 0) {
			t.Fatalf("%s: replicate %v is not a possible bootstrap value", name, g)
		}
	}
	if worst > 0.005 {
		t.Errorf("%s: max CDF difference %.4f > 0.005", name, worst)
	}
}

// TestKernelsExactDistribution checks the mean, median and studentized
// kernels against the exact bootstrap distributions for n = 4 and 5.
func TestKernelsExactDistribution(t *testing.T) {
	const B = 200000
	for _, x := range [][]float64{{1, 2, 4, 8}, {1, 2, 4, 8, 16}, {3, 3, 5, 9, 9}} {
		n := float64(len(x))
		m := Mean(x, nil)
		s := NewStream(11, "exact", uint64(len(x)))
		got := make([]float64, B)

		resampleMeans(x, got, s)
		checkDistribution(t, "mean", got, exactBootstrap(x, func(r []float64) float64 { return Mean(r, nil) }))

		sorted := slices.Sorted(slices.Values(x))
		resampleMedians(sorted, got, make([]int32, len(x)), s)
		checkDistribution(t, "median", got, exactBootstrap(x, func(r []float64) float64 { return Median(r, nil) }))

		centred := make([]float64, len(x))
		for i, v := range x {
			centred[i] = v - m
		}
		resampleT(centred, got, s)
		tstat := func(r []float64) float64 {
			mr := Mean(r, nil)
			sd := StdDev(r, nil)
			if slices.Min(r) == slices.Max(r) {
				switch {
				case mr > m:
					return math.Inf(1)
				case mr < m:
					return math.Inf(-1)
				}
				return 0
			}
			return (mr - m) / (sd / math.Sqrt(n))
		}
		want := exactBootstrap(x, tstat)
		checkDistribution(t, "studentized", got, want)
		// the infinite tails have the exact mass too
		inf := func(a []float64) float64 {
			k := 0
			for _, v := range a {
				if math.IsInf(v, 0) {
					k++
				}
			}
			return float64(k) / float64(len(a))
		}
		if d := math.Abs(inf(got) - inf(want)); d > 0.005 {
			t.Errorf("x=%v: share of infinite t* = %.4f, want %.4f", x, inf(got), inf(want))
		}
	}
}

// coverage runs reps seeded experiments of a CI procedure on N(10, 2²)
// samples of size n and returns the share of intervals containing 10.
func coverage(t *testing.T, reps, n int, ci func(x []float64, s *Stream, ws *Workspace) (estimate.Interval, error)) float64 {
	t.Helper()
	ws := new(Workspace)
	hit := 0
	for r := 0; r < reps; r++ {
		s := NewStream(2024, "coverage", uint64(r))
		x := normals(s, n, 10, 2)
		iv, err := ci(x, s, ws)
		if err != nil {
			t.Fatal(err)
		}
		if iv.Lower <= 10 && 10 <= iv.Upper {
			hit++
		}
	}
	return float64(hit) / float64(reps)
}

// TestCoverage checks that 95 % intervals cover the true mean (= median) of
// normal data in about 95 % of 400 seeded repetitions (n = 41, B = 1,000).
// The binomial sd of the share is 1.1 %; the percentile intervals of the
// mean are known to under-cover slightly at this n, hence the bounds.
func TestCoverage(t *testing.T) {
	opt := estimate.BootstrapOptions{Resamples: 1000, Confidence: 0.95}
	for _, c := range []struct {
		name   string
		ci     func([]float64, estimate.BootstrapOptions, *Stream, *Workspace) (estimate.Interval, error)
		lo, hi float64
	}{
		{"percentile mean", bootstrapMeanCI, 0.90, 0.98},
		{"studentized mean", bootstrapMeanTCI, 0.92, 0.985},
		{"percentile median", bootstrapMedianCI, 0.90, 0.99},
	} {
		got := coverage(t, 400, 41, func(x []float64, s *Stream, ws *Workspace) (estimate.Interval, error) {
			return c.ci(x, opt, s, ws)
		})
		if got < c.lo || got > c.hi {
			t.Errorf("%s: coverage %.3f outside [%.2f, %.2f]", c.name, got, c.lo, c.hi)
		} else {
			t.Logf("%s: coverage %.3f", c.name, got)
		}
	}
}

// TestIntervalWidth checks that the mean CIs have the width theory gives:
// for normal data the 99 % interval is about 2·2.576·σ/√n.
func TestIntervalWidth(t *testing.T) {
	s := NewStream(3, "width", 0)
	x := normals(s, 400, 100, 5)
	want := 2 * 2.576 * StdDev(x, nil) / math.Sqrt(400)
	for name, ci := range map[string]func([]float64, estimate.BootstrapOptions, *Stream, *Workspace) (estimate.Interval, error){
		"percentile": bootstrapMeanCI, "studentized": bootstrapMeanTCI,
	} {
		iv, err := ci(x, estimate.DefaultBootstrap, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkRel(t, name+" width", iv.Upper-iv.Lower, want, 0.06)
		checkRel(t, name+" RCIW", iv.RCIW(), want/Mean(x, nil), 0.06)
		if iv.Estimate != Mean(x, nil) {
			t.Errorf("%s estimate %v != mean %v", name, iv.Estimate, Mean(x, nil))
		}
	}
	// The median's asymptotic sd is σ·√(π/2)/√n.
	iv, err := bootstrapMedianCI(x, estimate.DefaultBootstrap, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkRel(t, "median width", iv.Upper-iv.Lower, want*math.Sqrt(math.Pi/2), 0.2)
}

func TestBootstrapDeterminism(t *testing.T) {
	x := normals(NewStream(1, "data", 0), 25, 50, 3)
	ws := new(Workspace)
	for name, ci := range map[string]func([]float64, estimate.BootstrapOptions, *Stream, *Workspace) (estimate.Interval, error){
		"mean": bootstrapMeanCI, "median": bootstrapMedianCI, "t": bootstrapMeanTCI,
	} {
		a, _ := ci(x, estimate.DefaultBootstrap, NewStream(9, "k", 0), nil)
		b, _ := ci(x, estimate.DefaultBootstrap, NewStream(9, "k", 0), ws) // reused workspace
		if a != b {
			t.Errorf("%s: same stream gives %v and %v", name, a, b)
		}
		if name != "median" { // median bounds are order statistics and may coincide
			if c, _ := ci(x, estimate.DefaultBootstrap, NewStream(9, "other", 0), ws); a == c {
				t.Errorf("%s: different keys give the same interval %v", name, a)
			}
		}
	}
	// Different keys give different median replicates.
	sorted := slices.Sorted(slices.Values(x))
	r1, r2 := make([]float64, 100), make([]float64, 100)
	resampleMedians(sorted, r1, make([]int32, len(x)), NewStream(9, "k", 0))
	resampleMedians(sorted, r2, make([]int32, len(x)), NewStream(9, "other", 0))
	if slices.Equal(r1, r2) {
		t.Error("median: different keys give the same replicates")
	}
}

func TestBootstrapEdges(t *testing.T) {
	s := NewStream(1, "edges", 0)
	if _, err := bootstrapMeanCI(nil, estimate.DefaultBootstrap, s, nil); !errors.Is(err, errNoData) {
		t.Errorf("empty: err = %v, want ErrNoData", err)
	}
	if _, err := bootstrapMeanTCI([]float64{1}, estimate.DefaultBootstrap, s, nil); err == nil {
		t.Error("studentized with one value: no error")
	}
	if _, err := bootstrapMedianCI([]float64{1, math.NaN()}, estimate.DefaultBootstrap, s, nil); err == nil {
		t.Error("NaN value: no error")
	}
	for _, o := range []estimate.BootstrapOptions{{Resamples: 0, Confidence: 0.99}, {Resamples: 100, Confidence: 1}, {Resamples: 100, Confidence: 0}, {Resamples: 100, Confidence: math.NaN()}} {
		if _, err := bootstrapMeanCI([]float64{1, 2}, o, s, nil); err == nil {
			t.Errorf("options %+v: no error", o)
		}
	}
	// Constant data: every interval is the point.
	c := []float64{7, 7, 7, 7}
	for name, ci := range map[string]func([]float64, estimate.BootstrapOptions, *Stream, *Workspace) (estimate.Interval, error){
		"mean": bootstrapMeanCI, "median": bootstrapMedianCI, "t": bootstrapMeanTCI,
	} {
		iv, err := ci(c, estimate.DefaultBootstrap, s, nil)
		if err != nil || iv != (estimate.Interval{Estimate: 7, Lower: 7, Upper: 7}) {
			t.Errorf("%s of constant data = %+v, %v", name, iv, err)
		}
	}
	// n = 3: degenerate resamples (11 %) exceed α/2, the t interval is infinite.
	iv, err := bootstrapMeanTCI([]float64{1, 2, 4}, estimate.DefaultBootstrap, s, nil)
	if err != nil || !math.IsInf(iv.Lower, -1) || !math.IsInf(iv.Upper, 1) || !math.IsInf(iv.RCIW(), 1) {
		t.Errorf("n=3 studentized = %+v (RCIW %v), %v; want infinite bounds", iv, iv.RCIW(), err)
	}
	// The RCIW helpers agree with the intervals.
	x := normals(s, 30, 20, 1)
	for name, c := range map[string]struct {
		rciw func([]float64, estimate.BootstrapOptions, *Stream, *Workspace) (float64, error)
		ci   func([]float64, estimate.BootstrapOptions, *Stream, *Workspace) (estimate.Interval, error)
	}{
		"mean": {rciwMean, bootstrapMeanCI}, "t": {rciwMeanT, bootstrapMeanTCI}, "median": {rciwMedian, bootstrapMedianCI},
	} {
		r, _ := c.rciw(x, estimate.DefaultBootstrap, NewStream(4, name, 0), nil)
		iv, _ := c.ci(x, estimate.DefaultBootstrap, NewStream(4, name, 0), nil)
		if r != iv.RCIW() || !(r > 0) {
			t.Errorf("%s: RCIW %v, interval %+v", name, r, iv)
		}
	}
}

// TestMeanTZeroSpread checks that a sample of equal values has a zero-width
// studentized interval even when its computed mean is not exactly the value
// (3 × 105.4 has mean 105.40000000000002 in float64): the µOpTime prototype
// gives rciw-mean-t 0 for such samples, not NaN from an [+Inf, +Inf] interval.
func TestMeanTZeroSpread(t *testing.T) {
	for _, c := range []struct {
		v float64
		n int
	}{{105.4, 3}, {0.1, 3}, {27.63, 5}, {7, 4}} {
		x := make([]float64, c.n)
		for i := range x {
			x[i] = c.v
		}
		iv, err := bootstrapMeanTCI(x, estimate.DefaultBootstrap, NewStream(1, "zero-spread", 0), nil)
		if err != nil {
			t.Fatal(err)
		}
		m := Mean(x, nil)
		if iv.Estimate != m || iv.Lower != m || iv.Upper != m || iv.RCIW() != 0 {
			t.Errorf("%d × %v: interval %+v, RCIW %v; want [%v, %v], RCIW 0", c.n, c.v, iv, iv.RCIW(), m, m)
		}
	}
	if x := []float64{105.4, 105.4, 105.4}; Mean(x, nil) == 105.4 {
		t.Error("the mean of 3 × 105.4 is exact; the case above no longer exercises the rounding")
	}
}

// The flat bootstrap's kernels (meansAsm, countsAsm, tSumsAsm, sharedAsm) must give
// the Go loops' bits and leave the generator where they do: odd and even
// sizes, one value, ties, batches around tSumsAsm's 64; and with Lemire's
// threshold forced to 2³¹ (half the products redrawn; the real threshold
// 2³² mod n is too small for a test to reach the redraw path), so that
// every redraw path of the kernels runs.
func TestResampleKernels(t *testing.T) {
	if !haveDrawKernel {
		testenv.Skip(t, "no draw kernel in this build (purego or not amd64)")
	}
	src := NewStream(12, "kernels", 0)
	for _, n := range []int{1, 2, 3, 4, 5, 24, 25, 100, 101} {
		x := make([]float64, n)
		for i := range x {
			x[i] = (math.Round(100*src.Float64()) - 50) / 7 // ties, zeros, both signs, sums that round
		}
		sorted := slices.Sorted(slices.Values(x))
		real := uint32(-uint32(n) % uint32(n))
		for _, thresh := range []uint32{real, 1 << 31} {
			for _, B := range []int{1, 63, 64, 65, 200} {
				s1, s2 := src.Uint64(), src.Uint64()
				type kernel struct {
					name   string
					asm, g func(dst []float64, rng *Stream)
				}
				th := uint64(thresh)
				kernels := []kernel{
					{"means", func(d []float64, r *Stream) { meansAsm(&r.pcg, x, d, thresh) }, func(d []float64, r *Stream) { resampleMeansGo(x, d, r, th) }},
					{"medians", func(d []float64, r *Stream) {
						// one resample per call, then all B in one call
						counts := make([]int32, len(d)*n)
						half := len(d) / 2
						for b := range half {
							countsAsm(&r.pcg, counts[b*n:b*n+n], n, thresh)
						}
						countsAsm(&r.pcg, counts[half*n:], n, thresh)
						for b := range d {
							d[b] = medianFromCounts(sorted, counts[b*n:b*n+n], uint64(n))
						}
					}, func(d []float64, r *Stream) { resampleMediansGo(sorted, d, make([]int32, n), r, th) }},
					{"t", func(d []float64, r *Stream) {
						s, q, diff := make([]float64, B), make([]float64, B), make([]uint64, B)
						tSumsAsm(&r.pcg, x, thresh, s, q, diff)
						for b := range d {
							d[b] = studentized(s[b], q[b], float64(n), diff[b] != 0)
						}
					}, func(d []float64, r *Stream) { resampleTGo(x, d, r, th) }},
				}
				if haveVecPCG {
					kernels = append(kernels, kernel{"t on the vector generator", func(d []float64, r *Stream) {
						s, q, diff := make([]float64, B), make([]float64, B), make([]uint64, B)
						tSumsVecAsm(&r.pcg, x, thresh, s, q, diff)
						for b := range d {
							d[b] = studentized(s[b], q[b], float64(n), diff[b] != 0)
						}
					}, func(d []float64, r *Stream) { resampleTGo(x, d, r, th) }},
						kernel{"means on the vector generator", func(d []float64, r *Stream) { meansVecAsm(&r.pcg, x, d, thresh) }, func(d []float64, r *Stream) { resampleMeansGo(x, d, r, th) }},
						kernel{"medians on the vector generator", func(d []float64, r *Stream) {
							// all B resamples in one call
							counts := make([]int32, len(d)*n)
							countsVecAsm(&r.pcg, counts, n, thresh)
							for b := range d {
								d[b] = medianFromCounts(sorted, counts[b*n:b*n+n], uint64(n))
							}
						}, func(d []float64, r *Stream) { resampleMediansGo(sorted, d, make([]int32, n), r, th) }})
				}
				for _, k := range kernels {
					ka, kg := &Stream{}, &Stream{}
					ka.pcg.Seed(s1, s2)
					kg.pcg.Seed(s1, s2)
					got, want := make([]float64, B), make([]float64, B)
					k.asm(got, ka)
					k.g(want, kg)
					for b := range got {
						if math.Float64bits(got[b]) != math.Float64bits(want[b]) {
							t.Fatalf("%s, n %d, thresh %d, B %d, resample %d: kernel %v, Go %v", k.name, n, thresh, B, b, got[b], want[b])
						}
					}
					if ka.pcg != kg.pcg {
						t.Fatalf("%s, n %d, thresh %d, B %d: generator left at %v, Go at %v", k.name, n, thresh, B, ka.pcg, kg.pcg)
					}
				}
			}
		}
		// sharedAsm, as resampleShared calls it, against resampleSharedGo,
		// with the real thresholds and with half of the 16-bit parts and
		// half of the 32-bit redraws rejected.
		m := Mean(x, nil)
		centred := make([]float64, n)
		for i, v := range sorted {
			centred[i] = v - m
		}
		for _, th := range [][2]uint64{{sharedThresh(n), uint64(real)}, {1 << 15, 1 << 31}} {
			for _, B := range []int{1, 2, 65} {
				s1, s2 := src.Uint64(), src.Uint64()
				ka, kg := &Stream{}, &Stream{}
				ka.pcg.Seed(s1, s2)
				kg.pcg.Seed(s1, s2)
				var got, want [3][]float64
				for k := range got {
					got[k], want[k] = make([]float64, B), make([]float64, B)
				}
				resampleSharedGo(sorted, centred, make([]int32, n), want[0], want[1], want[2], kg, th[0], uint32(th[1]))
				// The kernels: sharedAsm, and sharedVecAsm on the records
				// with the distinct test of the runs.
				vec := newSharedRecords(sorted, centred, new(Workspace))
				if haveVecPCG && vec == nil {
					t.Fatalf("n %d: no records for values without −0", n)
				}
				for _, kernel := range []string{"sharedAsm", "sharedVecAsm"} {
					if kernel == "sharedVecAsm" && vec == nil {
						continue
					}
					ka.pcg.Seed(s1, s2)
					if kernel == "sharedAsm" {
						counts := make([]int32, n)
						for b := 0; b < B; b++ {
							clear(counts)
							sum, c, q, diff := sharedAsm(&ka.pcg, sorted, centred, counts, th[0], uint32(th[1]))
							got[0][b], got[1][b], got[2][b] = sum/float64(n), medianFromCounts(sorted, counts, uint64(n)), studentized(c, q, float64(n), diff != 0)
						}
					} else {
						// all B resamples in one call
						counts := make([]int32, B*n)
						sum, c, q, first := make([]float64, B), make([]float64, B), make([]float64, B), make([]uint64, B)
						sharedVecAsm(&ka.pcg, vec.rec, counts, n, th[0], uint32(th[1]), sum, c, q, first)
						for b := 0; b < B; b++ {
							row := counts[b*n : b*n+n]
							got[0][b], got[1][b], got[2][b] = sum[b]/float64(n), medianFromCounts(sorted, row, uint64(n)), studentized(c[b], q[b], float64(n), vec.distinct(row, first[b]) != 0)
						}
					}
					for k := range got {
						for b := range got[k] {
							if math.Float64bits(got[k][b]) != math.Float64bits(want[k][b]) {
								t.Fatalf("%s (%d), n %d, thresholds %v, B %d, resample %d: kernel %v, Go %v", kernel, k, n, th, B, b, got[k][b], want[k][b])
							}
						}
					}
					if ka.pcg != kg.pcg {
						t.Fatalf("%s, n %d, thresholds %v, B %d: generator left at %v, Go at %v", kernel, n, th, B, ka.pcg, kg.pcg)
					}
				}
			}
		}
		// resampleT through its batches is tSumsAsm's.
		for _, B := range []int{1, 64, 130} {
			ka, kg := NewStream(3, "t", uint64(B)), NewStream(3, "t", uint64(B))
			got, want := make([]float64, B), make([]float64, B)
			resampleT(x, got, ka)
			resampleTGo(x, want, kg, uint64(real))
			for b := range got {
				if math.Float64bits(got[b]) != math.Float64bits(want[b]) {
					t.Fatalf("resampleT, n %d, B %d, resample %d: %v, Go %v", n, B, b, got[b], want[b])
				}
			}
		}
	}
}
