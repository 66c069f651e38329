package stats

import (
	"math"
	"slices"
	"testing"

	"github.com/benchtrim/benchtrim/estimate"
)

// nested is generated sample-mode data: forks × iterations × invocations.
type nested struct {
	values, weights []float64
	fork, iter      []int32
}

// makeNested draws forks × iters iterations whose fork means vary with sd
// forkSD and iteration means with sd iterSD around mu; each iteration has
// inv invocations with sd invSD. With hist the invocations are rounded to
// integers and stored as a histogram (value, count), as JMH sample mode does.
func makeNested(s *Stream, forks, iters, inv int, mu, forkSD, iterSD, invSD float64, hist bool) nested {
	r := newRandFrom(s)
	var d nested
	for f := 0; f < forks; f++ {
		fm := mu + forkSD*r.NormFloat64()
		for i := 0; i < iters; i++ {
			im := fm + iterSD*r.NormFloat64()
			vals := make([]float64, inv)
			for k := range vals {
				vals[k] = im + invSD*r.NormFloat64()
				if hist {
					vals[k] = math.Round(vals[k])
				}
			}
			if hist {
				slices.Sort(vals)
				for k := 0; k < len(vals); {
					j := k
					for j < len(vals) && vals[j] == vals[k] {
						j++
					}
					d.values = append(d.values, vals[k])
					d.weights = append(d.weights, float64(j-k))
					d.fork = append(d.fork, int32(f))
					d.iter = append(d.iter, int32(i))
					k = j
				}
				continue
			}
			for _, v := range vals {
				d.values = append(d.values, v)
				d.fork = append(d.fork, int32(f))
				d.iter = append(d.iter, int32(i))
			}
		}
	}
	return d
}

func (d nested) hierarchy(t testing.TB) *Hierarchy {
	t.Helper()
	h, err := NewHierarchy(d.values, d.weights, d.fork, d.iter)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestNewHierarchyStructure(t *testing.T) {
	// instance, fork, iteration; iteration (0,0,0) has two histogram rows;
	// ids restart under each parent and fork (1,0) has 3 iterations (ragged).
	inst := []int32{0, 0, 0, 0, 1, 1, 1}
	fork := []int32{0, 0, 0, 1, 0, 0, 0}
	iter := []int32{0, 0, 1, 0, 0, 1, 2}
	vals := []float64{1, 2, 3, 4, 5, 6, 7}
	cnts := []float64{1, 3, 1, 2, 1, 1, 1}
	h, err := NewHierarchy(vals, cnts, inst, fork, iter)
	if err != nil {
		t.Fatal(err)
	}
	if h.levels() != 3 || h.units(0) != 2 || h.units(1) != 3 || h.units(2) != 6 || h.rows() != 7 {
		t.Fatalf("levels %d units %d %d %d rows %d", h.levels(), h.units(0), h.units(1), h.units(2), h.rows())
	}
	want := [][]int32{{0, 2, 3}, {0, 2, 3, 6}, {0, 2, 3, 4, 5, 6, 7}}
	for l := range want {
		if !slices.Equal(h.start[l], want[l]) {
			t.Errorf("start[%d] = %v, want %v", l, h.start[l], want[l])
		}
	}
	checkClose(t, "leaf mean 0", h.leafMean[0], (1+2*3)/4.0, 1e-15)
	if h.leafCount[0] != 4 || h.leafCount[2] != 2 {
		t.Errorf("leaf counts %v", h.leafCount)
	}
	// Estimates under the three leaf weightings.
	checkClose(t, "estimate is=0", h.estimateMean(0), Mean(h.leafMean, nil), 1e-15)
	checkClose(t, "estimate is=-1", h.estimateMean(-1), Mean(vals, cnts), 1e-15)
	checkClose(t, "median is=-1", h.estimateMedian(-1), Median(vals, cnts), 1e-15)
	checkClose(t, "median is=0", h.estimateMedian(0), Median(h.leafMean, nil), 1e-15)
	// is=1: every iteration counts once, so its rows share weight 1.
	checkClose(t, "estimate is=1", h.estimateMean(1), Mean(h.leafMean, nil), 1e-15)

	// No levels: one leaf group.
	flat, err := NewHierarchy(vals, nil)
	if err != nil || flat.levels() != 1 || flat.units(0) != 1 {
		t.Fatalf("flat: %v, levels %d", err, flat.levels())
	}
}

func TestNewHierarchyErrors(t *testing.T) {
	ids := []int32{0, 0, 1}
	for name, c := range map[string]struct {
		v, w   []float64
		levels [][]int32
	}{
		"empty":         {nil, nil, nil},
		"NaN value":     {[]float64{1, math.NaN(), 3}, nil, [][]int32{ids}},
		"fractional":    {[]float64{1, 2, 3}, []float64{1, 0.5, 1}, [][]int32{ids}},
		"negative":      {[]float64{1, 2, 3}, []float64{1, -1, 1}, [][]int32{ids}},
		"zero leaf":     {[]float64{1, 2, 3}, []float64{0, 0, 1}, [][]int32{ids}},
		"unsorted":      {[]float64{1, 2, 3}, nil, [][]int32{{0, 1, 0}}},
		"unsorted deep": {[]float64{1, 2, 3}, nil, [][]int32{{0, 0, 0}, {1, 2, 1}}},
	} {
		if _, err := NewHierarchy(c.v, c.w, c.levels...); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("mismatched level length: no panic")
		}
	}()
	NewHierarchy([]float64{1, 2}, nil, []int32{0})
}

// TestWeightedDrawsExact checks weighted invocation draws against the
// counts for each way of drawing: expanded table, alias table, cumulative
// counts (totals of 2^32 and more) and uniform rows.
func TestWeightedDrawsExact(t *testing.T) {
	defer func(v uint64) { expandMaxTotal = v }(expandMaxTotal)
	const big = 1 << 33
	for _, c := range []struct {
		name      string
		cnts      []float64
		expandMax uint64
		kind      uint8
	}{
		{"expanded", []float64{1, 2, 3, 4, 0, 90}, 1 << 16, drawExpanded},
		{"alias", []float64{1, 2, 3, 4, 0, 90}, 0, drawAlias},
		{"cumulative", []float64{big, 0, 2 * big, 5 * big, 2 * big, 0}, 1 << 16, drawCumulative},
		{"uniform", []float64{1, 1, 1, 1, 1, 1}, 1 << 16, drawUniform},
	} {
		expandMaxTotal = c.expandMax
		vals := []float64{10, 20, 30, 40, 50, 60}
		h, err := NewHierarchy(vals, c.cnts)
		if err != nil {
			t.Fatal(err)
		}
		h.ranks()
		h.prepareDraws()
		if h.drawKind[0] != c.kind {
			t.Fatalf("%s: draw kind %d, want %d", c.name, h.drawKind[0], c.kind)
		}
		s := NewStream(8, "draws", 0)
		acc := hierAcc{counts: make([]int64, len(h.rowVals))}
		for i := 0; i < 20000; i++ {
			h.leaf(0, s, 101, &acc) // 101 draws: odd, to use the tail draw
		}
		var total float64
		for _, w := range c.cnts {
			total += w
		}
		N := float64(acc.n)
		for r, v := range h.rowVals {
			p := c.cnts[slices.Index(vals, v)] / total
			got := float64(acc.counts[r]) / N
			if sd := math.Sqrt(p * (1 - p) / N); math.Abs(got-p) > 5*sd+1e-12 {
				t.Errorf("%s: value %v: frequency %.5f, want %.5f (sd %.5f)", c.name, v, got, p, sd)
			}
		}
		checkClose(t, c.name+" sum", acc.sum/N, Mean(h.rowVals, acc.countsFloat()), 1e-12)
	}
}

func (a hierAcc) countsFloat() []float64 {
	f := make([]float64, len(a.counts))
	for i, c := range a.counts {
		f[i] = float64(c)
	}
	return f
}

func TestHierarchicalWiderThanFlat(t *testing.T) {
	s := NewStream(21, "wider", 0)
	opt := estimate.HierarchicalOptions{BootstrapOptions: estimate.BootstrapOptions{Resamples: 2000, Confidence: 0.99}}
	for _, c := range []struct {
		forkSD   float64
		min, max float64 // bounds of hierarchical width / flat width
	}{
		{1, 3, 100},    // forks differ: the flat CI ignores it
		{0, 0.6, 1.67}, // forks alike: both see the same noise
	} {
		d := makeNested(s, 5, 50, 1, 100, c.forkSD, 0.2, 0, false)
		h := d.hierarchy(t)
		hi, err := HierarchicalMeanCI(h, opt, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		fl, _ := bootstrapMeanCI(d.values, opt.BootstrapOptions, s, nil)
		ratio := (hi.Upper - hi.Lower) / (fl.Upper - fl.Lower)
		if ratio < c.min || ratio > c.max {
			t.Errorf("forkSD %v: hierarchical/flat width %.2f outside [%v, %v]", c.forkSD, ratio, c.min, c.max)
		}
		checkClose(t, "estimate", hi.Estimate, fl.Estimate, 1e-12)
	}
}

// TestHierarchicalCoverage: 20 forks × 10 iterations with fork effects; the
// hierarchical 95 % CI of the mean covers the true mean in about 95 % of 200
// seeded repetitions (the bootstrap under-covers a little with 20 top-level
// units), while the flat CI, which treats iterations as independent, does not.
func TestHierarchicalCoverage(t *testing.T) {
	opt := estimate.HierarchicalOptions{BootstrapOptions: estimate.BootstrapOptions{Resamples: 500, Confidence: 0.95}}
	ws := new(Workspace)
	hier, flat, aa := 0, 0, 0
	const reps = 200
	for r := 0; r < reps; r++ {
		s := NewStream(77, "hcov", uint64(r))
		d := makeNested(s, 20, 10, 1, 50, 1, 0.5, 0, false)
		h := d.hierarchy(t)
		iv, err := HierarchicalMeanCI(h, opt, s, ws)
		if err != nil {
			t.Fatal(err)
		}
		if iv.Lower <= 50 && 50 <= iv.Upper {
			hier++
		}
		fl, _ := bootstrapMeanCI(d.values, opt.BootstrapOptions, s, ws)
		if fl.Lower <= 50 && 50 <= fl.Upper {
			flat++
		}
		// A/A: a second recording of the same benchmark.
		d2 := makeNested(s, 20, 10, 1, 50, 1, 0.5, 0, false)
		rc, err := HierarchicalRatioCI(d2.hierarchy(t), h, opt, s, ws)
		if err != nil {
			t.Fatal(err)
		}
		if rc.Ratio.Lower <= 1 && 1 <= rc.Ratio.Upper {
			aa++
		}
	}
	hc, fc, ac := float64(hier)/reps, float64(flat)/reps, float64(aa)/reps
	t.Logf("coverage: hierarchical %.3f, flat %.3f, A/A ratio contains 1: %.3f", hc, fc, ac)
	if hc < 0.86 || hc > 0.99 {
		t.Errorf("hierarchical coverage %.3f outside [0.86, 0.99]", hc)
	}
	if fc > 0.8 {
		t.Errorf("flat coverage %.3f: fork effects should make it fail", fc)
	}
	if ac < 0.86 {
		t.Errorf("A/A ratio CI contains 1 in only %.3f", ac)
	}
}

func TestHierarchicalRatio(t *testing.T) {
	s := NewStream(5, "ratio", 0)
	control := makeNested(s, 5, 20, 20, 1000, 5, 5, 20, true).hierarchy(t)
	test := makeNested(s, 5, 20, 20, 1100, 5, 5, 20, true).hierarchy(t)
	for _, is := range []int{0, -1, 10} {
		opt := estimate.HierarchicalOptions{BootstrapOptions: estimate.BootstrapOptions{Resamples: 2000, Confidence: 0.99}, InvocationSamples: is}
		rc, err := HierarchicalRatioCI(test, control, opt, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkClose(t, "ratio estimate", rc.Ratio.Estimate, rc.Test.Estimate/rc.Control.Estimate, 1e-15)
		if !(rc.Ratio.Lower > 1.05 && rc.Ratio.Upper < 1.15) {
			t.Errorf("is=%d: ratio CI %+v should be near 1.1 and exclude 1", is, rc.Ratio)
		}
		// The group intervals equal HierarchicalMeanCI on the same draws.
		s1, s2 := NewStream(1, "r", 0), NewStream(1, "r", 0)
		rc, _ = HierarchicalRatioCI(test, control, opt, s1, nil)
		mt, _ := HierarchicalMeanCI(test, opt, s2, nil)
		if rc.Test != mt {
			t.Errorf("is=%d: test interval %+v != HierarchicalMeanCI %+v", is, rc.Test, mt)
		}
	}
}

// TestInvocationSamples checks the three leaf modes against each other.
func TestInvocationSamples(t *testing.T) {
	s := NewStream(6, "is", 0)
	// identical iterations, all noise inside iterations: 5 × 10 × 100
	d := makeNested(s, 5, 10, 100, 1000, 0, 0, 30, true)
	h := d.hierarchy(t)
	width := func(is int, median bool) float64 {
		opt := estimate.HierarchicalOptions{BootstrapOptions: estimate.BootstrapOptions{Resamples: 2000, Confidence: 0.95}, InvocationSamples: is}
		ci := HierarchicalMeanCI
		if median {
			ci = hierarchicalMedianCI
		}
		iv, err := ci(h, opt, NewStream(1, "w", uint64(is+1)), nil)
		if err != nil {
			t.Fatal(err)
		}
		return iv.Upper - iv.Lower
	}
	// Variance of a resample mean, level by level (σ_w = 30 inside an
	// iteration, so iteration means vary by 30/√100 = 3 and fork means by
	// 30/√1000): forks 0.9/5 + iterations 9/50 + invocations 900/(50·k) with
	// k invocations per iteration: k = 100 (is=-1) gives 0.54, k = 1 gives
	// 18.36, a width ratio of √(18.36/0.54) = 5.8.
	if r := width(1, false) / width(-1, false); r < 5 || r > 6.8 {
		t.Errorf("mean: width(is=1)/width(is=-1) = %.2f, want ≈ 5.8", r)
	}
	if r := width(1, true) / width(-1, true); r < 4.5 || r > 7.5 {
		t.Errorf("median: width(is=1)/width(is=-1) = %.2f, want ≈ 5.8", r)
	}
	// is = k >= every iteration's count is the same as -1, draw for draw.
	small := estimate.BootstrapOptions{Resamples: 500, Confidence: 0.99}
	a, _ := HierarchicalMeanCI(h, estimate.HierarchicalOptions{BootstrapOptions: small, InvocationSamples: -1}, NewStream(2, "k", 0), nil)
	b, _ := HierarchicalMeanCI(h, estimate.HierarchicalOptions{BootstrapOptions: small, InvocationSamples: 100}, NewStream(2, "k", 0), nil)
	if a != b {
		t.Errorf("is=100 %+v != is=-1 %+v with 100 invocations per iteration", b, a)
	}
	if _, err := HierarchicalMeanCI(h, estimate.HierarchicalOptions{BootstrapOptions: estimate.DefaultBootstrap, InvocationSamples: -2}, s, nil); err == nil {
		t.Error("is=-2: no error")
	}
	zero, _ := NewHierarchy([]float64{0, 0, 0}, nil, []int32{0, 1, 2})
	if _, err := HierarchicalRatioCI(h, zero, estimate.HierarchicalOptions{BootstrapOptions: small, InvocationSamples: 0}, s, nil); err == nil {
		t.Error("ratio over an all-zero control: no error")
	}
}

// TestHistogramEqualsExpanded: histogram rows with counts resample like the
// expanded invocations (same distribution, different draws).
func TestHistogramEqualsExpanded(t *testing.T) {
	s := NewStream(7, "hist", 0)
	d := makeNested(s, 3, 5, 200, 500, 2, 2, 10, true)
	var e nested
	for i, v := range d.values {
		for k := 0; k < int(d.weights[i]); k++ {
			e.values = append(e.values, v)
			e.fork = append(e.fork, d.fork[i])
			e.iter = append(e.iter, d.iter[i])
		}
	}
	opt := estimate.HierarchicalOptions{BootstrapOptions: estimate.BootstrapOptions{Resamples: 4000, Confidence: 0.95}, InvocationSamples: -1}
	for name, ci := range map[string]func(*Hierarchy, estimate.HierarchicalOptions, *Stream, *Workspace) (estimate.Interval, error){
		"mean": HierarchicalMeanCI, "median": hierarchicalMedianCI,
	} {
		a, _ := ci(d.hierarchy(t), opt, NewStream(1, "a", 0), nil)
		b, _ := ci(e.hierarchy(t), opt, NewStream(1, "b", 0), nil)
		checkClose(t, name+" estimate", a.Estimate, b.Estimate, 1e-12)
		w := b.Upper - b.Lower
		if math.Abs(a.Lower-b.Lower) > 0.1*w || math.Abs(a.Upper-b.Upper) > 0.1*w {
			t.Errorf("%s: histogram %+v vs expanded %+v", name, a, b)
		}
	}
}

// TestHierarchicalFlatMedian: with one leaf group and all invocations the
// hierarchical median bootstrap is the flat one.
func TestHierarchicalFlatMedian(t *testing.T) {
	s := NewStream(9, "flatmed", 0)
	x := normals(s, 301, 10, 1)
	h, err := NewHierarchy(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	opt := estimate.HierarchicalOptions{BootstrapOptions: estimate.BootstrapOptions{Resamples: 20000, Confidence: 0.95}, InvocationSamples: -1}
	a, _ := hierarchicalMedianCI(h, opt, s, nil)
	b, _ := bootstrapMedianCI(x, opt.BootstrapOptions, s, nil)
	if a.Estimate != b.Estimate {
		t.Errorf("estimates %v != %v", a.Estimate, b.Estimate)
	}
	w := b.Upper - b.Lower
	if math.Abs(a.Lower-b.Lower) > 0.1*w || math.Abs(a.Upper-b.Upper) > 0.1*w {
		t.Errorf("hierarchical %+v vs flat %+v", a, b)
	}
}

func TestHierarchicalDeterminism(t *testing.T) {
	d := makeNested(NewStream(1, "d", 0), 5, 20, 30, 100, 1, 1, 5, true)
	h := d.hierarchy(t)
	opt := estimate.HierarchicalOptions{BootstrapOptions: estimate.BootstrapOptions{Resamples: 500, Confidence: 0.99}, InvocationSamples: 10}
	ws := new(Workspace)
	a, _ := hierarchicalMedianCI(h, opt, NewStream(3, "x", 0), nil)
	b, _ := hierarchicalMedianCI(h, opt, NewStream(3, "x", 0), ws)
	if a != b {
		t.Errorf("same stream: %+v != %+v", a, b)
	}
	m1, _ := HierarchicalMeanCI(h, opt, NewStream(3, "x", 0), ws)
	m2, _ := HierarchicalMeanCI(h, opt, NewStream(3, "y", 0), ws)
	if m1 == m2 {
		t.Errorf("different keys give the same interval %+v", m1)
	}
}

// tree is a nested sample for the brute-force hierarchical bootstrap.
type tree struct {
	kids []*tree
	val  float64 // leaf value (iteration mean)
}

type outcome struct{ sum, n, p float64 }

// enumerateResamples returns every outcome of resampling t's children with
// replacement, recursively (Kalibera and Jones), with its probability.
func enumerateResamples(t *tree) []outcome {
	if t.kids == nil {
		return []outcome{{t.val, 1, 1}}
	}
	acc := []outcome{{0, 0, 1}}
	k := float64(len(t.kids))
	for range t.kids { // as many draws as children
		var next []outcome
		for _, a := range acc {
			for _, kid := range t.kids {
				for _, o := range enumerateResamples(kid) {
					next = append(next, outcome{a.sum + o.sum, a.n + o.n, a.p * o.p / k})
				}
			}
		}
		acc = next
	}
	return acc
}

// TestHierarchicalExactDistribution compares the resample means of a small
// ragged three-level hierarchy with the distribution enumerated by brute
// force (largest CDF difference, as checkDistribution).
func TestHierarchicalExactDistribution(t *testing.T) {
	leaf := func(v float64) *tree { return &tree{val: v} }
	root := &tree{kids: []*tree{
		{kids: []*tree{{kids: []*tree{leaf(1), leaf(2)}}, {kids: []*tree{leaf(4)}}}},
		{kids: []*tree{{kids: []*tree{leaf(8), leaf(16), leaf(32)}}}},
	}}
	// the same as rows: instance, fork, iteration ids
	vals := []float64{1, 2, 4, 8, 16, 32}
	inst := []int32{0, 0, 0, 1, 1, 1}
	fork := []int32{0, 0, 1, 0, 0, 0}
	iter := []int32{0, 1, 0, 0, 1, 2}
	h, err := NewHierarchy(vals, nil, inst, fork, iter)
	if err != nil {
		t.Fatal(err)
	}
	outs := enumerateResamples(root)
	type pv struct{ v, p float64 }
	var dist []pv
	for _, o := range outs {
		dist = append(dist, pv{o.sum / o.n, o.p})
	}
	slices.SortFunc(dist, func(a, b pv) int { return cmpFloat(a.v, b.v) })
	const B = 200000
	got := make([]float64, B)
	h.meanReplicates(got, NewStream(3, "exact-h", 0), 0)
	slices.Sort(got)
	var worst, cum float64
	for i, d := range dist {
		cum += d.p
		if i+1 < len(dist) && dist[i+1].v-d.v < 1e-9 {
			continue
		}
		above := d.v + 1e-9
		fg := float64(len(got)-len(got[sortSearch(got, above):])) / B
		worst = math.Max(worst, math.Abs(fg-cum))
	}
	if math.Abs(cum-1) > 1e-12 {
		t.Fatalf("enumerated probabilities sum to %v", cum)
	}
	if worst > 0.005 {
		t.Errorf("max CDF difference %.4f > 0.005", worst)
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// sortSearch returns the first index of sorted a with a[i] > v.
func sortSearch(a []float64, v float64) int {
	i, _ := slices.BinarySearchFunc(a, v, func(e, t float64) int {
		if e <= t {
			return -1
		}
		return 1
	})
	return i
}
