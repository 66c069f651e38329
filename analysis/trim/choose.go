package trim

import (
	"math"
	"slices"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/table"
)

// costModel is the execution time of a configuration, from the data:
//
//	T(k) = m_instance · (o_instance + k_trial · (o_trial + k_fork · (o_fork + W_f + k_iteration · k_slice · u)))
//
// with u the duration of one observation (a JMH iteration, a µOpTime
// slice, a `go test` result line's N × ns/op), W_f the warmup of one fork
// (the stated warmup iterations × their time plus the W discarded
// iterations × the iteration time), o_l the overhead of starting one unit
// of level l (Options.Overhead, 0 unless the user knows it) and m_instance
// = k_instance, or 1 when instances run side by side
// (Options.ParallelInstances): then the time is the wall time of one
// instance.
type costModel struct {
	unitNs, warmupNs float64
	overhead         [table.NumLevels]float64
	parallel         bool
}

// timeNs is T(k) for the level counts k (one per table level; 1 for
// levels the data do not vary).
func (c *costModel) timeNs(k *[table.NumLevels]float64) float64 {
	t := k[table.LevelIteration] * k[table.LevelSlice] * c.unitNs
	t = k[table.LevelFork] * (c.overhead[table.LevelFork] + c.warmupNs + t)
	t = k[table.LevelTrial] * (c.overhead[table.LevelTrial] + t)
	if c.parallel {
		return c.overhead[table.LevelInstance] + t
	}
	return k[table.LevelInstance] * (c.overhead[table.LevelInstance] + t)
}

// full maps design counts k to table-level counts (1 elsewhere).
func (d *design) full(k []float64) [table.NumLevels]float64 {
	var f [table.NumLevels]float64
	for l := range f {
		f[l] = 1
	}
	for j, l := range d.levels {
		f[l] = k[j]
	}
	return f
}

// choice is a configuration in design counts with its time and predicted
// precision.
type choice struct {
	k         []float64
	timeNs    float64
	precision float64
}

// chooser finds the cheapest configuration of a design that reaches a
// precision.
//
// The precision of configuration k is the relative half-width of the
// confidence interval of the mean,
//
//	h(k) = h_rec · √(V(k) / V(r̄))
//
// where h_rec is the relative half-width of the hierarchical bootstrap CI
// (internal/stats.HierarchicalMeanCI: every level resampled with
// replacement, Kalibera and Jones 2013) of the recorded data and V the
// variance of the mean under the design's variance components (design.variance,
// r̄ the recorded mean counts): the bootstrap's precision, carried to other
// counts by the nested random-effects model.
type chooser struct {
	d     *design
	cost  costModel
	hRec  float64
	vRec  float64
	bound []int // the largest count per level the search may use
	// fixed marks levels the search keeps at their bound (the iterations
	// of a benchmark without a steady state: its mean depends on how long
	// a fork runs).
	fixed  []bool
	minObs float64
	// capNs, when positive, is the most a configuration of tradeoff may
	// cost (Options.Budget).
	capNs float64
}

func newChooser(d *design, cost costModel, hRec float64, minObs int) *chooser {
	return &chooser{d: d, cost: cost, hRec: hRec, vRec: d.variance(d.meanK), bound: slices.Clone(d.maxK), fixed: make([]bool, len(d.maxK)), minObs: float64(minObs)}
}

// precision is h(k).
func (c *chooser) precision(k []float64) float64 {
	if c.vRec == 0 {
		return 0
	}
	return c.hRec * math.Sqrt(c.d.variance(k)/c.vRec)
}

func (c *chooser) eval(k []float64) choice {
	f := c.d.full(k)
	return choice{k: slices.Clone(k), timeNs: c.cost.timeNs(&f), precision: c.precision(k)}
}

// recorded is the recorded configuration (the largest counts).
func (c *chooser) recorded() choice {
	k := make([]float64, len(c.bound))
	for j, b := range c.d.maxK {
		k[j] = float64(b)
	}
	return c.eval(k)
}

// cheapest returns the cheapest configuration within the bounds whose
// precision is at most target and which keeps at least minObs
// observations (ties: the better precision, then the fewer outer units);
// ok is false when none reaches it. For every combination of the outer
// levels' counts it finds the fewest observation-level units by bisection
// (h falls and T rises with every count).
func (c *chooser) cheapest(target float64) (best choice, ok bool) {
	L := len(c.bound)
	k := make([]float64, L)
	var walk func(j int, prod float64)
	walk = func(j int, prod float64) {
		if j == L-1 {
			lo, hi := max(1, int(math.Ceil(c.minObs/prod))), c.bound[j]
			if c.fixed[j] {
				lo = hi
			}
			if lo > hi {
				return
			}
			k[j] = float64(hi)
			if !(c.precision(k) <= target) {
				return
			}
			for lo < hi {
				mid := (lo + hi) / 2
				k[j] = float64(mid)
				if c.precision(k) <= target {
					hi = mid
				} else {
					lo = mid + 1
				}
			}
			k[j] = float64(lo)
			e := c.eval(k)
			if !ok || e.timeNs < best.timeNs || (e.timeNs == best.timeNs && e.precision < best.precision) {
				best, ok = e, true
			}
			return
		}
		from := 1
		if c.fixed[j] {
			from = c.bound[j]
		}
		for n := from; n <= c.bound[j]; n++ {
			k[j] = float64(n)
			walk(j+1, prod*float64(n))
		}
	}
	walk(0, 1)
	return best, ok
}

// setBudget bounds tradeoff by a budget share (Options.Budget): a
// configuration may cost at most
//
//	capNs = max(T(k_min), share · T(recorded))
//
// where k_min is the fixed minimal configuration of tool (fixedMinimum).
// A share of 1 or more leaves tradeoff unbounded (capNs 0).
func (c *chooser) setBudget(share float64, tool string) {
	c.capNs = 0
	if share < 1 {
		c.capNs = max(c.eval(fixedMinimum(c.d, tool, c.bound)).timeNs, share*c.recorded().timeNs)
	}
}

// tradeoff returns the configuration within the bounds (keeping at least
// minObs observations, or every one when fewer were recorded) that
// minimises
//
//	h(k) + λ · T(k) / T(r)
//
// the relative CI half-width plus λ times the share of the recorded
// time (ties: the cheaper). It is the Lagrangian of "the best precision
// for a time" (and of "the least time for a precision"): a configuration
// costing Δ more of the recorded time is chosen only if it narrows the
// CI by more than λ·Δ (λ = 0.16: 10 % of the recorded time for 1.6
// points). With a budget (capNs > 0) only configurations costing at most
// capNs compete, the recorded one included; where none fits (a benchmark
// without a steady state keeps its iterations per fork), the cheapest
// configuration. Levels of up to 64 units are searched count by count, larger ones
// over 1, 2, 3, 4, 6, 8, 12, … and the bound.
func (c *chooser) tradeoff(lambda float64) choice {
	rec := c.recorded()
	if !(rec.timeNs > 0) {
		return rec
	}
	L := len(c.bound)
	counts := make([][]int, L)
	for j, b := range c.bound {
		switch {
		case c.fixed[j]:
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
	need := min(c.minObs, float64(len(c.d.obs)))
	k := make([]float64, L)
	best, bestV := rec, rec.precision+lambda
	if c.capNs > 0 && rec.timeNs > c.capNs {
		bestV = math.Inf(1) // over the budget
	}
	cheapest := rec // the cheapest configuration, should none fit the budget
	var walk func(j int, prod float64)
	walk = func(j int, prod float64) {
		if j == L {
			if prod < need {
				return
			}
			e := c.eval(k)
			if e.timeNs < cheapest.timeNs {
				cheapest = e
			}
			if c.capNs > 0 && e.timeNs > c.capNs {
				return
			}
			if v := e.precision + lambda*e.timeNs/rec.timeNs; v < bestV || v == bestV && e.timeNs < best.timeNs {
				best, bestV = e, v
			}
			return
		}
		for _, n := range counts[j] {
			k[j] = float64(n)
			walk(j+1, prod*float64(n))
		}
	}
	walk(0, 1)
	if math.IsInf(bestV, 1) {
		return cheapest
	}
	return best
}

// hierarchy is the design as a stats.Hierarchy (one leaf per observation).
func (d *design) hierarchy() (*stats.Hierarchy, error) {
	return stats.NewHierarchy(d.obs, nil, d.ids...)
}

// bootstrapPrecision is the relative half-width of the hierarchical
// bootstrap CI of the design's mean, (upper − lower) / 2 / estimate, with
// the CI itself.
func (d *design) bootstrapPrecision(opt estimate.BootstrapOptions, rng *stats.Stream) (float64, estimate.Interval, error) {
	h, err := d.hierarchy()
	if err != nil {
		return nan, estimate.Interval{}, err
	}
	ci, err := stats.HierarchicalMeanCI(h, estimate.HierarchicalOptions{BootstrapOptions: opt}, rng, nil)
	if err != nil {
		return nan, ci, err
	}
	return (ci.Upper - ci.Lower) / 2 / ci.Estimate, ci, nil
}

// children returns, per design level j < L−1 and unit u, the range of its
// units at level j+1: first[j][u] … first[j][u+1] (computed once, then
// cached: replay and the resamplers ask for it many times).
func (d *design) children() [][]int32 {
	if d.first != nil {
		return d.first
	}
	L := len(d.levels)
	first := make([][]int32, L)
	for j := 0; j < L-1; j++ {
		f := make([]int32, d.units[j]+1)
		for i := range f {
			f[i] = -1
		}
		for i := range d.obs {
			u, c := d.ids[j][i], d.ids[j+1][i]
			if f[u] < 0 {
				f[u] = c
			}
		}
		f[d.units[j]] = int32(d.units[j+1])
		first[j] = f
	}
	d.first = first
	return first
}

// replay is the mean of means of the first k units at every level (the
// configuration run on the recorded data in recorded order; a unit with
// fewer children than k contributes the ones it has).
func (d *design) replay(k []float64) float64 {
	first := d.children()
	var mean func(j int, u int32) float64
	mean = func(j int, u int32) float64 {
		if j == len(d.levels)-1 {
			return d.obs[u]
		}
		a, b := first[j][u], first[j][u+1]
		b = min(b, a+int32(k[j+1]))
		s := 0.0
		for c := a; c < b; c++ {
			s += mean(j+1, c)
		}
		return s / float64(b-a)
	}
	top := min(int32(k[0]), int32(d.units[0]))
	s := 0.0
	for u := int32(0); u < top; u++ {
		s += mean(0, u)
	}
	return s / float64(top)
}

// kept returns the observations replay(k) averages: the first k units at
// every level, in recorded order.
func (d *design) kept(k []float64) []float64 {
	first := d.children()
	var out []float64
	var walk func(j int, u int32)
	walk = func(j int, u int32) {
		if j == len(d.levels)-1 {
			out = append(out, d.obs[u])
			return
		}
		a, b := first[j][u], first[j][u+1]
		for c := a; c < min(b, a+int32(k[j+1])); c++ {
			walk(j+1, c)
		}
	}
	for u := int32(0); u < min(int32(k[0]), int32(d.units[0])); u++ {
		walk(0, u)
	}
	return out
}

// subset is the design of the top units tops (ascending), renumbered, with
// its variance components; nil when fewer than two observations remain.
func (d *design) subset(tops []int) *design {
	in := make([]bool, d.units[0])
	for _, u := range tops {
		in[u] = true
	}
	s := &design{levels: d.levels, ids: make([][]int32, len(d.levels)), units: make([]int, len(d.levels))}
	last := make([]int32, len(d.levels))
	for j := range last {
		last[j] = -1
	}
	next := make([]int32, len(d.levels))
	for i, v := range d.obs {
		if !in[d.ids[0][i]] {
			continue
		}
		s.obs = append(s.obs, v)
		for j := range d.levels {
			id := d.ids[j][i]
			if id != last[j] {
				last[j] = id
				next[j]++
			}
			s.ids[j] = append(s.ids[j], next[j]-1)
		}
	}
	if len(s.obs) < 2 {
		return nil
	}
	for j := range next {
		s.units[j] = int(next[j])
	}
	s.estimate()
	return s
}
