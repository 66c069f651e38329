// Package duet analyses duet benchmarking results: two versions A and B of
// a benchmark run one after the other (seqn), in parallel with synchronised
// iteration starts (syncduet) or in parallel without synchronisation (duet,
// the asynchronous duet), and the analysis says whether A and B differ and
// how precisely each method can tell.
//
// It sits in benchtrim's flow after ingestion: the duet reader (format/duet)
// fills the canonical table with one row per harness iteration (mode = the
// type, pair A/B, start and end timestamps, instance = duetbench invocation,
// fork = run), and Run reads those rows (fromTable), analyses every
// benchmark-env key (suite, benchmark, version, type, environment) in
// parallel and returns a Report whose frames and text summary the shared
// writers render.
//
// The method is T. Drozdík, "Asynchronous Duet Benchmarking", master's
// thesis, Charles University (MFF UK), Prague 2023, as implemented by the
// author's Python package duet (TomasDrozdik/asynchronous-duet, fb202dd);
// the asynchronous duet itself is L. Bulej, V. Horký, P. Tůma, F. Farquet,
// A. Prokopec, "Duet benchmarking: improving measurement accuracy in the
// cloud", Empirical Software Engineering 25, 2020. Where the thesis text and
// the code differ, the defaults follow the code, which produced the
// published numbers, and the thesis variant is an option. The stages, each
// a pure function:
//
//   - exclusions (Options.Exclude; codeExclusions);
//   - warm-up removal, filterWarmup (warmupCode: iteration ≥ iter_max/2 per
//     run in the JVM suites; warmupHalf: the thesis's first half);
//   - overlaps of an async duet run, sweepOverlaps (the code's two-pointer
//     sweep, default) or allPairsOverlaps (every pair), and the minimum
//     overlap ratio filter filterOverlaps (rate > m, m = 0.4);
//   - pairing, pairByIndex (seqn, syncduet) or pairByOverlap (duet), and
//     the mean of the differences A − B per run;
//   - the CI test, keyCITest: BCa bootstrap CI (9999 resamples, 95 %) of the
//     mean of the run means; equal when it contains 0; relative CI width
//     (hi − lo) / grand mean;
//   - the U test, mannWhitney: all A against all B iteration times,
//     two-sided, tie and continuity corrected, exact for small samples
//     without ties (scipy.stats.mannwhitneyu's defaults); equal when p > 0.05;
//   - CV; runTimes and speedup of duet against seqn (the code's per-iteration
//     definition or the thesis's eq. 5.1); relativeOverlapTime;
//   - slowdownB, an emulated slowdown of B by (1 + s), shifting B's
//     timestamps so that the gaps between its iterations are kept, and the
//     minimal detectable slowdown: both tests re-run for s = 0 … 15 % with
//     A/A match ratios per (environment, suite, type), and a per-benchmark
//     MDS (the smallest s detected there and at every larger grid point).
//
// For A/B data (A and B different versions) each Benchmark carries a
// Verdict: whether the CI of mean(A − B) excludes 0, which side is faster,
// and by how much relative to B's mean time (Relative, RelLower, RelUpper).
//
// Randomness: every CI of a key draws from stats.NewStream(Seed, key, 1),
// started afresh for each CI, so slowdowns and overlap ratios share their
// resampling (common random numbers) and the result is the same for any
// Workers or GOMAXPROCS. The reference is unseeded, so its published CI
// counts are one random draw (±2 benchmarks per cell).
//
// The decisions on the specification's open points (D1–D16 of
// shared/reference/duet/SPEC.md §15) are listed in docs/duet.md.
package duet
