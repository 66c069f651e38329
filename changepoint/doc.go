// Package changepoint is the pure segmentation library used by benchtrim's
// steady-state analysis (analysis/steady): it finds change points in one
// numeric series and knows nothing about benchmarks, forks or iterations.
//
// It provides three methods, each a port that reproduces R changepoint 2.3
// and Python kneed 0.8.6 on the reference vectors in
// ../shared/reference/changepoint (see that folder's README; docs/changepoint.md
// summarises the conventions and the quirks reproduced):
//
//   - PELT, Pruned Exact Linear Time (Killick, Fearnhead and Eckley,
//     "Optimal detection of changepoints with a linear computational cost",
//     JASA 107(500), 2012), with the Normal mean-and-variance cost of R's
//     cpt.meanvar(test.stat="Normal") and the Normal mean-only cost of
//     cpt.mean, a minimum segment length and a manual penalty.
//   - CROPS, Changepoints for a Range Of PenaltieS (Haynes, Eckley and
//     Fearnhead, "Computationally efficient changepoint detection for a
//     range of penalties", JCGS 26(1), 2017), as R's range_of_penalties
//     runs it.
//   - Kneedle (Satopää, Albrecht, Irwin and Raghavan, "Finding a 'Kneedle'
//     in a haystack: detecting knee points in system behavior", ICDCS
//     Workshops 2011), as kneed 0.8.6 computes it, and the way Traini et al.
//     (EMSE 2022) apply it to the CROPS curve to choose one penalty per
//     series (SelectPenalty).
//
// # Index convention
//
// Change points follow R's cpts(): the 1-based index of the last point of
// every segment except the final one. Because a 1-based inclusive end equals
// a 0-based exclusive end, Changepoints[k] is also the 0-based start of
// segment k+1. Segment bounds are 0-based half-open [Start, End).
//
// # Numerics
//
// Every floating-point operation that decides a result follows R's C code
// in the same order, so the results are the same doubles:
//
//   - R accumulates cumulative sums in 80-bit long double (x87 extended
//     precision); this package emulates that accumulation exactly (see
//     SumMode; plain float64 sums are available for comparison), and
//     likewise R's mean() and var() for the segment statistics.
//   - log() is a table-driven evaluation correctly rounded except within
//     about 2⁻¹¹ ulp of a rounding boundary, like glibc's, instead of Go's
//     math.Log (off by one ulp for about 0.5 % of arguments), because
//     one-ulp cost differences flip CROPS's exact ties.
//   - R's d^-1 (powl) and all.equal are reproduced in CROPS.
//
// On the reference series every PELT objective (with extended and with
// double sums), every CROPS run's penalty and objective and every
// pen.value.full entry, 6,525 values, is bit-identical to R's output.
//
// # Speed
//
// The PELT inner loop has AVX2/FMA kernels on amd64 (detected at run time;
// build tag purego or another architecture selects the portable code,
// boundMeanVarGo, which bounds the same way in plain Go).
// For the mean-and-variance cost they compute a cheap approximation of
// every candidate's value with a rigorous error bound and evaluate the
// exact value only where the bound leaves a comparison undecided, so the
// results stay bit-identical (see scan.go). CROPS additionally shares a
// cache of bounded segment costs between its PELT runs for series of up to
// about 4,000 points. On the reference timing series this is about 2× (PELT
// mean-and-variance, CROPS) to 4× (PELT mean) faster than R (see
// bench_test.go).
package changepoint
