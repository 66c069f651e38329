package trim

import (
	"errors"
	"fmt"
	"math"
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
	// StatedWarmup is the number of warmup iterations per fork that JMH
	// runs whose setup states none were recorded after, when the files
	// hold only the measurement iterations (µOpTime's ESE'21 data sets of
	// Laaber et al.: 10); such runs take the stated-warmup path. 0: the
	// setup's word (none stated: -wi 0, the warmup is in the data).
	StatedWarmup int
	// MinSteadyShare is the smallest share of decided forks that must reach
	// a steady state; a benchmark below it is unreliable.
	MinSteadyShare float64
	// Test and Alpha are the user's test, the one the verdicts of an A/B
	// comparison come from (compare's --test): the minimal detectable
	// slowdowns, the recommendation's target and the checks all use it.
	Test  estimate.Test
	Alpha float64
	// Keep is the quality target: the recommended configuration is the
	// cheapest whose minimal detectable slowdown under Test, estimated by
	// resampling the recorded data at its size (detector), is at most
	// Keep times the recorded configuration's (1.25: a recording that
	// detects 4 % slowdowns is cut to one that detects 5 %). It must be at
	// least 1.
	Keep float64
	// MinEffect is the smallest slowdown that matters (compare's
	// --min-effect): a configuration that finds a slowdown of MinEffect
	// in 95 % of A/B runs keeps the verdicts a user acts on, even where
	// the recording could detect far smaller ones (0.03: 3 %, the size of
	// a clear change in docs/trim.md's evaluation). 0: off, only Keep.
	MinEffect float64
	// Detect, when positive, replaces Keep by an absolute target: the
	// cheapest configuration that detects a slowdown of Detect (0.05: 5 %)
	// in 80 % of A/B runs. Where even the recorded configuration does not,
	// the recording is kept.
	Detect float64
	// Overhead is the time it takes to start one instance, trial or fork
	// (indexed by table.Level; the fork's warmup iterations are counted
	// apart, from the data), and CommandOverhead one run of a command (a
	// go test process, JMH's host JVM). The result files do not hold them
	// (but for a go test binary's own start in -json timestamps);
	// OverheadDefault, DefaultOptions' fork and command value, is the
	// tool's measured default (startupCosts, docs/trim.md "Commands").
	Overhead        [table.NumLevels]time.Duration
	CommandOverhead time.Duration
	// ParallelInstances says instances run side by side: an instance then
	// costs no wall time (the configuration's time is one instance's).
	ParallelInstances bool
	// Splits is the number of random halvings of the split validation
	// (outOfSample); 0 turns it off.
	Splits int
	// DetectDraws is the number of resampled A/B pairs behind each minimal
	// detectable slowdown.
	DetectDraws int
	// Versions orders the versions of every project, oldest first, for the
	// comparisons of consecutive versions and the next-version check;
	// versions not in it follow in their natural order (version.Compare).
	// nil: the order in which the input gives them (the order of the
	// files on the command line, table.Table.Labels).
	Versions []string
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
	// evalHook, when set (the evaluation's tests), gets every benchmark's
	// post-warmup design as recommend sees it.
	evalHook func(b *Benchmark, s *table.Series, w int, d *design, cost costModel)
	// Progress, when set, is called once per finished step (a benchmark's
	// steady-state detection, reconfiguration replay or configuration choice)
	// with the number of steps in all; it must be safe for concurrent use.
	Progress func(total int)
}

// DefaultOptions: the user's test is benchstat's U test at α = 0.05;
// the recommended configuration is the cheapest whose detectable
// slowdown under it is at most 1.25 times the recorded configuration's
// (docs/trim.md, "Is it better?"); CIs of the mean are shown at 99 %;
// the tools' default start-ups (startupCosts: a JMH fork's and host
// JVM's, a go test process's), no instance or trial overhead, instances
// one after the other, 10 splits, 500 A/B
// pairs per detectable slowdown;
// steady-state detection with Traini et al.'s settings (steady window 500,
// equivalence within ±5 %) except the PELT penalty, Barrett et al.'s
// 15·log n: Traini's CROPS + Kneedle protocol leaves most warmups unsplit
// (docs/steady.md, "What the penalty rules find on generated behaviours");
// dynamic reconfiguration with the CV, RCIW and KLD criteria (CV's stop
// points give the warmup; the other two are replayed for the report);
// compare.DefaultOptions for versions, with the same test; duet.DefaultOptions for duet data,
// except that rows of hosts without an environment label are kept (so
// every duet run of the plan gets a verdict); warmup quantile 0.9; at
// least half of the forks steady; seed 1.
var DefaultOptions = Options{
	Optimize:       defaultOptimize(),
	Steady:         defaultSteady(),
	Reconfigure:    defaultReconfigure(),
	Compare:        compare.DefaultOptions,
	Duet:           defaultDuet(),
	WarmupQuantile: 0.9,
	MinSteadyShare: 0.5,
	Test:           estimate.TestU,
	Alpha:          estimate.DefaultAlpha,
	Keep:           1.5,
	MinEffect:      0.03,
	Splits:         10,
	DetectDraws:    500,
	Seed:           1,
	// A JMH fork and a command's run start with the tool's default.
	Overhead:        [table.NumLevels]time.Duration{table.LevelFork: OverheadDefault},
	CommandOverhead: OverheadDefault,
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

// The largest Splits and DetectDraws Validate accepts: beyond them a run
// costs hours for no visible gain in the estimates.
const (
	MaxSplits      = 1000
	MaxDetectDraws = 100000
)

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
	if o.Test < estimate.TestU || o.Test > estimate.TestOverlap {
		return fmt.Errorf("trim: unknown test %v", o.Test)
	}
	if !(o.Alpha > 0 && o.Alpha < 1) {
		return fmt.Errorf("trim: alpha %v must be in (0, 1)", o.Alpha)
	}
	if !(o.Keep >= 1) || math.IsInf(o.Keep, 0) {
		return fmt.Errorf("trim: keep %v must be a finite factor ≥ 1 (1.25: the detectable slowdown at most 1.25× the recorded)", o.Keep)
	}
	if !(o.MinEffect >= 0 && o.MinEffect < 10) {
		return fmt.Errorf("trim: min effect %v must be a slowdown from 0 (off) to 10 (1000 %%)", o.MinEffect)
	}
	if !(o.Detect >= 0 && o.Detect < 10) {
		return fmt.Errorf("trim: detect %v must be a slowdown from 0 (off) to 10 (1000 %%)", o.Detect)
	}
	for l, d := range o.Overhead {
		if !validOverhead(d) || l > int(table.LevelFork) && d != 0 {
			return fmt.Errorf("trim: %s overhead %v must not be negative", table.Level(l), d)
		}
	}
	if !validOverhead(o.CommandOverhead) {
		return fmt.Errorf("trim: command overhead %v must not be negative", o.CommandOverhead)
	}
	if o.StatedWarmup < 0 {
		return fmt.Errorf("trim: stated warmup %d must be ≥ 0", o.StatedWarmup)
	}
	if o.Splits < 0 || o.Splits > MaxSplits || o.DetectDraws < 10 || o.DetectDraws > MaxDetectDraws {
		return fmt.Errorf("trim: splits %d must be in [0, %d] and detect draws %d in [10, %d]", o.Splits, MaxSplits, o.DetectDraws, MaxDetectDraws)
	}
	if !(o.MinSteadyShare >= 0 && o.MinSteadyShare <= 1) || math.IsNaN(o.MinSteadyShare) {
		return fmt.Errorf("trim: min steady share %v must be in [0, 1]", o.MinSteadyShare)
	}
	return nil
}
