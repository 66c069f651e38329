package reconfigure

import (
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/internal/workpool"
	"github.com/benchtrim/benchtrim/table"
)

// ForkResult is where dynamic reconfiguration stopped the warmup of one fork.
type ForkResult struct {
	// Instance, Trial and Fork identify the fork in the data.
	Instance, Trial, Fork int32
	// Iterations is the number of iterations the fork has in the data.
	Iterations int
	// WarmupIterations is wi_f: the warmup iterations run before measuring.
	WarmupIterations int
	// MeasurementIterations is mi, or fewer when the fork has no more data.
	MeasurementIterations int
	// WarmupStable is true when the criterion stopped the warmup; false
	// when it ran to its cap (wi_max, or the last iteration that still
	// leaves mi measurements in a short fork).
	WarmupStable bool
	// Value is the criterion's value at the last check (the range of the
	// window's CVs or RCIWs, or the mean KLD probability); NaN when no check
	// was possible.
	Value float64
	// Short is true when the fork has fewer than wi_max + mi iterations.
	Short bool
}

// AAResult is the A/A test between the static baseline and the dynamic
// measurements of one benchmark.
type AAResult struct {
	// Available is false when the baseline or the dynamic measurements are
	// empty; Reason says why.
	Available bool
	Reason    string
	// Ratio is mean(dynamic) / mean(baseline) with its hierarchical
	// bootstrap interval, and the intervals of both means.
	Ratio estimate.RatioCI
	// NotDifferent is true when the ratio's interval contains 1.
	NotDifferent bool
	// ChangeRate is |Ratio.Ratio.Estimate − 1|.
	ChangeRate float64
}

// CriterionResult is the replay of one benchmark under one criterion.
type CriterionResult struct {
	Criterion Criterion
	// Forks are the forks run, in order; len(Forks) is the number of forks used.
	Forks []ForkResult
	// ForksStable is true when the criterion stopped the forks before f_max
	// (or before the data ran out of forks).
	ForksStable bool
	// ForksValue is the criterion's value at the last fork check.
	ForksValue float64
	// AA compares the dynamic measurements with the baseline.
	AA AAResult
	// DynamicSeconds is t_dyn = Σ_f [(1 + o)·wi_f·wt + mi_f·mt].
	DynamicSeconds float64
}

// forksUsed is the number of forks run.
func (r *CriterionResult) forksUsed() int { return len(r.Forks) }

// WarmupCapped is the number of forks whose warmup never became stable.
func (r *CriterionResult) WarmupCapped() int {
	n := 0
	for _, f := range r.Forks {
		if !f.WarmupStable {
			n++
		}
	}
	return n
}

// Result is the replay of one benchmark run (series).
type Result struct {
	Key table.Key
	// Skipped is non-empty when the series could not be replayed; the
	// remaining fields except Key and Warnings are then zero.
	Skipped string
	// Warnings are things about the data a reader should know.
	Warnings []string
	// SampleMode is true when criteria used invocation samples.
	SampleMode bool
	// ForksInData and IterationsInData describe the recording (iterations
	// per fork, in fork order).
	ForksInData      int
	IterationsInData []int
	// Short is true when the data hold less than the replay or the baseline
	// asks for: fewer forks than f_max or the baseline's forks, a fork with
	// fewer than wi_max + mi iterations, or fewer baseline iterations.
	Short bool
	// IterationSeconds is wt = mt, the duration of one iteration.
	IterationSeconds float64
	// StaticSeconds is the static baseline's time forks·(wi + mi)·wt.
	StaticSeconds float64
	// BaselineForks and BaselineIterations are what the data hold of the
	// baseline's measurement iterations (short data hold less).
	BaselineForks, BaselineIterations int
	// Criteria has one entry per replayed criterion, in Options order.
	Criteria []CriterionResult
}

// Criterion returns the result of criterion c, or nil.
func (r *Result) Criterion(c Criterion) *CriterionResult {
	for i := range r.Criteria {
		if r.Criteria[i].Criterion == c {
			return &r.Criteria[i]
		}
	}
	return nil
}

// replayAll replays every series and returns one Result per series, in order.
// Series are replayed in parallel on opt.Workers goroutines; the results do
// not depend on the number of workers. A series the replay cannot use (no
// iterations, a non-positive or non-finite value) gets a Result with Skipped
// set rather than an error; errors are returned for invalid options only.
func replayAll(series []*table.Series, opt Options) ([]Result, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	pool := sync.Pool{New: func() any { return new(stats.Workspace) }}
	return workpool.Map(len(series), opt.Workers, func(i int) (Result, error) {
		ws := pool.Get().(*stats.Workspace)
		defer pool.Put(ws)
		r := replay(series[i], &opt, ws)
		if opt.Progress != nil {
			opt.Progress(len(series))
		}
		return r, nil
	})
}

// replaySeries replays one series with its own workspace (see Run).
func replaySeries(s *table.Series, opt Options) (Result, error) {
	if err := opt.Validate(); err != nil {
		return Result{}, err
	}
	return replay(s, &opt, new(stats.Workspace)), nil
}

func replay(s *table.Series, opt *Options, ws *stats.Workspace) Result {
	res := Result{Key: s.Key}
	d, err := splitSeries(s)
	if err != nil {
		res.Skipped = err.Error()
		return res
	}
	// Finite values whose sums overflow would give ±Inf or NaN statistics.
	if err := stats.CheckCountedSums(s.NsPerOp, s.Count); err != nil {
		res.Skipped = "ns/op " + err.Error()
		return res
	}
	res.Warnings = d.warnings
	res.SampleMode = d.sampleMode
	res.ForksInData = len(d.forks)
	cfg := opt.Config
	res.Short = len(d.forks) < cfg.ForksMax
	for _, f := range d.forks {
		res.IterationsInData = append(res.IterationsInData, len(f.iters))
	}
	for _, n := range res.IterationsInData[:min(len(d.forks), cfg.ForksMax)] {
		if n < cfg.WarmupMax+cfg.Measurement {
			res.Short = true
		}
	}
	iterNs := opt.IterationTime.Nanoseconds()
	if iterNs == 0 {
		iterNs = s.Setup.IterationTimeNs()
	}
	if iterNs <= 0 {
		iterNs = int64(time.Second)
	}
	res.IterationSeconds = float64(iterNs) / 1e9
	b := opt.Baseline
	res.StaticSeconds = float64(b.Forks) * float64(b.Warmup+b.Measurement) * res.IterationSeconds

	samples, dropped := criterionSamples(d, opt)
	if dropped > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d histogram rows slower than %g× their iteration's median left out of the criteria", dropped, opt.OutlierFactor))
	}
	base, baseForks, baseIters, err := baselineHierarchy(d, opt)
	if err != nil {
		res.Skipped = err.Error()
		return res
	}
	res.BaselineForks, res.BaselineIterations = baseForks, baseIters
	if baseIters < b.Forks*b.Measurement {
		res.Short = true
	}
	for _, c := range opt.criteria() {
		cr, err := replayCriterion(d, c, opt, samples, ws)
		if err != nil {
			res.Skipped = fmt.Sprintf("%s criterion: %v", c, err)
			res.Criteria = nil
			return res
		}
		o := opt.Overheads.of(c)
		for _, f := range cr.Forks {
			cr.DynamicSeconds += ((1+o)*float64(f.WarmupIterations) + float64(f.MeasurementIterations)) * res.IterationSeconds
		}
		cr.AA = aaTest(d, &cr, base, opt, ws)
		res.Criteria = append(res.Criteria, cr)
	}
	if q := nonFinite(res.Criteria); q != "" {
		res.Skipped = q + " is not finite (the values overflow float64)"
		res.Criteria = nil
	}
	return res
}

// criterionSamples draws the criterion samples of the iterations the
// replay can look at: the first wi_max + mi iterations of the first f_max forks.
func criterionSamples(d *benchData, opt *Options) ([][]weighted, int) {
	sm := &sampler{opt: opt}
	cfg := opt.Config
	out := make([][]weighted, min(len(d.forks), cfg.ForksMax))
	dropped := 0
	for f := range out {
		iters := d.forks[f].iters
		n := min(len(iters), cfg.WarmupMax+cfg.Measurement)
		out[f] = make([]weighted, n)
		for k := 0; k < n; k++ {
			var rng *stats.Stream
			if d.sampleMode {
				rng = stats.NewStream(opt.Seed, d.key, block(purposeSample, 0, f, k))
			}
			var dr int
			out[f][k], dr = sm.sample(d, iters[k], rng)
			dropped += dr
		}
	}
	return out, dropped
}

// replayCriterion runs Algorithm 1 of Laaber et al. with criterion c on the
// recorded forks.
func replayCriterion(d *benchData, c Criterion, opt *Options, samples [][]weighted, ws *stats.Workspace) (CriterionResult, error) {
	cfg := opt.Config
	cr := CriterionResult{Criterion: c, ForksValue: math.NaN()}
	forks := newPhase(c, opt, true, purposeForkRCIW, 0, d.key, ws)
	for f := range samples {
		fd := d.forks[f]
		n := len(fd.iters)
		fr := ForkResult{Instance: fd.instance, Trial: fd.trial, Fork: fd.fork, Iterations: n, Value: math.NaN(),
			Short: n < cfg.WarmupMax+cfg.Measurement}
		// Warmup (Eq. 1): after iteration i >= wi_min, stop when stable;
		// at most wi_max, and no further than leaves mi measurements.
		capAt := max(0, min(cfg.WarmupMax, n-cfg.Measurement))
		warm := newPhase(c, opt, false, purposeWarmupRCIW, f, d.key, ws)
		fr.WarmupIterations = capAt
		for i := 1; i <= capAt; i++ {
			if err := warm.add(samples[f][i-1:i], 0); err != nil {
				return cr, fmt.Errorf("fork %d warmup iteration %d: %w", fd.fork, i, err)
			}
			if i < cfg.WarmupMin {
				continue
			}
			stable, v, err := warm.check(opt.Window)
			if err != nil {
				return cr, fmt.Errorf("fork %d warmup iteration %d: %w", fd.fork, i, err)
			}
			fr.Value = v
			if stable {
				fr.WarmupIterations, fr.WarmupStable = i, true
				break
			}
		}
		fr.MeasurementIterations = min(cfg.Measurement, n-fr.WarmupIterations)
		cr.Forks = append(cr.Forks, fr)
		// Forks (Eq. 2): after fork f >= f_min, stop when stable over the
		// cumulative sets of the forks' measurement iterations.
		if err := forks.add(samples[f][fr.WarmupIterations:fr.WarmupIterations+fr.MeasurementIterations], int32(f+1)); err != nil {
			return cr, fmt.Errorf("after fork %d: %w", fd.fork, err)
		}
		if f+1 < cfg.ForksMin {
			continue
		}
		stable, v, err := forks.check(opt.forkWindow())
		if err != nil {
			return cr, fmt.Errorf("after fork %d: %w", fd.fork, err)
		}
		cr.ForksValue = v
		if stable {
			cr.ForksStable = true
			break
		}
	}
	return cr, nil
}

// rowsOf appends the rows of the iteration spans to a hierarchy's columns,
// with fork ids outer and running iteration ids inner.
type hierCols struct {
	vals, wts    []float64
	forks, iters []int32
	n            int32
}

func (h *hierCols) add(s *table.Series, sp table.Span, fork int32) {
	h.n++
	for i := sp.Start; i < sp.End; i++ {
		c := float64(s.Count[i])
		if c <= 0 {
			c = 1
		}
		h.vals = append(h.vals, s.NsPerOp[i])
		h.wts = append(h.wts, c)
		h.forks = append(h.forks, fork)
		h.iters = append(h.iters, h.n)
	}
}

func (h *hierCols) build() (*stats.Hierarchy, error) {
	return stats.NewHierarchy(h.vals, h.wts, h.forks, h.iters)
}

// baselineHierarchy collects the static baseline's measurement iterations:
// iterations wi_s+1 … wi_s+mi_s of the first forks_s forks. It returns nil
// when the data hold none of them.
func baselineHierarchy(d *benchData, opt *Options) (*stats.Hierarchy, int, int, error) {
	b := opt.Baseline
	var cols hierCols
	forks := 0
	for f := 0; f < min(len(d.forks), b.Forks); f++ {
		iters := d.forks[f].iters
		if len(iters) <= b.Warmup {
			continue
		}
		forks++
		for _, sp := range iters[b.Warmup:min(len(iters), b.Warmup+b.Measurement)] {
			cols.add(d.s, sp, int32(f+1))
		}
	}
	if cols.n == 0 {
		return nil, 0, 0, nil
	}
	h, err := cols.build()
	if err != nil {
		return nil, 0, 0, fmt.Errorf("baseline: %w", err)
	}
	return h, forks, int(cols.n), nil
}

// aaTest compares the dynamic measurements of cr with the baseline.
func aaTest(d *benchData, cr *CriterionResult, base *stats.Hierarchy, opt *Options, ws *stats.Workspace) AAResult {
	if base == nil {
		return AAResult{Reason: fmt.Sprintf("no baseline: no fork has more than %d iterations", opt.Baseline.Warmup)}
	}
	var cols hierCols
	for f, fr := range cr.Forks {
		iters := d.forks[f].iters
		for _, sp := range iters[fr.WarmupIterations : fr.WarmupIterations+fr.MeasurementIterations] {
			cols.add(d.s, sp, int32(f+1))
		}
	}
	if cols.n == 0 {
		return AAResult{Reason: "no dynamic measurements"}
	}
	dyn, err := cols.build()
	if err != nil {
		return AAResult{Reason: err.Error()}
	}
	rng := stats.NewStream(opt.Seed, d.key, block(purposeAA, cr.Criterion, 0, 0))
	r, err := stats.HierarchicalRatioCI(dyn, base, opt.AA, rng, ws)
	if err != nil {
		return AAResult{Reason: err.Error()}
	}
	return AAResult{
		Available:    true,
		Ratio:        r,
		NotDifferent: r.Ratio.Lower <= 1 && 1 <= r.Ratio.Upper,
		ChangeRate:   math.Abs(r.Ratio.Estimate - 1),
	}
}
