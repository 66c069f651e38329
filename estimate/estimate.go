// Package estimate holds the value types that the analyzers' options and
// results share: a point estimate with its confidence interval, the
// settings of a (hierarchical) bootstrap, the intervals of an A/B ratio and
// the verbal magnitude of an effect size, and the outcomes of the
// Kruskal-Wallis and Dunn tests of optimize's metric comparison. The computations behind them are
// in the analyzers; this package only names what they exchange, so that a
// caller of analysis/compare, analysis/optimize, analysis/reconfigure or
// analysis/steady can build options and read results.
package estimate

import "fmt"

// Interval is a point estimate with a confidence interval.
type Interval struct {
	Estimate     float64
	Lower, Upper float64
}

// RCIW returns the relative confidence interval width of iv, the RCIW
// stability metric of µOpTime (Japke et al., TOSEM 2025) and of dynamic
// reconfiguration (Laaber et al., ESEC/FSE 2020):
//
//	RCIW = (Upper − Lower) / Estimate
//
// It is +Inf when a bound is infinite (a t interval of one value).
func (iv Interval) RCIW() float64 {
	return (iv.Upper - iv.Lower) / iv.Estimate
}

// BootstrapOptions configures a bootstrap confidence interval.
type BootstrapOptions struct {
	// Resamples is the number of bootstrap resamples B (at least 1).
	Resamples int
	// Confidence is the two-sided confidence level 1 − α, in (0, 1).
	Confidence float64
}

// DefaultBootstrap is the setting of µOpTime (Japke et al., TOSEM 2025):
// 10,000 resamples and a 99 % confidence level.
var DefaultBootstrap = BootstrapOptions{Resamples: 10000, Confidence: 0.99}

// Validate reports whether o is usable: Resamples >= 1 and
// 0 < Confidence < 1.
func (o BootstrapOptions) Validate() error {
	if o.Resamples < 1 {
		return fmt.Errorf("stats: bootstrap resamples must be at least 1, got %d", o.Resamples)
	}
	if !(o.Confidence > 0 && o.Confidence < 1) {
		return fmt.Errorf("stats: bootstrap confidence must be in (0, 1), got %v", o.Confidence)
	}
	return nil
}

// HierarchicalOptions configures the hierarchical bootstrap (Kalibera and
// Jones 2012, 2013), which resamples instance > trial > fork > iteration
// with replacement at every level.
//
// InvocationSamples says what each drawn leaf group (iteration) contributes
// to a resample, after the -is option of Laaber's pa tool
// (github.com/chrstphlbr/pa):
//
//	 0  its count-weighted mean, as one value (every iteration weighs the same);
//	-1  as many invocations as its total count, drawn with replacement with
//	    probability proportional to the counts;
//	 k  k such draws, or its total count if that is smaller.
//
// Unlike pa, which draws its k invocations once before bootstrapping and then
// resamples them, the draws here are fresh in every resample (a two-stage
// resample of the iteration's histogram). The cost of a resample is about the
// number of leaf groups for 0 and the number of invocation draws otherwise:
// k = 100 on 500 iterations is 50,000 draws per resample.
type HierarchicalOptions struct {
	// BootstrapOptions gives the number of resamples and the confidence level.
	BootstrapOptions
	// InvocationSamples is 0, -1 or a positive k; see the type's comment.
	InvocationSamples int
	// PAIndices draws units as pa v0.1.0 does (pkg/bootstrap, sampleSize)
	// instead of uniformly: of l units, unit ⌊|x| mod l⌋ for x normal with
	// the mean (l−1)/2 and the standard deviation √(l(l+1)/12) (n − 1 in
	// the denominator) of the indices 0 … l−1, one unit always unit 0
	// (drawn here from that index's exact distribution with an alias
	// table);
	// it takes the interval at the sorted replicates' indices ⌈B·α/2⌉
	// and ⌊B·(1 − α/2)⌋, as pa's ci; and a ratio's replicates are those
	// of the two sides' sorted replicates, index by index (pa's ci sorts
	// them in place before CIRatio divides them), so the ratio interval
	// is that of quantile ratios, far narrower than the bootstrap's. Use
	// it to reproduce pa's intervals, not for verdicts.
	PAIndices bool
}

// DefaultHierarchical is 10,000 resamples at 99 % with iteration means
// (InvocationSamples 0), pa's defaults.
var DefaultHierarchical = HierarchicalOptions{BootstrapOptions: DefaultBootstrap}

// Validate reports whether o is usable.
func (o HierarchicalOptions) Validate() error {
	if err := o.BootstrapOptions.Validate(); err != nil {
		return err
	}
	if o.InvocationSamples < -1 {
		return fmt.Errorf("stats: invocation samples must be -1, 0 or positive, got %d", o.InvocationSamples)
	}
	return nil
}

// RatioCI holds the hierarchical bootstrap intervals of an A/B comparison.
type RatioCI struct {
	// Ratio is mean(test) / mean(control) with its percentile interval.
	Ratio Interval
	// Test and Control are the intervals of the two means, from the same
	// replicates.
	Test, Control Interval
}

// Magnitude is a verbal label for the size of an effect (Cliff's δ after
// Romano et al. 2006, Vargha-Delaney Â12 after Vargha and Delaney 2000).
type Magnitude int

// Effect-size magnitudes, from smallest to largest.
const (
	Negligible Magnitude = iota
	Small
	Medium
	Large
)

var magnitudeNames = [...]string{"negligible", "small", "medium", "large"}

// String returns "negligible", "small", "medium" or "large".
func (m Magnitude) String() string {
	if m < 0 || int(m) >= len(magnitudeNames) {
		return fmt.Sprintf("Magnitude(%d)", int(m))
	}
	return magnitudeNames[m]
}

// KruskalWallisResult is the outcome of a Kruskal-Wallis H test.
type KruskalWallisResult struct {
	H  float64 // tie-corrected H statistic
	DF int     // degrees of freedom, k − 1
	P  float64 // p-value, P(χ²_{k−1} ≥ H)
}

// DunnPair is the comparison of groups I < J in Dunn's test.
type DunnPair struct {
	I, J      int     // group indices, I < J
	Z         float64 // (R̄_I − R̄_J) / σ_IJ (R̄: mean pooled rank); > 0 when group I ranks higher
	P         float64 // unadjusted two-sided p-value, 2·(1 − Φ(|Z|))
	PAdjusted float64 // Bonferroni-adjusted p-value, min(1, P·k(k−1)/2)
	Reject    bool    // PAdjusted ≤ the test's level α
}

// Test is the rule that decides whether two result sets differ: the test
// a user runs on the results of an A/B pair. `compare` and `trim` share
// it (their --test), so that trim's recommendation keeps the verdicts of
// the test the user reads.
type Test int

// The tests. Each decides at a significance level α (TestOptions.Alpha).
const (
	// TestU is benchstat's: the two-sided Mann-Whitney U test on the
	// iteration values (go test's result lines), significant at p ≤ α,
	// the change the ratio of the medians (golang.org/x/perf benchmath's
	// AssumeNothing; internal/nonparam.BenchstatU).
	TestU Test = iota
	// TestRatio: the hierarchical bootstrap (1 − α) interval of the ratio
	// of means test/base excludes 1 (Kalibera and Jones 2012; every
	// repetition level resampled), the change the ratio of means.
	TestRatio
	// TestOverlap is JMH's reading of two scores: each side's mean with
	// its (1 − α) Student t interval over all its iterations (JMH's score
	// error, at 99.9 % for α = 0.001), a change when the two intervals do
	// not overlap, the change the ratio of means.
	TestOverlap
)

var testNames = [...]string{"u", "ratio", "overlap"}

// String is the test's --test name: u, ratio or overlap.
func (t Test) String() string {
	if t < 0 || int(t) >= len(testNames) {
		return fmt.Sprintf("Test(%d)", int(t))
	}
	return testNames[t]
}

// Describe names the test and its level for headers: "U test (benchstat),
// α = 0.05".
func (t Test) Describe(alpha float64) string {
	switch t {
	case TestU:
		return fmt.Sprintf("Mann-Whitney U test as benchstat, p ≤ α = %g", alpha)
	case TestRatio:
		return fmt.Sprintf("hierarchical bootstrap %g %% CI of the ratio of means excludes 1 (α = %g)", 100*(1-alpha), alpha)
	case TestOverlap:
		return fmt.Sprintf("JMH-style: the %g %% t intervals of the means do not overlap (α = %g)", 100*(1-alpha), alpha)
	}
	return t.String()
}

// ParseTest reads a --test name: u (benchstat), ratio or overlap.
func ParseTest(s string) (Test, error) {
	for i, n := range testNames {
		if s == n {
			return Test(i), nil
		}
	}
	return 0, fmt.Errorf("test %q: want u (benchstat's U test), ratio (bootstrap CI of the ratio) or overlap (JMH-style CI overlap)", s)
}

// DefaultAlpha is the significance level of the tests by default,
// benchstat's (benchmath.DefaultThresholds.CompareAlpha).
const DefaultAlpha = 0.05
