package synth

import (
	"fmt"
	"math"
	"math/bits"
)

// checkSeries panics when i or the level indices are out of range (caller bugs).
func (s *Suite) checkSeries(i, instance, trial, fork int) {
	c := &s.cfg
	if i < 0 || i >= len(s.truth) {
		panic(fmt.Sprintf("synth: series %d out of range [0, %d)", i, len(s.truth)))
	}
	if instance < 1 || instance > c.Instances || trial < 1 || trial > c.Trials || fork < 1 || fork > c.Forks {
		panic(fmt.Sprintf("synth: position instance %d trial %d fork %d outside %d×%d×%d",
			instance, trial, fork, c.Instances, c.Trials, c.Forks))
	}
}

// forkLevels appends to dst the value (ns/op) of every iteration of fork f
// of trial r on instance a of series i: μ·A·R·F·c(k)·ε_k·o_k.
func (s *Suite) forkLevels(dst []float64, i, a, r, f int) []float64 {
	c := &s.cfg
	t := &s.truth[i]
	base := s.vbase[i]
	inst := stream(c.Seed, streamKey{base: base, purpose: purposeInstance, idx: [5]uint64{uint64(a)}}).lognormal1(c.InstanceSD)
	trial := stream(c.Seed, streamKey{base: base, purpose: purposeTrial, idx: [5]uint64{uint64(a), uint64(r)}}).lognormal1(c.TrialSD)
	g := stream(c.Seed, streamKey{base: base, purpose: purposeFork, idx: [5]uint64{uint64(a), uint64(r), uint64(f)}})
	level := t.Mean * inst * trial * g.lognormal1(c.ForkSD)
	start := len(dst)
	for k := 0; k < c.Iterations; k++ {
		dst = append(dst, level*t.curve(k)*g.lognormal1(c.noise))
	}
	s.forkOutliers(i, a, r, f, func(k int, factor float64) { dst[start+k] *= factor })
	return dst
}

// Quantisation of sample-mode invocation times, as JMH's HDR-style buffer:
// a time of t ns keeps its 10 most significant bits, (t >> b) << b with
// b = max(0, bitlen(t) − 10). Buckets are numbered densely and in value
// order: index t below 1024, else b·512 + (t >> b).

// maxBucket is one more than the largest bucket index of a non-negative
// int64 time (b ≤ 53).
const maxBucket = 53*512 + 1024

func bucketIndex(t int64) int {
	if t < 1024 {
		return int(max(t, 0))
	}
	b := bits.Len64(uint64(t)) - 10
	return b*512 + int(t>>b)
}

func bucketValue(idx int) int64 {
	if idx < 1024 {
		return int64(idx)
	}
	b := idx/512 - 1
	return int64(idx-b*512) << b
}

// bucket is one [value, count] pair of a histogram.
type bucket struct {
	idx   uint32
	count uint32
}

// denseCounts counts samples by bucket index, remembering the touched range
// so that draining costs the range, not the whole array.
type denseCounts struct {
	counts []uint64
	lo, hi int
}

func newDenseCounts() *denseCounts {
	return &denseCounts{counts: make([]uint64, maxBucket), lo: maxBucket, hi: -1}
}

func (d *denseCounts) add(idx int, c uint64) {
	d.counts[idx] += c
	d.lo, d.hi = min(d.lo, idx), max(d.hi, idx)
}

// drain appends the non-empty buckets in ascending order to dst and clears.
func (d *denseCounts) drain(dst []bucket) []bucket {
	for idx := d.lo; idx <= d.hi; idx++ {
		if c := d.counts[idx]; c != 0 {
			dst = append(dst, bucket{uint32(idx), uint32(c)})
			d.counts[idx] = 0
		}
	}
	d.lo, d.hi = maxBucket, -1
	return dst
}

// samplesPerIteration is how many invocations an iteration at level ns/op samples.
func (s *Suite) samplesPerIteration(level float64) int {
	n := float64(s.cfg.IterationTime.Nanoseconds()) / level
	return int(max(1, min(float64(s.cfg.Sample.MaxPerIteration), n)))
}

// iterationSamples draws the invocation samples of one iteration at level
// ns/op into counts (quantised bucket indices). Invocations are lognormal
// around the level with a rare tail, rescaled to keep expectation level.
func (s *Suite) iterationSamples(g *rng, level float64, counts *denseCounts) {
	sc := &s.cfg.Sample
	n := s.samplesPerIteration(level)
	norm := 1 + sc.tailRate*((sc.minTail+sc.maxTail)/2-1)
	scale := level / norm
	for j := 0; j < n; j++ {
		t := scale * g.lognormal1(sc.noise)
		if sc.tailRate > 0 && g.float64() < sc.tailRate {
			t *= g.uniform(sc.minTail, sc.maxTail)
		}
		counts.add(bucketIndex(int64(min(t, 1<<62))), 1)
	}
}

// sampleStream returns the invocation stream of iteration k (0-based) of a fork.
func (s *Suite) sampleStream(g *rng, i, a, r, f, k int) *rng {
	return g.reset(s.cfg.Seed, streamKey{base: s.vbase[i], purpose: purposeSamples,
		idx: [5]uint64{uint64(a), uint64(r), uint64(f), uint64(k)}})
}

// histMean returns the count-weighted mean of a histogram in ns and its count.
func histMean(h []bucket) (mean float64, n int64) {
	var sum float64
	for _, b := range h {
		sum += float64(bucketValue(int(b.idx))) * float64(b.count)
		n += int64(b.count)
	}
	return sum / float64(n), n
}

// ForkValues returns the ns/op of every iteration of fork `fork` of trial
// `trial` on instance `instance` (all 1-based) of series i, as the JMH and
// pa writers record them; for sample mode, the count-weighted mean of each
// iteration's quantised samples. It panics when an index is out of range.
func (s *Suite) ForkValues(i, instance, trial, fork int) []float64 {
	s.checkSeries(i, instance, trial, fork)
	v := s.forkLevels(make([]float64, 0, s.cfg.Iterations), i, instance, trial, fork)
	if s.cfg.Mode != modeSampleTime {
		return v
	}
	g, counts := newRNG(), newDenseCounts()
	var h []bucket
	for k, level := range v {
		s.iterationSamples(s.sampleStream(g, i, instance, trial, fork, k), level, counts)
		h = counts.drain(h[:0])
		v[k], _ = histMean(h)
	}
	return v
}

// goLaunchN simulates the launch loop of Go's testing package for an
// operation of nsPerOp ns and a benchtime of goalNs: run b.N = 1 (slowed by
// a cold start), then predict N = goal·N/elapsed, +20 %, at most 100× the
// last N, at least last+1, at most 1e9, until a run lasts the benchtime. It
// returns the final b.N.
func goLaunchN(g *rng, nsPerOp float64, goalNs int64) int64 {
	const maxN = 1e9
	n := int64(1)
	dur := nsPerOp * g.uniform(1, 3) // first call: cold caches
	for dur < float64(goalNs) && n < maxN {
		last := n
		prev := max(math.Floor(dur), 1)
		next := int64(math.Min(float64(goalNs)*float64(n)/prev, 2*maxN))
		next += next / 5
		next = min(next, 100*last)
		next = max(next, last+1)
		n = min(next, maxN)
		dur = float64(n) * nsPerOp
	}
	return n
}
