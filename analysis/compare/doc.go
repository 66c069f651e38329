// Package compare answers whether two result sets of the same benchmarks
// differ (A/B), how they look on their own (one set described), and how
// often a measurement setup claims a difference where there is none (A/A).
//
// It sits in benchtrim's flow after ingestion: the ingesters fill the
// canonical table (package table), table.Table.Collect groups it into one Series
// per benchmark run, and this package matches the runs of a base (control)
// and a test side by (benchmark, params, mode) and compares each pair.
//
// # Entry points
//
// Run(t, opt) is the package's entry point, the shape of every
// analyzer: opt says what to do with the table (Options.Base and
// Options.Test, the A/A test, benchstat's Row and Col), and the Report it
// returns prints itself (WriteText) and gives its data table (Frame); an
// A/B comparison's Report holds its Rows, one per metric and benchmark.
// Merge merges Run's reports on the parts of an input split by benchmark
// name (Options.Part) into the unsplit report. Inputs sets the sides the
// way a command line names them: two tables (the files of each side) or
// label selectors on one.
//
// # Statistics
//
// Per matched benchmark, a comparison holds
//
//   - the ratio of means test/base with its percentile confidence interval
//     from the hierarchical bootstrap (Kalibera and Jones, "Quantifying
//     performance changes with effect size confidence intervals", Univ. of
//     Kent TR 4-12, 2012; Ren et al., J. Applied Statistics 37(9), 2010),
//     resampling instance > trial > fork > iteration (and, optionally,
//     invocations inside an iteration, as the -is option of Laaber's pa);
//   - the medians of the iteration values with benchstat's 95 % interval
//     (nonparam.BenchstatMedian, the ± of its tables);
//   - the two-sided Mann-Whitney U p-value on the iteration values as
//     benchstat computes it (nonparam.BenchstatU), with Cliff's δ of test
//     against base and its magnitude (Romano et al. 2006);
//   - a verdict by Options.Rule: for estimate.TestU (benchstat's rule,
//     DefaultOptions) "slower" or "faster" by the change of the medians
//     when p ≤ Alpha; for TestRatio "no change" when the ratio's (1 − Alpha)
//     interval contains 1, else "slower" or "faster" by 100·(ratio − 1)
//     percent; for TestOverlap by the overlap of the sides' t intervals.
//     MinEffect turns smaller changes into "no change"; the change rate
//     is the verdict's change as a signed fraction.
//
// Reports keep their rows sorted by name; the text and the data
// tables show them in input order (the order benchstat prints rows in:
// first appearance, the base's files first), by the runs' input
// positions (table.Series.First), which are those of the whole input also
// in the chunks of a spooled one.
//
// Times are compared as nanoseconds per operation (the table's ns_per_op),
// so a throughput benchmark that gets faster has a ratio below 1 like any
// other. The interval rule is the one of Laaber, Würsten, Gall, Leitner
// ("Dynamically reconfiguring software microbenchmarks", ESEC/FSE 2020)
// and of pa; the U test on medians is benchstat's (golang.org/x/perf).
//
// Secondary metrics (B/op, allocs/op, MB/s, custom units, JMH
// gc.alloc.rate.norm: the table's metric column) are compared the same way
// on their recorded values, the rows of each metric after the primary
// metric's; their verdicts read "higher" and "lower". The text shows them
// as benchstat does: one table per metric.
//
// Options.Row and Options.Col are benchstat's -row and -col projections:
// rows named by .fullname, .name, /KEY or the run label (.file, .config),
// pooling the runs a row leaves apart; sides that are the two values of a
// parameter (/KEY) or the two project@version labels of one input
// (colConfig, benchstat's file configuration).
//
// A description (a zero Options.Test) gives per benchmark the mean with its
// interval, the median and CV of the iteration means and n. Filter selects
// benchmarks by their full name and params as benchstat's -filter does.
// The text reports start with a one-line answer and keep within width
// columns.
//
// The A/A test (Options.AA, aaSeries) splits one recording into two random
// halves by instance, trial or fork (balanced, deterministic for a seed),
// compares the halves and reports the share of benchmarks whose interval
// excludes 1 and whose U test rejects at α: the false-positive rate of the
// setup, which should be near 1 − confidence and α when the setup is sound.
//
// Randomness: every benchmark draws from its own streams derived from
// (seed, benchmark key, block) by stats.NewStream and stats.NewRand, and
// results are stored by index, so the output is the same at any number of
// workers and on any split of the input by benchmark name.
package compare
