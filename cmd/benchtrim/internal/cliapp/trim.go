package cliapp

import (
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/analysis/trim"
	"github.com/benchtrim/benchtrim/estimate"
)

// TrimTarget completes benchtrim trim's options opt with the flags of its
// target that need parsing: --test, --min-effect and --detect (a share:
// 0.05 or 5%), --keep against --detect, and --versions (a comma list).
// A bad value is a usage error naming the flag.
func TrimTarget(c *cli.Context, opt trim.Options) (trim.Options, error) {
	var err error
	if opt.Test, err = estimate.ParseTest(c.String("test")); err != nil {
		return opt, Usagef("trim", "--test: %v", err)
	}
	if opt.MinEffect, err = ParseShare(c.String("min-effect")); err != nil || !(opt.MinEffect >= 0) {
		return opt, Usagef("trim", "--min-effect: want a slowdown such as 3%% or 0.03, got %q", c.String("min-effect"))
	}
	if d := c.String("detect"); d != "" {
		if opt.Detect, err = ParseShare(d); err != nil || !(opt.Detect > 0) {
			return opt, Usagef("trim", "--detect: want a slowdown such as 5%% or 0.05, got %q", d)
		}
		if c.IsSet("keep") {
			return opt, Usagef("trim", "--keep and --detect are two targets (relative, absolute): give one")
		}
	}
	if v := c.String("versions"); v != "" {
		for _, x := range strings.Split(v, ",") {
			opt.Versions = append(opt.Versions, strings.TrimSpace(x))
		}
	}
	return opt, nil
}

// ParseShare reads a share written as a fraction (0.05) or a percentage
// (5%).
func ParseShare(s string) (float64, error) {
	num, scale := strings.TrimSpace(s), 1.0
	if t, ok := strings.CutSuffix(num, "%"); ok {
		num, scale = strings.TrimSpace(t), 0.01
	}
	v, err := strconv.ParseFloat(num, 64)
	return v * scale, err
}
