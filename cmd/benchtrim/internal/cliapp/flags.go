package cliapp

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
	Min, Max         float64
	MinOpen, MaxOpen bool
}

var (
	nonNegative  = flagRange{Min: 0, Max: math.Inf(1)}
	positive     = flagRange{Min: 0, MinOpen: true, Max: math.Inf(1)}
	atLeastOne   = flagRange{Min: 1, Max: math.Inf(1)}
	atLeastTwo   = flagRange{Min: 2, Max: math.Inf(1)}
	unitInterval = flagRange{Min: 0, Max: 1, MinOpen: true, MaxOpen: true}
	// invocationSamples are pa's -is values: -1 (all), 0 (iteration means), k ≥ 1.
	invocationSamples = flagRange{Min: -1, Max: math.Inf(1)}
)

// check returns a usage error naming the flag when x is out of range.
func (r flagRange) check(c *cli.Context, name string, x float64, shown string) error {
	low := x > r.Min || (!r.MinOpen && x == r.Min)
	high := x < r.Max || (!r.MaxOpen && x == r.Max)
	if low && high {
		return nil
	}
	var want string
	switch {
	case math.IsInf(r.Max, 1) && r.MinOpen:
		want = fmt.Sprintf("greater than %g", r.Min)
	case math.IsInf(r.Max, 1):
		want = fmt.Sprintf("at least %g", r.Min)
	case r.MinOpen && r.MaxOpen:
		want = fmt.Sprintf("between %g and %g (exclusive)", r.Min, r.Max)
	default:
		want = fmt.Sprintf("between %g and %g", r.Min, r.Max)
	}
	return Usagef(commandName(c), "--%s %s: must be %s", name, shown, want)
}

// addRangeChecks sets the Action of every numeric flag in flags that has a
// range in ranges (by flag name) and no Action of its own: a value out of
// range is a usageError naming the flag, before any work.
func addRangeChecks(flags []cli.Flag, ranges map[string]flagRange) {
	for _, f := range flags {
		name := f.Names()[0]
		r, ok := ranges[name]
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
						return Usagef(commandName(c), "--%s %d: must be at most %d", name, n, int64(math.MaxInt64))
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

// commandName is the name of the command c runs (the app's name at the
// top level), for messages.
func commandName(c *cli.Context) string {
	if c.Command != nil && c.Command.Name != c.App.Name {
		return c.Command.Name
	}
	return ""
}

// AnySet reports whether any of the named flags is set on c's command.
func AnySet(c *cli.Context, names ...string) bool {
	for _, n := range names {
		if c.IsSet(n) {
			return true
		}
	}
	return false
}
