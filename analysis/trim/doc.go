// Package trim combines benchtrim's analyzers into one answer to "what do
// I run instead?": per benchmark run it decides which analyses apply,
// recommends one configuration (warmup, forks, measurement iterations) and
// measures, on the recorded data, how much the recommendation changes the
// result.
//
// It sits after the canonical table in benchtrim's flow, on top of the
// other analyzers: Run reads a *table.Table, calls steady.Run,
// reconfigure.Run, duet.Run (duet data), optimize.Run (the full
// configuration of the rows after the warmup: the time model and the
// commands) and compare.Run (consecutive versions), and
// returns a Report whose
// WriteText, WriteDetails, Frame, WriteCommands and WriteAnnotations give
// the answer to people, notebooks, shells and JMH sources; cmd/benchtrim's
// `trim` command wires it and reports/page renders it as one HTML page.
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
//     phase to detect; the configuration is chosen on all observations
//     (PathGo).
//
//   - JMH data recorded with warmup iterations: JMH does not store them,
//     so the stated warmup is kept and the configuration is chosen on the
//     measurement iterations (PathStatedWarmup).
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
// # The configuration
//
// After the warmup, the data of a benchmark run form a nested design
// (instance > trial > fork > iteration > slice; the levels that vary in
// the data). Its variance components S²_l (Kalibera and Jones, "Rigorous
// benchmarking in reasonable time", ISMM 2013: the method-of-moments
// estimators, design.go) give the variance of the mean of a configuration
// k (k_l units of level l per unit above),
//
//	V(k) = Σ_l S²_l / Π_{m ≤ l} k_m,
//
// and its precision, the relative half-width of the CI of the mean,
//
//	h(k) = h_rec · √(V(k) / V(recorded)),
//
// where h_rec is the hierarchical bootstrap CI of the recorded data
// (Optimize.Bootstrap: 10,000 resamples at 99 %; every level resampled).
// The time of a configuration comes from the data (costModel):
//
//	T(k) = k_instance · (o_i + k_trial · (o_t + k_fork · (o_f + W_f + k_iteration · k_slice · u)))
//
// with u one observation's duration (JMH iteration time, µOpTime slice,
// a go test line's N × ns/op), W_f a fork's warmup (stated, plus the W
// discarded iterations) and o_l the start of one unit of level l
// (startupCosts: by default a JMH fork's JVM, and at the trial level the
// host JVM of its java -jar command; Overhead sets them); instances count
// once with ParallelInstances. A go test process runs a group of
// benchmarks (WriteCommands' groups), so its start-up is counted per run
// of a group's command in the suite's times (addCommandStartups), not in
// T(k). By default (Tradeoff λ =
// 0.02) the recommendation is the k within the recorded counts with the
// least h(k) + λ·T(k)/T_rec among those costing at most
// max(T(k_min), Budget·T_rec), k_min the fixed minimal configuration
// (where none fits, the cheapest k); where its h(k) exceeds
// MaxLoss·h_rec, the cheapest k with h(k) ≤ MaxLoss·h_rec instead. Under
// the Target rule (Tradeoff 0) it is the cheapest k within the recorded
// counts whose h(k) ≤ Target (StatusTrimmed); Kalibera and Jones' optimum
// k_l = √(c_{l−1}·S²_l / (c_l·S²_{l−1})) is its continuous relaxation, the
// grid search its integer solution. Where no k reaches the target, the
// cheapest with h(k) ≤ (1 + Options.BestEffortSlack)·h_rec (statusBestEffort);
// where that saves less than minSaving, the recorded configuration
// (StatusKept). A benchmark without a steady state keeps its iterations
// per fork (its mean depends on how long a fork runs); only the outer
// levels may shrink. Fewer than two varying observations: StatusTooFew.
//
// # Evidence
//
// In-sample, the recommended configuration is replayed on the recorded
// data (the first units of every level after the warmup): its mean
// against the mean and hierarchical bootstrap CI of the full data after
// the warmup, change rate c = |estimate − reference| / reference.
// Out of sample, outOfSample halves the top level's units at random
// (Splits times), chooses on one half and runs the choice on the other,
// with the fixed minimal configuration as the alternative; the minimal
// detectable slowdown of the recorded, recommended and fixed minimal
// configurations comes from resampled A/B runs with an injected slowdown
// (detect.go). Every draw comes from internal/stats streams keyed by
// (Seed, benchmark key, purpose), so the same input and seed give the same
// report whatever Workers is.
package trim
