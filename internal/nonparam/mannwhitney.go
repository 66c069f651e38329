package nonparam

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// alternative is the alternative hypothesis of a test.
type alternative int

// Alternatives, with scipy's meaning: Greater means the distribution of x is
// stochastically greater than that of y.
const (
	twoSided alternative = iota // the distributions of x and y differ in location
	greater                     // x tends to be larger than y
	less                        // x tends to be smaller than y
)

// String returns "two-sided", "greater" or "less".
func (a alternative) String() string {
	switch a {
	case twoSided:
		return "two-sided"
	case greater:
		return "greater"
	case less:
		return "less"
	}
	return fmt.Sprintf("Alternative(%d)", int(a))
}

// Method is the way a p-value is computed.
type Method int

// Methods. MethodAuto chooses between the other two; results always report
// the method actually used.
const (
	MethodAuto       Method = iota // exact when small and untied, else asymptotic
	MethodExact                    // exact null distribution of U
	MethodAsymptotic               // normal approximation
)

// String returns "auto", "exact" or "asymptotic".
func (m Method) String() string {
	switch m {
	case MethodAuto:
		return "auto"
	case MethodExact:
		return "exact"
	case MethodAsymptotic:
		return "asymptotic"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// defaultExactMaxSize is the default mannWhitneyOptions.exactMaxSize: as in
// scipy 1.10's mannwhitneyu(method="auto"), the exact distribution is used
// when there are no ties and at least one sample has at most 8 values.
const defaultExactMaxSize = 8

// mannWhitneyOptions controls mannWhitneyU. The zero value is the default
// (defaultMannWhitneyOptions, MannWhitneyU's): two-sided, automatic method
// choice, continuity correction on, exact for min(n, m) ≤ 8 without ties —
// the settings of scipy.stats.mannwhitneyu's defaults.
type mannWhitneyOptions struct {
	// alternative hypothesis; default twoSided.
	alternative alternative

	// method of the p-value; default methodAuto, which uses the exact
	// distribution when the pooled sample has no ties and
	// min(n, m) ≤ exactMaxSize, and the normal approximation otherwise.
	// MethodExact on tied data ignores the ties (as scipy does), which makes
	// the test conservative.
	method Method

	// exactMaxSize bounds the smaller sample size for which methodAuto uses
	// the exact distribution. 0 means defaultExactMaxSize (8); a negative
	// value makes methodAuto always use the normal approximation.
	exactMaxSize int

	// noContinuity turns off the 0.5 continuity correction of the normal
	// approximation (scipy's use_continuity=False). Default false: the
	// correction is applied.
	noContinuity bool
}

// defaultMannWhitneyOptions are the defaults of mannWhitneyU; it is the zero
// mannWhitneyOptions, spelled out.
var defaultMannWhitneyOptions = mannWhitneyOptions{
	alternative:  twoSided,
	method:       MethodAuto,
	exactMaxSize: defaultExactMaxSize,
	noContinuity: false,
}

// MannWhitneyResult is the outcome of a Mann-Whitney U test.
type MannWhitneyResult struct {
	// U is the statistic of the first sample x,
	//	U = R_x − n(n+1)/2 = #{x_i > y_j} + 0.5·#{x_i = y_j}
	// with R_x the sum of x's ranks in the pooled sample; 0 ≤ U ≤ n·m.
	U float64
	// z is the standardized statistic of the normal approximation, oriented
	// so that Z > 0 when x tends to be larger than y and continuity-corrected
	// towards 0 (see mannWhitneyU). It is NaN when Method is MethodExact.
	z float64
	// P is the p-value for Alternative.
	P float64
	// n and M are the sizes of x and y.
	n, m int
	// Method is the method used: MethodExact or methodAsymptotic.
	Method Method
	// alternative is the alternative hypothesis tested.
	alternative alternative
	// ties reports whether the pooled sample holds equal values.
	ties bool
}

// errExactTooLarge is returned when MethodExact is forced on samples whose
// exact p-value would take too much time or memory.
var errExactTooLarge = errors.New("nonparam: exact Mann-Whitney distribution too large; use the normal approximation")

// maxExactWork bounds min(n, m)·(k+1), the work of mwuCDF.
const maxExactWork = 1 << 32

// MannWhitneyU performs the two-sided Mann-Whitney U test of x against y
// with scipy.stats.mannwhitneyu's default options (defaultMannWhitneyOptions):
// automatic method choice, continuity correction. mannWhitneyU says how.
func MannWhitneyU(x, y []float64) (MannWhitneyResult, error) {
	return mannWhitneyU(x, y, defaultMannWhitneyOptions)
}

// mannWhitneyU performs the Mann-Whitney U test (Wilcoxon rank-sum test) of
// the null hypothesis that x and y come from the same continuous
// distribution, against opts.alternative. It matches
// scipy.stats.mannwhitneyu (scipy 1.10) with the same options.
//
// The statistic is U = R_x − n(n+1)/2, with R_x the sum of the average-tie
// ranks of x in the pooled sample of n + m values.
//
// Exact method: under H0 without ties every assignment of ranks is equally
// likely, so P(U = u) = c(u; n, m) / C(n+m, n), where c(u; n, m) counts the
// subsets that give U = u. The counts are the coefficients of the Gaussian
// binomial coefficient
//
//	Σ_u c(u; n, m) q^u = Π_{i=1}^{s} (1 − q^{l+i}) / (1 − q^i),  s = min(n, m), l = max(n, m)
//
// (equivalent to the recursion c(u; n, m) = c(u − m; n − 1, m) + c(u; n, m − 1)
// of Mann & Whitney 1947), expanded only up to the degree needed in
// O(s·min(U, nm − U)) time. The p-values are
//
//	two-sided  p = min(1, 2·P(U' ≥ max(U, nm − U)))
//	greater    p = P(U' ≥ U)
//	less       p = P(U' ≤ U)
//
// using the symmetry P(U' ≥ k) = P(U' ≤ nm − k). With ties (only when
// MethodExact is forced) U is truncated to an integer as scipy does.
//
// Asymptotic method: with μ = nm/2, the tie term T = Σ_g (t_g³ − t_g) over
// groups of equal pooled values and N = n + m,
//
//	σ² = nm/12 · ((N + 1) − T / (N(N − 1)))
//	two-sided  Z = sign(U − μ)·max(|U − μ| − c, 0) / σ,  p = min(1, 2·(1 − Φ(|Z|)))
//	greater    Z = (U − μ − c) / σ,                      p = 1 − Φ(Z)
//	less       Z = (U − μ + c) / σ,                      p = Φ(Z)
//
// with c = 0.5 (continuity correction) or 0 when opts.NoContinuity. When
// σ = 0 (all pooled values equal) Z = 0 and p = 1, where scipy reaches p = 1
// through an infinite Z.
//
// x and y are not modified. mannWhitneyU returns an error wrapping errEmpty
// or errNaN if a sample is empty or holds a NaN (±Inf are ranked as usual),
// and ErrExactTooLarge if MethodExact is forced on samples so large that
// s·min(U, nm − U) exceeds 2³². It panics on unknown option values.
// Apart from the exact distribution it runs in O((n+m) log(n+m)) time, and
// in O(n+m) for samples large enough to be radix-sorted.
//
// References: H. B. Mann, D. R. Whitney, "On a test of whether one of two
// random variables is stochastically larger than the other", Annals of
// Mathematical Statistics 18(1), 1947; F. Wilcoxon, "Individual comparisons
// by ranking methods", Biometrics Bulletin 1(6), 1945; tie-corrected
// variance: S. Siegel, N. J. Castellan, Nonparametric Statistics for the
// Behavioral Sciences, 2nd ed., McGraw-Hill 1988.
func mannWhitneyU(x, y []float64, opts mannWhitneyOptions) (MannWhitneyResult, error) {
	switch opts.alternative {
	case twoSided, greater, less:
	default:
		panic(fmt.Sprintf("nonparam: MannWhitneyU: unknown %v", opts.alternative))
	}
	switch opts.method {
	case MethodAuto, MethodExact, MethodAsymptotic:
	default:
		panic(fmt.Sprintf("nonparam: MannWhitneyU: unknown %v", opts.method))
	}
	if err := checkSample("x", x); err != nil {
		return MannWhitneyResult{}, err
	}
	if err := checkSample("y", y); err != nil {
		return MannWhitneyResult{}, err
	}
	d, tieSum := mergeCount(sortedPair(x, y))
	return mannWhitneyFromCounts(d, tieSum, opts)
}

func mannWhitneyFromCounts(d dominance, tieSum float64, opts mannWhitneyOptions) (MannWhitneyResult, error) {
	n, m := d.N, d.M
	nm := float64(n) * float64(m)
	u := float64(d.Greater) + 0.5*float64(d.Equal)
	res := MannWhitneyResult{
		U:           u,
		n:           n,
		m:           m,
		alternative: opts.alternative,
		ties:        tieSum > 0,
	}

	method := opts.method
	if method == MethodAuto {
		limit := opts.exactMaxSize
		if limit == 0 {
			limit = defaultExactMaxSize
		}
		method = MethodAsymptotic
		if !res.ties && min(n, m) <= limit {
			method = MethodExact
		}
	}
	res.Method = method

	if method == MethodExact {
		res.z = math.NaN()
		// k is the statistic whose upper tail P(U' ≥ k) is the p-value
		// (times 2 when two-sided), truncated as scipy's U.astype(int).
		var k float64
		switch opts.alternative {
		case twoSided:
			k = math.Max(u, nm-u)
		case greater:
			k = u
		case less:
			k = nm - u
		}
		// P(U' ≥ k) = P(U' ≤ nm − k) by symmetry.
		p, err := mwuCDF(n, m, int64(nm)-int64(k))
		if err != nil {
			return MannWhitneyResult{}, err
		}
		if opts.alternative == twoSided {
			p *= 2
		}
		res.P = min(p, 1)
		return res, nil
	}

	total := float64(n + m)
	sigma := math.Sqrt(nm / 12 * ((total + 1) - tieSum/(total*(total-1))))
	cc := 0.5
	if opts.noContinuity {
		cc = 0
	}
	diff := u - nm/2
	if sigma == 0 || math.IsNaN(sigma) {
		res.z, res.P = 0, 1
		return res, nil
	}
	switch opts.alternative {
	case twoSided:
		res.z = math.Copysign(math.Max(math.Abs(diff)-cc, 0), diff) / sigma
		res.P = min(1, 2*upperTail(math.Abs(res.z)))
	case greater:
		res.z = (diff - cc) / sigma
		res.P = upperTail(res.z)
	case less:
		res.z = (diff + cc) / sigma
		res.P = distuv.UnitNormal.CDF(res.z)
	}
	return res, nil
}

// upperTail returns 1 − Φ(z) for the standard normal Φ, as Φ(−z) =
// erfc(z/√2)/2. gonum's Normal.Survival computes (1 − erf(z/√2))/2, which
// loses all relative accuracy in the upper tail (1e-8 relative error at
// z = 6.25, 0 beyond z ≈ 8.3); the CDF is computed with math.Erfc and keeps
// it.
func upperTail(z float64) float64 {
	return distuv.UnitNormal.CDF(-z)
}

// mwuCDF returns P(U ≤ k) under H0 for the U statistic of samples of sizes
// n and m without ties, by expanding the Gaussian binomial coefficient
// [n+m choose n]_q up to degree k (see mannWhitneyU). The expansion runs
// over the smaller of k and nm − k − 1, using the symmetry
// P(U ≤ k) = 1 − P(U ≤ nm − k − 1). Coefficients are kept in float64 with a
// running scale factor so that C(n+m, n) may exceed the float64 range.
func mwuCDF(n, m int, k int64) (float64, error) {
	nm := int64(n) * int64(m)
	if k < 0 {
		return 0, nil
	}
	if k >= nm {
		return 1, nil
	}
	if k > nm-k-1 {
		p, err := mwuCDF(n, m, nm-k-1)
		return 1 - p, err
	}
	s, l := min(n, m), max(n, m)
	if int64(s)*(k+1) > maxExactWork {
		return 0, fmt.Errorf("%w (n=%d, m=%d)", errExactTooLarge, n, m)
	}
	c := make([]float64, k+1)
	c[0] = 1
	logScale := 0.0 // true coefficients are c·exp(logScale)
	logTotal := 0.0 // log C(l+s, s)
	for i := 1; i <= s; i++ {
		// Multiply by (1 − q^{l+i}), high degrees first.
		shift := int64(l + i)
		for u := k; u >= shift; u-- {
			c[u] -= c[u-shift]
		}
		// Divide by (1 − q^i): c[u] += c[u−i], low degrees first.
		var sum float64
		for u := int64(0); u <= k; u++ {
			if u >= int64(i) {
				c[u] += c[u-int64(i)]
			}
			sum += c[u]
		}
		logTotal += math.Log1p(float64(l) / float64(i))
		if sum > 1e250 {
			inv := 1 / sum
			for u := range c {
				c[u] *= inv
			}
			logScale += math.Log(sum)
		}
	}
	var sum float64
	for _, v := range c {
		sum += v
	}
	return min(1, sum*math.Exp(logScale-logTotal)), nil
}
