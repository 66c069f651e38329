package cliapp

import "math"

// flagRanges are the ranges of the numeric flags, by flag name; a name
// means the same quantity in every command that has it. Range checks run
// when a flag is given (defaults are valid), before any work.
var flagRanges = map[string]Range{
	"workers":  NonNegative,
	"max-rows": NonNegative,
	// seeds are written into data files as int64 columns
	"seed": {Min: 0, Max: math.MaxInt64},
	// bootstrap
	"resamples": AtLeastOne, "rciw-resamples": AtLeastOne, "aa-resamples": AtLeastOne,
	"confidence": UnitInterval, "rciw-confidence": UnitInterval, "aa-confidence": UnitInterval,
	"alpha": UnitInterval,
	"is":    InvocationSamples, "rciw-is": InvocationSamples, "aa-is": InvocationSamples,
	// optimize and compare
	"threshold": Positive, "min-repetitions": AtLeastOne, "discard-warmup": NonNegative,
	// trim
	"target": UnitInterval, "splits": NonNegative,
	"min-change": NonNegative, "aa-repeats": AtLeastOne,
	// reconfigure
	"wi-min": NonNegative, "wi-max": NonNegative, "mi": AtLeastOne,
	"f-min": AtLeastOne, "f-max": AtLeastOne, "window": AtLeastTwo, "fork-window": NonNegative,
	"cv-threshold": Positive, "rciw-threshold": Positive, "kld-threshold": UnitInterval,
	"overhead-cv": NonNegative, "overhead-rciw": NonNegative, "overhead-kld": NonNegative,
	"invocations": AtLeastOne, "outlier-factor": Positive,
	"baseline-wi": NonNegative, "baseline-mi": AtLeastOne, "baseline-forks": AtLeastOne,
	"iteration-time": Positive,
	// steady
	"steady-window": AtLeastOne, "outlier-window": AtLeastOne, "wi": NonNegative, "i": AtLeastOne,
	"f": AtLeastOne, "w": Positive, "r": Positive, "plot-max": NonNegative,
	// changepoint
	"min-seg-len": NonNegative,
	// duet
	"min-overlap": UnitInterval,
	// generate
	"benchmarks": AtLeastOne, "forks": AtLeastOne, "iterations": AtLeastOne,
}
