package cliapp

import "math"

// Maxima of the counts that size the work or the output: a value above is
// a mistyped or hostile request (trim --splits 1000000 ran for ever), not
// an analysis anyone waits for. Each is at least 100 times its default or
// the largest value of the published setups (JMH forks and iterations,
// Traini et al.'s 3,000 iterations, pa's -is), and the usage of the flag
// says it (addRangeChecks).
const (
	maxResamples  = 10_000_000 // the bootstrap's; default 10,000
	maxRepeats    = 1000       // trim's splits, compare's A/A splits
	maxWorkers    = 1024
	maxIterations = 10_000_000 // iterations and windows over them
	maxForks      = 100_000
	maxSamples    = 10_000_000 // invocations sampled per iteration
	maxPlots      = 100_000    // benchmark runs plotted
	maxGenerated  = 10_000_000 // generate's benchmarks
)

// upTo is the range min ≤ x ≤ max.
func upTo(min, max float64) flagRange { return flagRange{Min: min, Max: max} }

// flagRanges are the ranges of the numeric flags, by flag name; a name
// means the same quantity in every command that has it. Range checks run
// when a flag is given (defaults are valid), before any work.
var flagRanges = map[string]flagRange{
	"workers":  upTo(0, maxWorkers),
	"max-rows": nonNegative,
	// seeds are written into data files as int64 columns
	"seed": {Min: 0, Max: math.MaxInt64},
	// bootstrap
	"resamples": upTo(1, maxResamples), "rciw-resamples": upTo(1, maxResamples), "aa-resamples": upTo(1, maxResamples),
	"confidence": unitInterval, "rciw-confidence": unitInterval, "aa-confidence": unitInterval,
	"alpha": unitInterval,
	"is":    upTo(-1, maxSamples), "rciw-is": upTo(-1, maxSamples), "aa-is": upTo(-1, maxSamples),
	// optimize and compare
	"threshold": positive, "min-repetitions": atLeastOne, "discard-warmup": nonNegative,
	// trim
	"splits": upTo(0, maxRepeats), "keep": {Min: 1, Max: 100}, "stated-warmup": upTo(0, maxIterations),
	"min-change": nonNegative, "aa-repeats": upTo(1, maxRepeats),
	// reconfigure
	"wi-min": upTo(0, maxIterations), "wi-max": upTo(0, maxIterations), "mi": upTo(1, maxIterations),
	"f-min": upTo(1, maxForks), "f-max": upTo(1, maxForks), "window": upTo(2, maxIterations), "fork-window": upTo(0, maxForks),
	"cv-threshold": positive, "rciw-threshold": positive, "kld-threshold": unitInterval,
	"overhead-cv": nonNegative, "overhead-rciw": nonNegative, "overhead-kld": nonNegative,
	"invocations": upTo(1, maxSamples), "outlier-factor": positive,
	"baseline-wi": upTo(0, maxIterations), "baseline-mi": upTo(1, maxIterations), "baseline-forks": upTo(1, maxForks),
	"iteration-time": positive,
	// steady (trim's --steady-window too)
	"steady-window": upTo(1, maxIterations), "outlier-window": upTo(1, maxIterations), "wi": upTo(0, maxIterations),
	"i": upTo(1, maxIterations), "f": upTo(1, maxForks), "w": positive, "r": positive, "plot-max": upTo(0, maxPlots),
	// changepoint
	"min-seg-len": nonNegative,
	// duet
	"min-overlap": unitInterval,
	// generate
	"benchmarks": upTo(1, maxGenerated), "forks": upTo(1, maxForks), "iterations": upTo(1, maxIterations),
}
