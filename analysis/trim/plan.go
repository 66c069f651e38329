package trim

import (
	"fmt"
	"time"

	"github.com/benchtrim/benchtrim/analysis/duet"
	"github.com/benchtrim/benchtrim/analysis/optimize"
	"github.com/benchtrim/benchtrim/analysis/reconfigure"
	"github.com/benchtrim/benchtrim/analysis/steady"
	"github.com/benchtrim/benchtrim/changepoint"
	"github.com/benchtrim/benchtrim/table"
)

// Path is how trim decides a benchmark's warmup, chosen from its data.
type Path int

const (
	// PathGo: Go data (go test -bench, µOpTime CSV) has no warmup phase to
	// detect; µOpTime runs on all recorded observations.
	PathGo Path = iota
	// PathSteady: JMH forks recorded without warmup iterations (-wi 0) and
	// longer than the steady window: steady-state detection gives each
	// fork's warmup end, then µOpTime runs on the data after the warmup.
	PathSteady
	// PathShort: JMH forks recorded with -wi 0 but no longer than the
	// steady window: steady-state detection cannot decide, so the warmup
	// comes from dynamic reconfiguration's stop points (with a warning),
	// then µOpTime runs on the data after it.
	PathShort
	// PathStatedWarmup: JMH data recorded with warmup iterations, which
	// JMH does not store: the stated warmup is kept (it cannot be
	// checked) and µOpTime runs on the measurement iterations.
	PathStatedWarmup
	// PathDuet: duet data (modes seqn, syncduet, duet): no configuration
	// is recommended; the duet analysis compares A and B (Benchmark.Duet).
	PathDuet
)

var pathNames = [...]string{"go", "steady", "short", "stated-warmup", "duet"}

// String is the path's name in the plan (go, steady, short, stated-warmup, duet).
func (p Path) String() string {
	if p < 0 || int(p) >= len(pathNames) {
		return fmt.Sprintf("Path(%d)", int(p))
	}
	return pathNames[p]
}

// Status is what trim recommends for a benchmark.
type Status int

const (
	// StatusTrimmed: a new configuration is recommended.
	StatusTrimmed Status = iota
	// StatusNoSteady: unreliable; the benchmark does not reach a steady
	// state in enough forks (fewer than Options.MinSteadyShare of the
	// decided forks); it keeps its recorded configuration.
	StatusNoSteady
	// StatusUnstable: unreliable; the µOpTime metric is at or above the
	// threshold in every configuration, the full one included; the
	// recorded configuration is kept.
	StatusUnstable
	// StatusTooFew: the data hold fewer repetitions than
	// Optimize.MinRepetitions; the recorded configuration is kept.
	StatusTooFew
	// StatusDuet: duet data; the duet analysis' A/B verdict is
	// Benchmark.Duet.
	StatusDuet
	// StatusSkipped: no usable observation (Reason says why).
	StatusSkipped
)

var statusNames = [...]string{"trimmed", "unreliable: no steady state", "unreliable: unstable", "too few repetitions", "duet", "skipped"}

// String is the status as the plan writes it.
func (s Status) String() string {
	if s < 0 || int(s) >= len(statusNames) {
		return fmt.Sprintf("Status(%d)", int(s))
	}
	return statusNames[s]
}

// Unreliable reports whether the benchmark was flagged as unreliable
// (no steady state, or a metric that never stabilises).
func (s Status) Unreliable() bool { return s == StatusNoSteady || s == StatusUnstable }

// Config is one benchmark's configuration: what runs per benchmark.
type Config struct {
	// Instances (machines side by side), Trials (suite runs) and Forks
	// (JVM or test-binary launches per trial).
	Instances, Trials, Forks int
	// WarmupIterations per fork and WarmupTimeNs, the duration of one.
	WarmupIterations int
	WarmupTimeNs     int64
	// Iterations are the measurement iterations per fork, Slices the
	// µOpTime slices per iteration (1 without slices) and IterationTimeNs
	// the duration of one measurement iteration.
	Iterations, Slices int
	IterationTimeNs    int64
	// TimeNs is the execution time in µOpTime's model (optimize's doc):
	// Π_{non-parallel outer levels} k · (warmup + iterations · slices · unit).
	TimeNs int64
}

// String formats c as "3 forks × (20 warmup + 45 iterations of 1s) = 3m15s".
func (c Config) String() string {
	s := fmt.Sprintf("%d × %d × %d forks × (%d warmup + %d iterations of %v)", c.Instances, c.Trials, c.Forks,
		c.WarmupIterations, c.Iterations, time.Duration(c.IterationTimeNs))
	if c.Instances == 1 && c.Trials == 1 {
		s = fmt.Sprintf("%d forks × (%d warmup + %d iterations of %v)", c.Forks, c.WarmupIterations, c.Iterations, time.Duration(c.IterationTimeNs))
	}
	return s + " = " + time.Duration(c.TimeNs).Round(time.Millisecond).String()
}

// Benchmark is trim's decision for one benchmark run.
type Benchmark struct {
	Key table.Key
	// Tool is "jmh", "go" or "" (unknown).
	Tool string
	// Path says how the warmup was decided; Analyses lists the analyses
	// that ran on the benchmark (steady, reconfigure, optimize, compare).
	Path     Path
	Analyses []string
	Status   Status
	// Reason explains Path and Status in a sentence; Warnings are what a
	// reader should know about the decision.
	Reason   string
	Warnings []string
	// Recorded is the configuration of the data; Recommended the one trim
	// recommends (Recorded unless Status is StatusTrimmed).
	Recorded, Recommended Config
	// Forks is the number of forks in the data; SteadyForks those whose
	// steady state was detected (PathSteady); WarmupEnds the warmup ends
	// the rule used (0-based index of the first steady iteration of each
	// steady fork, or the reconfiguration stop point of each replayed
	// fork).
	Forks, SteadyForks int
	WarmupEnds         []int
	// Estimate is the metric's estimator (the median for rciw-median) under the
	// recommended configuration replayed on the recorded data (the first
	// forks and the first iterations after the warmup); Reference and
	// [RefLower, RefUpper] the estimate and bootstrap CI of the full run's
	// steady part (every fork, every iteration after the warmup).
	// NaN unless trimmed.
	Estimate, Reference, RefLower, RefUpper float64
	// ChangeRate is |Estimate − Reference| / Reference; InCI whether
	// Estimate lies in [RefLower, RefUpper].
	ChangeRate float64
	InCI       bool
	// Minimum and Random are µOpTime's baselines on the same post-warmup
	// data (the cheapest configuration with enough repetitions, and one
	// drawn at random among them; optimize's MethodMinimum and
	// MethodRandom) with their change rates against Reference; zero
	// unless trimmed.
	Minimum, Random Baseline
	// Metric is the µOpTime metric of the recommended configuration and of
	// the full steady part (NaN when not computed).
	Metric, FullMetric float64
	// Change is the A/B verdict against the previous version of the
	// project ("v1 → v2: slower by 25.1 %"), "" without one.
	Change string
	// Command runs the recommended configuration (Args nil when the tool
	// has no runnable form).
	Command optimize.Command
	// Duet holds the duet analysis' A/B verdicts of a PathDuet run (one
	// per environment of its instances; nil otherwise or without a
	// result).
	Duet []DuetVerdict
}

// Baseline is a baseline configuration's time (warmup included) and the
// change rate of its estimate against the full steady part's.
type Baseline struct {
	TimeNs     int64
	ChangeRate float64
}

// Totals are the suite-wide figures of a Report.
type Totals struct {
	// Benchmarks counts all benchmark runs; Trimmed, Unreliable, Kept
	// (too few repetitions, skipped) and Duet partition them.
	Benchmarks, Trimmed, Unreliable, Kept, Duet int
	// TimeBeforeNs and TimeAfterNs sum the recorded and recommended
	// configurations' times over all benchmarks (duet excluded).
	TimeBeforeNs, TimeAfterNs int64
	// Within[i] is the share of trimmed benchmarks whose change rate is at
	// most 1, 3 and 5 %; InCI the share whose estimate lies in the full
	// run's CI.
	Within [3]float64
	InCI   float64
}

// Saved is the share of the suite's time saved, 1 − after/before.
func (t *Totals) Saved() float64 {
	if t.TimeBeforeNs == 0 {
		return 0
	}
	return 1 - float64(t.TimeAfterNs)/float64(t.TimeBeforeNs)
}

// WithinLimits are the change-rate limits of Totals.Within.
var WithinLimits = [3]float64{0.01, 0.03, 0.05}

// Report is the outcome of Run.
type Report struct {
	// Options as used.
	Options Options
	// Benchmarks has one entry per benchmark run, in key order.
	Benchmarks []Benchmark
	Totals     Totals
	// Steady is the steady-state detection of the PathSteady benchmarks
	// and Reconfigure the replay of the PathShort ones (nil when none).
	Steady      *steady.Report
	Reconfigure *reconfigure.Report
	// Duet is the duet analysis of the PathDuet benchmarks (nil when none,
	// or when it could not run: the benchmarks' warnings say why).
	Duet *duet.Report
	// Versions compares consecutive versions of each project that holds
	// several (nil when none does).
	Versions []VersionComparison
	// Forks holds the iteration values of the forks the report plots:
	// per PathSteady benchmark its worst forks (see ForkSeries).
	Forks []ForkSeries
}

// ForkSeries is one fork's recorded iteration values with its steady-state
// analysis, kept for plots.
type ForkSeries struct {
	Key  table.Key
	Fork steady.ForkID
	// Values are the ns/op of the fork's iterations (every Step-th
	// iteration when the fork is longer than MaxPlotPoints).
	Values []float64
	Step   int
	// Class is the fork's steady-state class, SteadyStart its st (−1 when
	// not steady), Warmup the benchmark's recommended warmup iterations.
	Class       string
	SteadyStart int
	Warmup      int
	// Segments are the fork's segments (start, end, mean).
	Segments []steady.Segment
	// Knee is the CROPS penalty selection of the fork (the elbow plot's
	// data) when the penalty rule is a CROPS one; nil otherwise.
	Knee *changepoint.KneeSelection
}

// MaxPlotPoints bounds the points kept per plotted fork.
const MaxPlotPoints = 600
