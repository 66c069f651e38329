package trim

import (
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
// of level l (Options.startupCosts: a JMH fork's JVM, and its command's
// host JVM at the trial level, by default; Options.Overhead) and m_instance
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

// hierarchy is the design as a stats.Hierarchy (one leaf per observation).
func (d *design) hierarchy() (*stats.Hierarchy, error) {
	return stats.NewHierarchy(d.obs, nil, d.ids...)
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
