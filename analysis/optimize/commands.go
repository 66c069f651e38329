package optimize

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/benchtrim/benchtrim/table"
)

// Command is a reduced configuration as something a user can run.
type Command struct {
	Key    table.Key
	Metric Metric
	// Tool is "go" or "jmh"; "" when the data's tool has no runnable form
	// (then Args is nil and Note says why).
	Tool string
	// Args is the command line (argv).
	Args []string
	// Repeat is how often to run Args one after the other (suite runs ×
	// forks for Go, which has no fork flag; trials for JMH).
	Repeat int
	// Instances is on how many machines to run it side by side (the
	// instance level).
	Instances int
	// Note explains a limitation of the command, or is "".
	Note string
}

// Line is Args joined and quoted for a POSIX shell.
func (c *Command) Line() string {
	parts := make([]string, len(c.Args))
	for i, a := range c.Args {
		parts[i] = shellQuote(a)
	}
	return strings.Join(parts, " ")
}

// shellSafe matches words a shell takes literally; compiled on first use,
// not at start-up.
var shellSafe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_./:=,+@%-]+$`) })

func shellQuote(s string) string {
	if s != "" && shellSafe().MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// toolOf names the tool that produced r's data: the setup's Tool, else
// "go" for mode go and "jmh" for the JMH modes.
func toolOf(r *Result) string {
	if r.Setup != nil && r.Setup.Tool != "" {
		return r.Setup.Tool
	}
	switch r.Key.Mode {
	case "go":
		return "go"
	case "avgt", "thrpt", "sample", "ss":
		return "jmh"
	}
	return ""
}

// reducedCommand turns µOpTime's chosen configuration of r into a command.
//
// Go data: `go test -run '^$' -bench PATTERN -count I -benchtime D`, with
// PATTERN anchoring every '/'-separated part of the name ('^Name$/^Sub$'),
// I the chosen iterations and D the chosen slices × slice duration; run it
// Repeat = suite runs × forks times, on Instances machines. A gomaxprocs
// parameter becomes -cpu N, a recorded package path is appended, other
// key=value parameters become trailing pattern parts (their position in the
// name was not recorded; Note says so).
//
// JMH data: `java -jar benchmarks.jar '^pkg\.Class\.method$' -f F -wi W
// -i I -w Tw -r Tr -bm MODE [-p k=v]…`, with F forks and I iterations chosen,
// W the stated warmup iterations plus --discard-warmup, Tw the stated warmup
// time (else the iteration time) and Tr the iteration time.
func reducedCommand(r *Result) Command {
	return commandFor(r, &r.Chosen)
}

// Command is the command line that runs configuration e of r's benchmark,
// in the form reducedCommand describes (Go: go test -count -benchtime; JMH:
// java -jar benchmarks.jar -f -wi -i -w -r), with r.DiscardedWarmup added to
// the stated warmup iterations. e need not be one of r's evaluations:
// callers may pass any configuration of r's levels.
func (r *Result) Command(e *Evaluation) Command { return commandFor(r, e) }

func commandFor(r *Result, e *Evaluation) Command {
	c := e.Config
	cmd := Command{Key: r.Key, Metric: r.Metric, Tool: toolOf(r), Instances: int(c[table.LevelInstance]), Repeat: 1}
	params, _ := table.ParseParams(r.Key.Params)
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var notes []string
	switch cmd.Tool {
	case "go":
		cmd.Repeat = int(c[table.LevelTrial]) * int(c[table.LevelFork])
		parts := strings.Split(r.Key.Benchmark, "/")
		var extra []string
		cpu := ""
		for _, k := range keys {
			if k == "gomaxprocs" {
				cpu = params[k]
				continue
			}
			extra = append(extra, k+"="+params[k])
		}
		if len(extra) > 0 {
			parts = append(parts, extra...)
			notes = append(notes, "key=value sub-benchmark parts are placed last; their position in the name was not recorded")
		}
		for i, p := range parts {
			parts[i] = "^" + regexp.QuoteMeta(p) + "$"
		}
		cmd.Args = []string{"go", "test", "-run", "^$", "-bench", strings.Join(parts, "/"),
			"-count", strconv.Itoa(int(c[table.LevelIteration])), "-benchtime", goBenchtime(r, c)}
		if cpu != "" {
			cmd.Args = append(cmd.Args, "-cpu", cpu)
		}
		if r.Setup != nil && r.Setup.Env["pkg"] != "" {
			cmd.Args = append(cmd.Args, r.Setup.Env["pkg"])
		}
	case "jmh":
		cmd.Repeat = int(c[table.LevelTrial])
		iterNs := r.UnitNs * int64(c[table.LevelSlice])
		if r.Setup != nil && r.Setup.MeasurementTimeNs > 0 {
			iterNs = r.Setup.MeasurementTimeNs
		}
		wi, wt := 0, iterNs
		if r.Setup != nil {
			wi = r.Setup.WarmupIterations
			if r.Setup.WarmupTimeNs > 0 {
				wt = r.Setup.WarmupTimeNs
			}
		}
		// Discarded warmup iterations were measured with the iteration time.
		if d := r.DiscardedWarmup; d > 0 {
			if wi > 0 && wt != iterNs {
				notes = append(notes, "discarded warmup iterations and stated warmup differ in length; -w uses the stated one")
			} else {
				wt = iterNs
			}
			wi += d
		}
		cmd.Args = []string{"java", "-jar", "benchmarks.jar", "^" + regexp.QuoteMeta(r.Key.Benchmark) + "$",
			"-f", strconv.Itoa(int(c[table.LevelFork])), "-wi", strconv.Itoa(wi),
			"-i", strconv.Itoa(int(c[table.LevelIteration])), "-w", jmhTime(wt), "-r", jmhTime(iterNs)}
		if r.Key.Mode != "" {
			cmd.Args = append(cmd.Args, "-bm", r.Key.Mode)
		}
		for _, k := range keys {
			cmd.Args = append(cmd.Args, "-p", k+"="+params[k])
		}
		if r.Setup != nil && r.Setup.SingleShot {
			notes = append(notes, "single-shot: -r does not apply")
		}
	default:
		cmd.Tool = ""
		notes = append(notes, fmt.Sprintf("no runnable form for this data's tool (mode %q); keep %s", r.Key.Mode, c.Format(&r.Varied)))
	}
	cmd.Note = strings.Join(notes, "; ")
	return cmd
}

// jmhTime formats a duration for JMH's -w and -r options (s, ms, us or ns).
func jmhTime(ns int64) string {
	switch {
	case ns%1e9 == 0:
		return strconv.FormatInt(ns/1e9, 10) + "s"
	case ns%1e6 == 0:
		return strconv.FormatInt(ns/1e6, 10) + "ms"
	case ns%1e3 == 0:
		return strconv.FormatInt(ns/1e3, 10) + "us"
	}
	return strconv.FormatInt(ns, 10) + "ns"
}

// writeScript writes a POSIX shell script that runs µOpTime's reduced
// configuration of every result, one case per metric: `sh FILE [METRIC]`
// runs the configurations chosen with METRIC (default: the first of
// metrics). Each command is preceded by a comment naming the benchmark, the
// chosen and full configurations and their execution times; commands that
// must run several times in a row are wrapped in a loop, and commands for
// several instances say so (run the script on each machine).
func writeScript(w io.Writer, results []Result, metrics []Metric) error {
	if len(metrics) == 0 {
		return fmt.Errorf("optimize: WriteScript: no metric")
	}
	var b strings.Builder
	names := make([]string, len(metrics))
	for i, m := range metrics {
		names[i] = m.String()
	}
	b.WriteString("#!/bin/sh\n")
	b.WriteString("# Reduced microbenchmark configurations chosen by `benchtrim optimize` (µOpTime,\n")
	b.WriteString("# Japke et al., TOSEM 2025). Usage: sh THIS_FILE [METRIC]\n")
	fmt.Fprintf(&b, "# METRIC is one of: %s (default %s).\n", strings.Join(names, " "), names[0])
	b.WriteString("# Commands marked \"on each of N instances\" are meant to run on N machines side by side.\n")
	b.WriteString("set -e\n")
	fmt.Fprintf(&b, "metric=${1:-%s}\n", names[0])
	b.WriteString("case \"$metric\" in\n")
	for _, m := range metrics {
		fmt.Fprintf(&b, "%s)\n", m)
		for i := range results {
			r := &results[i]
			if r.Metric != m {
				continue
			}
			cmd := reducedCommand(r)
			fmt.Fprintf(&b, "\t# %s: %s, %s (full %s, %s); %s\n", r.Key, r.Chosen.Config.Format(&r.Varied),
				time.Duration(r.Chosen.TimeNs), r.Full.Config.Format(&r.Varied), time.Duration(r.Full.TimeNs), r.Status)
			if cmd.Instances > 1 {
				fmt.Fprintf(&b, "\t# on each of %d instances\n", cmd.Instances)
			}
			if cmd.Note != "" {
				fmt.Fprintf(&b, "\t# note: %s\n", cmd.Note)
			}
			if cmd.Args == nil {
				continue
			}
			if cmd.Repeat > 1 {
				runs := make([]string, cmd.Repeat)
				for k := range runs {
					runs[k] = strconv.Itoa(k + 1)
				}
				fmt.Fprintf(&b, "\tfor run in %s; do %s; done\n", strings.Join(runs, " "), cmd.Line())
			} else {
				fmt.Fprintf(&b, "\t%s\n", cmd.Line())
			}
		}
		b.WriteString("\t;;\n")
	}
	fmt.Fprintf(&b, "*)\n\techo \"unknown metric $metric (want one of: %s)\" >&2\n\texit 2\n\t;;\nesac\n", strings.Join(names, " "))
	_, err := io.WriteString(w, b.String())
	return err
}

// goBenchtime is the -benchtime of configuration c: "Nx" when every
// recorded line ran the same N operations (the recording used -benchtime
// Nx); for other go test lines the duration the recording most likely
// asked for: go test ends a benchmark with the first run of at least the
// requested duration, so every line lasts at least that long, and the
// shortest line's N × ns/op rounded down to 1, 2, 3 or 5 × a power of ten
// (within 2 %) is it (lines of 110–190 ms: -benchtime 100ms); else the
// duration of c's slices × the observation time.
func goBenchtime(r *Result, c Config) string {
	d := time.Duration(int64(c[table.LevelSlice]) * r.UnitNs)
	if r.Setup == nil || r.Setup.IterationTimeNs() > 0 || r.Setup.SliceTimeNs > 0 || d <= 0 || r.AssumedTime {
		return d.String()
	}
	if r.FixedN > 0 && c[table.LevelSlice] <= 1 {
		return strconv.FormatInt(r.FixedN, 10) + "x"
	}
	if r.ShortestNs > 0 && c[table.LevelSlice] <= 1 {
		return niceFloor(time.Duration(r.ShortestNs)).String()
	}
	return d.String()
}

// niceFloor is the largest of {1, 2, 3, 5} × 10^k ns at most 1.02·d (1 ns
// at least).
func niceFloor(d time.Duration) time.Duration {
	best := time.Duration(1)
	for p := time.Duration(1); p <= time.Hour && p > 0; p *= 10 {
		for _, m := range []time.Duration{1, 2, 3, 5} {
			if v := m * p; float64(v) <= 1.02*float64(d) && v > best {
				best = v
			}
		}
	}
	return best
}
