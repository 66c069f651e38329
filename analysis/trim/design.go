package trim

import (
	"github.com/benchtrim/benchtrim/table"
)

// design is the nested repetition design of one benchmark run's
// observations after its warmup, with the variance components of its
// levels (Kalibera and Jones, "Rigorous benchmarking in reasonable time",
// ISMM 2013, section 4).
//
// An observation is one cell of the data: one slice, or one iteration when
// there are no slices (its rows, e.g. a JMH sample-mode histogram, merged
// by table.Series.WeightedMean). The design's levels are the repetition
// levels that vary, outermost first: a level varies when some unit above
// it holds two or more units of it. The last level is the observation
// level. A level that never varies in the data (one fork per trial, one
// slice per iteration) is not part of the design: its variance cannot be
// told from the level below it.
type design struct {
	levels []table.Level
	// obs are the observation values (ns/op) in row order.
	obs []float64
	// ids[j][i] is the 0-based unit index at levels[j] of observation i;
	// units are numbered in row order, so ids are non-decreasing.
	ids [][]int32
	// units[j] counts the units at levels[j].
	units []int
	// maxK[j] is the most units of levels[j] under one unit of the level
	// above (maxK[0]: the top units); meanK[j] the mean.
	maxK  []int
	meanK []float64
	// s2[j] is the variance component S²_j of levels[j] (≥ 0); t2[j] the
	// biased estimator T²_j it comes from.
	s2, t2 []float64
	// mean is the mean of the top units' means (the mean of means).
	mean float64
	// first caches children(): per level j < L−1 and unit u, its units
	// at level j+1 are first[j][u] … first[j][u+1].
	first [][]int32
}

// newDesign collects the observations of s after the first w iterations
// of every fork and estimates the variance components of their levels. It
// returns nil when fewer than two observations remain (or none varies).
//
// The estimators are Kalibera and Jones' (ISMM 2013, eqs. 1–3), with
// levels numbered here from the outermost (0) to the observation level
// (L−1): with m_u the mean of unit u (the mean of its children's means; an
// observation's value at the last level) and p(u) its parent,
//
//	T²_j = Σ_u (m_u − m_p(u))² / Σ_p (n_p − 1)   (u over the units of level j,
//	                                               n_p the children of p)
//	S²_{L−1} = T²_{L−1}
//	S²_j     = max(0, T²_j − T²_{j+1} / r̄_{j+1})
//
// with r̄_{j+1} the mean number of level-(j+1) units per level-j unit. For
// a balanced design these are the ANOVA (method of moments) estimators of
// a nested random-effects model; ragged data use the pooled sums of
// squares and the mean counts. A negative estimate means the level adds
// no variance beyond what its children carry, and is set to 0.
func newDesign(s *table.Series, w int) *design {
	cells := s.Units(table.LevelSlice)
	var keep []table.Span
	for _, c := range cells {
		if int(s.Levels[table.LevelIteration][c.Start]) > w {
			keep = append(keep, c)
		}
	}
	if len(keep) < 2 {
		return nil
	}
	d := &design{obs: make([]float64, len(keep))}
	for i, c := range keep {
		d.obs[i] = s.WeightedMean(c)
	}
	// boundary[l][i]: observation i starts a new unit at level l (some
	// level id down to l differs from observation i−1's).
	var boundary [table.NumLevels][]bool
	for l := table.LevelInstance; l < table.NumLevels; l++ {
		boundary[l] = make([]bool, len(keep))
		boundary[l][0] = true
		for i := 1; i < len(keep); i++ {
			boundary[l][i] = (l > 0 && boundary[l-1][i]) || s.Levels[l][keep[i].Start] != s.Levels[l][keep[i-1].Start]
		}
	}
	// A level varies when some unit of the level above holds two of it:
	// a boundary at l that is not a boundary at l−1.
	for l := table.LevelInstance; l < table.NumLevels; l++ {
		for i := 1; i < len(keep); i++ {
			if boundary[l][i] && (l == 0 || !boundary[l-1][i]) {
				d.levels = append(d.levels, l)
				break
			}
		}
	}
	if len(d.levels) == 0 {
		return nil
	}
	L := len(d.levels)
	d.ids = make([][]int32, L)
	d.units = make([]int, L)
	for j, l := range d.levels {
		ids := make([]int32, len(keep))
		u := int32(-1)
		for i := range keep {
			if boundary[l][i] {
				u++
			}
			ids[i] = u
		}
		d.ids[j], d.units[j] = ids, int(u)+1
	}
	d.estimate()
	return d
}

// estimate fills maxK, meanK, t2, s2 and mean from obs and ids.
func (d *design) estimate() {
	L := len(d.levels)
	d.maxK, d.meanK = make([]int, L), make([]float64, L)
	d.t2, d.s2 = make([]float64, L), make([]float64, L)
	// means[j][u]: mean of unit u at level j; parent[j][u]: its unit at j−1.
	means := make([][]float64, L)
	means[L-1] = d.obs
	parent := make([][]int32, L)
	for j := 0; j < L; j++ {
		parent[j] = make([]int32, d.units[j])
		for i, u := range d.ids[j] {
			if j > 0 {
				parent[j][u] = d.ids[j-1][i]
			}
		}
	}
	for j := L - 1; j >= 0; j-- {
		np := 1
		if j > 0 {
			np = d.units[j-1]
		}
		sum := make([]float64, np)
		n := make([]int, np)
		for u, m := range means[j] {
			p := parent[j][u]
			sum[p] += m
			n[p]++
		}
		pm := make([]float64, np)
		for p := range pm {
			pm[p] = sum[p] / float64(n[p])
			d.maxK[j] = max(d.maxK[j], n[p])
		}
		d.meanK[j] = float64(d.units[j]) / float64(np)
		var ss float64
		df := 0
		for u, m := range means[j] {
			e := m - pm[parent[j][u]]
			ss += e * e
		}
		for _, k := range n {
			df += k - 1
		}
		if df > 0 {
			d.t2[j] = ss / float64(df)
		}
		if j > 0 {
			means[j-1] = pm
		} else {
			d.mean = pm[0]
		}
	}
	d.s2[L-1] = d.t2[L-1]
	for j := L - 2; j >= 0; j-- {
		d.s2[j] = max(0, d.t2[j]-d.t2[j+1]/d.meanK[j+1])
	}
}

// variance is the variance of the mean of means under the configuration
// k (k[j] units of levels[j] per unit above),
//
//	V(k) = Σ_j S²_j / Π_{m ≤ j} k_m
//
// (Kalibera and Jones 2013, eq. 4).
func (d *design) variance(k []float64) float64 {
	v, prod := 0.0, 1.0
	for j := range d.s2 {
		prod *= k[j]
		v += d.s2[j] / prod
	}
	return v
}

// maxKf is maxK as floats (the recorded configuration's counts).
func (d *design) maxKf() []float64 {
	k := make([]float64, len(d.maxK))
	for j, n := range d.maxK {
		k[j] = float64(n)
	}
	return k
}
