package steady

import (
	"github.com/benchtrim/benchtrim/changepoint"
	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/table"

	"fmt"
	"math"
	"strconv"
	"strings"
)

// PenaltyRule says how the PELT penalty of a fork's series is chosen (the
// rules of changepoint.ParsePenalty).
type PenaltyRule = changepoint.PenaltyRule

const (
	// PenaltyCROPS chooses the penalty per series with CROPS and Kneedle as
	// Traini et al.'s scripts do; where the protocol selects none, 15·log n.
	PenaltyCROPS = changepoint.PenaltyCROPS
	// PenaltyBarrett is Barrett et al.'s fixed 15·log n.
	PenaltyBarrett = changepoint.PenaltyBarrett
	// penaltyManual uses Options.PenaltyValue for every series.
	penaltyManual = changepoint.PenaltyManual
	// PenaltyCROPSAscending is CROPS with the textbook Kneedle curve, 15·log n
	// where it finds no knee. Traini's protocol feeds Kneedle the reversed
	// curve and tends to pick the elbow at a penalty so high that at most
	// one or two change points remain.
	PenaltyCROPSAscending = changepoint.PenaltyCROPSAscending
)

// Equivalence is the rule that decides whether a segment is equivalent to
// the last segment of a fork.
type Equivalence int

const (
	// equivalenceTraini is the rule of Traini et al.'s scripts (kalibera.py,
	// test): with R = mean(last)/mean(segment) and [lo, hi] the percentile
	// bootstrap CI of R (Kalibera and Jones), the two differ when
	//
	//	hi <= 1 − t  or  lo >= 1 + t        (t = Options.Threshold, 5 %)
	//
	// i.e. when the whole CI of the relative difference lies beyond ±t;
	// otherwise they are equivalent.
	equivalenceTraini Equivalence = iota
	// equivalenceTrainiStrict reads "the CI lies within ±t" literally: the
	// two are equivalent only when 1 − t <= lo and hi <= 1 + t. Short, noisy
	// segments are then rarely equivalent, which moves st later.
	equivalenceTrainiStrict
	// equivalenceBarrett is Barrett et al.'s rule (warmup_stats,
	// mark_changepoints_in_json): with the last segment's mean m and variance
	// v and δ = Options.BarrettDelta, a segment with mean m_k and variance v_k
	// is equivalent when [m_k − v_k, m_k + v_k] meets
	//
	//	[min(m − v, m − δ), max(m + v, m + δ)]
	//
	// Means and variances are in seconds per operation, as in Barrett's data.
	equivalenceBarrett
)

// String returns "traini", "traini-strict" or "barrett".
func (e Equivalence) String() string {
	switch e {
	case equivalenceTraini:
		return "traini"
	case equivalenceTrainiStrict:
		return "traini-strict"
	case equivalenceBarrett:
		return "barrett"
	}
	return fmt.Sprintf("Equivalence(%d)", int(e))
}

// ParseEquivalence reads "traini", "traini-strict" or "barrett".
func ParseEquivalence(s string) (Equivalence, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "traini", "":
		return equivalenceTraini, nil
	case "traini-strict":
		return equivalenceTrainiStrict, nil
	case "barrett":
		return equivalenceBarrett, nil
	}
	return 0, fmt.Errorf("equivalence %q: want traini, traini-strict or barrett", s)
}

// BarrettDelta is the δ of Barrett's equivalence rule: an absolute time in
// seconds, or a fraction of the fastest segment's mean (warmup_stats'
// "N%" form) when Relative is set.
type BarrettDelta struct {
	Value    float64
	Relative bool
}

// ParseBarrettDelta reads "0.001" (seconds) or "1%" (of the fastest segment).
func ParseBarrettDelta(s string) (BarrettDelta, error) {
	s = strings.TrimSpace(s)
	rel := strings.HasSuffix(s, "%")
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return BarrettDelta{}, fmt.Errorf("barrett delta %q: want seconds (0.001) or a percentage (1%%)", s)
	}
	if rel {
		return BarrettDelta{Value: v / 100, Relative: true}, nil
	}
	return BarrettDelta{Value: v}, nil
}

// String formats δ as ParseBarrettDelta reads it.
func (d BarrettDelta) String() string {
	if d.Relative {
		return strconv.FormatFloat(d.Value*100, 'g', -1, 64) + "%"
	}
	return strconv.FormatFloat(d.Value, 'g', -1, 64)
}

// absolute returns δ in seconds for segments whose fastest mean is fastest (s).
func (d BarrettDelta) absolute(fastest float64) float64 {
	if d.Relative {
		return d.Value * fastest
	}
	return d.Value
}

// OutlierOptions configures findOutliers.
type OutlierOptions struct {
	// Disabled turns outlier removal off.
	Disabled bool
	// Window is the number of points of a sliding window (200).
	Window int
	// Width is the multiple of the inter-percentile range (3).
	Width float64
	// LowQuantile and HighQuantile bound the range (0.01 and 0.99).
	LowQuantile, HighQuantile float64
	// Skip is the number of leading points of a fork that are never tested
	// (they are not part of any window). A negative value selects Traini's
	// rule per fork (trainiSkip): ceil(Window / log(1 + ops)), with ops the
	// number of operations in one iteration.
	Skip int
}

// defaultOutlierOptions is the setting of Traini et al.'s
// filter_outliers.py: windows of 200, median ± 3·(p99 − p1), Traini's skip.
var defaultOutlierOptions = OutlierOptions{Window: 200, Width: 3, LowQuantile: 0.01, HighQuantile: 0.99, Skip: -1}

// Options configures Run. Start from DefaultOptions.
type Options struct {
	Outliers OutlierOptions

	// Penalty selects the penalty rule; PenaltyValue is the manual penalty
	// (a number or NUMBER·log n, changepoint.ParsePenalty).
	Penalty      PenaltyRule
	PenaltyValue changepoint.PenaltyTerm
	// PenRange is the CROPS penalty range; the zero value is Traini's
	// [4·log n, 10⁵·log n] for a series of n points.
	PenRange changepoint.PenaltyRange
	// SegmentScale multiplies the ns/op values before segmentation. The
	// mean-and-variance cost is scale invariant except for R's clamp, which
	// replaces a segment variance that computes to <= 0 (a constant segment)
	// by an absolute 1e-11; 1 segments in ns, 1e-9 in seconds as Traini's
	// scripts did. The two differ only on series with constant stretches
	// (e.g. quantised single-shot times).
	SegmentScale float64

	// SteadyWindow is W: a fork reaches a steady state when its steady part
	// covers at least its last W iterations. Forks with fewer than W
	// iterations are classified forkTooShort. 0 (the default) chooses W
	// per benchmark run (AutoWindow of its longest fork): Traini's 500 for
	// their forks of 3,000 iterations, 5 to 9 for ordinary JMH JSON's 10
	// to 50 measurement iterations.
	SteadyWindow int

	// Equivalence is the rule comparing segments with the last segment.
	Equivalence Equivalence
	// Threshold is t of the Traini rules (0.05).
	Threshold float64
	// Bootstrap configures the Kalibera-Jones CIs of the Traini rules and of
	// the RPD (10,000 resamples, 95 %).
	Bootstrap estimate.BootstrapOptions
	// BarrettDelta is δ of the Barrett rule (0.001 s).
	BarrettDelta BarrettDelta

	// Seed seeds every bootstrap; streams are keyed by benchmark and fork.
	Seed uint64
	// Workers is the number of benchmarks analysed in parallel (0 =
	// GOMAXPROCS). Results do not depend on it.
	Workers int
	// Segmenter, when not nil, replaces PELT (tests and experiments).
	Segmenter Segmenter
	// KeepCROPS keeps each fork's CROPS result (for plots); it is dropped
	// otherwise to save memory.
	KeepCROPS bool
	// KeepValues keeps each fork's iteration values in its ForkResult (for
	// plots).
	KeepValues bool
	// Configs are the configuration sets Run evaluates (see ConfigSet and
	// replay).
	Configs []ConfigSet
	// Select chooses the benchmark runs Run analyses (default: the primary
	// metric of all).
	Select table.Filter
	// Progress, when not nil, is called once per analysed benchmark with
	// the number of benchmarks in all (from any goroutine).
	Progress func(total int)
}

// DefaultOptions is the setting of Traini et al. (EMSE 2022): Traini's
// outlier rule, PELT mean-and-variance with the penalty from CROPS over
// [4·log n, 10⁵·log n] and Kneedle, the steady window chosen per run
// (AutoWindow: 500 iterations on Traini's forks of 3,000), and
// Traini's equivalence rule with a ±5 % threshold on a 95 % bootstrap CI
// from 10,000 resamples; seed 1. Values are segmented in ns (SegmentScale 1).
var DefaultOptions = Options{
	Outliers:     defaultOutlierOptions,
	Penalty:      PenaltyCROPS,
	SegmentScale: 1,
	SteadyWindow: 0,
	Equivalence:  equivalenceTraini,
	Threshold:    0.05,
	Bootstrap:    estimate.BootstrapOptions{Resamples: 10000, Confidence: 0.95},
	BarrettDelta: BarrettDelta{Value: 0.001},
	Seed:         1,
}

// Validate reports the first unusable option.
func (o *Options) Validate() error {
	if !o.Outliers.Disabled {
		ol := o.Outliers
		if ol.Window < 3 {
			return fmt.Errorf("steady: outlier window %d must be at least 3", ol.Window)
		}
		if !(ol.Width > 0) || math.IsInf(ol.Width, 0) {
			return fmt.Errorf("steady: outlier width %v must be positive", ol.Width)
		}
		if !(0 <= ol.LowQuantile && ol.LowQuantile < ol.HighQuantile && ol.HighQuantile <= 1) {
			return fmt.Errorf("steady: outlier quantiles %v, %v must satisfy 0 <= low < high <= 1", ol.LowQuantile, ol.HighQuantile)
		}
	}
	switch o.Penalty {
	case PenaltyCROPS, PenaltyCROPSAscending:
		for _, b := range []changepoint.PenaltyTerm{o.PenRange.Min, o.PenRange.Max} {
			if !(b.Value >= 0) || math.IsInf(b.Value, 0) {
				return fmt.Errorf("steady: CROPS range %s,%s must have finite bounds >= 0", o.PenRange.Min, o.PenRange.Max)
			}
		}
	case PenaltyBarrett:
	case penaltyManual:
		if v := o.PenaltyValue.Value; !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("steady: penalty %s must be finite and >= 0", o.PenaltyValue)
		}
	default:
		return fmt.Errorf("steady: unknown penalty rule %d", int(o.Penalty))
	}
	if !(o.SegmentScale > 0) || math.IsInf(o.SegmentScale, 0) {
		return fmt.Errorf("steady: segment scale %v must be positive", o.SegmentScale)
	}
	if o.SteadyWindow < 0 {
		return fmt.Errorf("steady: steady window %d must be at least 1 (or 0: chosen per run)", o.SteadyWindow)
	}
	switch o.Equivalence {
	case equivalenceTraini, equivalenceTrainiStrict:
		if !(o.Threshold > 0 && o.Threshold < 1) {
			return fmt.Errorf("steady: equivalence threshold %v must be in (0, 1)", o.Threshold)
		}
	case equivalenceBarrett:
		if !(o.BarrettDelta.Value >= 0) || math.IsInf(o.BarrettDelta.Value, 0) {
			return fmt.Errorf("steady: barrett delta %v must be finite and >= 0", o.BarrettDelta.Value)
		}
	default:
		return fmt.Errorf("steady: unknown equivalence rule %d", int(o.Equivalence))
	}
	return o.Bootstrap.Validate()
}

// The bounds of AutoWindow.
const (
	autoWindowMin = 5
	autoWindowMax = 500
)

// AutoWindow is the steady window of a benchmark run whose longest fork
// has n iterations when Options.SteadyWindow is 0: ⌈n / 6⌉, the share of
// Traini et al.'s setting (W = 500 on forks of 3,000 iterations), at least
// 5 and at most 500. Ordinary JMH JSON (10–50 measurement iterations per
// fork) gets 5–9, so a fork is steady when its last 5–9 iterations are
// equivalent to its last segment; forks shorter than 5 stay too short.
func AutoWindow(n int) int {
	return min(autoWindowMax, max(autoWindowMin, (n+5)/6))
}

// window is the steady window of a run whose longest fork has n
// iterations: SteadyWindow, or AutoWindow(n) when it is 0.
func (o *Options) window(n int) int {
	if o.SteadyWindow > 0 {
		return o.SteadyWindow
	}
	return AutoWindow(n)
}

// ParseWindow parses a steady window: "auto" (0, AutoWindow per run) or a
// whole number of iterations of at least 1.
func ParseWindow(s string) (int, error) {
	if s == "auto" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%s: want auto or a whole number of iterations of at least 1", s)
	}
	return n, nil
}
