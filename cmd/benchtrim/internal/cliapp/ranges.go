package cliapp

import "math"

// flagRanges are the ranges of the numeric flags, by flag name; a name
// means the same quantity in every command that has it. Range checks run
// when a flag is given (defaults are valid), before any work.
var flagRanges = map[string]flagRange{
	"workers":  nonNegative,
	"max-rows": nonNegative,
	// seeds are written into data files as int64 columns
	"seed": {Min: 0, Max: math.MaxInt64},
	// bootstrap
	"resamples": atLeastOne, "rciw-resamples": atLeastOne, "aa-resamples": atLeastOne,
	"confidence": unitInterval, "rciw-confidence": unitInterval, "aa-confidence": unitInterval,
	"alpha": unitInterval,
	"is":    invocationSamples, "rciw-is": invocationSamples, "aa-is": invocationSamples,
	// optimize and compare
	"threshold": positive, "min-repetitions": atLeastOne, "discard-warmup": nonNegative,
	// trim
	"target": unitInterval, "splits": nonNegative, "best-effort": nonNegative, "tradeoff": nonNegative,
	"min-change": nonNegative, "aa-repeats": atLeastOne,
	// reconfigure
	"wi-min": nonNegative, "wi-max": nonNegative, "mi": atLeastOne,
	"f-min": atLeastOne, "f-max": atLeastOne, "window": atLeastTwo, "fork-window": nonNegative,
	"cv-threshold": positive, "rciw-threshold": positive, "kld-threshold": unitInterval,
	"overhead-cv": nonNegative, "overhead-rciw": nonNegative, "overhead-kld": nonNegative,
	"invocations": atLeastOne, "outlier-factor": positive,
	"baseline-wi": nonNegative, "baseline-mi": atLeastOne, "baseline-forks": atLeastOne,
	"iteration-time": positive,
	// steady
	"steady-window": atLeastOne, "outlier-window": atLeastOne, "wi": nonNegative, "i": atLeastOne,
	"f": atLeastOne, "w": positive, "r": positive, "plot-max": nonNegative,
	// changepoint
	"min-seg-len": nonNegative,
	// duet
	"min-overlap": unitInterval,
	// generate
	"benchmarks": atLeastOne, "forks": atLeastOne, "iterations": atLeastOne,
}
