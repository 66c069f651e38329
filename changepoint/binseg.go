package changepoint

import (
	"fmt"
	"sort"
)

// binSegOptions configures BinSeg.
type binSegOptions struct {
	// Cost is the segment cost (MeanVar or Mean); MinSegLen 0 means the
	// cost's default (2 for MeanVar, 1 for Mean).
	Cost      Cost
	MinSegLen int
	// Penalty is the manual penalty a change point's gain must reach
	// (R's pen.value); finite and >= 0.
	Penalty float64
	// Q is the maximum number of change points (R's Q, default 5 there);
	// at least 1.
	Q       int
	SumMode sumMode
}

// binSegmentation is the result of BinSeg: the segmentation by the change
// points BinSeg keeps, and every candidate it found on the way.
type binSegmentation struct {
	*Segmentation
	// Found are the Q change points in the order binary segmentation
	// found them (R's cps[1, ]); Gains the gain of each, 2·λ_q (R's
	// cps[2, ]), made non-increasing as R does: λ_q = min(λ_{q−1}, max λ).
	Found []int
	Gains []float64
}

// binSeg segments x by binary segmentation, as R changepoint 2.3's
// cpt.mean/cpt.meanvar(method = "BinSeg", penalty = "Manual") does (its C
// function binseg, BinSeg_one_func_minseglen.c, ported step for step):
// Q times, every point j = 2 … n−3 (1-based) that leaves at least
// MinSegLen points on both sides inside its current segment (s, e] gets
// the gain of splitting there,
//
//	λ_j = −½·C(s, j) − ½·C(j, e) + ½·C(s, e)
//
// with C the segment cost of PELT (the same sums and logarithm), the
// largest λ (first on ties) becomes the next change point, and λ_q is
// recorded as min(λ_{q−1}, max λ). The first k change points are kept,
// k the first q with 2·λ_q < Penalty (Q when there is none), sorted.
//
// Each step costs O(n), so BinSeg costs O(Q·n) whatever the series, where
// PELT on a series without change points costs O(n²); its answer is the
// greedy one and may differ from PELT's optimum (docs/changepoint.md,
// "Series without change points", compares them on the reference series).
// TestBinSegReference checks change points and gains against R's on the
// reference series bit for bit.
func binSeg(x []float64, opt binSegOptions) (*binSegmentation, error) {
	if err := checkFinite(x); err != nil {
		return nil, err
	}
	if err := checkPenalty(opt.Penalty); err != nil {
		return nil, err
	}
	m, err := resolveMinSegLen(opt.Cost, opt.MinSegLen)
	if err != nil {
		return nil, err
	}
	n, q := len(x), opt.Q
	switch {
	case n < 2:
		return nil, fmt.Errorf("changepoint: BinSeg needs at least 2 points, got %d", n)
	case q <= 0:
		return nil, fmt.Errorf("changepoint: BinSeg's Q %d must be at least 1", q)
	case float64(q) > float64(n)/float64(m)+1 || q > n:
		return nil, fmt.Errorf("changepoint: BinSeg's Q %d is larger than the maximum number of segments %g", q, float64(n)/float64(m)+1)
	}
	st := newSumStats(x, opt.SumMode)
	half := func(s, e int) float64 { return -0.5 * st.cost(opt.Cost, s, e) }
	lambda := make([]float64, n)
	tau := make([]int, 2, q+2)
	tau[0], tau[1] = 0, n
	found := make([]int, q)
	like := make([]float64, q)
	oldmax := 1.7e308
	for k := 0; k < q; k++ {
		clear(lambda)
		i := 1
		s, e := tau[0]+1, tau[1]
		null := half(s-1, e)
		for j := 2; j < n-2; j++ {
			if j == e {
				s, i = e+1, i+1
				e = tau[i]
				null = half(s-1, e)
				continue
			}
			if j-s >= m && e-j >= m {
				lambda[j] = half(s-1, j) + half(j, e) - null
			}
		}
		best, which := lambda[0], 0
		for j := 1; j < n; j++ {
			if lambda[j] > best {
				best, which = lambda[j], j
			}
		}
		found[k] = which
		like[k] = best // R: (oldmax <= maxout) ? oldmax : maxout
		if oldmax <= best {
			like[k] = oldmax
		}
		oldmax = like[k]
		tau = append(tau, which)
		sort.Ints(tau)
	}
	keep := 0
	for keep < q && 2*like[keep] >= opt.Penalty {
		keep++
	}
	cpts := append([]int(nil), found[:keep]...)
	sort.Ints(cpts)
	gains := make([]float64, q)
	for k, l := range like {
		gains[k] = 2 * l
	}
	ends := append(cpts, n)
	prev := 0
	for _, c := range ends {
		if c <= prev {
			return nil, fmt.Errorf("changepoint: BinSeg found a degenerate split at %d (no point left to split: Q %d is too large for this series)", c, q)
		}
		prev = c
	}
	seg := &Segmentation{Changepoints: cpts, penalty: opt.Penalty, costFunc: opt.Cost, minSegLen: m}
	seg.Segments = segmentsOf(x, ends, st, opt.Cost)
	for _, sg := range seg.Segments {
		seg.cost += sg.Cost
	}
	seg.objective = seg.cost + float64(len(cpts))*opt.Penalty
	return &binSegmentation{Segmentation: seg, Found: found, Gains: gains}, nil
}
