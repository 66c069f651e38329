package optimize

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/table"
)

// Metric is a stability metric of µOpTime (Japke, Grambow, Laaber,
// Bermbach, TOSEM 2025, Sect. 3): a configuration is stable when its metric
// lies below the threshold.
type Metric int

// The five stability metrics, in the paper's order.
const (
	// CV is the coefficient of variation, population standard deviation over
	// mean (stats.CV). Estimator: mean; CI: percentile bootstrap of the mean.
	CV Metric = iota
	// RMAD is the relative median absolute deviation, unscaled MAD over
	// median (stats.RMAD). Estimator: median; CI: percentile bootstrap of
	// the median.
	RMAD
	// RCIWMean is the relative width of the percentile bootstrap CI of the
	// mean (stats.BootstrapCI, MeanPercentile). Estimator: mean.
	RCIWMean
	// RCIWMeanT is the relative width of the studentized (bootstrap-t) CI of
	// the mean (stats.BootstrapCI, MeanStudentized). Estimator: mean.
	RCIWMeanT
	// RCIWMedian is the relative width of the percentile bootstrap CI of the
	// median (stats.BootstrapCI, MedianPercentile). Estimator: median.
	RCIWMedian
)

// numMetrics is the number of metrics.
const numMetrics = 5

var metricNames = [numMetrics]string{"cv", "rmad", "rciw-mean", "rciw-mean-t", "rciw-median"}

// allMetrics lists the five metrics in the paper's order.
var allMetrics = []Metric{CV, RMAD, RCIWMean, RCIWMeanT, RCIWMedian}

// String is the metric's name as accepted by ParseMetrics.
func (m Metric) String() string {
	if m < 0 || m >= numMetrics {
		return fmt.Sprintf("metric(%d)", int(m))
	}
	return metricNames[m]
}

// bootstrapped reports whether computing the metric itself needs a
// bootstrap (the three RCIW metrics).
func (m Metric) bootstrapped() bool { return m == RCIWMean || m == RCIWMeanT || m == RCIWMedian }

// parseMetric maps a name (cv, rmad, rciw-mean, rciw-mean-t, rciw-median) to its Metric.
func parseMetric(s string) (Metric, error) {
	for i, n := range metricNames {
		if n == s {
			return Metric(i), nil
		}
	}
	return 0, fmt.Errorf("optimize: unknown metric %q (want one of %s, or all)", s, strings.Join(metricNames[:], ", "))
}

// ParseMetrics parses a comma-separated list of metric names, or "all" for
// allMetrics. Duplicates and empty lists are errors.
func ParseMetrics(s string) ([]Metric, error) {
	s = strings.TrimSpace(s)
	if s == "all" {
		return append([]Metric(nil), allMetrics...), nil
	}
	var out []Metric
	seen := map[Metric]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "all" {
			return nil, fmt.Errorf("optimize: metric list %q: use all alone", s)
		}
		m, err := parseMetric(part)
		if err != nil {
			return nil, err
		}
		if seen[m] {
			return nil, fmt.Errorf("optimize: metric %s listed twice", m)
		}
		seen[m] = true
		out = append(out, m)
	}
	return out, nil
}

// Options configures optimize. Start from DefaultOptions.
type Options struct {
	// Metrics are the stability metrics to optimise with, each on its own.
	Metrics []Metric
	// Threshold ts: a configuration is stable when its metric is < ts.
	Threshold float64
	// Bootstrap sets resamples and confidence of every bootstrap CI (the
	// RCIW metrics and the reported CIs).
	Bootstrap estimate.BootstrapOptions
	// MinRepetitions: configurations keeping fewer repetitions are skipped.
	// Repetitions are counted over all levels except the innermost time
	// slice: the number of (instance, trial, fork, iteration) units kept.
	MinRepetitions int
	// Fixed levels are kept at their full size (never reduced).
	Fixed []table.Level
	// First levels are restricted to their first unit (index 1) before
	// optimising, in the full configuration too. The µOpTime prototype used
	// only instance 1 of its Go data (First = instance).
	First []table.Level
	// Parallel levels run side by side (cloud instances) and do not add to
	// execution time. Only instance, trial and fork may be parallel.
	Parallel []table.Level
	// DiscardWarmup drops the first DiscardWarmup iterations of every fork
	// before optimising and counts their time as warmup of each fork.
	DiscardWarmup int
	// NoWarmupTime counts no time for warmup in a configuration's execution
	// time (W = 0 below, neither the setup's warmup iterations nor the
	// discarded ones): the time model of the µOpTime prototype's JMH
	// optimizers (optimizer_jmh_parallel_fse20.py and …_ese21.py count
	// forks × measurement iterations), which it needs to be reproduced
	// on data whose forks' warmup is recorded.
	NoWarmupTime bool
	// AllConfigs evaluates every configuration (metric and CI) instead of
	// stopping at the cheapest stable one; Result.All then holds them.
	AllConfigs bool
	// DefaultIterationTime is the duration of one observation (slice or
	// iteration) when the data's setup does not state it.
	DefaultIterationTime time.Duration
	// Select chooses the benchmark runs Run optimises (default: the
	// primary metric of all).
	Select table.Filter
	// AllRuns, when t holds only a part of the input (a chunk analysed on
	// its own), lists every benchmark run of the whole input, so that the
	// part compares the versions a run on the whole compares (see Run);
	// nil means t is the whole input.
	AllRuns []table.Key
	// NoReportedCIs skips the CIs that only the per-benchmark results
	// show: those of the full, minimum and random configurations, and of
	// the chosen one for cv and rmad (their Lower and Upper, and an RCIW
	// metric's Value, are then NaN), and lets the search stop early on
	// these configurations as on the others. The chosen configurations,
	// the times and averages, and so the summary, are the same. For
	// callers that show only the summary (optimize without -o,
	// --summary-out, --versions-out or a shard's partial file); Run
	// ignores it when it compares versions.
	NoReportedCIs bool
	// Versions configures Run's comparison across versions.
	Versions VersionOptions
	// Seed selects every random draw.
	Seed uint64
	// Workers is the number of goroutines (0 = GOMAXPROCS). Results do not
	// depend on it.
	Workers int
	// Progress, when set, is called after each (benchmark, metric) job
	// with the number of jobs in all; it must be safe for concurrent use.
	Progress func(total int)
}

// DefaultOptions are µOpTime's settings: all five metrics, threshold 0.01,
// 10,000 bootstrap resamples at 99 % confidence, at least 3 repetitions,
// cloud instances in parallel, 1 s per observation when the setup does not
// say, versions compared with defaultVersionOptions, seed 1.
var DefaultOptions = Options{
	Metrics:              allMetrics,
	Threshold:            0.01,
	Bootstrap:            estimate.DefaultBootstrap,
	MinRepetitions:       3,
	Parallel:             []table.Level{table.LevelInstance},
	DefaultIterationTime: time.Second,
	Versions:             defaultVersionOptions,
	Seed:                 1,
}

// Validate reports the first problem of o.
func (o *Options) Validate() error {
	if len(o.Metrics) == 0 {
		return errors.New("optimize: no metric")
	}
	seen := map[Metric]bool{}
	for _, m := range o.Metrics {
		if m < 0 || m >= numMetrics {
			return fmt.Errorf("optimize: unknown metric %d", int(m))
		}
		if seen[m] {
			return fmt.Errorf("optimize: metric %s listed twice", m)
		}
		seen[m] = true
	}
	if !(o.Threshold > 0) || math.IsInf(o.Threshold, 0) {
		return fmt.Errorf("optimize: threshold must be positive and finite, got %v", o.Threshold)
	}
	if err := o.Bootstrap.Validate(); err != nil {
		return fmt.Errorf("optimize: %w", err)
	}
	if o.MinRepetitions < 1 {
		return fmt.Errorf("optimize: min repetitions must be at least 1, got %d", o.MinRepetitions)
	}
	if o.DiscardWarmup < 0 {
		return fmt.Errorf("optimize: discard-warmup must be ≥ 0, got %d", o.DiscardWarmup)
	}
	if o.DefaultIterationTime <= 0 {
		return fmt.Errorf("optimize: default iteration time must be positive, got %v", o.DefaultIterationTime)
	}
	var fixed, first [table.NumLevels]bool
	for _, l := range o.Fixed {
		if l < 0 || l >= table.NumLevels {
			return fmt.Errorf("optimize: unknown level %d in Fixed", int(l))
		}
		fixed[l] = true
	}
	for _, l := range o.First {
		if l < 0 || l >= table.NumLevels {
			return fmt.Errorf("optimize: unknown level %d in First", int(l))
		}
		if fixed[l] {
			return fmt.Errorf("optimize: level %s is both fixed and first", l)
		}
		first[l] = true
	}
	for _, l := range o.Parallel {
		if l != table.LevelInstance && l != table.LevelTrial && l != table.LevelFork {
			return fmt.Errorf("optimize: level %s cannot run in parallel (only instance, trial, fork)", l)
		}
	}
	if o.DiscardWarmup > 0 && first[table.LevelIteration] {
		return errors.New("optimize: --discard-warmup and --first iteration exclude each other")
	}
	return nil
}

func levelSet(ls []table.Level) (s [table.NumLevels]bool) {
	for _, l := range ls {
		if l >= 0 && l < table.NumLevels {
			s[l] = true
		}
	}
	return s
}

// ParseVersions splits a comma-separated release order (VersionOptions.Order,
// --versions) into its labels, each trimmed of white space; "" gives nil.
func ParseVersions(s string) []string {
	if s == "" {
		return nil
	}
	out := strings.Split(s, ",")
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
	}
	return out
}

// ParseLevels parses a comma-separated list of level names (instance,
// trial, fork, iteration, slice); "" gives nil.
func ParseLevels(s string) ([]table.Level, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []table.Level
	for _, part := range strings.Split(s, ",") {
		l, ok := table.ParseLevel(strings.TrimSpace(part))
		if !ok {
			return nil, fmt.Errorf("optimize: unknown level %q (want instance, trial, fork, iteration or slice)", part)
		}
		out = append(out, l)
	}
	return out, nil
}
