package reconfigure

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/table"
)

// forkData is one fork of a series: a unit of the outer levels (pair,
// instance, trial, fork) with its iterations in order.
type forkData struct {
	instance, trial, fork int32
	iters                 []table.Span
}

// benchData is a series split into forks and iterations, with warmup rows
// (recorded warmup iterations, which a -wi 0 recording has none of) removed.
type benchData struct {
	s          *table.Series
	key        string
	sampleMode bool
	forks      []forkData
	warnings   []string
}

// splitSeries checks s and splits it into forks and iterations. It returns
// an error for data the replay cannot use (no rows, a value that is not a
// positive finite time).
func splitSeries(s *table.Series) (*benchData, error) {
	d := &benchData{s: s, key: s.Key.String(), sampleMode: s.Mode == "sample"}
	warmupRows := 0
	for i, v := range s.NsPerOp {
		if s.Warmup != nil && s.Warmup[i] {
			warmupRows++
			continue
		}
		if !(v > 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("row %d (fork %d, iteration %d): ns/op %v is not a positive finite time",
				i+1, s.Levels[table.LevelFork][i], s.Levels[table.LevelIteration][i], v)
		}
	}
	if warmupRows > 0 {
		d.warnings = append(d.warnings, fmt.Sprintf("%d rows of recorded warmup iterations ignored (replay expects data recorded with -wi 0)", warmupRows))
	}
	outer := map[[2]int32]bool{}
	gaps := 0
	for _, fs := range s.Units(table.LevelFork) {
		f := forkData{
			instance: s.Levels[table.LevelInstance][fs.Start],
			trial:    s.Levels[table.LevelTrial][fs.Start],
			fork:     s.Levels[table.LevelFork][fs.Start],
		}
		outer[[2]int32{f.instance, f.trial}] = true
		last := int32(0)
		for _, it := range iterationSpans(s, fs) {
			if s.Warmup != nil && s.Warmup[it.Start] {
				continue
			}
			id := s.Levels[table.LevelIteration][it.Start]
			if last != 0 && id != last+1 {
				gaps++
			}
			last = id
			f.iters = append(f.iters, it)
		}
		if len(f.iters) > 0 {
			d.forks = append(d.forks, f)
		}
	}
	if len(d.forks) == 0 {
		return nil, fmt.Errorf("no measurement iterations")
	}
	if len(outer) > 1 {
		d.warnings = append(d.warnings, fmt.Sprintf("%d (instance, trial) runs: their forks are replayed in order as forks of one run", len(outer)))
	}
	if gaps > 0 {
		d.warnings = append(d.warnings, fmt.Sprintf("%d gaps in iteration numbers (missing iterations): iterations are taken in order", gaps))
	}
	return d, nil
}

// iterationSpans returns the iteration spans inside the fork span fs.
func iterationSpans(s *table.Series, fs table.Span) []table.Span {
	var out []table.Span
	start := fs.Start
	it := s.Levels[table.LevelIteration]
	for i := fs.Start + 1; i < fs.End; i++ {
		if it[i] != it[i-1] {
			out = append(out, table.Span{Start: start, End: i})
			start = i
		}
	}
	return append(out, table.Span{Start: start, End: fs.End})
}

// weighted is a sample as distinct values in ascending order with their
// frequencies.
type weighted struct {
	x, w []float64
}

// total returns Σ w.
func (a weighted) total() float64 {
	var t float64
	for _, w := range a.w {
		t += w
	}
	return t
}

// mergeWeighted returns the union of the samples a and b (values in both
// get their weights summed), reusing dst's memory when it has room. dst must
// not share memory with a or b.
func mergeWeighted(dst, a, b weighted) weighted {
	dst.x, dst.w = dst.x[:0], dst.w[:0]
	i, j := 0, 0
	for i < len(a.x) || j < len(b.x) {
		switch {
		case j == len(b.x) || i < len(a.x) && a.x[i] < b.x[j]:
			dst.x, dst.w = append(dst.x, a.x[i]), append(dst.w, a.w[i])
			i++
		case i == len(a.x) || b.x[j] < a.x[i]:
			dst.x, dst.w = append(dst.x, b.x[j]), append(dst.w, b.w[j])
			j++
		default:
			dst.x, dst.w = append(dst.x, a.x[i]), append(dst.w, a.w[i]+b.w[j])
			i++
			j++
		}
	}
	return dst
}

// sampler draws the criterion samples S_j of iterations.
type sampler struct {
	opt *Options
	// scratch
	vals, counts, cum []float64
	tally             []int
	idx               []int
}

// sample returns the criterion sample of the iteration sp of d:
//
//   - sample mode: drop the invocations slower than OutlierFactor × the
//     count-weighted median of the iteration, then draw InvocationSample
//     invocations with replacement, each row with probability count/Σ count
//     (as the prototype's Sampler over an EnumeratedDistribution); the
//     result holds the distinct drawn values with their draw counts;
//   - other modes: the iteration's count-weighted mean with weight 1 (an
//     avgt iteration is one value; a sample of it would be that value
//     repeated).
//
// It also returns the number of rows dropped as outliers.
func (sm *sampler) sample(d *benchData, sp table.Span, rng *stats.Stream) (weighted, int) {
	s := d.s
	if !d.sampleMode {
		return weighted{x: []float64{s.WeightedMean(sp)}, w: []float64{1}}, 0
	}
	n := sp.End - sp.Start
	sm.vals = append(sm.vals[:0], s.NsPerOp[sp.Start:sp.End]...)
	sm.counts = sm.counts[:0]
	for i := sp.Start; i < sp.End; i++ {
		c := float64(s.Count[i])
		if c <= 0 {
			c = 1
		}
		sm.counts = append(sm.counts, c)
	}
	limit := sm.opt.OutlierFactor * stats.Median(sm.vals, sm.counts)
	sm.cum = sm.cum[:0]
	sm.idx = sm.idx[:0]
	var total float64
	dropped := 0
	for k := 0; k < n; k++ {
		if sm.vals[k] > limit {
			dropped++
			continue
		}
		total += sm.counts[k]
		sm.cum = append(sm.cum, total)
		sm.idx = append(sm.idx, k)
	}
	// total is a whole number (counts are int64); draw r uniform in
	// [0, total) and take the first row whose cumulative count exceeds r.
	sm.tally = slices.Grow(sm.tally[:0], len(sm.idx))[:len(sm.idx)]
	clear(sm.tally)
	t := uint64(total)
	for k := 0; k < sm.opt.InvocationSample; k++ {
		r := float64(drawBelow(rng, t))
		sm.tally[sort.Search(len(sm.cum), func(i int) bool { return sm.cum[i] > r })]++
	}
	out := weighted{}
	for k, c := range sm.tally {
		if c > 0 {
			out.x = append(out.x, sm.vals[sm.idx[k]])
			out.w = append(out.w, float64(c))
		}
	}
	sortWeighted(&out)
	return out, dropped
}

// drawBelow returns a uniform integer in [0, n) for n >= 1.
func drawBelow(rng *stats.Stream, n uint64) uint64 {
	if n <= math.MaxInt64 {
		return uint64(rng.IntN(int(n)))
	}
	for {
		if r := rng.Uint64(); r < n {
			return r
		}
	}
}

// sortWeighted sorts a by value and merges equal values.
func sortWeighted(a *weighted) {
	idx := make([]int, len(a.x))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(i, j int) bool { return a.x[idx[i]] < a.x[idx[j]] })
	x := make([]float64, 0, len(a.x))
	w := make([]float64, 0, len(a.x))
	for _, i := range idx {
		if len(x) > 0 && x[len(x)-1] == a.x[i] {
			w[len(w)-1] += a.w[i]
			continue
		}
		x = append(x, a.x[i])
		w = append(w, a.w[i])
	}
	a.x, a.w = x, w
}
