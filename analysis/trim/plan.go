package trim

import (
	"fmt"
	"time"

	"github.com/benchtrim/benchtrim/analysis/duet"
	"github.com/benchtrim/benchtrim/analysis/optimize"
	"github.com/benchtrim/benchtrim/analysis/reconfigure"
	"github.com/benchtrim/benchtrim/analysis/steady"
	"github.com/benchtrim/benchtrim/changepoint"
	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

// Path is how trim decides a benchmark's warmup, chosen from its data.
type Path int

const (
	// PathGo: Go data (go test -bench, µOpTime CSV) has no warmup phase to
	// detect; the configuration is chosen on all recorded observations.
	PathGo Path = iota
	// PathSteady: JMH forks recorded without warmup iterations (-wi 0) and
	// longer than the steady window: steady-state detection gives each
	// fork's warmup end, then the configuration is chosen on the data after the warmup.
	PathSteady
	// PathShort: JMH forks recorded with -wi 0 but no longer than the
	// steady window: steady-state detection cannot decide, so the warmup
	// comes from dynamic reconfiguration's stop points (with a warning),
	// then the configuration is chosen on the data after it.
	PathShort
	// PathStatedWarmup: JMH data recorded with warmup iterations, which
	// JMH does not store: the stated warmup is kept (it cannot be
	// checked) and the configuration is chosen on the measurement iterations.
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
	// StatusTrimmed: a cheaper configuration keeps the recorded
	// configuration's detectable slowdown under the user's test (within
	// Options.Keep of it, or below Options.Detect).
	StatusTrimmed Status = iota
	// StatusNoSteady: unreliable; the benchmark does not reach a steady
	// state in enough forks (fewer than Options.MinSteadyShare of the
	// decided forks): its mean depends on how long it runs, so it keeps
	// its recorded iterations per fork (only forks may be cut, under the
	// same target).
	StatusNoSteady
	// StatusTooFew: fewer than two observations, or none that varies: no
	// precision can be estimated and the recorded configuration is kept.
	StatusTooFew
	// StatusDuet: duet data; the duet analysis' A/B verdict is
	// Benchmark.Duet.
	StatusDuet
	// StatusSkipped: no usable observation (Reason says why).
	StatusSkipped
	// StatusKept: no configuration that saves at least 1 % of the time
	// keeps the target, or the user's test cannot report a change even at
	// the recorded configuration (Reason says which): the recording is kept.
	StatusKept
)

var statusNames = [...]string{"trimmed", "unreliable: no steady state", "too few repetitions", "duet", "skipped", "kept: nothing cheaper keeps the verdicts"}

// String is the status as the plan writes it.
func (s Status) String() string {
	if s < 0 || int(s) >= len(statusNames) {
		return fmt.Sprintf("Status(%d)", int(s))
	}
	return statusNames[s]
}

// unreliable reports whether the benchmark was flagged as unreliable (no
// steady state).
func (s Status) unreliable() bool { return s == StatusNoSteady }

// reduced reports whether a configuration cheaper than the recorded one is
// recommended.
func (s Status) reduced() bool { return s == StatusTrimmed }

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
	// TimeNs is the execution time in trim's time model (costModel):
	// instances × trials × forks × (overheads + warmup + iterations ·
	// slices · unit), instances once when they run side by side.
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
	// recommends (Recorded unless Status.reduced()).
	Recorded, Recommended Config
	// Forks is the number of forks in the data; SteadyForks those whose
	// steady state was detected (PathSteady); WarmupEnds the warmup ends
	// the rule used (0-based index of the first steady iteration of each
	// steady fork, or the reconfiguration stop point of each replayed
	// fork).
	Forks, SteadyForks int
	WarmupEnds         []int
	// Precision is the relative half-width of the CI of the mean (at
	// Optimize.Bootstrap.Confidence) of the recorded data after the warmup,
	// RecommendedPrecision the one of a run of the recommended
	// configuration: where such runs, drawn from the recording at their
	// size, land around its mean (sampler.precision; NaN when not
	// estimated).
	Precision, RecommendedPrecision float64
	// LevelSD is √S²_l / mean per level: the relative standard deviation
	// each repetition level adds (instance, trial, fork, iteration,
	// slice; Kalibera and Jones' variance components), NaN for levels the
	// data do not vary.
	LevelSD [table.NumLevels]float64
	// Detectable and DetectableRecorded are the minimal detectable
	// slowdowns under the user's test (Options.Test) of the recommended
	// and the recorded configuration (detector; NaN when not estimated,
	// +Inf where the test cannot report a change); Target is the largest
	// the recommendation may have (Options.Keep × DetectableRecorded, or
	// Options.Detect).
	Detectable, DetectableRecorded, Target float64
	// Considered are the configurations trim evaluated, cheapest first
	// (at most 16), with their detectable slowdowns; the one that Met
	// the target is the recommendation.
	Considered []Considered
	// Estimate is the mean of means of the recommended configuration
	// replayed on the recorded data (the first units at every level after
	// the warmup); Reference and [RefLower, RefUpper] the mean and
	// hierarchical bootstrap CI of the full data after the warmup. NaN
	// unless reduced. These are in-sample: outOfSample holds the split
	// validation.
	Estimate, Reference, RefLower, RefUpper float64
	// ChangeRate is |Estimate − Reference| / Reference; InCI whether
	// Estimate lies in [RefLower, RefUpper].
	ChangeRate float64
	InCI       bool
	// Minimum is the fixed minimal configuration a user would otherwise
	// run (Go: 1 instance × 1 trial × 3 iterations, all slices; JMH: 1
	// fork × 5 iterations after the warmup) with its in-sample change
	// rate against Reference.
	Minimum Baseline
	// outOfSample is the split validation of the choice and of the fixed
	// minimum; FromPrevious the previous version's choice run on this
	// version's data (Base "" without a previous version).
	OutOfSample  OutOfSample
	FromPrevious VersionCheck
	// Change is the A/B verdict against the previous version of the
	// project ("v1 → v2: slower by 25.1 %"), "" without one.
	Change string
	// Command runs the recommended configuration (Args nil when the tool
	// has no runnable form), RecordedCommand the recorded one;
	// CommandStartupNs is what one run of a go test command costs before
	// and after its benchmarks (startupCosts; 0 for JMH, whose commands'
	// start is in Recommended.TimeNs). WriteCommands runs the benchmarks
	// whose commands agree but for the benchmark in one command, and the
	// suite's times count the start-up once per run of each
	// (commandStartups).
	Command, RecordedCommand optimize.Command
	CommandStartupNs         int64
	// Distributions are the observations after the warmup (design.obs:
	// iterations, or slices where the data have them), summarised
	// (reports.Summarize): "recorded" holds all of them, "recommended"
	// those the recommended configuration keeps (design.kept) when it is
	// reduced. The report draws them as violins.
	Distributions []reports.Distribution
	// Series are the observations in recorded order with their phase
	// (warmup, kept by the recommendation, cut), at most
	// reports.SeriesPoints per fork; the report draws them per fork.
	Series reports.RunSeries
	// Duet holds the duet analysis' A/B verdicts of a PathDuet run (one
	// per environment of its instances; nil otherwise or without a
	// result).
	Duet []DuetVerdict
}

// Baseline is a baseline configuration's time (warmup included), the
// change rate of its estimate against the full data's, and its predicted
// precision and minimal detectable slowdown.
type Baseline struct {
	TimeNs                            int64
	ChangeRate, Precision, Detectable float64
}

// SuiteTotals are the suite-wide figures of a Report.
type SuiteTotals struct {
	// Benchmarks counts all benchmark runs; Trimmed (reduced: target met
	// or best effort), Unreliable, Kept (too few repetitions, skipped,
	// nothing cheaper) and Duet partition them.
	Benchmarks, Trimmed, Unreliable, Kept, Duet int
	// TimeBeforeNs and TimeAfterNs sum the recorded and recommended
	// configurations' times over all benchmarks (duet excluded);
	// MinimumTimeNs the fixed minimal configurations' (where one applies,
	// else the recorded time). Each includes the start-up of its go test
	// commands (commandStartups): StartupBeforeNs, StartupAfterNs and
	// StartupMinimumNs of them, for CommandRunsBefore and CommandRunsAfter
	// runs of go test commands (the minimum runs one per package).
	TimeBeforeNs, TimeAfterNs, MinimumTimeNs          int64
	StartupBeforeNs, StartupAfterNs, StartupMinimumNs int64
	CommandRunsBefore, CommandRunsAfter               int
	// Within[i] is the share of trimmed benchmarks whose in-sample change
	// rate is at most 1, 3 and 5 %; InCI the share whose estimate lies in
	// the full run's CI.
	Within [3]float64
	InCI   float64
	// outOfSample and MinimumOutOfSample summarise the split validation
	// of trim's choices and of the fixed minimum over every benchmark
	// with splits.
	OutOfSample, MinimumOutOfSample SplitSummary
	// Detectable and DetectableRecorded are the medians of the reduced
	// benchmarks' minimal detectable slowdowns, recommended and recorded.
	Detectable, DetectableRecorded float64
	// Versions sums the benchmark runs' FromPrevious checks.
	Versions VersionTotals
}

// VersionTotals sums VersionCheck over the benchmark runs that have a
// previous version: Pairs of them; Within the shares of errors within 1,
// 3 and 5 % and Agreement the share of equal verdicts, for trim's choice
// and the fixed minimum.
type VersionTotals struct {
	Pairs                       int
	Within, MinimumWithin       [3]float64
	Agreement, MinimumAgreement float64
}

// SplitSummary sums OutOfSample over a suite: the errors of every split
// of every benchmark.
type SplitSummary struct {
	// Benchmarks with splits and Splits in all.
	Benchmarks, Splits int
	// Median and P95 error; Within the shares within 1, 3 and 5 %.
	Median, P95 float64
	Within      [3]float64
	// Agreement is the share of verdicts equal to the full halves';
	// TimeShare the mean share of the half's recorded time the choices take.
	Agreement, TimeShare float64
}

// saved is the share of the suite's time saved, 1 − after/before.
func (t *SuiteTotals) saved() float64 {
	if t.TimeBeforeNs == 0 {
		return 0
	}
	return 1 - float64(t.TimeAfterNs)/float64(t.TimeBeforeNs)
}

// withinLimits are the change-rate limits of Totals.Within.
var withinLimits = [3]float64{0.01, 0.03, 0.05}

// Report is the outcome of Run.
type Report struct {
	// Options as used.
	Options Options
	// Benchmarks has one entry per benchmark run, in key order.
	Benchmarks []Benchmark
	Totals     SuiteTotals
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
	// Notes are what a reader should know about the run as a whole (the
	// versions' order where it is not their natural one).
	Notes []string
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
