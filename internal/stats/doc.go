// Package stats holds the statistics shared by benchtrim's analyzers
// (µOpTime in analysis/optimize, dynamic reconfiguration, compare, steady
// state and duet): deterministic random streams, descriptive statistics, flat
// bootstrap confidence intervals (percentile, studentized, and BCa as
// scipy.stats.bootstrap computes it) and relative CI widths, the hierarchical
// bootstrap over the repetition levels of the canonical table, and the
// Kullback-Leibler stability probability.
//
// It sits below the analyzers and above nothing but the standard library:
// analyzers read values from the canonical table (package table), pass
// float64 slices here and get numbers back.
//
// Conventions (as gonum's stat package): data come first and optional
// weights last, nil weights mean uniform; weights are frequencies (histogram
// counts), so a value with weight 3 counts as three observations. Slices
// passed in are never modified: functions that need sorted data copy first,
// except the ...Sorted variants, which require sorted input. Caller bugs
// (mismatched lengths, probabilities outside [0, 1]) panic with a message
// prefixed "stats: "; bad data and invalid options return errors.
//
// Quantiles are type 7 of Hyndman and Fan (1996), the default of numpy and
// R: linear interpolation between order statistics. Bootstrap percentiles use
// the same definition on the sorted replicates.
//
// Randomness: every random function takes a *Stream, a PCG-DXSM generator
// derived from (seed, key, block) by NewStream; the same inputs and stream
// give the same result whatever GOMAXPROCS is. Kernels are single-threaded;
// parallelise across benchmarks with one stream and one Workspace per
// goroutine.
//
// On amd64 the bootstrap's innermost draw loops (draw_amd64.s) are
// assembly that keeps the generator's 128-bit state in registers, where
// the Go compiler stores and reloads it on every draw; each has a Go
// reference (the ...Go functions) that the tests hold it to bit for bit,
// and the purego build tag uses the references instead. With AVX-512 the
// ...VecAsm kernels take the same outputs, in the same order, from eight
// generator states computed at once, and their draws from Lemire products
// computed eight outputs at a time (pcgvec_amd64.h); the order statistics
// and medians of the replicates use AVX-512 helpers too (tails_amd64.s).
package stats
