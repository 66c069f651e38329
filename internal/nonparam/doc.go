// Package nonparam holds the rank-based tests and effect sizes that
// benchtrim's analyzers share: the Mann-Whitney U (Wilcoxon rank-sum) test,
// Cliff's δ, the Vargha-Delaney Â12, the Kruskal-Wallis H test and Dunn's
// post-hoc test with Bonferroni adjustment, plus the average-tie ranks and
// tie corrections they are built on.
//
// It sits below the analyzers in benchtrim's flow (ingest → table →
// analysis → reports): analysis/optimize (µOpTime) compares the change-rate
// distributions of stability metrics with Kruskal-Wallis, Dunn and Cliff's δ
// (Japke et al., TOSEM 2025, RQ2); analysis/compare reports the U test and
// Cliff's δ next to the bootstrap ratio CI; the reconfiguration and
// steady-state analyzers reuse the same kernels. The package has no state
// and no randomness.
//
// Conventions, as in gonum/stat: data first; the caller's slices are never
// modified (functions sort copies); invalid data (empty samples, NaN) is
// reported with an error that wraps errEmpty or errNaN and names the sample
// and index; caller bugs (mismatched lengths, unknown option values) panic
// with a "nonparam: " message. ±Inf are valid observations: they are ranked
// like any other value.
//
// Every p-value was checked against scipy 1.10.1 (Debian python3-scipy) or,
// for Dunn's test, against the textbook formula evaluated in numpy; the
// tests say how each reference value was obtained and with what tolerance.
package nonparam
