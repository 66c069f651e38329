package cliapp

import (
	"fmt"
	"math"
	"strconv"
	"strings"
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
	unitInterval = flagRange{Min: 0, Max: 1, MinOpen: true, MaxOpen: true}
)

// num formats a range's bound: 10000000, not 1e+07.
func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// documented reports whether a flag's usage states the range's maximum:
// a count's (see ranges.go), not a share's (below 1) or the seed's.
func (r flagRange) documented() bool {
	return !math.IsInf(r.Max, 1) && r.Max >= 100 && r.Max < math.MaxInt64
}

// check returns a usage error naming the flag when x is out of range.
func (r flagRange) check(c *cli.Context, name string, x float64, shown string) error {
	low := x > r.Min || (!r.MinOpen && x == r.Min)
	high := x < r.Max || (!r.MaxOpen && x == r.Max)
	if low && high {
		return nil
	}
	var want string
	switch {
	case r.documented() && !high:
		want = "at most " + num(r.Max)
	case r.documented():
		want = "at least " + num(r.Min)
	case math.IsInf(r.Max, 1) && r.MinOpen:
		want = "greater than " + num(r.Min)
	case math.IsInf(r.Max, 1):
		want = "at least " + num(r.Min)
	case r.MinOpen && r.MaxOpen:
		want = fmt.Sprintf("between %s and %s (exclusive)", num(r.Min), num(r.Max))
	default:
		want = fmt.Sprintf("between %s and %s", num(r.Min), num(r.Max))
	}
	return Usagef(commandName(c), "--%s %s: must be %s", name, shown, want)
}

// addRangeChecks sets the Action of every numeric flag in flags that has a
// range in ranges (by flag name) and no Action of its own: a value out of
// range is a usageError naming the flag, before any work. The usage of a
// count with a maximum says it ("(at most 1000)").
func addRangeChecks(flags []cli.Flag, ranges map[string]flagRange) {
	for _, f := range flags {
		name := f.Names()[0]
		r, ok := ranges[name]
		if !ok {
			continue
		}
		switch fl := f.(type) {
		case *cli.IntFlag:
			if r.documented() && !strings.Contains(fl.Usage, "(at most ") {
				fl.Usage += " (at most " + num(r.Max) + ")"
			}
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
