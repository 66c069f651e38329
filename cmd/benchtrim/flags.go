package main

import (
	"github.com/urfave/cli/v2"
)

// Range checks attached to numeric flags as their Action, so a bad value is
// a usage error naming the flag before any work is done.

// nonNegative accepts n ≥ 0.
func nonNegative(name string) func(*cli.Context, int) error { return atLeast(name, 0) }

// atLeast accepts n ≥ min.
func atLeast(name string, min int) func(*cli.Context, int) error {
	return func(c *cli.Context, n int) error {
		if n < min {
			return usagef(cmdName(c), "--%s %d: must be at least %d", name, n, min)
		}
		return nil
	}
}

// positiveFloat accepts x > 0.
func positiveFloat(name string) func(*cli.Context, float64) error {
	return func(c *cli.Context, x float64) error {
		if !(x > 0) {
			return usagef(cmdName(c), "--%s %g: must be greater than 0", name, x)
		}
		return nil
	}
}

// nonNegativeFloat accepts x ≥ 0.
func nonNegativeFloat(name string) func(*cli.Context, float64) error {
	return func(c *cli.Context, x float64) error {
		if !(x >= 0) {
			return usagef(cmdName(c), "--%s %g: must be at least 0", name, x)
		}
		return nil
	}
}

// probability accepts 0 < x < 1 (confidence levels, significance levels).
func probability(name string) func(*cli.Context, float64) error {
	return func(c *cli.Context, x float64) error {
		if !(x > 0 && x < 1) {
			return usagef(cmdName(c), "--%s %g: must be between 0 and 1 (exclusive)", name, x)
		}
		return nil
	}
}

// invocationSamples accepts pa's -is values: -1 (all), 0 (iteration
// means) or k ≥ 1.
func invocationSamples(name string) func(*cli.Context, int) error { return atLeast(name, -1) }

func cmdName(c *cli.Context) string {
	if c.Command != nil && c.Command.Name != c.App.Name {
		return c.Command.Name
	}
	return ""
}
