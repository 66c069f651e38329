package steady

import (
	"fmt"
	"math"

	"github.com/benchtrim/benchtrim/changepoint"
	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/stats"
)

var nan = math.NaN()

// ForkID names a fork by its repetition indices (1-based, as in the table).
type ForkID struct {
	Instance, Trial, Fork int32
}

// String formats the id as "fork 3", or "instance 2 trial 1 fork 3" when
// the outer levels are not 1.
func (id ForkID) String() string {
	if id.Instance <= 1 && id.Trial <= 1 {
		return fmt.Sprintf("fork %d", id.Fork)
	}
	return fmt.Sprintf("instance %d trial %d fork %d", id.Instance, id.Trial, id.Fork)
}

// forkSeries is the time series of one fork: one value per recorded iteration,
// from the first iteration on.
type forkSeries struct {
	id ForkID
	// values are the iteration values in ns/op, in iteration order.
	values []float64
	// nanos are the iterations' durations in ns (see forksOf).
	nanos []float64
	// ops is the number of operations in one iteration, for trainiSkip
	// (values below 1 count as 1).
	ops float64
	// dropped counts iterations left out because their value was not finite.
	dropped int
}

// ForkClass is the steady-state class of a fork.
type ForkClass int

const (
	// ForkSteady: the steady part covers at least the last SteadyWindow iterations.
	ForkSteady ForkClass = iota
	// ForkNoSteady: a non-equivalent segment ends within the last SteadyWindow iterations.
	ForkNoSteady
	// ForkTooShort: the fork has fewer than SteadyWindow iterations, so
	// whether it reaches a steady state cannot be decided.
	ForkTooShort
	// ForkFailed: segmentation failed (the error is in ForkResult.Err).
	ForkFailed
)

// String returns "steady state", "no steady state", "too short" or "failed",
// the labels of the CSV outputs (Traini's scripts use the first two).
func (c ForkClass) String() string {
	switch c {
	case ForkSteady:
		return "steady state"
	case ForkNoSteady:
		return "no steady state"
	case ForkTooShort:
		return "too short"
	case ForkFailed:
		return "failed"
	}
	return fmt.Sprintf("ForkClass(%d)", int(c))
}

// BarrettClass is Barrett et al.'s finer classification of a fork.
type BarrettClass int

const (
	// BarrettFlat: steady, and every segment is equivalent to the last.
	BarrettFlat BarrettClass = iota
	// BarrettWarmup: steady, and the steady state is faster than what precedes it.
	BarrettWarmup
	// BarrettSlowdown: steady, and the steady state is slower than what precedes it.
	BarrettSlowdown
	// BarrettNoSteady: no steady state.
	BarrettNoSteady
	// BarrettUndecided: the fork is too short or failed.
	BarrettUndecided
)

// String returns "flat", "warmup", "slowdown", "no steady state" or "-".
func (c BarrettClass) String() string {
	switch c {
	case BarrettFlat:
		return "flat"
	case BarrettWarmup:
		return "warmup"
	case BarrettSlowdown:
		return "slowdown"
	case BarrettNoSteady:
		return "no steady state"
	case BarrettUndecided:
		return "-"
	}
	return fmt.Sprintf("BarrettClass(%d)", int(c))
}

// Verdict is the outcome of an equivalence test.
type Verdict int8

const (
	// VerdictUntested: the walk stopped before reaching this segment (or it is the last).
	VerdictUntested Verdict = iota
	// VerdictEquivalent: equivalent to the last segment.
	VerdictEquivalent
	// VerdictDifferent: different from the last segment.
	VerdictDifferent
)

// String returns "", "equivalent" or "different".
func (v Verdict) String() string {
	switch v {
	case VerdictEquivalent:
		return "equivalent"
	case VerdictDifferent:
		return "different"
	}
	return ""
}

// Segment is one segment of a fork in the fork's iteration indices.
type Segment struct {
	// Start and End bound the segment, [Start, End), in the fork's 0-based
	// iteration indices; outliers between two segments belong to the later.
	Start, End int
	// Points is the number of non-outlier iterations in the segment; Mean
	// and Variance (maximum likelihood, divisor Points) are theirs, in ns/op
	// and (ns/op)².
	Points         int
	Mean, Variance float64
	// Verdict compares the segment with the last segment; Low and High are
	// the bootstrap CI of mean(last)/mean(segment) when a Traini rule tested it.
	Verdict   Verdict
	Low, High float64
}

// ForkResult is the steady-state analysis of one fork.
type ForkResult struct {
	ID ForkID
	// Points is the number of iterations analysed; Dropped the non-finite
	// iterations left out before; Skip the leading points not tested for
	// outliers.
	Points, Dropped, Skip int
	// Outliers are the 0-based indices of the outliers.
	Outliers []int
	// Penalty and PenaltyRule say how the series was segmented (see
	// segmentation.rule).
	Penalty     float64
	PenaltyRule string
	// Changepoints are the 0-based iteration indices where segments 2…k
	// start (for a series without outliers, R's cpts()).
	Changepoints []int
	Segments     []Segment
	Class        ForkClass
	Barrett      BarrettClass
	// SteadyStart is st, the 0-based index of the first steady iteration
	// (the number of iterations before the steady state), and
	// SteadySeconds the elapsed time before it; -1 and NaN unless Class is
	// ForkSteady.
	SteadyStart   int
	SteadySeconds float64
	// SteadyMean is the mean of the non-outlier values from SteadyStart on
	// (NaN unless steady); TotalSeconds the fork's duration.
	SteadyMean   float64
	TotalSeconds float64
	// Err is the segmentation error of a failed fork.
	Err string
	// CROPS and Knee are kept when Options.KeepCROPS is set; Values when
	// Options.KeepValues is set (for plots).
	CROPS  *changepoint.CROPSResult
	Knee   *changepoint.KneeSelection
	Values []float64
}

// Stream blocks: the equivalence test of segment k uses block k; RPDs use
// the blocks below.
const (
	blockForkRPD      = 1 << 40
	blockBenchmarkRPD = 1 << 41
)

func forkStreamKey(benchmark string, id ForkID) string {
	return fmt.Sprintf("%s|%d/%d/%d", benchmark, id.Instance, id.Trial, id.Fork)
}

// analyzer holds per-goroutine state.
type analyzer struct {
	opt *Options
	seg Segmenter
	ws  stats.Workspace
}

// analyzeFork runs the steady-state analysis of one fork with steady
// window w; benchmark keys the bootstrap streams.
func (a *analyzer) analyzeFork(benchmark string, f *forkSeries, w int) ForkResult {
	opt := a.opt
	x := f.values
	n := len(x)
	r := ForkResult{ID: f.id, Points: n, Dropped: f.dropped, SteadyStart: -1, SteadySeconds: nan, SteadyMean: nan, Penalty: nan}
	for _, d := range f.nanos {
		r.TotalSeconds += d
	}
	r.TotalSeconds *= 1e-9
	if opt.KeepValues {
		r.Values = x
	}
	if n == 0 {
		r.Class, r.Barrett, r.Err = ForkFailed, BarrettUndecided, "no iterations"
		return r
	}

	// 1. Outliers.
	r.Skip = opt.Outliers.Skip
	if r.Skip < 0 {
		r.Skip = trainiSkip(opt.Outliers.Window, f.ops)
	}
	r.Outliers = findOutliers(x, opt.Outliers, r.Skip)
	idx := make([]int, 0, n-len(r.Outliers)) // original index of each kept point
	y := make([]float64, 0, n-len(r.Outliers))
	o := 0
	for i, v := range x {
		if o < len(r.Outliers) && r.Outliers[o] == i {
			o++
			continue
		}
		idx = append(idx, i)
		y = append(y, v*opt.SegmentScale)
	}

	// 2. Segmentation.
	sg, err := a.seg.Segment(y)
	if err == nil {
		err = checkChangepoints(sg.Changepoints, len(y))
	}
	if err != nil {
		r.Class, r.Barrett, r.Err = ForkFailed, BarrettUndecided, err.Error()
		return r
	}
	r.Penalty, r.PenaltyRule = sg.Penalty, sg.Rule
	if opt.KeepCROPS {
		r.CROPS, r.Knee = sg.CROPS, sg.Knee
	}
	for i := range y {
		y[i] = x[idx[i]] // back to ns/op for means, variances and tests
	}
	bounds := append(append([]int{0}, sg.Changepoints...), len(y))
	r.Segments = make([]Segment, len(bounds)-1)
	for j := range r.Segments {
		a, b := bounds[j], bounds[j+1]
		s := Segment{Start: 0, End: n, Points: b - a, Low: nan, High: nan}
		if j > 0 {
			s.Start = idx[a-1] + 1
		}
		if j < len(r.Segments)-1 {
			s.End = idx[b-1] + 1
		}
		s.Mean, s.Variance = meanVar(y[a:b])
		r.Segments[j] = s
		if j > 0 {
			r.Changepoints = append(r.Changepoints, s.Start)
		}
	}

	// 3. Steady-state start: walk back from the second-last segment to the
	// first one that differs from the last.
	K := len(r.Segments)
	last := K - 1
	firstSteady := 0
	switch opt.Equivalence {
	case equivalenceBarrett:
		lower, upper := a.barrettBand(r.Segments)
		for k := last - 1; k >= 0; k-- {
			if barrettOverlaps(r.Segments[k], lower, upper) {
				r.Segments[k].Verdict = VerdictEquivalent
				continue
			}
			r.Segments[k].Verdict = VerdictDifferent
			if firstSteady == 0 {
				firstSteady = k + 1
			}
		}
	default:
		for k := last - 1; k >= 0; k-- {
			lo, hi := a.ratioCI(y[bounds[last]:], y[bounds[k]:bounds[k+1]], stats.NewStream(opt.Seed, forkStreamKey(benchmark, f.id), uint64(k)))
			s := &r.Segments[k]
			s.Low, s.High = lo, hi
			if a.equivalentCI(lo, hi) {
				s.Verdict = VerdictEquivalent
				continue
			}
			s.Verdict = VerdictDifferent
			firstSteady = k + 1
			break
		}
	}
	st := r.Segments[firstSteady].Start

	// 4. Classes.
	switch {
	case n < w:
		r.Class, r.Barrett = ForkTooShort, BarrettUndecided
		return r
	case st > n-w:
		r.Class, r.Barrett = ForkNoSteady, BarrettNoSteady
		return r
	}
	r.Class = ForkSteady
	r.SteadyStart = st
	r.SteadySeconds = 0
	for _, d := range f.nanos[:st] {
		r.SteadySeconds += d
	}
	r.SteadySeconds *= 1e-9
	r.SteadyMean, _ = meanVar(y[bounds[firstSteady]:])
	r.Barrett = a.barrettClass(r.Segments, firstSteady)
	return r
}

// equivalentCI applies the Traini rules to the CI [lo, hi] of
// mean(last)/mean(segment).
func (a *analyzer) equivalentCI(lo, hi float64) bool {
	t := a.opt.Threshold
	if a.opt.Equivalence == equivalenceTrainiStrict {
		return lo >= 1-t && hi <= 1+t
	}
	return !(hi <= 1-t || lo >= 1+t)
}

// barrettBand returns Barrett's band [min(m − v, m − δ), max(m + v, m + δ)]
// around the last segment, in seconds.
func (a *analyzer) barrettBand(segs []Segment) (lower, upper float64) {
	fastest := math.Inf(1)
	for _, s := range segs {
		fastest = math.Min(fastest, s.Mean*1e-9)
	}
	delta := a.opt.BarrettDelta.absolute(fastest)
	l := segs[len(segs)-1]
	m, v := l.Mean*1e-9, l.Variance*1e-18
	return math.Min(m-v, m-delta), math.Max(m+v, m+delta)
}

// barrettOverlaps reports whether [m_k − v_k, m_k + v_k] (seconds) meets [lower, upper].
func barrettOverlaps(s Segment, lower, upper float64) bool {
	m, v := s.Mean*1e-9, s.Variance*1e-18
	return m+v >= lower && m-v <= upper
}

// barrettClass refines a steady fork whose steady part starts at segment
// firstSteady. With every segment equivalent it is flat. Under the Barrett
// rule it follows warmup_stats: walking back over the segments that differ
// from the last, the first one reaching below the band makes it a slowdown,
// otherwise it is a warmup. Under the Traini rules only the segment just
// before the steady state was tested: a warmup when its mean is above the
// last segment's, a slowdown otherwise.
func (a *analyzer) barrettClass(segs []Segment, firstSteady int) BarrettClass {
	if firstSteady == 0 {
		return BarrettFlat
	}
	last := segs[len(segs)-1]
	if a.opt.Equivalence != equivalenceBarrett {
		if segs[firstSteady-1].Mean > last.Mean {
			return BarrettWarmup
		}
		return BarrettSlowdown
	}
	lower, _ := a.barrettBand(segs)
	for k := firstSteady - 1; k >= 0; k-- {
		s := segs[k]
		if s.Verdict != VerdictDifferent {
			continue
		}
		if s.Mean*1e-9-s.Variance*1e-18 < lower {
			return BarrettSlowdown
		}
	}
	return BarrettWarmup
}

// ratioCI returns the percentile bootstrap CI of mean(test)/mean(control),
// Kalibera and Jones' CI of a ratio of means ("Quantifying performance
// changes with effect size confidence intervals", Univ. of Kent TR 4-12,
// 2012): each of the B replicates resamples test and control independently,
// uniformly with replacement, each to its own size, and divides their means
// (Traini et al.'s kalibera.interval_fork). NaN bounds when a sample is empty.
func (a *analyzer) ratioCI(test, control []float64, rng *stats.Stream) (lo, hi float64) {
	if len(test) == 0 || len(control) == 0 {
		return nan, nan
	}
	ht, err1 := stats.NewHierarchy(test, nil)
	hc, err2 := stats.NewHierarchy(control, nil)
	if err1 != nil || err2 != nil {
		return nan, nan
	}
	ci, err := stats.HierarchicalRatioCI(ht, hc, estimate.HierarchicalOptions{BootstrapOptions: a.opt.Bootstrap, InvocationSamples: -1}, rng, &a.ws)
	if err != nil {
		return nan, nan
	}
	return ci.Ratio.Lower, ci.Ratio.Upper
}

// meanVar returns the mean and the maximum likelihood variance (divisor n)
// of x, as R's param.est for cpt.meanvar; NaN for an empty x.
func meanVar(x []float64) (mean, variance float64) {
	if len(x) == 0 {
		return nan, nan
	}
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		d := v - mean
		variance += d * d
	}
	return mean, variance / float64(len(x))
}

// checkChangepoints reports change points that are not strictly increasing
// inside (0, n).
func checkChangepoints(cps []int, n int) error {
	prev := 0
	for _, c := range cps {
		if c <= prev || c >= n {
			return fmt.Errorf("steady: segmenter returned change points %v for %d points", cps, n)
		}
		prev = c
	}
	return nil
}
