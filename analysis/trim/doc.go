// Package trim combines benchtrim's analyzers into one answer to "what do
// I run instead?": per benchmark run it decides which analyses apply,
// recommends one configuration (warmup, forks, measurement iterations) and
// measures, on the recorded data, how much the recommendation changes the
// result.
//
// It sits after the canonical table in benchtrim's flow, on top of the
// other analyzers: Run reads a *table.Table, calls steady.Run,
// reconfigure.Run, duet.Run (duet data), optimize.Run (on tables of the
// rows after the warmup) and compare.Run (consecutive versions), and
// returns a Report whose
// WriteText, WriteDetails, Frame, WriteCommands and WriteAnnotations give
// the answer to people, notebooks, shells and JMH sources; cmd/benchtrim's
// `trim` command wires it and reports/report renders it as one HTML page.
//
// # Decision rules
//
// Per benchmark run (Path, Status):
//
//   - duet modes (seqn, syncduet, duet): no configuration; the duet
//     analysis (analysis/duet with Options.Duet, as `benchtrim duet`)
//     compares A and B, and Benchmark.Duet holds its verdict: the CI of
//     the mean over runs of the paired differences A − B, read as
//     (B − A)/A (PathDuet, StatusDuet).
//
//   - Go data (tool go, or mode go, or no tool stated): there is no warmup
//     phase to detect; µOpTime runs on all observations (PathGo).
//
//   - JMH data recorded with warmup iterations: JMH does not store them,
//     so the stated warmup is kept and µOpTime runs on the measurement
//     iterations (PathStatedWarmup).
//
//   - JMH data recorded with -wi 0 whose shortest fork has more iterations
//     than the steady window (Steady.SteadyWindow, 500): steady-state
//     detection (Traini et al., EMSE 2022; PELT penalty Barrett et al.'s 15·log n, see DefaultOptions) gives each fork's steady-state
//     start st, the 0-based index of its first steady iteration. With k
//     steady forks among d decided ones, k < MinSteadyShare·d (or k = 0)
//     makes the benchmark unreliable (StatusNoSteady). Otherwise the
//     recommended warmup is
//
//     W = ⌈Q_q(st_1, …, st_k)⌉,  q = WarmupQuantile (0.9)
//
//     with Q_q the type-7 quantile (linear interpolation between order
//     statistics): at least 90 % of the steady forks are past their warmup
//     when measurement starts (PathSteady).
//
//   - JMH data recorded with -wi 0 and shorter forks: steady-state
//     detection cannot decide, so the warmup is the same quantile of
//     dynamic reconfiguration's warmup stop points wi_f (Laaber et al.,
//     ESEC/FSE 2020; criterion Reconfigure.Criteria[0], CV), with a warning
//     (PathShort). RCIW and KLD are replayed too, for the report.
//
// µOpTime (Japke et al., TOSEM 2025) then searches the configurations of the
// data after the warmup: optimize.Run on a table of every fork's iterations
// after the first W, renumbered from 1, whose setup states W more warmup
// iterations of the measurement iteration's length, so the W iterations are
// paid as warmup and not measured (as optimize's DiscardWarmup = W), and the
// cheapest configuration (forks, iterations; instances, trials, slices
// where the data have them) whose metric (Optimize.Metrics[0], rciw-median)
// lies below Optimize.Threshold (0.01) is recommended (StatusTrimmed). When
// the full steady part itself (every fork, every iteration after W) is not
// stable, the metric never stabilises: the benchmark is unreliable
// (StatusUnstable; the search is not run) and keeps its recorded
// configuration, as do benchmarks with fewer than
// Optimize.MinRepetitions repetitions (StatusTooFew).
//
// Times follow µOpTime's model (optimize's doc): per benchmark
//
//	T = Π_{instance, trial, fork; not parallel} k_l · (W·u + k_iteration·k_slice·u)
//
// with u the duration of one observation; instances run side by side.
//
// # Evidence
//
// The recommended configuration is replayed on the recorded data: its
// estimate (the metric's estimator, the median for rciw-median) over the first
// forks and the first iterations after W, against the estimate and the
// percentile bootstrap CI (Optimize.Bootstrap, 10,000 resamples at 99 %) of
// the full steady part, every fork and every iteration after W:
//
//	change rate c = |estimate − reference| / reference
//
// and whether the CI contains the estimate. Bootstrap draws come from
// internal/stats streams keyed by (Seed, benchmark key, configuration), as
// in optimize, so the same input and seed give the same report whatever
// Workers is. Totals sum the recorded and recommended times over the suite
// and give the shares of trimmed benchmarks within 1, 3 and 5 %.
package trim
