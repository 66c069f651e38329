package nonparam

import (
	"errors"
	"fmt"
	"math"

	"github.com/benchtrim/benchtrim/estimate"

	"gonum.org/v1/gonum/stat/distuv"
)

// errTooFewGroups is returned by KruskalWallis and Dunn for fewer than two
// groups.
var errTooFewGroups = errors.New("nonparam: need at least two groups")

// pooledRanks checks the groups and returns the average-tie ranks of their
// pooled values (group after group), the mean rank of each group, and the
// tie term Σ_g (t_g³ − t_g) of the pooled sample.
func pooledRanks(groups [][]float64) (meanRank []float64, total int, tieSum float64, err error) {
	if len(groups) < 2 {
		return nil, 0, 0, fmt.Errorf("%w (got %d)", errTooFewGroups, len(groups))
	}
	for g, x := range groups {
		if err := checkSample(fmt.Sprintf("groups[%d]", g), x); err != nil {
			return nil, 0, 0, err
		}
		total += len(x)
	}
	pooled := make([]float64, 0, total)
	for _, x := range groups {
		pooled = append(pooled, x...)
	}
	ranks := make([]float64, total)
	tieSum = rankInto(ranks, pooled)
	meanRank = make([]float64, len(groups))
	off := 0
	for g, x := range groups {
		var sum float64
		for _, r := range ranks[off : off+len(x)] {
			sum += r
		}
		meanRank[g] = sum / float64(len(x))
		off += len(x)
	}
	return meanRank, total, tieSum, nil
}

// KruskalWallis performs the Kruskal-Wallis H test of the null hypothesis
// that all groups come from the same distribution (scipy.stats.kruskal).
// With N pooled values, group sizes n_i, mean ranks R̄_i of the average-tie
// ranks of the pooled sample and tie term T = Σ_g (t_g³ − t_g),
//
//	H = [12 / (N(N+1)) · Σ_i n_i (R̄_i − (N+1)/2)²] / (1 − T / (N³ − N))
//	p = P(χ²_{k−1} ≥ H)
//
// (the numerator equals the textbook 12/(N(N+1))·Σ R_i²/n_i − 3(N+1) and is
// computed in this centred form to avoid cancellation). When all pooled
// values are equal the statistic is 0/0; KruskalWallis then returns H = 0
// and p = 1 (no evidence of a difference), where scipy raises an error.
//
// The groups are not modified. KruskalWallis returns an error wrapping
// errTooFewGroups for fewer than two groups, and one wrapping errEmpty or
// errNaN naming the group for an empty group or a NaN.
//
// Reference: W. H. Kruskal, W. A. Wallis, "Use of ranks in one-criterion
// variance analysis", Journal of the American Statistical Association
// 47(260), 1952.
func KruskalWallis(groups [][]float64) (estimate.KruskalWallisResult, error) {
	meanRank, total, tieSum, err := pooledRanks(groups)
	if err != nil {
		return estimate.KruskalWallisResult{}, err
	}
	n := float64(total)
	res := estimate.KruskalWallisResult{DF: len(groups) - 1}
	corr := 1 - tieSum/(n*n*n-n)
	if corr <= 0 || n < 2 {
		res.H, res.P = 0, 1
		return res, nil
	}
	center := (n + 1) / 2
	var ss float64
	for g, x := range groups {
		dev := meanRank[g] - center
		ss += float64(len(x)) * dev * dev
	}
	res.H = 12 / (n * (n + 1)) * ss / corr
	res.P = distuv.ChiSquared{K: float64(res.DF)}.Survival(res.H)
	return res, nil
}

// defaultDunnAlpha is the default family-wise significance level of Dunn's
// test, as in µOpTime's comparison of stability metrics (Japke et al.,
// TOSEM 2025, RQ2).
const defaultDunnAlpha = 0.01

// DunnOptions controls Dunn. The zero value is the default (Alpha 0.01).
type DunnOptions struct {
	// Alpha is the family-wise significance level at which a pair is
	// rejected; 0 means the default, 0.01. It must lie in [0, 1).
	Alpha float64
}

// Dunn performs Dunn's post-hoc test for all k(k−1)/2 pairs of groups after
// a Kruskal-Wallis test, on the average-tie ranks of the pooled sample of N
// values, with tie term T = Σ_g (t_g³ − t_g):
//
//	σ_ij² = (N(N+1)/12 − T / (12(N − 1))) · (1/n_i + 1/n_j)
//	z_ij  = (R̄_i − R̄_j) / σ_ij
//	p_ij  = 2·(1 − Φ(|z_ij|))
//	p̃_ij  = min(1, p_ij · k(k−1)/2)        (Bonferroni)
//
// and rejects equality of the pair when p̃_ij ≤ α (opts.Alpha). When all
// pooled values are equal (σ = 0) every pair has z = 0 and p = 1. Pairs are
// returned in the order (0,1), (0,2), …, (0,k−1), (1,2), …, (k−2,k−1).
// This is the formula of scikit-posthocs' posthoc_dunn (Terpilowski, JOSS
// 2019) with p_adjust="bonferroni".
//
// The groups are not modified. Dunn returns the errors of KruskalWallis for
// bad input and panics if opts.Alpha is outside [0, 1).
//
// Reference: O. J. Dunn, "Multiple comparisons using rank sums",
// Technometrics 6(3), 1964; tie correction as in S. A. Glantz, Primer of
// Biostatistics, McGraw-Hill 2012, and scikit-posthocs.
func Dunn(groups [][]float64, opts DunnOptions) ([]estimate.DunnPair, error) {
	alpha := opts.Alpha
	if !(alpha >= 0 && alpha < 1) {
		panic(fmt.Sprintf("nonparam: Dunn: Alpha %v outside [0, 1)", opts.Alpha))
	}
	if alpha == 0 {
		alpha = defaultDunnAlpha
	}
	meanRank, total, tieSum, err := pooledRanks(groups)
	if err != nil {
		return nil, err
	}
	n := float64(total)
	k := len(groups)
	comparisons := float64(k * (k - 1) / 2)
	base := n*(n+1)/12 - tieSum/(12*(n-1))
	pairs := make([]estimate.DunnPair, 0, k*(k-1)/2)
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			pr := estimate.DunnPair{I: i, J: j, P: 1}
			sigma := math.Sqrt(base * (1/float64(len(groups[i])) + 1/float64(len(groups[j]))))
			if sigma > 0 {
				pr.Z = (meanRank[i] - meanRank[j]) / sigma
				pr.P = min(1, 2*upperTail(math.Abs(pr.Z)))
			}
			pr.PAdjusted = min(1, pr.P*comparisons)
			pr.Reject = pr.PAdjusted <= alpha
			pairs = append(pairs, pr)
		}
	}
	return pairs, nil
}
