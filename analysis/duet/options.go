package duet

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/table"
)

// WarmupRule selects how warm-up iterations are removed (SPEC §3, D1).
type WarmupRule string

const (
	// warmupCode is the rule of the author's code (process.py::preprocess_java):
	// in the JVM suites (jvmSuites), per run keep the iterations whose
	// recorded index i satisfies i ≥ iter_max/2, with iter_max the largest
	// recorded index over both pairs of the run; other suites keep all.
	// Recorded indices are 0-based for Renaissance and 1-based for DaCapo
	// and ScalaBench, so DaCapo keeps 26 of 50. It reproduces the thesis
	// numbers.
	warmupCode WarmupRule = "code"
	// warmupHalf is the thesis text's rule [T §4.2]: in the JVM suites, drop
	// the first ⌊n/2⌋ of the n iterations of each pair of each run (in
	// iteration order); other suites keep all.
	warmupHalf WarmupRule = "half"
	// warmupNone keeps every iteration.
	warmupNone WarmupRule = "none"
)

// Enumeration selects how overlapping iterations are found (SPEC §4.2, D2).
type Enumeration string

const (
	// enumerationSweep is the reference two-pointer sweep
	// (process.py::_compute_overlaps), which can miss pairs when one
	// iteration spans several of the other pair. It produced the thesis
	// figures.
	enumerationSweep Enumeration = "sweep"
	// enumerationAll finds every overlapping pair, the thesis definition
	// O = {(a, b) : overlap_time(a, b) > 0}.
	enumerationAll Enumeration = "all"
)

// SpeedupDefinition selects the runtime speedup of duet against seqn
// (SPEC §10, D6).
type SpeedupDefinition string

const (
	// speedupCode is the code's definition (process.py::run_time): per run,
	// run time in whole seconds (truncated) divided by the iteration rows of
	// A and B; per type the mean over runs, m_t; speedup = m_seqn/m_duet − 1
	// (0 means no gain). It produced the published 5 %, 73 % and 53 %.
	speedupCode SpeedupDefinition = "code"
	// speedupThesis is eq. 5.1 of the thesis: mean(runtime_seqn) /
	// mean(runtime_duet) over runs, run times in ns, not normalised by
	// iteration count (1 means no gain).
	speedupThesis SpeedupDefinition = "thesis"
)

// jvmSuites are the suites whose iterations include JIT warm-up; the warm-up
// rules apply to them only (SPEC CPU, natively compiled, keeps all).
var jvmSuites = []string{"renaissance", "dacapo", "scalabench"}

// codeExclusions are the benchmarks the author's notebooks drop before any
// analysis (notebooks/common.py::load_raw). The thesis lists more as
// excluded [T §5.1 p.27]: Renaissance neo4j-analytics, DaCapo/ScalaBench
// batik, eclipse, tomcat, actors, and seven SPEC CPU benchmarks
// (503.bwaves_r, 510.parest_r, 521.wrf_r, 527.cam4_r, 502.gcc_r,
// 523.xalancbmk_r, 526.blender_r); give them with Options.Exclude.
var codeExclusions = []string{"jython", "dummy"}

// Options configures Run. Use DefaultOptions and change fields.
type Options struct {
	// MinOverlap is the minimum overlap ratio m of the async duet pairing:
	// a pair (a, b) is kept when its overlap is longer than m times each
	// iteration (strict >). In (0, 1); default 0.4 [T §5.2.3].
	MinOverlap float64
	// OverlapRatios are the m values at which the duet types also report
	// pairs, relative overlap time and the CI test (Fig 5.2 and 5.4);
	// each in (0, 1). Default 0.1, 0.2, …, 0.9.
	OverlapRatios []float64
	// Slowdowns is the grid s of emulated slowdowns of B for the minimal
	// detectable slowdown (times × (1 + s)); each ≥ 0, ascending.
	// Default 0, 0.01, …, 0.15. Empty skips the MDS loop.
	Slowdowns []float64
	// Warmup is the warm-up rule; default warmupCode.
	Warmup WarmupRule
	// Enumeration is the overlap enumeration; default enumerationSweep.
	Enumeration Enumeration
	// Speedup is the runtime speedup definition; default speedupCode.
	Speedup SpeedupDefinition
	// Exclude lists benchmark names dropped before the analysis; default
	// codeExclusions.
	Exclude []string
	// KeepUnlabelled keeps rows whose instance has no environment label
	// (Setup.Env "instance.N.environment"); by default they are dropped and
	// counted, as the reference drops hosts outside its three environments
	// (D10).
	KeepUnlabelled bool
	// Resamples and Confidence configure the BCa bootstrap of the CI test;
	// default 9999 and 0.95 (scipy.stats.bootstrap's defaults).
	Resamples  int
	Confidence float64
	// Alpha is the U test's level: the test reports "equal" when p > Alpha.
	// Default 0.05.
	Alpha float64
	// Seed selects the bootstrap streams; default 1.
	Seed uint64
	// Workers is the number of benchmark-env keys analysed in parallel; 0
	// means GOMAXPROCS. Results do not depend on it.
	Workers int
	// Select chooses the benchmark runs Run reads (default: the primary
	// metric of all; rows marked warmup are read too, since the warm-up
	// rule decides).
	Select table.Filter
	// Progress, when not nil, is called once per analysed key with the
	// number of keys in all, from several goroutines at once.
	Progress func(total int)
}

// DefaultOptions returns the settings of the thesis and the author's code
// (SPEC §13), with seed 1.
func DefaultOptions() Options {
	return Options{
		MinOverlap:    0.4,
		OverlapRatios: grid(0.1, 1, 9),
		Slowdowns:     grid(0.01, 0, 16),
		Warmup:        warmupCode,
		Enumeration:   enumerationSweep,
		Speedup:       speedupCode,
		Exclude:       slices.Clone(codeExclusions),
		Resamples:     9999,
		Confidence:    0.95,
		Alpha:         0.05,
		Seed:          1,
	}
}

// grid returns the n values (first + i)·step, i = 0 … n−1, rounded to six
// decimals so that 3·0.1 is 0.3 (numpy's arange gives the same doubles).
func grid(step float64, first, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = math.Round(float64(first+i)*step*1e6) / 1e6
	}
	return out
}

// Validate reports whether o is usable.
func (o Options) Validate() error {
	if !(o.MinOverlap > 0 && o.MinOverlap < 1) {
		return fmt.Errorf("duet: minimum overlap ratio must be in (0, 1), got %v", o.MinOverlap)
	}
	for _, m := range o.OverlapRatios {
		if !(m > 0 && m < 1) {
			return fmt.Errorf("duet: overlap ratios must be in (0, 1), got %v", m)
		}
	}
	for i, s := range o.Slowdowns {
		if !(s >= 0 && s < 10) {
			return fmt.Errorf("duet: slowdowns must be in [0, 10), got %v", s)
		}
		if i > 0 && !(s > o.Slowdowns[i-1]) {
			return fmt.Errorf("duet: slowdowns must be ascending, got %v after %v", s, o.Slowdowns[i-1])
		}
	}
	switch o.Warmup {
	case warmupCode, warmupHalf, warmupNone:
	default:
		return fmt.Errorf("duet: unknown warm-up rule %q (want code, half or none)", o.Warmup)
	}
	switch o.Enumeration {
	case enumerationSweep, enumerationAll:
	default:
		return fmt.Errorf("duet: unknown overlap enumeration %q (want sweep or all)", o.Enumeration)
	}
	switch o.Speedup {
	case speedupCode, speedupThesis:
	default:
		return fmt.Errorf("duet: unknown speedup definition %q (want code or thesis)", o.Speedup)
	}
	if o.Resamples < 1 {
		return fmt.Errorf("duet: bootstrap resamples must be at least 1, got %d", o.Resamples)
	}
	if !(o.Confidence > 0 && o.Confidence < 1) {
		return fmt.Errorf("duet: confidence must be in (0, 1), got %v", o.Confidence)
	}
	if !(o.Alpha > 0 && o.Alpha < 1) {
		return fmt.Errorf("duet: alpha must be in (0, 1), got %v", o.Alpha)
	}
	if o.Workers < 0 {
		return fmt.Errorf("duet: workers must be >= 0, got %d", o.Workers)
	}
	return nil
}

// ParseSlowdowns parses a grid of emulated slowdowns: a comma list of
// fractions or percentages ("0,0.05,0.1" or "0%,5%,10%") or a range
// "FROM:TO:STEP" ("0:0.15:0.01", the default grid). Values must be ≥ 0 and
// ascending; "" or "none" gives an empty grid (no MDS loop).
func ParseSlowdowns(s string) ([]float64, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "none" {
		return []float64{}, nil
	}
	num := func(x string) (float64, error) {
		x = strings.TrimSpace(x)
		scale := 1.0
		if strings.HasSuffix(x, "%") {
			x, scale = strings.TrimSpace(strings.TrimSuffix(x, "%")), 0.01
		}
		v, err := strconv.ParseFloat(x, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return 0, fmt.Errorf("slowdown %q: want a fraction ≥ 0 (0.05) or a percentage (5%%)", x)
		}
		return v * scale, nil
	}
	var out []float64
	if parts := strings.Split(s, ":"); len(parts) == 3 {
		var r [3]float64
		for i, p := range parts {
			v, err := num(p)
			if err != nil {
				return nil, err
			}
			r[i] = v
		}
		if r[2] <= 0 || r[1] < r[0] || (r[1]-r[0])/r[2] > 1000 {
			return nil, fmt.Errorf("slowdowns %q: want FROM:TO:STEP with FROM ≤ TO, STEP > 0 and at most 1000 steps", s)
		}
		for k := 0; ; k++ {
			v := r[0] + float64(k)*r[2]
			if v > r[1]+r[2]*1e-9 {
				break
			}
			out = append(out, math.Round(v*1e12)/1e12)
		}
		return out, nil
	}
	for _, p := range strings.Split(s, ",") {
		v, err := num(p)
		if err != nil {
			return nil, err
		}
		if len(out) > 0 && v <= out[len(out)-1] {
			return nil, fmt.Errorf("slowdowns %q: values must ascend", s)
		}
		out = append(out, v)
	}
	return out, nil
}
