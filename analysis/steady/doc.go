// Package steady is benchtrim's steady-state analyzer: for every fork of a
// benchmark recorded without warmup iterations (one value per iteration,
// from the first iteration on) it finds where the steady state of
// performance starts, classifies forks and benchmarks, and evaluates how
// well a benchmark configuration (warmup and measurement iterations and
// times, forks) would have matched the detected steady state.
//
// It sits after the canonical table in benchtrim's flow: it reads
// table.Series (one per benchmark run), segments each fork's series with
// the changepoint package (PELT, CROPS, Kneedle), and hands its results to
// reports for tables and plots; cmd/benchtrim's `steady` command wires it.
//
// # Method
//
// The analysis follows Traini, Cortellessa, Di Pompeo and Tucci, "Towards
// effective assessment of steady state performance in Java software: are we
// there yet?", Empirical Software Engineering 28(13), 2022 (EMSE), and their
// replication package SEALABQualityGroup/steady-state, which adapt Barrett,
// Bolz-Tereick, Killick, Mount and Tratt, "Virtual machine warmup blows hot
// and cold", OOPSLA 2017. Per fork:
//
//  1. Outliers (findOutliers): a point is an outlier when it lies outside
//     median ± 3·(p99 − p1) of some sliding window of 200 points that
//     contains it; outliers are removed before segmentation and reported.
//  2. Segmentation: PELT with the Normal mean-and-variance cost on the
//     series without outliers; the penalty is chosen per series by CROPS and
//     Kneedle (Traini's procedure, changepoint.SelectPenalty), or fixed, or
//     Barrett's 15·log n.
//  3. Steady-state start st: the start of the earliest segment such that it
//     and every later segment are equivalent to the last segment. The fork
//     reaches a steady state when st ≤ n − W (W = Options.SteadyWindow, or
//     by default AutoWindow of the run's longest fork: ⌈n/6⌉ within
//     [5, 500], Traini's 500 on forks of 3,000 iterations), i.e. the steady
//     part covers at least the last W iterations; a change point between
//     equivalent segments does not count.
//  4. Classes: fork steady state / no steady state (and Barrett's flat,
//     warmup, slowdown, no steady state); benchmark steady state (all forks
//     steady), no steady state (none), inconsistent (mixed).
//  5. st is reported as an iteration index and as the elapsed time since the
//     fork started.
//
// Evaluate replays a configuration on the recorded forks (Traini's
// Algorithms 1 and 2) and reports the warmup estimation error, time waste
// and relative performance deviation; compare contrasts two configuration
// sets with the Wilcoxon rank-sum test and Vargha-Delaney Â12.
//
// Where this package departs from the replication scripts it says so in the
// doc comment of the function concerned (for example, the equivalence test
// runs on the series without outliers, and a configuration with zero warmup
// iterations consumes no iteration).
//
// Randomness (bootstrap resamples) comes from internal/stats streams keyed by
// (seed, benchmark, fork, purpose); results do not depend on the number of
// workers.
package steady
