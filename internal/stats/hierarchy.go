package stats

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/benchtrim/benchtrim/estimate"
)

// Hierarchy is a nested sample for the hierarchical bootstrap: values
// (optionally with histogram counts) grouped by repetition levels such as
// instance > trial > fork > iteration, outermost first.
//
// The innermost level's units (typically iterations) are called leaf groups;
// the rows of a leaf group are its invocation values, each with a count
// (JMH sample mode stores an iteration as a histogram of (value, count)).
// A Hierarchy is immutable and safe for concurrent use once built.
type Hierarchy struct {
	values  []float64
	weights []float64 // nil: every row has count 1

	// start[l][u] … start[l][u+1] are the children of unit u at level l: units
	// of level l+1, or rows for the innermost level.
	start [][]int32

	// Per leaf group: weighted mean and total count.
	leafMean  []float64
	leafCount []uint64

	// Tables for drawing invocations (InvocationSamples != 0), built on
	// first use by prepareDraws.
	drawOnce  sync.Once
	drawKind  []uint8  // per leaf group: how its rows are drawn
	expOff    []int32  // per leaf group: offset of its expanded table
	expand    []uint16 // expanded tables: one local row index per invocation
	aliasProb []uint64 // per row: alias accept threshold, or cumulative count
	aliasIdx  []int32  // per row: alias row (absolute index)

	// paIndices draws units as pa does (HierarchicalOptions.PAIndices),
	// from paTables, one alias table per number of units.
	paIndices bool
	paTables  []*aliasTable // by number of units

	rankOnce sync.Once
	rowRank  []int32   // rank of each row's value among distinct row values
	rowVals  []float64 // distinct row values, ascending
	leafRank []int32   // rank of each leaf mean among distinct leaf means
	leafVals []float64 // distinct leaf means, ascending
}

// NewHierarchy builds a Hierarchy from row-aligned columns.
//
// values holds the innermost measurements; weights (nil = all 1) their
// counts, whole numbers >= 0 (a histogram of invocations inside an
// iteration). levels are the id columns of the repetition levels, outermost
// first, e.g. NewHierarchy(v, w, instance, trial, fork, iteration). Rows must
// be sorted by the ids lexicographically (level 0 first), so that each unit is
// a contiguous run of rows; a unit is a maximal run of rows with equal ids at
// its level and all outer levels. The ids themselves carry no meaning beyond
// order and equality. Several rows may share all ids (histogram bins of one
// iteration). With no levels the whole sample is one leaf group (a flat
// weighted sample).
//
// NewHierarchy copies its inputs. It panics if a column's length differs
// from len(values), and returns an error for no rows, a non-finite value, a
// negative, fractional or non-finite count, unsorted ids, or a leaf group
// whose counts sum to zero.
func NewHierarchy(values, weights []float64, levels ...[]int32) (*Hierarchy, error) {
	n := len(values)
	if weights != nil && len(weights) != n {
		panic("stats: NewHierarchy: len(weights) != len(values)")
	}
	for l, ids := range levels {
		if len(ids) != n {
			panic(fmt.Sprintf("stats: NewHierarchy: len(levels[%d]) = %d != len(values) = %d", l, len(ids), n))
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("stats: NewHierarchy: %w", errNoData)
	}
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("stats: NewHierarchy: %d rows exceed the limit of 2^31−1", n)
	}
	for i, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("stats: NewHierarchy: row %d: value is %v", i, v)
		}
	}
	allUnit := true
	for i, w := range weights {
		if !(w >= 0) || math.IsInf(w, 0) || w != math.Trunc(w) || w >= 1<<53 {
			return nil, fmt.Errorf("stats: NewHierarchy: row %d: count %v is not a whole number >= 0", i, w)
		}
		if w != 1 {
			allUnit = false
		}
	}
	if len(levels) > 255 {
		return nil, fmt.Errorf("stats: NewHierarchy: %d levels exceed the limit of 255", len(levels))
	}
	if len(levels) == 0 {
		levels = [][]int32{make([]int32, n)}
	}
	L := len(levels)
	// Check the order and find the first level at which each row starts a
	// new unit (L when it continues the previous leaf group).
	newAt := make([]uint8, n)
	for i := 1; i < n; i++ {
		l := 0
		for l < L && levels[l][i] == levels[l][i-1] {
			l++
		}
		if l < L && levels[l][i] < levels[l][i-1] {
			return nil, fmt.Errorf("stats: NewHierarchy: row %d: level %d id %d follows %d; rows must be sorted by ids, outermost level first",
				i, l, levels[l][i], levels[l][i-1])
		}
		newAt[i] = uint8(min(l, 255))
	}
	h := &Hierarchy{values: slices.Clone(values)}
	if !allUnit {
		h.weights = slices.Clone(weights)
	}
	// Unit boundaries per level: a row opens a unit at level l when newAt <= l.
	h.start = make([][]int32, L)
	for l := L - 1; l >= 0; l-- {
		var st []int32
		child := int32(0) // index of the current child (unit at l+1, or row)
		for i := 0; i < n; i++ {
			opensChild := i > 0 && (l == L-1 || int(newAt[i]) <= l+1)
			if opensChild {
				child++
			}
			if i == 0 || int(newAt[i]) <= l {
				st = append(st, child)
			}
		}
		st = append(st, child+1)
		h.start[l] = st
	}
	h.buildLeaves()
	for g := range h.leafCount {
		if h.leafCount[g] == 0 {
			return nil, fmt.Errorf("stats: NewHierarchy: leaf group %d (from row %d) has total count 0", g, h.start[L-1][g])
		}
	}
	return h, nil
}

// buildLeaves computes leaf means and counts.
func (h *Hierarchy) buildLeaves() {
	rows := h.start[len(h.start)-1]
	G := len(rows) - 1
	h.leafMean = make([]float64, G)
	h.leafCount = make([]uint64, G)
	for g := 0; g < G; g++ {
		a, b := rows[g], rows[g+1]
		if h.weights == nil {
			h.leafMean[g] = Mean(h.values[a:b], nil)
			h.leafCount[g] = uint64(b - a)
			continue
		}
		var total uint64
		for _, c := range h.weights[a:b] {
			total += uint64(c)
		}
		h.leafCount[g] = total
		if total > 0 {
			h.leafMean[g] = Mean(h.values[a:b], h.weights[a:b])
		}
	}
}

// How a leaf group's invocations are drawn.
const (
	drawSingle     uint8 = iota // one row
	drawUniform                 // all counts 1: a uniform row
	drawExpanded                // total <= 2^16: a uniform invocation, mapped to its row
	drawAlias                   // total < 2^32: Vose's alias table
	drawCumulative              // larger totals: binary search on cumulative counts
)

// expandBudget caps the entries of all expanded tables of a Hierarchy
// (2 bytes each).
const expandBudget = 1 << 24

// expandMaxTotal is the largest group total drawn from an expanded table (a
// variable so that tests can exercise the alias tables).
var expandMaxTotal uint64 = 1 << 16

// prepareDraws builds, once, the tables for drawing invocations with
// probability proportional to their counts.
func (h *Hierarchy) prepareDraws() {
	h.drawOnce.Do(func() {
		rows := h.start[len(h.start)-1]
		G := len(rows) - 1
		h.drawKind = make([]uint8, G)
		h.expOff = make([]int32, G)
		var small, large []int32
		var scaled []uint64
		for g := 0; g < G; g++ {
			a, b := rows[g], rows[g+1]
			m, total := uint64(b-a), h.leafCount[g]
			switch {
			case m == 1:
				h.drawKind[g] = drawSingle
				continue
			case h.weights == nil || total == m && !slices.ContainsFunc(h.weights[a:b], func(c float64) bool { return c != 1 }):
				h.drawKind[g] = drawUniform
				continue
			case total <= expandMaxTotal && m <= 1<<16 && len(h.expand)+int(total) <= expandBudget:
				h.drawKind[g] = drawExpanded
				h.expOff[g] = int32(len(h.expand))
				for i, c := range h.weights[a:b] {
					for k := 0; k < int(c); k++ {
						h.expand = append(h.expand, uint16(i))
					}
				}
				continue
			}
			if h.aliasProb == nil {
				h.aliasProb = make([]uint64, len(h.values))
				h.aliasIdx = make([]int32, len(h.values))
			}
			if total > math.MaxUint32 {
				h.drawKind[g] = drawCumulative
				var cum uint64
				for i, c := range h.weights[a:b] {
					cum += uint64(c)
					h.aliasProb[a+int32(i)] = cum
				}
				continue
			}
			// Vose's alias method in integers: column i keeps row i when a
			// uniform r in [0, total) is below prob[i], else takes alias[i].
			// total < 2^32 and m < 2^31 keep c·m below 2^63.
			h.drawKind[g] = drawAlias
			scaled = scaled[:0]
			small, large = small[:0], large[:0]
			for i, c := range h.weights[a:b] {
				s := uint64(c) * m
				scaled = append(scaled, s)
				if s < total {
					small = append(small, int32(i))
				} else {
					large = append(large, int32(i))
				}
			}
			for len(small) > 0 && len(large) > 0 {
				s := small[len(small)-1]
				small = small[:len(small)-1]
				l := large[len(large)-1]
				h.aliasProb[a+s] = scaled[s]
				h.aliasIdx[a+s] = a + l
				scaled[l] -= total - scaled[s]
				if scaled[l] < total {
					large = large[:len(large)-1]
					small = append(small, l)
				}
			}
			for _, i := range large {
				h.aliasProb[a+i] = total
				h.aliasIdx[a+i] = a + i
			}
			for _, i := range small { // cannot happen in exact integers
				h.aliasProb[a+i] = total
				h.aliasIdx[a+i] = a + i
			}
		}
	})
}

// levels returns the number of repetition levels (at least 1).
func (h *Hierarchy) levels() int { return len(h.start) }

// units returns the number of units at level l (0 = outermost).
func (h *Hierarchy) units(l int) int { return len(h.start[l]) - 1 }

// rows returns the number of rows (values).
func (h *Hierarchy) rows() int { return len(h.values) }

// ranks computes, once, the rank tables used by the median.
func (h *Hierarchy) ranks() {
	h.rankOnce.Do(func() {
		h.rowVals, h.rowRank = rankDistinct(h.values)
		h.leafVals, h.leafRank = rankDistinct(h.leafMean)
	})
}

// rankDistinct returns the distinct values of x ascending and each x's rank
// among them.
func rankDistinct(x []float64) ([]float64, []int32) {
	idx := sortOrder(x)
	rank := make([]int32, len(x))
	var vals []float64
	for k, i := range idx {
		if k == 0 || x[i] != vals[len(vals)-1] {
			vals = append(vals, x[i])
		}
		rank[i] = int32(len(vals) - 1)
	}
	return vals, rank
}

// defaultHierarchical is estimate.DefaultHierarchical.
var defaultHierarchical = estimate.DefaultHierarchical

// hierAcc accumulates the leaf values of one hierarchical resample.
type hierAcc struct {
	sum    float64
	n      uint64
	counts []int64 // per rank; nil when only the mean is needed
}

// resample draws one hierarchical resample into acc (Kalibera and Jones
// 2013; Ren et al. 2010): at every level, outermost first, each group's
// children are drawn uniformly with replacement, as many as the group has;
// leaf groups contribute according to is (see HierarchicalOptions).
func (h *Hierarchy) resample(rng *Stream, is int, acc *hierAcc) {
	top := h.start[0]
	h.draw(0, 0, int32(len(top)-1), rng, is, acc)
}

func (h *Hierarchy) draw(l int, first, count int32, rng *Stream, is int, acc *hierAcc) {
	if l < len(h.start)-1 {
		st := h.start[l]
		for k := int32(0); k < count; k++ {
			u := first + h.index(count, rng)
			h.draw(l+1, st[u], st[u+1]-st[u], rng, is, acc)
		}
		return
	}
	// Leaf level: draw leaf groups.
	if is == 0 && acc.counts == nil {
		// Their means only (leaf, inlined): the same draws and additions
		// in the same order, without a call per draw.
		means, sum := h.leafMean[first:first+count], acc.sum
		if h.paIndices && count > 1 {
			sum = h.paTable(count).sumDraws(rng, means, sum)
		} else if !h.paIndices {
			sum = sumUniform(rng, means, sum)
		} else {
			sum += means[0] * float64(count) // one unit: pa always draws it
		}
		acc.sum, acc.n = sum, acc.n+uint64(count)
		return
	}
	for k := int32(0); k < count; k++ {
		g := first + h.index(count, rng)
		h.leaf(g, rng, is, acc)
	}
}

// index draws one of count units: uniformly, or as pa does
// (HierarchicalOptions.PAIndices: ⌊|x| mod count⌋, x normal with the mean
// and standard deviation of 0 … count−1).
func (h *Hierarchy) index(count int32, rng *Stream) int32 {
	if !h.paIndices {
		return int32(rng.uint32n(uint32(count)))
	}
	if count == 1 {
		return 0
	}
	return h.paTable(count).draw(rng)
}

// leaf adds the contribution of leaf group g.
func (h *Hierarchy) leaf(g int32, rng *Stream, is int, acc *hierAcc) {
	if is == 0 {
		acc.sum += h.leafMean[g]
		acc.n++
		if acc.counts != nil {
			acc.counts[h.leafRank[g]]++
		}
		return
	}
	total := h.leafCount[g]
	draws := total
	if is > 0 && uint64(is) < draws {
		draws = uint64(is)
	}
	rows := h.start[len(h.start)-1]
	a, b := rows[g], rows[g+1]
	acc.n += draws
	switch h.drawKind[g] {
	case drawSingle:
		acc.sum += float64(draws) * h.values[a]
		if acc.counts != nil {
			acc.counts[h.rowRank[a]] += int64(draws)
		}
	case drawUniform:
		acc.sum += h.drawUniform(a, b, draws, rng, acc.counts)
	case drawExpanded:
		acc.sum += h.drawExpanded(a, h.expand[h.expOff[g]:][:total], draws, rng, acc.counts)
	case drawAlias:
		acc.sum += h.drawAlias32(a, b, total, draws, rng, acc.counts)
	default:
		acc.sum += h.drawCumulative(a, b, total, draws, rng, acc.counts)
	}
}

// drawUniform returns the sum of draws rows drawn uniformly from [a, b) and
// counts their ranks when counts is not nil.
func (h *Hierarchy) drawUniform(a, b int32, draws uint64, rng *Stream, counts []int64) float64 {
	pcg := &rng.pcg
	m := uint64(b - a)
	thresh := uint64(-uint32(m) % uint32(m))
	vals := h.values[a:b]
	var rank []int32
	if counts != nil {
		rank = h.rowRank[a:b]
	}
	var s0, s1 float64
	d := uint64(0)
	for ; d+1 < draws; d += 2 {
		r := pcg.Uint64()
		m0 := (r & 0xffffffff) * m
		m1 := (r >> 32) * m
		if uint32(m0) < uint32(thresh) {
			m0 = retry32(pcg, m0, m, thresh)
		}
		if uint32(m1) < uint32(thresh) {
			m1 = retry32(pcg, m1, m, thresh)
		}
		i0, i1 := m0>>32, m1>>32
		s0 += vals[i0]
		s1 += vals[i1]
		if counts != nil {
			counts[rank[i0]]++
			counts[rank[i1]]++
		}
	}
	if d < draws {
		i := rng.uint32n(uint32(m))
		s0 += vals[i]
		if counts != nil {
			counts[rank[i]]++
		}
	}
	return s0 + s1
}

// drawAlias32 returns the sum of draws rows drawn from [a, b) with
// probability proportional to their counts (total < 2^32), by the alias
// table: column c uniform in [0, m) and u uniform in [0, total) come from the
// two halves of one 64-bit output; row c is kept when u < prob[c], else its
// alias is taken (selected without a branch).
func (h *Hierarchy) drawAlias32(a, b int32, total, draws uint64, rng *Stream, counts []int64) float64 {
	pcg := &rng.pcg
	m := uint64(b - a)
	t1 := uint64(-uint32(m) % uint32(m))
	t2 := uint64(-uint32(total) % uint32(total))
	vals := h.values
	prob, alias := h.aliasProb[a:b], h.aliasIdx[a:b]
	var s0, s1 float64
	for d := uint64(0); d < draws; d++ {
		r := pcg.Uint64()
		c := (r & 0xffffffff) * m
		u := (r >> 32) * total
		if uint32(c) < uint32(t1) {
			c = retry32(pcg, c, m, t1)
		}
		if uint32(u) < uint32(t2) {
			u = retry32(pcg, u, total, t2)
		}
		col := c >> 32
		al := alias[col]
		keep := int32((int64(u>>32) - int64(prob[col])) >> 63) // -1 when u < prob
		j := al ^ ((al ^ (a + int32(col))) & keep)
		if d&1 == 0 {
			s0 += vals[j]
		} else {
			s1 += vals[j]
		}
		if counts != nil {
			counts[h.rowRank[j]]++
		}
	}
	return s0 + s1
}

// drawExpanded returns the sum of draws invocations drawn uniformly from the
// expanded table exp (one local row index per invocation) of the group
// starting at row a, two per 64-bit output.
func (h *Hierarchy) drawExpanded(a int32, exp []uint16, draws uint64, rng *Stream, counts []int64) float64 {
	pcg := &rng.pcg
	n := uint64(len(exp))
	thresh := uint64(-uint32(n) % uint32(n))
	vals := h.values[a:]
	var rank []int32
	if counts != nil {
		rank = h.rowRank[a:]
	}
	var s0, s1 float64
	d := uint64(0)
	for ; d+1 < draws; d += 2 {
		r := pcg.Uint64()
		m0 := (r & 0xffffffff) * n
		m1 := (r >> 32) * n
		if uint32(m0) < uint32(thresh) {
			m0 = retry32(pcg, m0, n, thresh)
		}
		if uint32(m1) < uint32(thresh) {
			m1 = retry32(pcg, m1, n, thresh)
		}
		i0, i1 := exp[m0>>32], exp[m1>>32]
		s0 += vals[i0]
		s1 += vals[i1]
		if counts != nil {
			counts[rank[i0]]++
			counts[rank[i1]]++
		}
	}
	if d < draws {
		i := exp[rng.uint32n(uint32(n))]
		s0 += vals[i]
		if counts != nil {
			counts[rank[i]]++
		}
	}
	return s0 + s1
}

// drawCumulative draws rows of a group with a total count of 2^32 or more by
// binary search on the cumulative counts stored in aliasProb.
func (h *Hierarchy) drawCumulative(a, b int32, total, draws uint64, rng *Stream, counts []int64) float64 {
	cum := h.aliasProb[a:b]
	var sum float64
	for d := uint64(0); d < draws; d++ {
		r := rng.uint64n(total)
		i, _ := slices.BinarySearchFunc(cum, r, func(c, t uint64) int {
			if c <= t {
				return -1
			}
			return 1
		}) // first row with cum > r
		sum += h.values[a+int32(i)]
		if counts != nil {
			counts[h.rowRank[a+int32(i)]]++
		}
	}
	return sum
}

// twoUint32n returns uniform values in [0, n1) and [0, n2) from the two
// halves of one 64-bit draw (Lemire, unbiased; fresh draws on rejection).
func (s *Stream) twoUint32n(n1, n2 uint32) (int32, uint64) {
	r := s.pcg.Uint64()
	j1, j2, ok := lemire2(r, uint64(n1), uint64(n2), n1, n2)
	if !ok {
		j1, j2 = redraw2(&s.pcg, r, uint64(n1), uint64(n2), uint64(-n1%n1), uint64(-n2%n2))
	}
	return int32(j1), j2
}

// medianFromCounts32 is medianFromCounts for int32 counts, the first
// running count above (n−1)/2 found by medianPos from medianPosMin counts
// on where the CPU has AVX-512.
func medianFromCounts32(vals []float64, counts []int32, n uint64) float64 {
	if !haveTailsMask || len(counts) < medianPosMin {
		return medianFromCounts(vals, counts, n)
	}
	j, c := medianPos(counts, int32((n-1)/2))
	v := vals[j]
	if c <= int32(n/2) {
		for j++; counts[j] == 0; j++ {
		}
		v = lerp(v, vals[j], 0.5)
	}
	return v
}

// medianPosMin is the number of counts from which medianFromCounts32
// calls medianPos: below it the loop was faster (BenchmarkMedianPos, ns
// per resample: 5.4 against 4.2 at 24 counts, 6.4 against 6.7 at 40, 8.7
// against 14.2 at 75).
const medianPosMin = 32

// medianFromCounts returns the type-7 median of the multiset in which
// vals[r] (sorted ascending) occurs counts[r] times (n in total, n ≥ 1).
func medianFromCounts[C int32 | int64](vals []float64, counts []C, n uint64) float64 {
	k1 := C((n - 1) / 2)
	k2 := C(n / 2)
	j, c := 0, counts[0]
	for c <= k1 {
		j++
		c += counts[j]
	}
	v := vals[j]
	if c <= k2 {
		for j++; counts[j] == 0; j++ {
		}
		v = lerp(v, vals[j], 0.5)
	}
	return v
}

// leafWeights returns the expected number of leaf values each leaf group
// contributes to a resample under is (0: 1; -1: its count; k: min(k, count)).
func (h *Hierarchy) leafWeight(g int, is int) float64 {
	switch {
	case is == 0:
		return 1
	case is < 0 || uint64(is) >= h.leafCount[g]:
		return float64(h.leafCount[g])
	default:
		return float64(is)
	}
}

// estimateMean is the mean of the data under the leaf weighting of is.
func (h *Hierarchy) estimateMean(is int) float64 {
	var s, sw float64
	for g, m := range h.leafMean {
		w := h.leafWeight(g, is)
		s += w * m
		sw += w
	}
	return s / sw
}

// estimateMedian is the median of the data under the leaf weighting of is:
// of the leaf means for is = 0; of the rows with their counts for is = -1;
// for is = k the rows of each leaf group share min(k, count) in proportion to
// their counts (a fractional weighting, see Quantile).
func (h *Hierarchy) estimateMedian(is int) float64 {
	if is == 0 {
		return Median(h.leafMean, nil)
	}
	w := make([]float64, len(h.values))
	rows := h.start[len(h.start)-1]
	for g := range h.leafMean {
		scale := h.leafWeight(g, is) / float64(h.leafCount[g])
		for i := rows[g]; i < rows[g+1]; i++ {
			c := 1.0
			if h.weights != nil {
				c = h.weights[i]
			}
			w[i] = c * scale
		}
	}
	return Median(h.values, w)
}

// meanReplicates fills dst with hierarchical resample means.
func (h *Hierarchy) meanReplicates(dst []float64, rng *Stream, is int) {
	if is != 0 {
		h.prepareDraws()
	}
	for b := range dst {
		acc := hierAcc{}
		h.resample(rng, is, &acc)
		dst[b] = acc.sum / float64(acc.n)
	}
}

// HierarchicalMeanCI returns the mean of h with its percentile confidence
// interval from the hierarchical bootstrap (Kalibera and Jones, "Rigorous
// benchmarking in reasonable time", ISMM 2013, and "Quantifying performance
// changes with effect size confidence intervals", Univ. of Kent TR 4-12,
// 2012; Ren, Lai, Tong, Aminzadeh, Hou, Lai, "Nonparametric bootstrapping for
// hierarchical data", J. Applied Statistics 37(9), 2010).
//
// One resample draws, with replacement, as many top-level units as there
// are; for each drawn unit as many of its children as it has, and so on down
// to the leaf groups (iterations), which contribute their mean or resampled
// invocations as opt.InvocationSamples says. The replicate is the mean of all
// leaf values of the resample; the interval is the type-7 quantiles at α/2
// and 1 − α/2 of the replicates, as bootstrapMeanCI. The estimate is the mean
// under the same leaf weighting: the mean of the iteration means for
// InvocationSamples 0, the count-weighted mean of all invocations for -1.
// (pa takes its percentiles at indices ⌈B·α/2⌉ and ⌊B·(1 − α/2)⌋ of the
// sorted replicates without interpolation; the difference is below one
// replicate spacing.)
//
// ws may be nil. It returns an error for invalid options.
func HierarchicalMeanCI(h *Hierarchy, opt estimate.HierarchicalOptions, rng *Stream, ws *Workspace) (estimate.Interval, error) {
	if err := opt.Validate(); err != nil {
		return estimate.Interval{}, err
	}
	if ws == nil {
		ws = new(Workspace)
	}
	ws.replicates = grow(ws.replicates, opt.Resamples)
	reps := ws.replicates
	h.paIndices = opt.PAIndices
	h.meanReplicates(reps, rng, opt.InvocationSamples)
	lo, hi := hierarchicalInterval(reps, opt)
	return estimate.Interval{Estimate: h.estimateMean(opt.InvocationSamples), Lower: lo, Upper: hi}, nil
}

// hierarchicalMedianCI is HierarchicalMeanCI with the median of each
// resample's leaf values (the mean of the two middle values for an even
// count) as the statistic. Leaf values are counted per distinct value, so a
// resample costs its number of draws plus the number of distinct values, with
// no sorting.
func hierarchicalMedianCI(h *Hierarchy, opt estimate.HierarchicalOptions, rng *Stream, ws *Workspace) (estimate.Interval, error) {
	if err := opt.Validate(); err != nil {
		return estimate.Interval{}, err
	}
	h.paIndices = opt.PAIndices
	if ws == nil {
		ws = new(Workspace)
	}
	h.ranks()
	if opt.InvocationSamples != 0 {
		h.prepareDraws()
	}
	vals := h.rowVals
	if opt.InvocationSamples == 0 {
		vals = h.leafVals
	}
	ws.replicates = grow(ws.replicates, opt.Resamples)
	ws.counts64 = grow(ws.counts64, len(vals))
	reps := ws.replicates
	for b := range reps {
		clear(ws.counts64)
		acc := hierAcc{counts: ws.counts64}
		h.resample(rng, opt.InvocationSamples, &acc)
		reps[b] = medianFromCounts(vals, acc.counts, acc.n)
	}
	lo, hi := percentileInterval(reps, opt.Confidence)
	return estimate.Interval{Estimate: h.estimateMedian(opt.InvocationSamples), Lower: lo, Upper: hi}, nil
}

// HierarchicalRatioCI returns the percentile bootstrap confidence interval of
// the ratio of means test/control (Kalibera and Jones 2012, 2013), with the
// two groups resampled independently and hierarchically as in
// HierarchicalMeanCI.
//
// Replicate b is the ratio of the b-th test resample mean to the b-th control
// resample mean (all test resamples are drawn from rng first, then all
// control resamples); the interval is the type-7 quantiles at α/2 and
// 1 − α/2 of the B ratios. The estimate is the ratio of the two estimates.
// A ratio interval containing 1 means no detectable change; above 1 the test
// is slower (for time per operation). ws may be nil. It returns an error for
// invalid options or when a control resample has mean zero (all-zero data).
func HierarchicalRatioCI(test, control *Hierarchy, opt estimate.HierarchicalOptions, rng *Stream, ws *Workspace) (estimate.RatioCI, error) {
	if err := opt.Validate(); err != nil {
		return estimate.RatioCI{}, err
	}
	if ws == nil {
		ws = new(Workspace)
	}
	B := opt.Resamples
	ws.replicates = grow(ws.replicates, 2*B)
	ws.replicates2 = grow(ws.replicates2, B)
	rt, rc := ws.replicates[:B], ws.replicates[B:]
	test.paIndices, control.paIndices = opt.PAIndices, opt.PAIndices
	test.meanReplicates(rt, rng, opt.InvocationSamples)
	control.meanReplicates(rc, rng, opt.InvocationSamples)
	ratios := ws.replicates2
	if opt.PAIndices {
		// pa's ci sorts each side's replicates in place before CIRatio
		// pairs them: its ratios are those of equal quantiles.
		slices.Sort(rt)
		slices.Sort(rc)
	}
	for b := range ratios {
		if rc[b] == 0 {
			return estimate.RatioCI{}, fmt.Errorf("stats: HierarchicalRatioCI: control resample %d has mean 0", b)
		}
		ratios[b] = rt[b] / rc[b]
	}
	var out estimate.RatioCI
	out.Test.Estimate = test.estimateMean(opt.InvocationSamples)
	out.Control.Estimate = control.estimateMean(opt.InvocationSamples)
	out.Ratio.Estimate = out.Test.Estimate / out.Control.Estimate
	out.Ratio.Lower, out.Ratio.Upper = hierarchicalInterval(ratios, opt)
	out.Test.Lower, out.Test.Upper = hierarchicalInterval(rt, opt)
	out.Control.Lower, out.Control.Upper = hierarchicalInterval(rc, opt)
	return out, nil
}

// hierarchicalInterval is the percentile interval of the replicates a
// (reordered): type-7 quantiles at α/2 and 1 − α/2, or with
// opt.PAIndices pa's sorted a[⌈B·α/2⌉] and a[⌊B·(1 − α/2)⌋].
func hierarchicalInterval(a []float64, opt estimate.HierarchicalOptions) (lower, upper float64) {
	if !opt.PAIndices {
		return percentileInterval(a, opt.Confidence)
	}
	slices.Sort(a)
	alpha := 1 - opt.Confidence
	b := float64(len(a))
	lo := min(int(math.Ceil(b*alpha/2)), len(a)-1)
	hi := min(int(math.Floor(b*(1-alpha/2))), len(a)-1)
	return a[lo], a[hi]
}
