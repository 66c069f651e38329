package main

import (
	"math"
	"reflect"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
)

// flagRanges are the ranges of the numeric flags, by flag name; a name
// means the same quantity in every command that has it. Range checks run
// when a flag is given (defaults are valid), before any work.
var flagRanges = map[string]cliapp.Range{
	"workers":  cliapp.NonNegative,
	"max-rows": cliapp.NonNegative,
	// seeds are written into data files as int64 columns
	"seed": {Min: 0, Max: math.MaxInt64},
	// bootstrap
	"resamples": cliapp.AtLeastOne, "rciw-resamples": cliapp.AtLeastOne, "aa-resamples": cliapp.AtLeastOne,
	"confidence": cliapp.UnitInterval, "rciw-confidence": cliapp.UnitInterval, "aa-confidence": cliapp.UnitInterval,
	"alpha": cliapp.UnitInterval,
	"is":    cliapp.InvocationSamples, "rciw-is": cliapp.InvocationSamples, "aa-is": cliapp.InvocationSamples,
	// optimize and compare
	"threshold": cliapp.Positive, "min-repetitions": cliapp.AtLeastOne, "discard-warmup": cliapp.NonNegative,
	// trim
	"target": cliapp.UnitInterval, "splits": cliapp.NonNegative,
	"min-change": cliapp.NonNegative, "aa-repeats": cliapp.AtLeastOne,
	// reconfigure
	"wi-min": cliapp.NonNegative, "wi-max": cliapp.NonNegative, "mi": cliapp.AtLeastOne,
	"f-min": cliapp.AtLeastOne, "f-max": cliapp.AtLeastOne, "window": cliapp.AtLeastTwo, "fork-window": cliapp.NonNegative,
	"cv-threshold": cliapp.Positive, "rciw-threshold": cliapp.Positive, "kld-threshold": cliapp.UnitInterval,
	"overhead-cv": cliapp.NonNegative, "overhead-rciw": cliapp.NonNegative, "overhead-kld": cliapp.NonNegative,
	"invocations": cliapp.AtLeastOne, "outlier-factor": cliapp.Positive,
	"baseline-wi": cliapp.NonNegative, "baseline-mi": cliapp.AtLeastOne, "baseline-forks": cliapp.AtLeastOne,
	"iteration-time": cliapp.Positive,
	// steady
	"steady-window": cliapp.AtLeastOne, "outlier-window": cliapp.AtLeastOne, "wi": cliapp.NonNegative, "i": cliapp.AtLeastOne,
	"f": cliapp.AtLeastOne, "w": cliapp.Positive, "r": cliapp.Positive, "plot-max": cliapp.NonNegative,
	// changepoint
	"min-seg-len": cliapp.NonNegative,
	// duet
	"min-overlap": cliapp.UnitInterval,
	// generate
	"benchmarks": cliapp.AtLeastOne, "forks": cliapp.AtLeastOne, "iterations": cliapp.AtLeastOne,
}

// group sets the help category (urfave/cli's Category) of flags, which
// help lists in the order of each category's first flag, flags in their
// order (commandHelp), and returns them.
func group(category string, flags ...cli.Flag) []cli.Flag {
	for _, f := range flags {
		reflect.ValueOf(f).Elem().FieldByName("Category").SetString(category)
	}
	return flags
}

// groups concatenates flag groups.
func groups(gs ...[]cli.Flag) []cli.Flag { return slices.Concat(gs...) }
