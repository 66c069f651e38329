package trim

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/benchtrim/benchtrim/analysis/compare"
	"github.com/benchtrim/benchtrim/analysis/duet"
	"github.com/benchtrim/benchtrim/analysis/optimize"
	"github.com/benchtrim/benchtrim/analysis/reconfigure"
	"github.com/benchtrim/benchtrim/analysis/steady"
	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/table"
)

// Options configures Run. Start from DefaultOptions.
type Options struct {
	// Optimize holds the settings of the full-configuration evaluation
	// (optimize.Run on the data after the warmup: the time model and the
	// commands) and Bootstrap, the hierarchical bootstrap of the precision.
	// Metrics must name exactly one metric; MinRepetitions, Parallel,
	// DiscardWarmup, Select, Seed, Workers and Progress are set by Run.
	Optimize optimize.Options
	// Steady holds the steady-state detection's settings (SteadyWindow
	// decides which JMH forks are long enough for it); Select, Seed,
	// Workers and Progress are set by Run.
	Steady steady.Options
	// Reconfigure holds dynamic reconfiguration's settings, used for the
	// warmup of JMH forks too short for steady-state detection; the first
	// of Criteria is the one whose warmup stop points count (the others
	// are replayed for the report). Select, Seed, Workers and Progress
	// are set by Run.
	Reconfigure reconfigure.Options
	// Duet holds the duet analysis' settings, used for the benchmark runs
	// of the duet modes (seqn, syncduet, duet); Select, Seed, Workers and
	// Progress are set by Run.
	Duet duet.Options
	// Compare holds the A/B comparison's settings, used when a project
	// holds several versions; Seed and Workers are set by Run.
	Compare compare.Options
	// WarmupQuantile is q of the warmup rule: the recommended warmup is
	// W = ⌈Q_q(st_1, …, st_k)⌉ iterations over the k steady forks (or the
	// k forks' reconfiguration stop points), Q_q the type-7 quantile.
	WarmupQuantile float64
	// MinSteadyShare is the smallest share of decided forks that must reach
	// a steady state; a benchmark below it is unreliable.
	MinSteadyShare float64
	// Target is the precision a recommended configuration must reach: the
	// relative half-width of the confidence interval of its mean at
	// Optimize.Bootstrap.Confidence (0.01: ±1 % at 99 %). Where the
	// recorded data cannot reach it, the cheapest configuration within
	// BestEffortSlack of the recorded precision is recommended.
	Target float64
	// BestEffortSlack is how much worse than the recorded precision h_rec
	// a configuration may be when Target is out of reach: the recommended
	// one is the cheapest with h(k) ≤ (1 + BestEffortSlack)·h_rec (0.1:
	// within 10 %). A larger slack trades precision for time on the
	// benchmarks whose recorded configuration misses the target.
	BestEffortSlack float64
	// Tradeoff λ, when positive, replaces Target: every benchmark gets the
	// configuration minimising h(k) + λ·T(k)/T_rec, its relative CI
	// half-width plus λ times its share of the recorded time (0.16: 10 %
	// of the recorded time is worth 1.6 points of half-width), among those
	// within Budget and MaxLoss. 0: the Target rule.
	Tradeoff float64
	// Budget bounds the time of the Tradeoff rule's configuration: it may
	// cost at most
	//
	//	max(T(k_min), Budget · T_rec)
	//
	// where k_min is the fixed minimal configuration after the recommended
	// warmup (one instance, trial and fork; 5 iterations for JMH, 3 for
	// Go, every slice: what a user would otherwise cut a suite to) and
	// T_rec the recorded time. 0 (BudgetMinimum): the fixed minimum's
	// time, which the rule then spends where the variance is; 1
	// (BudgetRecorded): the recorded time, no bound. Between, short
	// recordings get the minimum's time and long ones a share of theirs
	// (docs/trim.md: with λ = 0.02, 0.05 beats the fixed minimum on the
	// real data, whose recordings are short, and keeps much of the long
	// generated recordings' precision).
	Budget float64
	// MaxLoss bounds what the Tradeoff rule gives up: where its choice
	// has a CI half-width h(k) above MaxLoss·h_rec, the recommendation is
	// instead the cheapest configuration with h(k) ≤ MaxLoss·h_rec, even
	// over Budget (3: a recorded ±2 % becomes at most ±6 %). 0: off.
	// docs/trim.md: on the real data the fixed minimum gives up about 3×
	// (its detectable slowdowns are 1.9–3.5× the recorded ones), and 3
	// keeps the default ahead of it while sparing recordings of medium
	// length the minimum's worst configurations.
	MaxLoss float64
	// MinObservations is the fewest observations (slices, or iterations)
	// a recommended configuration keeps.
	MinObservations int
	// Overhead is the time it takes to start one instance, trial or fork
	// (indexed by table.Level; the fork's warmup iterations are counted
	// apart, from the data). The result files do not hold it; 0 unless
	// the user knows it.
	Overhead [table.NumLevels]time.Duration
	// ParallelInstances says instances run side by side: an instance then
	// costs no wall time (the configuration's time is one instance's).
	ParallelInstances bool
	// Splits is the number of random halvings of the split validation
	// (outOfSample); 0 turns it off.
	Splits int
	// DetectDraws is the number of resampled A/B runs behind each minimal
	// detectable slowdown.
	DetectDraws int
	// Select chooses the benchmark runs (default: the primary metric of all).
	Select table.Filter
	// AllRuns, when t holds only a chunk of the input (a spooled input
	// analysed a chunk at a time), lists every benchmark run of the whole
	// input, so that the chunk compares the same version pairs as a run on
	// the whole (see projectVersions); nil means t is the whole input.
	AllRuns []table.Key
	// Seed selects every random draw (passed to every analysis).
	Seed uint64
	// Workers is the number of goroutines (0 = GOMAXPROCS); results do
	// not depend on it.
	Workers int
	// Progress, when set, is called once per finished step (a benchmark's
	// steady-state detection, reconfiguration replay or configuration choice)
	// with the number of steps in all; it must be safe for concurrent use.
	Progress func(total int)
}

// DefaultOptions: the trade-off rule with λ = 0.02 within a budget of
// the larger of the fixed minimum's time and 5 % of the recorded time,
// the CI half-width at most 3× the recorded one (docs/trim.md, "Is it
// better?": it passes the known-truth, the split and the next-version
// checks; the precision target does not pass the last two); for the
// Target rule (Tradeoff 0) a precision target of ±1 %; CIs are the 99 %
// hierarchical bootstrap CI of the mean (10,000 resamples); at least 3
// observations, no overheads, instances one after the other, 10 splits,
// 1,000 draws per detectable slowdown;
// steady-state detection with Traini et al.'s settings (steady window 500,
// equivalence within ±5 %) except the PELT penalty, Barrett et al.'s
// 15·log n: Traini's CROPS + Kneedle protocol leaves most warmups unsplit
// (docs/steady.md, "What the penalty rules find on generated behaviours");
// dynamic reconfiguration with the CV, RCIW and KLD criteria (CV's stop
// points give the warmup; the other two are replayed for the report);
// compare.DefaultOptions for versions; duet.DefaultOptions for duet data,
// except that rows of hosts without an environment label are kept (so
// every duet run of the plan gets a verdict); warmup quantile 0.9; at
// least half of the forks steady; seed 1.
var DefaultOptions = Options{
	Optimize:        defaultOptimize(),
	Steady:          defaultSteady(),
	Reconfigure:     defaultReconfigure(),
	Compare:         compare.DefaultOptions,
	Duet:            defaultDuet(),
	WarmupQuantile:  0.9,
	MinSteadyShare:  0.5,
	Target:          0.01,
	BestEffortSlack: 0.10,
	Tradeoff:        0.02,
	Budget:          0.05,
	MaxLoss:         3,
	MinObservations: 3,
	Splits:          10,
	DetectDraws:     1000,
	Seed:            1,
}

// Options.Budget's ends: the fixed minimal configuration's time and the
// recorded time.
const (
	BudgetMinimum  = 0.0
	BudgetRecorded = 1.0
)

// budget is the budget the rule of o keeps to: Budget under the
// trade-off rule, the recorded time (1) under the Target rule.
func (o *Options) budget() float64 {
	if o.Tradeoff > 0 {
		return min(o.Budget, BudgetRecorded)
	}
	return BudgetRecorded
}

// maxLoss is the MaxLoss the rule of o keeps to: MaxLoss under the
// trade-off rule, 0 (none) under the Target rule.
func (o *Options) maxLoss() float64 {
	if o.Tradeoff > 0 {
		return o.MaxLoss
	}
	return 0
}

// FormatBudget is budget b as ParseBudget reads it: "minimum",
// "recorded" or a percentage ("5%").
func FormatBudget(b float64) string {
	switch b {
	case BudgetMinimum:
		return "minimum"
	case BudgetRecorded:
		return "recorded"
	}
	return fmt.Sprintf("%g%%", 100*b)
}

// ParseBudget reads a budget as --budget gives it: "minimum" (0),
// "recorded" (1), a share of the recorded time ("0.05") or a percentage
// ("5%").
func ParseBudget(s string) (float64, error) {
	switch s {
	case "minimum":
		return BudgetMinimum, nil
	case "recorded":
		return BudgetRecorded, nil
	}
	num, scale := s, 1.0
	if t, ok := strings.CutSuffix(strings.TrimSpace(s), "%"); ok {
		num, scale = strings.TrimSpace(t), 0.01
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || !(v*scale >= 0 && v*scale <= 1) {
		return 0, fmt.Errorf("budget %q: want minimum, recorded, or a share of the recorded time from 0 to 1 (0.05 or 5%%)", s)
	}
	return v * scale, nil
}

func defaultOptimize() optimize.Options {
	o := optimize.DefaultOptions
	o.Metrics = []optimize.Metric{optimize.RCIWMedian}
	o.Bootstrap = estimate.DefaultBootstrap
	return o
}

func defaultSteady() steady.Options {
	o := steady.DefaultOptions
	o.Penalty = steady.PenaltyBarrett
	o.SteadyWindow = 500 // trim routes JMH forks by it: a fixed W, not steady's per-run one
	return o
}

func defaultReconfigure() reconfigure.Options {
	o := reconfigure.DefaultOptions
	o.Criteria = []reconfigure.Criterion{reconfigure.CriterionCV, reconfigure.CriterionRCIW, reconfigure.CriterionKLD}
	return o
}

func defaultDuet() duet.Options {
	o := duet.DefaultOptions()
	o.KeepUnlabelled = true
	return o
}

// Validate reports the first unusable option.
func (o *Options) Validate() error {
	if len(o.Optimize.Metrics) != 1 {
		return fmt.Errorf("trim: want exactly one µOpTime metric, got %d", len(o.Optimize.Metrics))
	}
	if err := o.Optimize.Validate(); err != nil {
		return err
	}
	if err := o.Steady.Validate(); err != nil {
		return err
	}
	if o.Steady.SteadyWindow < 1 {
		return fmt.Errorf("trim: steady window %d must be at least 1 (it routes JMH forks)", o.Steady.SteadyWindow)
	}
	if len(o.Reconfigure.Criteria) == 0 {
		return errors.New("trim: no reconfiguration criterion")
	}
	if err := o.Reconfigure.Validate(); err != nil {
		return err
	}
	if err := o.Compare.Validate(); err != nil {
		return err
	}
	if err := o.Duet.Validate(); err != nil {
		return err
	}
	if !(o.WarmupQuantile > 0 && o.WarmupQuantile <= 1) {
		return fmt.Errorf("trim: warmup quantile %v must be in (0, 1]", o.WarmupQuantile)
	}
	if !(o.Target > 0 && o.Target < 1) {
		return fmt.Errorf("trim: precision target %v must be in (0, 1) (a relative CI half-width: 0.01 is ±1 %%)", o.Target)
	}
	if !(o.BestEffortSlack >= 0) || math.IsInf(o.BestEffortSlack, 0) {
		return fmt.Errorf("trim: best-effort slack %v must be a finite number ≥ 0 (0.1: within 10 %% of the recorded precision)", o.BestEffortSlack)
	}
	if !(o.Tradeoff >= 0) || math.IsInf(o.Tradeoff, 0) {
		return fmt.Errorf("trim: trade-off %v must be a finite number ≥ 0 (0: off, use --target)", o.Tradeoff)
	}
	if !(o.MaxLoss == 0 || o.MaxLoss >= 1) || math.IsInf(o.MaxLoss, 0) {
		return fmt.Errorf("trim: max loss %v must be 0 (off) or a finite factor ≥ 1 (3: the CI at most 3× the recorded)", o.MaxLoss)
	}
	if !(o.Budget >= 0 && o.Budget <= 1) {
		return fmt.Errorf("trim: budget %v must be a share of the recorded time from 0 (the fixed minimum's time) to 1 (the recorded time)", o.Budget)
	}
	if o.MinObservations < 1 {
		return fmt.Errorf("trim: min observations %d must be at least 1", o.MinObservations)
	}
	for l, d := range o.Overhead {
		if d < 0 {
			return fmt.Errorf("trim: %s overhead %v must not be negative", table.Level(l), d)
		}
	}
	if o.Splits < 0 || o.DetectDraws < 1 {
		return fmt.Errorf("trim: splits %d must be ≥ 0 and detect draws %d ≥ 1", o.Splits, o.DetectDraws)
	}
	if !(o.MinSteadyShare >= 0 && o.MinSteadyShare <= 1) || math.IsNaN(o.MinSteadyShare) {
		return fmt.Errorf("trim: min steady share %v must be in [0, 1]", o.MinSteadyShare)
	}
	return nil
}
