// Package compare answers whether two result sets of the same benchmarks
// differ (A/B), and how often a measurement setup claims a difference where
// there is none (A/A).
//
// It sits in benchtrim's flow after ingestion: the ingesters fill the
// canonical table (package table), table.Collect groups it into one Series
// per benchmark run, and this package matches the runs of a base (control)
// and a test set by (benchmark, params, mode) and compares each pair. The
// statistics come from internal/stats (hierarchical bootstrap) and
// internal/nonparam (Mann-Whitney U, Cliff's δ); reports for people and
// notebooks are written by WriteText and WriteFile.
//
// Per matched benchmark, Compare reports
//
//   - the ratio of means test/base with its percentile confidence interval
//     from the hierarchical bootstrap (Kalibera and Jones, "Quantifying
//     performance changes with effect size confidence intervals", Univ. of
//     Kent TR 4-12, 2012; Ren et al., J. Applied Statistics 37(9), 2010),
//     resampling instance > trial > fork > iteration (and, optionally,
//     invocations inside an iteration, as the -is option of Laaber's pa);
//   - the two-sided Mann-Whitney U p-value on the iteration means, with
//     Cliff's δ of test against base and its magnitude (Romano et al. 2006);
//   - the change rate |mean_test − mean_base| / mean_base;
//   - a verdict: "no change" when the ratio's interval contains 1, else
//     "slower" or "faster" by 100·(ratio − 1) percent.
//
// Times are compared as nanoseconds per operation (the table's ns_per_op),
// so a throughput benchmark that gets faster has a ratio below 1 like any
// other. The rule "the CI of the ratio of means straddles 1" is the one of
// Laaber, Würsten, Gall, Leitner ("Dynamically reconfiguring software
// microbenchmarks", ESEC/FSE 2020) and of pa; the U test and Cliff's δ
// follow the practice of benchstat (golang.org/x/perf) and of the
// performance-testing literature.
//
// Secondary metrics (B/op, allocs/op, MB/s, custom units, JMH
// gc.alloc.rate.norm: the table's metric column) are compared the same way
// on their recorded values, one Report per metric; their verdicts read
// "higher" and "lower". Reports holds them, the primary metric first, and
// writes them as benchstat does: one table per metric.
//
// Describe summarises a single set without comparing (mean with its
// interval, median and CV of the iteration means, n). Filter selects
// benchmarks by their fullName and params as benchstat's -filter does.
// The text reports start with a one-line answer (Report.Headline) and keep
// within Width columns.
//
// aaSeries splits one recording into two random halves by instance, trial or fork
// (balanced, deterministic for a seed), compares the halves as Compare does
// and reports the share of benchmarks whose interval excludes 1 and whose U
// test rejects at α: the false-positive rate of the setup, which should be
// near 1 − confidence and α when the setup is sound.
//
// Randomness: every benchmark draws from its own streams derived from
// (seed, benchmark key, block) by stats.NewStream and stats.NewRand, and
// results are stored by index, so the output is the same at any number of
// workers.
package compare
