// Package changepoint is the pure segmentation library used by benchtrim's
// steady-state analysis (analysis/steady): it finds change points in one
// numeric series and knows nothing about benchmarks, forks or iterations.
//
// It provides three methods, each a port that reproduces R changepoint 2.3
// and Python kneed 0.8.6 on the reference vectors in
// ../shared/reference/changepoint (see that README for the conventions):
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
// R accumulates cumulative sums in 80-bit long double (x87 extended
// precision). This package emulates that accumulation exactly (see
// SumMode), so the sufficient statistics, and therefore the costs, are the
// same doubles R's C code sees; plain float64 accumulation is available for
// comparison. The remaining differences are in the last bits of log(),
// which may differ between Go and glibc by one ulp; objective values agree
// with R to a relative 1e-12 or better on the reference series.
package changepoint
