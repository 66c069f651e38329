package duet

import (
	"math"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/nonparam"
	"github.com/benchtrim/benchtrim/internal/stats"
)

// CI is the outcome of the CI test of one benchmark-env key (SPEC §6).
type CI struct {
	// Runs is the number of run means bootstrapped (runs with pairs).
	Runs int
	// Mean is the mean of the run means of A − B, in ns; Lower and Upper
	// the BCa interval (NaN when the bootstrap is degenerate).
	Mean, Lower, Upper float64
	// RelWidth is the relative CI width as the author's code defines it
	// (D4): (Upper − Lower) / grand mean of all iteration times of the key.
	RelWidth float64
	// Equal is the verdict "A/A match": Lower ≤ 0 ≤ Upper. A NaN interval
	// is not equal, as in the reference (D7).
	Equal bool
}

// keyCITest bootstraps the BCa interval of the mean of the run means x of
// key (SPEC §6 steps 4–7; process.py::compute_ci_pair_difference,
// arbiter_ci_contains_zero) with opt.Resamples resamples at opt.Confidence,
// drawn from the stream stats.NewStream(opt.Seed, key.String(), 1) as Run
// does. It returns ok = false when fewer than 2 run means exist (the key
// has no CI and leaves the match-ratio denominators, D11). grandMean is the
// mean of all iteration times of the key (both pairs, all runs, paired or
// not).
func keyCITest(x []float64, grandMean float64, key Key, opt Options) (CI, bool, error) {
	boot := estimate.BootstrapOptions{Resamples: opt.Resamples, Confidence: opt.Confidence}
	return ciTest(x, grandMean, boot, stats.NewStream(opt.Seed, key.String(), blockCI), nil)
}

// ciTest is keyCITest with the stream and workspace given.
func ciTest(x []float64, grandMean float64, opt estimate.BootstrapOptions, rng *stats.Stream, ws *stats.Workspace) (CI, bool, error) {
	if len(x) < 2 {
		return CI{Runs: len(x)}, false, nil
	}
	iv, err := stats.BootstrapMeanBCa(x, opt, rng, ws)
	if err != nil {
		return CI{}, false, err
	}
	ci := CI{Runs: len(x), Mean: iv.Estimate, Lower: iv.Lower, Upper: iv.Upper}
	ci.RelWidth = (iv.Upper - iv.Lower) / grandMean
	ci.Equal = iv.Lower <= 0 && 0 <= iv.Upper
	return ci, true, nil
}

// UTest is the outcome of the Mann-Whitney U test of one key (SPEC §7).
type UTest struct {
	// U is U1, the statistic of A: R_A − n_A(n_A+1)/2.
	U float64
	// P is the two-sided p-value (asymptotic with tie and continuity
	// correction, exact for min(n_A, n_B) ≤ 8 without ties).
	P float64
	// Exact says the exact distribution was used.
	Exact bool
	// Equal is the verdict "A/A match": P > alpha.
	Equal bool
}

// mannWhitney tests all A iteration times against all B iteration times of
// a key with scipy.stats.mannwhitneyu's defaults (two-sided,
// use_continuity=True, method "auto"; process.py::arbiter_utest) through
// nonparam.MannWhitneyU, and calls the key equal when p > alpha. It returns
// ok = false when a side is empty.
func mannWhitney(a, b []float64, alpha float64) (UTest, bool, error) {
	if len(a) == 0 || len(b) == 0 {
		return UTest{}, false, nil
	}
	r, err := nonparam.MannWhitneyU(a, b)
	if err != nil {
		return UTest{}, false, err
	}
	return UTest{U: r.U, P: r.P, Exact: r.Method == nonparam.MethodExact, Equal: r.P > alpha}, true, nil
}

// cv is the coefficient of variation std(x, ddof=1)/mean(x) (SPEC §9).
// NaN for fewer than 2 values.
func cv(x []float64) float64 {
	if len(x) < 2 {
		return math.NaN()
	}
	return stats.StdDev(x, nil) / stats.Mean(x, nil)
}
