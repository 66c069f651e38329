// Package synth generates realistic synthetic benchmark results with known
// properties, for tests, Go benchmarks and `benchtrim demo`.
//
// It sits before the ingesters in benchtrim's flow: it writes files in the
// four input formats (JMH JSON, µOpTime Go CSV, `go test -bench` text and
// pa/bencher CSV) that format/<name> reads into the canonical table, and it
// returns the truth the analyzers should recover (which benchmarks warm up,
// for how many iterations, which slow down or never reach a steady state, the
// true steady-state mean, the injected outliers and dropped rows, and which
// benchmarks change between versions). Duet data sets (duet.go:
// GenerateDuet, DuetConfig) are written as the duetprocess CSV that
// format/duet reads, with their truth: which benchmarks are A/A and which
// A/B with what slowdown of B, and the interference episodes on the
// machine's timeline.
//
// # Model
//
// A suite (SuiteConfig) has Benchmarks methods, each expanded over the
// cartesian product of the Params axes; one (method, params) pair is a
// benchmark series with one BenchmarkTruth. The value of iteration k
// (0-based) of fork f in trial r on instance a is, in ns/op,
//
//	x = μ · A_a · R_ar · F_arf · c(k) · ε_k · o_k
//
// where μ is the series' true steady-state mean, A, R and F are lognormal
// instance, trial and fork factors with mean 1 (sd InstanceSD, TrialSD,
// ForkSD), ε_k is lognormal iteration noise with mean 1 (sigma Noise), o_k is
// 1 or 1+m at an injected outlier, and c(k) is the behaviour curve of the
// series' Kind:
//
//	flat             c(k) = 1
//	warmup           c(k) = 1 + (W−1)·(e^(−λk/L) − e^(−λ)) / (1 − e^(−λ))  for k < L, 1 after
//	slowdown         c(k) = 1 for k < S, 1+d for k ≥ S
//	no steady state  oscillation: c(k) = 1 ± A, switching every P/2 iterations (a square wave)
//	                 drift:       c(k) = 1 + D·k/(n−1)
//
// L is the true number of warmup iterations (c(L) = 1 exactly), W the
// slowdown of the first iteration, λ the decay rate (warmupConfig.shape).
// Lognormal factors are exp(σZ − σ²/2), so every factor has expectation 1 and
// μ is the expected value of a clean steady-state iteration.
//
// Below the iteration, µOpTime slices are lognormal around x (sliceNoise) and
// sample-mode invocations are lognormal around x (sampleConfig.noise) with a
// rare heavy tail, scaled so that their expectation is x, then truncated to
// whole nanoseconds and quantised like JMH's HDR-style buffer: only the 10
// most significant bits are kept, (t >> b) << b. Go's b.N and µOpTime's n are
// simulated with the launch loop of Go's testing package (predict N for the
// benchtime, +20 %, at most 100× growth, cap 1e9).
//
// # Determinism
//
// Every random draw comes from a math/rand/v2 PCG stream derived from
// (Seed, series key, version, purpose, level indices); the global generator
// is never used. The values of series i therefore depend only on the seed,
// the version label and the series' truth, not on which other series are
// generated or in which order: generating a subset, or generating series in
// parallel, gives identical values. The assignment of kinds to series is
// stratified over the whole suite (exactly round(fraction·n) series of each
// kind) with a suite-level stream.
//
// Writers stream: they hold one series at a time, so a sample-mode JMH file
// of any size is written in bounded memory.
package synth
