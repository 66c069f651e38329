package main

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/urfave/cli/v2"
)

// flagRange is the accepted range of a numeric flag: min ≤ x (or min < x
// when minOpen) and x ≤ max (x < max when maxOpen).
type flagRange struct {
	min, max         float64
	minOpen, maxOpen bool
}

var (
	nonNegativeRange = flagRange{min: 0, max: math.Inf(1)}
	positiveRange    = flagRange{min: 0, minOpen: true, max: math.Inf(1)}
	atLeastOne       = flagRange{min: 1, max: math.Inf(1)}
	atLeastTwo       = flagRange{min: 2, max: math.Inf(1)}
	unitInterval     = flagRange{min: 0, max: 1, minOpen: true, maxOpen: true}
	// invocationSamples are pa's -is values: -1 (all), 0 (iteration means), k ≥ 1.
	invocationSamples = flagRange{min: -1, max: math.Inf(1)}
)

// flagRanges are the ranges of the numeric flags, by flag name; a name
// means the same quantity in every command that has it. Range checks run
// when a flag is given (defaults are valid), before any work.
var flagRanges = map[string]flagRange{
	"workers": nonNegativeRange,
	// seeds are written into data files as int64 columns
	"seed": {min: 0, max: math.MaxInt64},
	// bootstrap
	"resamples": atLeastOne, "rciw-resamples": atLeastOne, "aa-resamples": atLeastOne,
	"confidence": unitInterval, "rciw-confidence": unitInterval, "aa-confidence": unitInterval,
	"alpha": unitInterval,
	"is":    invocationSamples, "rciw-is": invocationSamples, "aa-is": invocationSamples,
	// optimize and compare
	"threshold": positiveRange, "min-repetitions": atLeastOne, "discard-warmup": nonNegativeRange,
	"min-change": nonNegativeRange, "aa-repeats": atLeastOne,
	// reconfigure
	"wi-min": nonNegativeRange, "wi-max": nonNegativeRange, "mi": atLeastOne,
	"f-min": atLeastOne, "f-max": atLeastOne, "window": atLeastTwo, "fork-window": nonNegativeRange,
	"cv-threshold": positiveRange, "rciw-threshold": positiveRange, "kld-threshold": unitInterval,
	"overhead-cv": nonNegativeRange, "overhead-rciw": nonNegativeRange, "overhead-kld": nonNegativeRange,
	"invocations": atLeastOne, "outlier-factor": positiveRange,
	"baseline-wi": nonNegativeRange, "baseline-mi": atLeastOne, "baseline-forks": atLeastOne,
	"iteration-time": positiveRange,
	// steady
	"steady-window": atLeastOne, "outlier-window": atLeastOne, "wi": nonNegativeRange, "i": atLeastOne,
	"f": atLeastOne, "w": positiveRange, "r": positiveRange, "plot-max": nonNegativeRange,
	// changepoint
	"min-seg-len": nonNegativeRange,
	// generate
	"benchmarks": atLeastOne, "forks": atLeastOne, "iterations": atLeastOne,
}

// check returns a usage error naming the flag when x is out of range.
func (r flagRange) check(c *cli.Context, name string, x float64, shown string) error {
	low := x > r.min || (!r.minOpen && x == r.min)
	high := x < r.max || (!r.maxOpen && x == r.max)
	if low && high {
		return nil
	}
	var want string
	switch {
	case math.IsInf(r.max, 1) && r.minOpen:
		want = fmt.Sprintf("greater than %g", r.min)
	case math.IsInf(r.max, 1):
		want = fmt.Sprintf("at least %g", r.min)
	case r.minOpen && r.maxOpen:
		want = fmt.Sprintf("between %g and %g (exclusive)", r.min, r.max)
	default:
		want = fmt.Sprintf("between %g and %g", r.min, r.max)
	}
	return usagef(cmdName(c), "--%s %s: must be %s", name, shown, want)
}

// addRangeChecks sets the Action of every numeric flag in flags that has a
// range in flagRanges and no Action of its own.
func addRangeChecks(flags []cli.Flag) {
	for _, f := range flags {
		name := f.Names()[0]
		r, ok := flagRanges[name]
		if !ok {
			continue
		}
		switch fl := f.(type) {
		case *cli.IntFlag:
			if fl.Action == nil {
				fl.Action = func(c *cli.Context, n int) error { return r.check(c, name, float64(n), strconv.Itoa(n)) }
			}
		case *cli.Float64Flag:
			if fl.Action == nil {
				fl.Action = func(c *cli.Context, x float64) error {
					return r.check(c, name, x, strconv.FormatFloat(x, 'g', -1, 64))
				}
			}
		case *cli.Uint64Flag:
			if fl.Action == nil {
				fl.Action = func(c *cli.Context, n uint64) error {
					if n > math.MaxInt64 {
						return usagef(cmdName(c), "--%s %d: must be at most %d", name, n, int64(math.MaxInt64))
					}
					return nil
				}
			}
		case *cli.DurationFlag:
			if fl.Action == nil {
				fl.Action = func(c *cli.Context, d time.Duration) error { return r.check(c, name, float64(d), d.String()) }
			}
		}
	}
}

func cmdName(c *cli.Context) string {
	if c.Command != nil && c.Command.Name != c.App.Name {
		return c.Command.Name
	}
	return ""
}
