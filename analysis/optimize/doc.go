// Package optimize implements µOpTime (N. Japke, M. Grambow, C. Laaber,
// D. Bermbach, "µOpTime: Statically Reducing the Execution Time of
// Microbenchmark Suites Using Stability Metrics", ACM TOSEM, 2025): from one
// full recorded run of a suite it finds, per benchmark, the cheapest
// configuration of repetitions whose results are still stable.
//
// It sits after the canonical table in benchtrim's flow: it reads
// []*table.Series (table.Table.Collect) and returns results as structs; the CLI
// (benchtrim optimize) renders them with package reports and the writers here.
//
// # Method
//
// A series has repetition levels (n_1, …, n_l), outermost first: instance >
// trial (suite run) > fork > iteration > slice. Every smaller configuration
// e = (k_1, …, k_l), k_i ≤ n_i, is simulated by keeping the first k_i units
// of each level. One observation is one innermost unit: a one-second slice
// of µOpTime Go data, an iteration of JMH data (a sample-mode iteration's
// histogram buckets merged into their count-weighted mean). For a metric m
// and threshold ts, µOpTime keeps the configurations with m(e) < ts and
// chooses the one with the shortest execution time, ties broken by the
// smaller metric, then by the lexicographically smaller configuration; when
// none is stable it keeps the full configuration ("not reduced").
// Configurations keeping fewer than MinRepetitions (instance, trial, fork,
// iteration) units are skipped.
//
// The level sizes n_i are the largest indices in the data, so a series
// whose full grid Π n_i has more than 16 cells per observation (plus 4096)
// is skipped as a sparse grid: its indices, not its data, would set the
// search's time and memory.
//
// Execution time of a configuration:
//
//	T(e) = Π_{l ∈ {instance, trial, fork}, l not parallel} k_l · (W + k_iteration · k_slice · u)
//
// with u the duration of one observation (setup's slice time, else its
// iteration time, else Options.DefaultIterationTime) and W the warmup time
// per fork (stated warmup iterations × warmup time, plus --discard-warmup
// iterations × iteration time; 0 with Options.NoWarmupTime, the µOpTime
// prototype's model for JMH data). Instances run in parallel by default.
//
// The metrics (Metric) are CV, RMAD, and the relative CI width (RCIW) of the
// percentile bootstrap CI of the mean, of the studentized bootstrap CI of the
// mean, and of the percentile bootstrap CI of the median (internal/stats;
// quantiles and CI bounds are type 7: linear interpolation between order
// statistics, numpy's default percentile). The reported average and CI use
// the metric's estimator: the mean for cv, rciw-mean and rciw-mean-t, the
// median for rmad and rciw-median; the CI is the percentile bootstrap CI of
// that estimator (the studentized one for rciw-mean-t).
//
// The replication package's rciw_median_p divides the width of the
// bootstrap CI of the mean by the median (stat_functions.py); this package
// uses the CI of the median, as the paper describes.
//
// # Search and determinism
//
// Configurations are evaluated in ascending execution time; the search stops
// as soon as a configuration costs more than the cheapest stable one (all
// configurations of that time are evaluated for the tie-break). Bootstrap
// CIs are computed only for the chosen, full and baseline configurations
// unless Options.AllConfigs asks for all, and with Options.NoReportedCIs
// only where the chosen configuration's RCIW metric needs one. Every bootstrap of a configuration
// draws from stats.NewStream(seed, benchmark key, block(metric,
// configuration)), so the metric of a configuration does not depend on the
// search order: pruned and exhaustive searches choose the same
// configurations, and results are identical for any number of workers.
//
// # Output columns
//
// Report.Frame(FrameResults) (benchtrim optimize -o) holds one row per (benchmark run,
// metric, method); with --all-configs also one row per evaluated
// configuration (method "config"):
//
//	project, version, benchmark, params, mode   the benchmark run
//	metric            cv, rmad, rciw-mean, rciw-mean-t or rciw-median
//	method            uoptime (µOpTime's choice), minimum, random (baselines), config (--all-configs)
//	status            uoptime rows: reduced, not reduced, too few repetitions;
//	                  config rows: stable or unstable; empty for baselines
//	instance, trial, fork, iteration, slice
//	                  the configuration: units kept per level
//	observations      values the configuration keeps
//	repetitions       (instance, trial, fork, iteration) units it keeps
//	value             the stability metric of the configuration
//	time_s            its execution time in seconds
//	average           the metric's estimator (mean or median), ns/op
//	ci_lower, ci_upper  bootstrap CI of the estimator (NaN when not computed)
//	full_instance … full_slice, full_observations, full_value, full_time_s,
//	full_average, full_ci_lower, full_ci_upper
//	                  the same for the full configuration
//	time_saved_s      full_time_s − time_s
//	time_saved        time_saved_s / full_time_s
//	change_rate       |average − full_average| / full_average
//	ci_lower_diff, ci_upper_diff
//	                  (ci_lower − full_ci_lower)/full_ci_lower, same for the upper bound
//	configurations    configurations of the benchmark
//	candidates        configurations with enough repetitions
//	evaluated         configurations whose metric was computed
//	missing           observations missing from the full grid (ragged data)
//	ragged            missing > 0
//	assumed_time      the setup stated no iteration time (DefaultIterationTime used)
//	threshold, seed   the threshold and seed used
//
// Report.Frame(FrameSummary) (--summary-out) holds one row per (project, version, metric,
// method): project, version, metric, method, benchmarks, reduced,
// not_reduced, too_few_repetitions, full_time_s, time_s, time_saved
// (fraction), within_1pct, within_3pct, within_5pct, within_10pct (fractions
// of benchmarks with change rate ≤ 1, 3, 5, 10 %), median_change,
// max_change, worst_ci_lower_diff, worst_ci_upper_diff (largest absolute
// relative CI bound differences).
//
// Report.Frame(FrameVersions) (--versions-out) holds one row per (project, metric,
// method, version pair), scope "pair", then the totals over all pairs,
// scope "total": project, metric, method, scope, from, to, benchmarks,
// full_changes (changes detected with the full configurations, the ground
// truth), detected, tp, fp, tn, fn, fpr = fp/(fp+tn), fnr = fn/(fn+tp)
// (NaN when undefined).
package optimize
