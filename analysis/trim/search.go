package trim

import (
	"math"
	"slices"
	"sort"

	"github.com/benchtrim/benchtrim/analysis/internal/verdict"
	"github.com/benchtrim/benchtrim/table"
)

// config is a configuration in design counts: config[j] units of design
// level j per unit of the level above (config[0]: top units).
type config []int

// floats is c as the float counts of design.full, replay and kept.
func (c config) floats() []float64 {
	f := make([]float64, len(c))
	for j, n := range c {
		f[j] = float64(n)
	}
	return f
}

// search finds trim's configuration of one design: the cheapest whose
// minimal detectable slowdown under the user's test is within the target
// (Options.Keep times the recorded configuration's, or Options.Detect),
// or that finds a slowdown of Options.MinEffect in minEffectPower of A/B
// runs.
type search struct {
	d    *design
	cost costModel
	det  *detector
	// bound is the largest count per level the search may use; fixed
	// marks levels kept at their bound (the iterations of a benchmark
	// without a steady state: its mean depends on how long a fork runs).
	bound []int
	fixed []bool
	// minEffect, when positive, makes a configuration that detects a
	// slowdown of minEffect in minEffectPower of A/B pairs good enough
	// whatever the target (Options.MinEffect).
	minEffect float64
	// record makes cheapest keep the configurations it evaluates, with
	// their detectable slowdowns, in considered (at most maxConsidered).
	record     bool
	considered []Considered
}

// maxConsidered bounds the configurations a benchmark's plan keeps in
// Benchmark.Considered.
const maxConsidered = 16

// Considered is a configuration trim evaluated for a benchmark: its
// counts, its time, its detectable slowdown under the user's test (from
// a fifth of the A/B pairs where it missed the target: detector.rough),
// and whether it met the target: the recommendation, the cheapest that
// did.
type Considered struct {
	Config     Config
	Detectable float64
	Met        bool
}

// minEffectPower is the share of A/B runs of new forks (or instances,
// processes) in which a configuration must find a slowdown of
// Options.MinEffect for that to be enough: 99 %, so that changes of the
// size a user acts on are kept as the evaluation asks (docs/trim.md).
const minEffectPower = 0.99

// minEffectUnits is the fewest top-level units (forks, instances, go test
// lines) a recording must hold for Options.MinEffect to apply: runs of
// new units are drawn from them, and 3 forks do not show how much forks
// vary (the evaluation in docs/trim.md: with 3 forks the absolute target
// kept 92 % of the clear changes, the relative one 96 %).
const minEffectUnits = 10

// setMinEffect turns Options.MinEffect on for s where its design has
// minEffectUnits top units or more.
func (s *search) setMinEffect(opt *Options) {
	s.minEffect = 0
	if opt.Detect == 0 && s.d.units[0] >= minEffectUnits {
		s.minEffect = opt.MinEffect
	}
}

func newSearch(d *design, cost costModel, det *detector) *search {
	return &search{d: d, cost: cost, det: det, bound: slices.Clone(d.maxK), fixed: make([]bool, len(d.maxK))}
}

// recorded is the recorded configuration (the largest counts).
func (s *search) recorded() config { return config(slices.Clone(s.d.maxK)) }

// timeNs is T(k) of the cost model.
func (s *search) timeNs(k config) float64 {
	f := s.d.full(k.floats())
	return s.cost.timeNs(&f)
}

// candidates lists the configurations within the bounds that cost at
// most limitNs, cheapest first (ties: more top-level units first, then
// in count order). Levels of up to 64 units are searched count by count,
// larger ones over 1, 2, 3, 4, 6, 9, 13, … and the bound.
func (s *search) candidates(limitNs float64) []config {
	L := len(s.bound)
	counts := s.counts()
	var out []config
	var times []float64
	k := make(config, L)
	var walk func(j int)
	walk = func(j int) {
		if j == L {
			if t := s.timeNs(k); t <= limitNs {
				out = append(out, slices.Clone(k))
				times = append(times, t)
			}
			return
		}
		for _, n := range counts[j] {
			k[j] = n
			walk(j + 1)
		}
	}
	walk(0)
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		if times[idx[a]] != times[idx[b]] {
			return times[idx[a]] < times[idx[b]]
		}
		return out[idx[a]][0] > out[idx[b]][0]
	})
	sorted := make([]config, len(out))
	for i, j := range idx {
		sorted[i] = out[j]
	}
	return sorted
}

// modelSlack bounds how far the variance model may be off before search
// evaluates a configuration by resampling: a configuration whose
// Kalibera–Jones standard error √V(k) exceeds modelSlack·keep times the
// recorded one's is taken as failing without drawing it (a location
// test's detectable slowdown grows at least like the standard error of
// the means it compares).
const modelSlack = 1.5

// cheapest returns the cheapest configuration costing at most limitNs
// whose detectable slowdown is at most target (ok false when none),
// with that slowdown when s.record is set (NaN otherwise). A configuration qualifies when it has at least the
// values a side the test needs to report a change at α/10
// (verdict.MinSamples: 6 for the U test at α = 0.05; at the bare minimum
// for α itself one value decides every verdict), the variance model does
// not rule it out (modelSlack·ratio, ratio the largest allowed standard
// error over the recorded one's; ratio ≤ 0 turns that off) and its runs
// detect target (detector.detects) or, with minEffect set, find
// minEffect in minEffectPower of A/B runs of new top units.
//
// The search runs over the counts of every level but one, the search
// level (the deepest level that may shrink: iterations, or go test
// lines): for each combination of the other counts it finds the least
// qualifying count of the search level by bisection, as a larger count
// at one level detects at least as much (more values a side, a smaller
// standard error). Of those it returns the cheapest (ties: more
// top-level units). Counts whose time is not below the best found so far
// are not drawn.
func (s *search) cheapest(limitNs, target, ratio float64) (best config, mds float64, ok bool) {
	if math.IsNaN(target) || math.IsInf(target, 1) && !(s.minEffect > 0) {
		return nil, math.Inf(1), false
	}
	vRec := s.d.variance(s.recorded().floats())
	floor := verdict.MinSamples(s.det.test, s.det.alpha/10)
	eligible := func(k config) bool {
		if !s.det.canFire(k) || s.det.s.samplesPer(k) < floor {
			return false
		}
		return !(ratio > 0 && vRec > 0 && !(s.minEffect > 0) && math.Sqrt(s.d.variance(k.floats())/vRec) > modelSlack*ratio)
	}
	meets := func(k config) bool {
		met := s.det.detects(k, target) || s.minEffect > 0 && s.det.detectsFresh(k, s.minEffect, minEffectPower)
		if !met && s.record && len(s.considered) < maxConsidered-1 {
			s.note(k, s.det.rough(k), false)
		}
		return met
	}
	counts := s.counts()
	L := len(counts)
	sl := L - 1
	for j := L - 1; j >= 0; j-- {
		if len(counts[j]) > 1 {
			sl = j
			break
		}
	}
	bestT := math.Inf(1)
	better := func(k config, t float64) bool {
		return t < bestT || t == bestT && best != nil && k[0] > best[0]
	}
	k := make(config, L)
	var walk func(j int)
	walk = func(j int) {
		if j == sl {
			walk(j + 1)
			return
		}
		if j < L {
			for _, n := range counts[j] {
				k[j] = n
				walk(j + 1)
			}
			return
		}
		// The search level's counts in ascending order of time: those
		// that fit the limit, beat the best and qualify without draws.
		list := counts[sl]
		at := func(i int) config {
			c := slices.Clone(k)
			c[sl] = list[i]
			return c
		}
		hi := 0
		for hi < len(list) {
			c := at(hi)
			if t := s.timeNs(c); t > limitNs || !better(c, t) {
				break
			}
			hi++
		}
		lo := 0
		for lo < hi && !eligible(at(lo)) {
			lo++
		}
		a, b := lo, hi
		for a < b {
			m := a + (b-a)/2
			if meets(at(m)) {
				b = m
			} else {
				a = m + 1
			}
		}
		if a < hi {
			best, bestT = at(a), s.timeNs(at(a))
		}
	}
	walk(0)
	if best == nil {
		return nil, math.Inf(1), false
	}
	// The detectable slowdown of the choice, where the plan shows it
	// (record); the split checks use the configuration alone.
	m := math.NaN()
	if s.record {
		m = s.det.detectable(best)
		s.note(best, m, true)
	}
	// The configurations tried, cheapest first.
	sort.SliceStable(s.considered, func(a, b int) bool { return s.considered[a].Config.TimeNs < s.considered[b].Config.TimeNs })
	return best, m, true
}

// counts lists per level the counts the search tries, ascending: the
// bound alone for a fixed level, every count up to 64, beyond that 1, 2,
// 3, 4, 6, 9, 13, … and the bound.
func (s *search) counts() [][]int {
	counts := make([][]int, len(s.bound))
	for j, b := range s.bound {
		switch {
		case s.fixed[j]:
			counts[j] = []int{b}
		case b <= 64:
			for n := 1; n <= b; n++ {
				counts[j] = append(counts[j], n)
			}
		default:
			for n := 1; n < b; n = max(n+1, n*3/2) {
				counts[j] = append(counts[j], n)
			}
			counts[j] = append(counts[j], b)
		}
	}
	return counts
}

// note keeps k in s.considered when s.record is set.
func (s *search) note(k config, mds float64, met bool) {
	if !s.record {
		return
	}
	f := s.d.full(k.floats())
	c := Config{Instances: int(f[table.LevelInstance]), Trials: int(f[table.LevelTrial]), Forks: int(f[table.LevelFork]),
		Iterations: int(f[table.LevelIteration]), Slices: int(f[table.LevelSlice]), TimeNs: int64(math.Round(s.timeNs(k)))}
	s.considered = append(s.considered, Considered{Config: c, Detectable: mds, Met: met})
}

// fixedMinimum is the fixed minimal configuration within bound, in design
// counts: one instance, trial and fork; 3 iterations for Go (go test
// -count 3, or 3 µOpTime iterations with all their slices), 5 for JMH
// and others; every slice.
func fixedMinimum(d *design, tool string, bound []int) config {
	k := make(config, len(d.levels))
	for j, l := range d.levels {
		switch l {
		case table.LevelIteration:
			n := 5
			if tool == "go" {
				n = 3
			}
			k[j] = min(n, bound[j])
		case table.LevelSlice:
			k[j] = bound[j]
		default:
			k[j] = 1
		}
	}
	return k
}
