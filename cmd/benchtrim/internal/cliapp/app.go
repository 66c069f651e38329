package cliapp

import (
	"fmt"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/benchtrim/benchtrim/internal/workpool"
	"github.com/benchtrim/benchtrim/reports"
	"github.com/urfave/cli/v2"
)

// wrapFlagHelpOnce makes urfave/cli wrap flag help to reports.Width columns:
// the usage text (the second tabwriter column, which starts at most ~36
// columns in) is wrapped, continuation lines starting in the same column.
// It may be called more than once.
func wrapFlagHelpOnce() { wrapOnce.Do(wrapFlagHelp) }

var wrapOnce sync.Once

func wrapFlagHelp() {
	stringify := cli.FlagStringer
	cli.FlagStringer = func(f cli.Flag) string {
		s := stringify(f)
		name, usage, ok := strings.Cut(s, "\t")
		if !ok {
			return s
		}
		return name + "\t" + strings.ReplaceAll(reports.Wrap(usage, reports.Width-40, ""), "\n", "\n\t")
	}
}

// onUsageError turns urfave/cli's flag parsing errors into a usageError
// with a did-you-mean suggestion for a misspelled flag.
func onUsageError(c *cli.Context, err error, _ bool) error {
	name := ""
	flags := c.App.Flags
	if c.Command != nil && c.Command.Name != "" && c.Command.Name != c.App.Name {
		name, flags = c.Command.Name, c.Command.Flags
	}
	msg := err.Error()
	if _, bad, ok := strings.Cut(msg, "flag provided but not defined: "); ok {
		bad = strings.TrimLeft(bad, "-")
		msg = fmt.Sprintf("unknown flag --%s", bad)
		if s := suggestFlag(flags, bad); s != "" {
			msg += fmt.Sprintf("; did you mean %s?", s)
		}
	}
	return &usageError{cmd: name, err: fmt.Errorf("%s", msg)}
}

// buildVersion names this build (describeBuild).
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	return describeBuild(bi, ok, linkedVersion, sourceCheckout)
}

// Globals are the values of the global flags.
type Globals struct {
	Seed    uint64
	Workers int
	Quiet   bool
	// maxRows bounds the rows of the input an analyzer holds in memory at
	// once (runChunked); 0: no bound.
	maxRows int64
}

// defaultMaxRows is --max-rows' default: about 400 MB of table in memory
// (some 270 bytes a row), which keeps trim on a 10-fork × 3,000-iteration
// JMH suite within 2 GB whatever its number of benchmarks.
const defaultMaxRows = 1_500_000

// globalFlags are the flags every command takes: --seed, --workers,
// --quiet and --max-rows.
func globalFlags() []cli.Flag {
	return []cli.Flag{
		&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of every random procedure (bootstrap, sampling); same input and seed give the same output"},
		&cli.IntFlag{Name: "workers", Value: 0, Usage: "benchmarks analysed in parallel (0 = GOMAXPROCS)"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress and no input warnings on stderr"},
		&cli.Int64Flag{Name: "max-rows", Value: defaultMaxRows, Usage: "input rows an analyzer holds in memory at once; a larger input goes to a scratch file " +
			"in $TMPDIR and is analysed a chunk of benchmarks at a time, with the same results; a benchmark (every version) of more rows is refused (0 = no limit)"},
	}
}

// GlobalsOf reads the global flags from the innermost context that set them
// (subcommand first, then the app), falling back to the defaults.
func GlobalsOf(c *cli.Context) Globals {
	g := Globals{Seed: 1, maxRows: defaultMaxRows}
	// set is the innermost context that set flag name, or nil.
	set := func(name string) *cli.Context {
		for _, ctx := range c.Lineage() {
			if ctx.IsSet(name) {
				return ctx
			}
		}
		return nil
	}
	if ctx := set("seed"); ctx != nil {
		g.Seed = ctx.Uint64("seed")
	}
	if ctx := set("workers"); ctx != nil {
		g.Workers = ctx.Int("workers")
	}
	if ctx := set("quiet"); ctx != nil {
		g.Quiet = ctx.Bool("quiet")
	}
	if ctx := set("max-rows"); ctx != nil {
		g.maxRows = ctx.Int64("max-rows")
	}
	g.Workers = workpool.Workers(g.Workers)
	return g
}

// fitLines wraps the lines of text longer than width (help descriptions are
// printed indented by 3), keeping each line's leading spaces. What a long
// line overflows is carried into the next line when that one continues
// the paragraph (same indentation, not blank), so a paragraph written a
// little wider than width is reflowed, not broken into long and short
// lines alternately.
func fitLines(text string, width int) string {
	lines := strings.Split(text, "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if len([]rune(l)) <= width {
			out = append(out, l)
			continue
		}
		indent := l[:len(l)-len(strings.TrimLeft(l, " "))]
		parts := strings.Split(reports.Wrap(l, max(1, width-len(indent)), ""), "\n")
		for j := range parts {
			parts[j] = indent + parts[j]
		}
		if i+1 < len(lines) && len(parts) > 1 {
			next := lines[i+1]
			if strings.TrimSpace(next) != "" && next[:len(next)-len(strings.TrimLeft(next, " "))] == indent {
				last := strings.TrimSpace(parts[len(parts)-1])
				lines[i+1] = indent + last + " " + strings.TrimLeft(next, " ")
				parts = parts[:len(parts)-1]
			}
		}
		out = append(out, parts...)
	}
	return strings.Join(out, "\n")
}
