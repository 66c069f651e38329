package trim

import (
	"math"
	"slices"

	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/table"
)

// sampler draws runs of a configuration from a benchmark's recorded
// design: what a user would record with fewer repetitions.
//
// A run of configuration k (k_j units of design level j per unit of the
// level above) is drawn level by level from the top: k_0 top units
// (instances, trials, forks, or the lines of one `go test` process) drawn
// with replacement, then, in every drawn unit, k_j of its children drawn
// without replacement (all of them when it has no more), down to the
// sample level, the level the user's test counts as one value (the
// iteration: a JMH iteration, a go test result line, a µOpTime iteration
// with the mean of its kept slices).
//
// The top level is drawn with replacement because a new run has new
// top-level units (a new JVM fork, a new machine) where the recording has
// only its own n_0 (Davison and Hinkley, Bootstrap Methods and their
// Application, 1997, §3.8: resampling the top level of nested data with
// replacement and keeping the lower levels is close to unbiased); the
// lower levels without replacement, because a run of k iterations has k
// distinct iterations of its fork. For two levels (forks f, iterations
// i) the mean of such a run has variance
//
//	(n_f−1)/n_f · (S²_f + σ²_i/n_i) + σ²_i·(1/k_i − 1/n_i) ≈ S²_f + σ²_i/k_i,
//
// the variance of a new run of one fork with k_i iterations (S²_f, σ²_i
// the fork and iteration variance components).
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
	// sorted[u], for a unit u of the level above the sample level (js ≥
	// 1), holds the full values of its children in ascending order;
	// sortedRun draws from it. pos and runs are sortedRun's buffers.
	sorted [][]float64
	pos    []int
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
		dst = s.unit(dst, 0, int32(rng.IntN(s.d.units[0])), k, rng)
	}
	return dst
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

// precisionDraws is the number of runs behind a configuration's precision.
const precisionDraws = 2000

// precision is the relative half-width of the CI of the mean of a run of
// configuration k at confidence conf: the conf quantile of
// |m* − m| / m over precisionDraws runs drawn by the sampler, m* a run's
// mean and m the recording's (the mean of its sample-level values). For
// the recorded configuration it is the cluster bootstrap's interval of
// the recording; for a smaller one, where a run of that size lands.
func (s *sampler) precision(k []int, conf float64, rng *stats.Stream) float64 {
	m := mean(s.full)
	devs := make([]float64, precisionDraws)
	var buf []float64
	for i := range devs {
		buf = s.run(buf[:0], k, rng)
		devs[i] = math.Abs(mean(buf)-m) / math.Abs(m)
	}
	return stats.Quantile(devs, conf, nil)
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
		s.collect(0, int32(rng.IntN(s.d.units[0])), k, rng)
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
			}
			pos := s.pos[:n]
			for i := range pos {
				pos[i] = i
			}
			for i := 0; i < c; i++ {
				r := i + rng.IntN(n-i)
				pos[i], pos[r] = pos[r], pos[i]
			}
			chosen := pos[:c]
			slices.Sort(chosen)
			for _, p := range chosen {
				s.merged = append(s.merged, vals[p])
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
