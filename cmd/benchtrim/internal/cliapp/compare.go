package cliapp

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/analysis/compare"
	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/table"
)

// CompareOptions completes benchtrim compare's options opt, which its
// flags wrote (Destination), with the global --seed and --workers and the
// flags that need parsing (--split, --metrics, --filter or its older name
// --bench), and validates them: a bad flag value is a usageError naming
// the flag.
func CompareOptions(c *cli.Context, opt compare.Options) (compare.Options, error) {
	g := GlobalsOf(c)
	opt.Seed, opt.Workers = g.Seed, g.Workers
	var ok bool
	if opt.Split, ok = table.ParseLevel(c.String("split")); !ok || opt.Split > table.LevelFork {
		return opt, Usagef("compare", "--split %q: want fork, trial or instance", c.String("split"))
	}
	rule := c.String("rule")
	if st := c.String("statistic"); st != "" {
		if c.IsSet("rule") {
			return opt, Usagef("compare", "--statistic is the older form of --rule: give one of them")
		}
		switch st {
		case compare.StatisticMedian:
			rule = estimate.TestU.String()
		case "mean":
			rule = estimate.TestRatio.String()
		default:
			return opt, Usagef("compare", "--statistic %q: want median or mean (or --rule u, ratio, overlap)", st)
		}
	}
	var err error
	if opt.Rule, err = estimate.ParseTest(rule); err != nil {
		return opt, Usagef("compare", "--rule: %v", err)
	}
	if opt.Rule == estimate.TestRatio && !c.IsSet("confidence") {
		opt.Bootstrap.Confidence = 1 - opt.Alpha // the interval the verdict rests on
	}
	opt.Metrics = strings.FieldsFunc(strings.Join(c.StringSlice("metrics"), ","), func(r rune) bool { return r == ',' || r == ' ' })
	flag, expr := "--filter", c.String("filter")
	if b := c.String("bench"); b != "" {
		if expr != "" {
			return opt, Usagef("compare", "--bench is the older name of --filter: give one of them")
		}
		flag, expr = "--bench", b
	}
	if expr != "" {
		f, err := compare.ParseFilter(expr)
		if err != nil {
			return opt, Usagef("compare", "%s: %v", flag, err)
		}
		opt.Filter = f
	}
	err = opt.Validate()
	msg, _ := strings.CutPrefix(fmt.Sprint(err), "compare: ")
	for prefix, flag := range map[string]string{"row ": "--", "col ": "--", "statistic ": "--statistic: ", "minimum effect ": "--min-effect: "} {
		if strings.HasPrefix(msg, prefix) { // a flag's value: a usage error naming it
			return opt, Usagef("compare", "%s%s", flag, msg)
		}
	}
	return opt, err
}
