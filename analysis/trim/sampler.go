package trim

import (
	"math"
	"slices"

	"github.com/benchtrim/benchtrim/analysis/internal/verdict"
	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/table"
)

// sampler draws runs of a configuration from a benchmark's recorded
// design: the subsamples of the recording that a run with fewer
// repetitions would have recorded.
//
// A run of configuration k (k_j units of design level j per unit of the
// level above) is drawn level by level from the top, without replacement:
// k_0 distinct top units (instances, trials, forks, or the lines of one
// `go test` process), then, in every drawn unit, k_j of its children (all
// of them when it has no more), down to the sample level, the level the
// user's test counts as one value (the iteration: a JMH iteration, a go
// test result line, a µOpTime iteration with the mean of its kept
// slices). At the recorded configuration every run is the recording; a
// smaller one keeps part of it, as a user who runs fewer forks or
// iterations keeps part of what the recording measured.
//
// With bootstrap set the top units are drawn with replacement instead,
// the cluster bootstrap of the recording (Davison and Hinkley, Bootstrap
// Methods and their Application, 1997, §3.8: resampling the top level of
// nested data with replacement and keeping the lower levels is close to
// unbiased): the recording's own CI.
type sampler struct {
	d     *design
	first [][]int32
	// js is the sample level's index in d.levels.
	js int
	// full[u] is the mean of means of unit u at level js over all its
	// observations (u's value when every slice is kept).
	full []float64
	// scratch[j] holds the child indices of a unit at level j for the
	// draws without replacement.
	scratch [][]int32
	// prefix is the configuration of replay (first units in recorded order).
	prefix bool
	// bootstrap draws the top units with replacement (the recording's own
	// CI: a new recording has new top-level units); else without, as the
	// lower levels. tops is the shuffle of the top units.
	bootstrap bool
	tops      []int32
	// sorted[u], for a unit u of the level above the sample level (js ≥
	// 1), holds the full values of its children in ascending order;
	// sortedRun draws from it. pos and runs are sortedRun's buffers.
	sorted [][]float64
	pos    []int
	mark   []bool
	runs   [][]float64
	merged []float64
}

func newSampler(d *design) *sampler {
	s := &sampler{d: d, first: d.children(), js: sampleLevel(d)}
	L := len(d.levels)
	s.scratch = make([][]int32, L)
	for j := 0; j+1 < L; j++ {
		s.scratch[j] = make([]int32, 0, d.maxK[j+1])
	}
	// full means at the sample level, from the observations up.
	means := d.obs
	for j := L - 1; j > s.js; j-- {
		up := make([]float64, d.units[j-1])
		f := s.first[j-1]
		for u := range up {
			a, b := f[u], f[u+1]
			sum := 0.0
			for c := a; c < b; c++ {
				sum += means[c]
			}
			up[u] = sum / float64(b-a)
		}
		means = up
	}
	s.full = means
	if s.js >= 1 {
		f := s.first[s.js-1]
		s.sorted = make([][]float64, d.units[s.js-1])
		for u := range s.sorted {
			s.sorted[u] = slices.Clone(s.full[f[u]:f[u+1]])
			slices.Sort(s.sorted[u])
		}
	}
	return s
}

// sampleLevel is the index of the level whose units are the test's
// values: the iteration level, or the deepest level above it, or the
// observation level when only slices vary.
func sampleLevel(d *design) int {
	js := -1
	for j, l := range d.levels {
		if l <= table.LevelIteration {
			js = j
		}
	}
	if js < 0 {
		return len(d.levels) - 1
	}
	return js
}

// samplesPer is the number of values a run of configuration k gives the
// user's test: the product of the counts down to the sample level.
func (s *sampler) samplesPer(k []int) int {
	n := 1
	for j := 0; j <= s.js; j++ {
		n *= k[j]
	}
	return n
}

// run appends to dst the sample values of one run of configuration k
// drawn from the recording (see sampler) and returns it.
func (s *sampler) run(dst []float64, k []int, rng *stats.Stream) []float64 {
	for i := 0; i < k[0]; i++ {
		dst = s.unit(dst, 0, s.top(i, k[0], rng), k, rng)
	}
	return dst
}

// top is the i-th of the k0 top units of a run: drawn with replacement
// when s.bootstrap is set, else the i-th of k0 distinct ones (a partial
// Fisher–Yates shuffle of s.tops, advanced one step per call, restarted
// at i = 0).
func (s *sampler) top(i, k0 int, rng *stats.Stream) int32 {
	n := s.d.units[0]
	if s.bootstrap {
		return int32(rng.IntN(n))
	}
	if k0 >= n {
		return int32(i)
	}
	if i == 0 {
		if len(s.tops) != n {
			s.tops = make([]int32, n)
		}
		for u := range s.tops {
			s.tops[u] = int32(u)
		}
	}
	r := i + rng.IntN(n-i)
	s.tops[i], s.tops[r] = s.tops[r], s.tops[i]
	return s.tops[i]
}

// replay appends to dst the sample values of configuration k run on the
// recorded data in recorded order: the first k_0 top units, the first k_j
// children of each (a unit with fewer contributes what it has), the
// values a user would get by running k on the recorded machine.
func (s *sampler) replay(dst []float64, k []int) []float64 {
	s.prefix = true
	defer func() { s.prefix = false }()
	for u := 0; u < min(k[0], s.d.units[0]); u++ {
		dst = s.unit(dst, 0, int32(u), k, nil)
	}
	return dst
}

// unit appends the sample values of unit u at level j under k.
func (s *sampler) unit(dst []float64, j int, u int32, k []int, rng *stats.Stream) []float64 {
	if j == s.js {
		return append(dst, s.value(j, u, k, rng))
	}
	for _, c := range s.children(j, u, k[j+1], rng) {
		dst = s.unit(dst, j+1, c, k, rng)
	}
	return dst
}

// value is the value of unit u at the sample level j under k: its
// observation, or the mean of means of its kept sub-units.
func (s *sampler) value(j int, u int32, k []int, rng *stats.Stream) float64 {
	if j == len(s.d.levels)-1 {
		return s.d.obs[u]
	}
	a, b := s.first[j][u], s.first[j][u+1]
	if k[j+1] >= int(b-a) && s.allBelow(j+1, k) {
		return s.full[u]
	}
	sum := 0.0
	cs := s.children(j, u, k[j+1], rng)
	n := len(cs)
	for _, c := range cs {
		sum += s.value(j+1, c, k, rng)
	}
	return sum / float64(n)
}

// fixedRuns reports whether every run of k is the same: drawn without
// replacement (not bootstrap) keeping every unit at every level, a run
// of k is the recording itself, so one A/B pair stands for all.
func (s *sampler) fixedRuns(k []int) bool {
	return !s.bootstrap && s.allBelow(0, k)
}

// allBelow reports whether k keeps every unit at the levels from j on.
func (s *sampler) allBelow(j int, k []int) bool {
	for ; j < len(k); j++ {
		if k[j] < s.d.maxK[j] {
			return false
		}
	}
	return true
}

// children returns min(c, n) of the n children of unit u at level j: the
// first ones in replay, else drawn without replacement (a partial
// Fisher–Yates shuffle). The slice is valid until the next call for
// level j.
func (s *sampler) children(j int, u int32, c int, rng *stats.Stream) []int32 {
	a, b := s.first[j][u], s.first[j][u+1]
	n := int(b - a)
	idx := s.scratch[j][:0]
	for x := a; x < b; x++ {
		idx = append(idx, x)
	}
	s.scratch[j] = idx
	if c >= n || s.prefix {
		return idx[:min(c, n)]
	}
	for i := 0; i < c; i++ {
		r := i + rng.IntN(n-i)
		idx[i], idx[r] = idx[r], idx[i]
	}
	return idx[:c]
}

// mean is the mean of x.
func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// precisionDraws is the number of runs behind a configuration's spread.
const precisionDraws = 1000

// spread is the standard deviation of m* − m over precisionDraws runs of
// configuration k drawn by s, m* a run's mean and m the recording's (the
// mean of its sample-level values), relative to m. Drawn with bootstrap
// set, at the recorded configuration, it is the cluster bootstrap's
// standard error of the recording's mean; without, how far a run of k
// drawn from the recording strays from the recording's mean (0 at the
// recorded configuration).
func (s *sampler) spread(k []int, rng *stats.Stream) float64 {
	m := mean(s.full)
	var sum, sum2 float64
	var buf []float64
	for i := 0; i < precisionDraws; i++ {
		buf = s.run(buf[:0], k, rng)
		e := (mean(buf) - m) / m
		sum += e
		sum2 += e * e
	}
	n := float64(precisionDraws)
	return math.Sqrt(max(0, sum2/n-(sum/n)*(sum/n)))
}

// standardError is the relative standard error of the recording's mean:
// the cluster bootstrap's (spread with bootstrap), times √(n_0/(n_0 − 1))
// for the bootstrap's plug-in variance of n_0 top units.
func (s *sampler) standardError(rng *stats.Stream) float64 {
	boot := *s
	boot.bootstrap = true
	n0 := float64(s.d.units[0])
	return boot.spread(s.d.maxK, rng) * math.Sqrt(n0/max(1, n0-1))
}

// precision is the relative half-width of the conf CI of the mean of a
// run of k, from the recording's standard error se (standardError) and
// how far runs of k drawn from the recording stray from its mean:
//
//	h(k) = t_{(1+conf)/2, n_0−1} · √(se² + spread(k)²)
//
// The two add as independent errors, since a subsample's mean m_k
// deviates from the recording's m by an error uncorrelated with m's own
// (E[m_k | recording] = m for draws without replacement level by level),
// so Var(m_k) = Var(m) + Var(m_k − m); the Student quantile with the top
// level's n_0 − 1 degrees of freedom widens the interval for the few
// units the variance rests on (3 forks: 9.9 standard errors at 99 %).
func (s *sampler) precision(k []int, se, conf float64, rng *stats.Stream) float64 {
	return s.tScale(conf) * math.Hypot(se, s.spread(k, rng))
}

// tScale is t_{(1+conf)/2, n_0−1} (the normal quantile for one top unit).
func (s *sampler) tScale(conf float64) float64 {
	if s.d.units[0] < 2 {
		return stats.NormalQuantile((1 + conf) / 2)
	}
	return verdict.TQuantile((1+conf)/2, s.d.units[0]-1)
}

// sortedRun is run with the values in ascending order (dst reused): the
// same distribution of runs, drawn so that sorting costs no more than a
// merge. Choosing c of a unit's n children without replacement is
// choosing c of the n positions of their values in ascending order, so a
// unit above the sample level contributes the values at c positions drawn
// at random, in order, and the run is the merge of those sorted lists.
// Where the levels below the sample level are not all kept (some slices
// left out) the values are drawn by run and sorted.
func (s *sampler) sortedRun(dst []float64, k []int, rng *stats.Stream) []float64 {
	if s.js == 0 || !s.allBelow(s.js+1, k) {
		dst = s.run(dst[:0], k, rng)
		slices.Sort(dst)
		return dst
	}
	s.runs = s.runs[:0]
	s.merged = s.merged[:0]
	for i := 0; i < k[0]; i++ {
		s.collect(0, s.top(i, k[0], rng), k, rng)
	}
	return s.mergeRuns(dst[:0])
}

// collect appends to s.merged, as one sorted run in s.runs, the sample
// values a run of k keeps of unit u at level j (j < js).
func (s *sampler) collect(j int, u int32, k []int, rng *stats.Stream) {
	if j == s.js-1 {
		vals := s.sorted[u]
		n, c := len(vals), min(k[s.js], len(vals))
		start := len(s.merged)
		if c == n {
			s.merged = append(s.merged, vals...)
		} else {
			if cap(s.pos) < n {
				s.pos = make([]int, n)
				s.mark = make([]bool, n)
			}
			pos, mark := s.pos[:n], s.mark[:n]
			for i := range pos {
				pos[i] = i
			}
			for i := 0; i < c; i++ {
				r := i + rng.IntN(n-i)
				pos[i], pos[r] = pos[r], pos[i]
				mark[pos[i]] = true
			}
			// The chosen positions in ascending order: a scan of the marks.
			for p, on := range mark {
				if on {
					s.merged = append(s.merged, vals[p])
					mark[p] = false
				}
			}
		}
		s.runs = append(s.runs, s.merged[start:len(s.merged):len(s.merged)])
		return
	}
	for _, c := range s.children(j, u, k[j+1], rng) {
		s.collect(j+1, c, k, rng)
	}
}

// mergeRuns merges the sorted runs of s.runs into dst.
func (s *sampler) mergeRuns(dst []float64) []float64 {
	if len(s.runs) > 8 {
		dst = append(dst, s.merged...)
		slices.Sort(dst)
		return dst
	}
	for _, r := range s.runs {
		if len(dst) == 0 {
			dst = append(dst, r...)
			continue
		}
		// Merge r into dst from the back.
		n := len(dst)
		dst = append(dst, r...)
		i, j, o := n-1, len(r)-1, len(dst)-1
		for j >= 0 {
			if i >= 0 && dst[i] > r[j] {
				dst[o] = dst[i]
				i--
			} else {
				dst[o] = r[j]
				j--
			}
			o--
		}
	}
	return dst
}
