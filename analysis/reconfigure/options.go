package reconfigure

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/table"
)

// Config is the dynamic reconfiguration configuration
// ⟨wi_min, wi_max, mi, f_min, f_max⟩ of Laaber et al. (ESEC/FSE 2020):
// bounds on the warmup iterations per fork, the measurement iterations per
// fork, and bounds on the number of forks.
type Config struct {
	WarmupMin, WarmupMax int // wi_min, wi_max
	Measurement          int // mi
	ForksMin, ForksMax   int // f_min, f_max
}

// defaultConfig is the paper's configuration ⟨5, 50, 10, 2, 5⟩.
var defaultConfig = Config{WarmupMin: 5, WarmupMax: 50, Measurement: 10, ForksMin: 2, ForksMax: 5}

// String formats c as ⟨wi_min, wi_max, mi, f_min, f_max⟩.
func (c Config) String() string {
	return fmt.Sprintf("⟨%d, %d, %d, %d, %d⟩", c.WarmupMin, c.WarmupMax, c.Measurement, c.ForksMin, c.ForksMax)
}

// Criterion is a stoppage criterion.
type Criterion uint8

const (
	// CriterionCV: the coefficient of variation of each cumulative set;
	// stable when the window's CVs span at most Thresholds.CV.
	CriterionCV Criterion = iota
	// CriterionRCIW: the relative width of the hierarchical bootstrap
	// confidence interval of the mean of each cumulative set; stable when
	// the window's RCIWs span at most Thresholds.RCIW.
	CriterionRCIW
	// CriterionKLD: the Kullback-Leibler stability probability between each
	// cumulative set and its predecessor; stable when the window's mean
	// probability exceeds Thresholds.KLD.
	CriterionKLD
)

// numCriteria is the number of criteria.
const numCriteria = 3

// AllCriteria lists the criteria in the paper's order.
var AllCriteria = []Criterion{CriterionCV, CriterionRCIW, CriterionKLD}

var criterionNames = [numCriteria]string{"cv", "rciw", "kld"}

// String is the criterion's flag name: cv, rciw or kld.
func (c Criterion) String() string {
	if c >= numCriteria {
		return fmt.Sprintf("Criterion(%d)", int(c))
	}
	return criterionNames[c]
}

// Label is the criterion's name as the paper prints it: CV, RCIW or KLD.
func (c Criterion) Label() string { return strings.ToUpper(c.String()) }

// parseCriterion parses cv, rciw or kld (any case).
func parseCriterion(s string) (Criterion, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for i, n := range criterionNames {
		if n == t {
			return Criterion(i), nil
		}
	}
	return 0, fmt.Errorf("unknown stoppage criterion %q (want cv, rciw or kld)", s)
}

// ParseCriteria parses a comma-separated list such as "cv,rciw,kld".
// Duplicates are an error; the order is kept.
func ParseCriteria(s string) ([]Criterion, error) {
	var out []Criterion
	seen := map[Criterion]bool{}
	for _, part := range strings.Split(s, ",") {
		c, err := parseCriterion(part)
		if err != nil {
			return nil, err
		}
		if seen[c] {
			return nil, fmt.Errorf("stoppage criterion %s given twice in %q", c, s)
		}
		seen[c] = true
		out = append(out, c)
	}
	return out, nil
}

// Thresholds are the stability thresholds of the three criteria.
type Thresholds struct {
	// CV and RCIW bound the range (max − min) of the window's statistics.
	CV, RCIW float64
	// KLD is the bound the window's mean probability must exceed.
	KLD float64
}

// defaultThresholds are the paper's: CV 0.01, RCIW 0.03, KLD 0.99.
var defaultThresholds = Thresholds{CV: 0.01, RCIW: 0.03, KLD: 0.99}

// of returns the threshold of criterion c.
func (t Thresholds) of(c Criterion) float64 {
	switch c {
	case CriterionCV:
		return t.CV
	case CriterionRCIW:
		return t.RCIW
	case CriterionKLD:
		return t.KLD
	}
	panic("reconfigure: unknown criterion")
}

// Overheads are the relative costs of computing each criterion after every
// warmup iteration, as fractions of the iteration time.
type Overheads struct {
	CV, RCIW, KLD float64
}

// defaultOverheads are the overheads measured by Laaber et al. (ESEC/FSE
// 2020): CV 0.88 %, RCIW 10.92 %, KLD 4.32 %.
var defaultOverheads = Overheads{CV: 0.0088, RCIW: 0.1092, KLD: 0.0432}

// of returns the overhead of criterion c.
func (o Overheads) of(c Criterion) float64 {
	switch c {
	case CriterionCV:
		return o.CV
	case CriterionRCIW:
		return o.RCIW
	case CriterionKLD:
		return o.KLD
	}
	panic("reconfigure: unknown criterion")
}

// Baseline is the static configuration the dynamic one is compared with.
type Baseline struct {
	// Warmup and Measurement are the iterations per fork; Forks the forks.
	Warmup, Measurement, Forks int
}

// defaultBaseline is the paper's static baseline: 50 warmup and 50
// measurement iterations in each of 5 forks.
var defaultBaseline = Baseline{Warmup: 50, Measurement: 50, Forks: 5}

// Options configures the replay. Start from DefaultOptions.
type Options struct {
	// Config is ⟨wi_min, wi_max, mi, f_min, f_max⟩.
	Config Config
	// Window is the sliding window s_W of cumulative iteration sets (Eq. 1).
	Window int
	// ForkWindow is the window of cumulative fork sets (Eq. 2); 0 means
	// Window. A window holds the last min(window, n) sets when only n exist
	// (the first check after fork f_min = 2 sees two sets). The prototype
	// (sealuzh/jmh, StatisticalForkEvaluationFactory) compares consecutive
	// fork sets only, i.e. ForkWindow 2.
	ForkWindow int
	// Criteria to replay; nil means AllCriteria.
	Criteria []Criterion
	// Thresholds and Overheads of the criteria.
	Thresholds Thresholds
	Overheads  Overheads
	// InvocationSample is the number of invocations drawn per sample-mode
	// iteration for the criteria (1,000 in the prototype).
	InvocationSample int
	// OutlierFactor drops, for the criteria only, invocations slower than
	// OutlierFactor × the iteration's median (10 in the prototype).
	OutlierFactor float64
	// RCIW configures the criterion's hierarchical bootstrap (1,000
	// resamples, 99 %). InvocationSamples 0 resamples iterations (and forks)
	// of the criterion samples; -1 also resamples the sampled invocations,
	// as the prototype's call of pa with -is -1, at InvocationSample times
	// the cost on sample-mode data (it changes nothing for other modes).
	RCIW estimate.HierarchicalOptions
	// Baseline is the static configuration.
	Baseline Baseline
	// AA configures the A/A test's hierarchical bootstrap of the ratio of
	// means: 10,000 resamples at 99 %, resampling forks, then iterations
	// within forks. With InvocationSamples 0 (the default) a resampled
	// iteration contributes its mean over all its invocations (the
	// count-weighted histogram mean); -1 resamples all of its invocations
	// too (pa's -is -1), which converges to the same interval as the
	// iterations hold more invocations and costs one draw per recorded
	// invocation (about 2.5·10⁹ draws per criterion for 250 baseline
	// iterations of 1,000 samples); k > 0 draws k invocations per
	// iteration, which widens the interval when k is much smaller than the
	// invocations an iteration really has.
	AA estimate.HierarchicalOptions
	// IterationTime is the duration of one (warmup or measurement)
	// iteration; 0 takes the setup's measurement time per benchmark, and
	// 1 s when the data do not state it.
	IterationTime time.Duration
	// Select chooses the benchmark runs Run replays (default: the primary
	// metric of all).
	Select table.Filter
	// Seed selects every random draw.
	Seed uint64
	// Workers is the number of benchmarks replayed in parallel (0 = GOMAXPROCS).
	Workers int
	// Progress, when set, is called after each benchmark with the number of
	// benchmarks in all (from any goroutine; it must be safe for concurrent
	// use).
	Progress func(total int)
}

// DefaultOptions is the paper's setup: configuration ⟨5, 50, 10, 2, 5⟩,
// s_W = 5 for iterations and forks, all three criteria with their
// thresholds and overheads, 1,000 invocations per iteration with 10× median
// outlier removal, RCIW by 1,000 resamples at 99 %, the KLD probability over 1,000
// strips of the 1.5·IQR fences clamped at 0 (bandwidth rule nrd, as Laaber
// et al.),
// baseline 50 + 50 iterations × 5 forks, A/A by 10,000 resamples at 99 %
// over forks and iterations (iteration means of all invocations), seed 1.
var DefaultOptions = Options{
	Config:           defaultConfig,
	Window:           5,
	Thresholds:       defaultThresholds,
	Overheads:        defaultOverheads,
	InvocationSample: 1000,
	OutlierFactor:    10,
	RCIW:             estimate.HierarchicalOptions{BootstrapOptions: estimate.BootstrapOptions{Resamples: 1000, Confidence: 0.99}},
	Baseline:         defaultBaseline,
	AA:               estimate.HierarchicalOptions{BootstrapOptions: estimate.BootstrapOptions{Resamples: 10000, Confidence: 0.99}},
	Seed:             1,
}

// criteria returns the criteria to replay.
func (o *Options) criteria() []Criterion {
	if o.Criteria == nil {
		return AllCriteria
	}
	return o.Criteria
}

// forkWindow returns the window over cumulative fork sets.
func (o *Options) forkWindow() int {
	if o.ForkWindow == 0 {
		return o.Window
	}
	return o.ForkWindow
}

// Validate reports the first unusable option.
func (o *Options) Validate() error {
	c := o.Config
	switch {
	case c.WarmupMin < 0 || c.WarmupMax < c.WarmupMin:
		return fmt.Errorf("reconfigure: need 0 <= wi_min <= wi_max, got wi_min %d, wi_max %d", c.WarmupMin, c.WarmupMax)
	case c.Measurement < 1:
		return fmt.Errorf("reconfigure: need mi >= 1, got %d", c.Measurement)
	case c.ForksMin < 1 || c.ForksMax < c.ForksMin:
		return fmt.Errorf("reconfigure: need 1 <= f_min <= f_max, got f_min %d, f_max %d", c.ForksMin, c.ForksMax)
	case o.Window < 2:
		return fmt.Errorf("reconfigure: window s_W must be at least 2, got %d", o.Window)
	case o.ForkWindow != 0 && o.ForkWindow < 2:
		return fmt.Errorf("reconfigure: fork window must be 0 (= s_W) or at least 2, got %d", o.ForkWindow)
	case o.InvocationSample < 1:
		return fmt.Errorf("reconfigure: invocation sample size must be at least 1, got %d", o.InvocationSample)
	case !(o.OutlierFactor > 1) || math.IsInf(o.OutlierFactor, 0):
		return fmt.Errorf("reconfigure: outlier factor must be finite and above 1, got %v", o.OutlierFactor)
	case o.Baseline.Warmup < 0 || o.Baseline.Measurement < 1 || o.Baseline.Forks < 1:
		return fmt.Errorf("reconfigure: baseline needs warmup >= 0, measurement >= 1 and forks >= 1, got %+v", o.Baseline)
	case o.IterationTime < 0:
		return fmt.Errorf("reconfigure: iteration time must not be negative, got %v", o.IterationTime)
	case o.Workers < 0:
		return fmt.Errorf("reconfigure: workers must not be negative, got %d", o.Workers)
	}
	type named struct {
		name string
		v    float64
	}
	for _, t := range []named{{"cv", o.Thresholds.CV}, {"rciw", o.Thresholds.RCIW}, {"kld", o.Thresholds.KLD}} {
		if !(t.v >= 0) || math.IsInf(t.v, 0) {
			return fmt.Errorf("reconfigure: %s threshold must be finite and >= 0, got %v", t.name, t.v)
		}
	}
	if !(o.Thresholds.KLD <= 1) {
		return fmt.Errorf("reconfigure: kld threshold is a probability, got %v", o.Thresholds.KLD)
	}
	for _, v := range []named{{"cv", o.Overheads.CV}, {"rciw", o.Overheads.RCIW}, {"kld", o.Overheads.KLD}} {
		if !(v.v >= 0) || math.IsInf(v.v, 0) {
			return fmt.Errorf("reconfigure: %s overhead must be finite and >= 0, got %v", v.name, v.v)
		}
	}
	if o.Criteria != nil && len(o.Criteria) == 0 {
		return fmt.Errorf("reconfigure: no stoppage criterion selected")
	}
	seen := map[Criterion]bool{}
	for _, c := range o.Criteria {
		if c >= numCriteria {
			return fmt.Errorf("reconfigure: unknown criterion %d", int(c))
		}
		if seen[c] {
			return fmt.Errorf("reconfigure: criterion %s given twice", c)
		}
		seen[c] = true
	}
	if err := o.RCIW.Validate(); err != nil {
		return fmt.Errorf("reconfigure: rciw criterion: %w", err)
	}
	if err := o.AA.Validate(); err != nil {
		return fmt.Errorf("reconfigure: A/A test: %w", err)
	}
	return nil
}
