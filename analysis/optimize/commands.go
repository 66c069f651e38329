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

	"github.com/benchtrim/benchtrim/internal/jvmargs"
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
	// Select is the part Args[Select[0]:Select[1]] that selects the
	// benchmark (Go: the -bench pattern; JMH: the benchmark's regexp and
	// its params): commands whose other arguments agree can run as one
	// (trim's WriteCommands).
	Select [2]int
	// Name is the benchmark as Select names it: Go: its name's levels, the
	// name as go test printed it split at '/' (key=value parts in place,
	// without -GOMAXPROCS); JMH: its name, then the values of ParamKeys.
	Name      []string
	ParamKeys []string
	// Launcher names the Java program Args runs instead of JMH's main
	// (ParamsLauncherClass: a param value holds a comma, which JMH's -p
	// splits) that a script must write first (WriteParamsLauncher); "" for none.
	Launcher string
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
		parts[i] = ShellQuote(a)
	}
	return strings.Join(parts, " ")
}

// shellSafe matches words a shell takes literally; compiled on first use,
// not at start-up.
var shellSafe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_./:=,+@%-]+$`) })

// ShellQuote quotes s as one word of a POSIX shell: as it is when every
// byte is one the shell takes literally, else in single quotes (each
// single quote of s closes them, is escaped and reopens them).
func ShellQuote(s string) string {
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
// Go data: `go test -run '^$' -bench PATTERN -count I -benchtime D [-cpu
// N] [-benchmem] [PKG]`, with PATTERN anchoring every '/'-separated level
// of the name as go test printed it ('^BenchmarkSum$/^n=1000$/^slow$',
// the setup's Name where the reader moved key=value parts into params), I
// the chosen iterations and D the chosen slices × slice duration; run it
// Repeat = suite runs × forks times, on Instances machines. -cpu is the
// recorded GOMAXPROCS (the name's suffix: the setup's Env or a gomaxprocs
// param), -benchmem is there when every recorded line held B/op and
// allocs/op (Env benchmem), PKG is the recorded package path. Without a
// Name (tables read before it), key=value params become trailing pattern
// levels and Note says so.
//
// JMH data: `java -jar benchmarks.jar '^pkg\.Class\.method$' [-p k=v]…
// -f F -wi W -i I -w Tw -r Tr -bm MODE [-t T] [-jvmArgs A]… [-prof P]…`,
// with F forks and I iterations chosen, W the stated warmup iterations
// plus --discard-warmup, Tw the stated warmup time (else the iteration
// time), Tr the iteration time, T the recorded threads, A the recorded
// JVM arguments (Env jvmArgs; one -jvmArgs each, which JMH takes as they
// are, or one line that it splits back into the one argument; IntelliJ's
// idea_rt.jar agent is left out) and P the profilers the recorded
// secondary metrics came from (Env profilers). JMH's -p splits its
// values at every comma (CommandLineOptions: keys[1].split(","), JMH
// 1.37), so no -p can pass a value that holds one: then the command runs
// ParamsLauncherClass, which gives the params to JMH's Java API
// (OptionsBuilder.param) and the rest of the command line to JMH's own
// parser: `java -cp benchmarks.jar BenchtrimParams.java REGEX --param k=v…
// -f F …`.
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
	var env map[string]string
	if r.Setup != nil {
		env = r.Setup.Env
	}
	var notes []string
	switch cmd.Tool {
	case "go":
		cmd.Repeat = int(c[table.LevelTrial]) * int(c[table.LevelFork])
		cmd.Name, notes = goName(r, params, keys)
		parts := make([]string, len(cmd.Name))
		for i, p := range cmd.Name {
			parts[i] = "^" + regexp.QuoteMeta(p) + "$"
		}
		cmd.Args = []string{"go", "test", "-run", "^$", "-bench", strings.Join(parts, "/"),
			"-count", strconv.Itoa(int(c[table.LevelIteration])), "-benchtime", goBenchtime(r, c)}
		cmd.Select = [2]int{5, 6}
		cpu := params["gomaxprocs"]
		if cpu == "" {
			cpu = env["gomaxprocs"]
		}
		if cpu != "" {
			cmd.Args = append(cmd.Args, "-cpu", cpu)
		}
		if env[table.EnvBenchmem] == "true" {
			cmd.Args = append(cmd.Args, "-benchmem")
		}
		if env["pkg"] != "" {
			cmd.Args = append(cmd.Args, env["pkg"])
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
		cmd.Name, cmd.ParamKeys = []string{r.Key.Benchmark}, keys
		comma := false
		for _, k := range keys {
			cmd.Name = append(cmd.Name, params[k])
			comma = comma || strings.Contains(params[k], ",")
		}
		regex := "^" + regexp.QuoteMeta(r.Key.Benchmark) + "$"
		if comma {
			cmd.Launcher = ParamsLauncherClass
			cmd.Args = []string{"java", "-cp", "benchmarks.jar", ParamsLauncherClass + ".java", regex}
			for _, k := range keys {
				cmd.Args = append(cmd.Args, "--param", k+"="+params[k])
			}
			cmd.Select = [2]int{4, len(cmd.Args)}
			notes = append(notes, "a param value holds a comma, which JMH's -p splits: the params go through "+ParamsLauncherClass+".java (JMH's OptionsBuilder.param), which the script writes")
		} else {
			cmd.Args = []string{"java", "-jar", "benchmarks.jar", regex}
			for _, k := range keys {
				cmd.Args = append(cmd.Args, "-p", k+"="+params[k])
			}
			cmd.Select = [2]int{3, len(cmd.Args)}
		}
		cmd.Args = append(cmd.Args, "-f", strconv.Itoa(int(c[table.LevelFork])), "-wi", strconv.Itoa(wi),
			"-i", strconv.Itoa(int(c[table.LevelIteration])), "-w", jmhTime(wt), "-r", jmhTime(iterNs))
		if r.Key.Mode != "" {
			cmd.Args = append(cmd.Args, "-bm", r.Key.Mode)
		}
		if r.Setup != nil && r.Setup.Threads > 0 {
			cmd.Args = append(cmd.Args, "-t", strconv.Itoa(r.Setup.Threads))
		}
		var jn []string
		cmd.Args, jn = appendJVMArgs(cmd.Args, env[table.EnvJVMArgs])
		notes = append(notes, jn...)
		if prof := env[table.EnvProfilers]; prof != "" {
			for _, p := range strings.Split(prof, ",") {
				cmd.Args = append(cmd.Args, "-prof", p)
			}
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

// goName is the name of r's Go benchmark as go test matches it, split
// into its levels: the setup's Name (the printed name, key=value parts in
// place) when there is one, else the benchmark with the key=value params
// but gomaxprocs appended as last levels (and a note: their position was
// not recorded).
func goName(r *Result, params map[string]string, keys []string) ([]string, []string) {
	if r.Setup != nil && r.Setup.Name != "" {
		return strings.Split(r.Setup.Name, "/"), nil
	}
	parts := strings.Split(r.Key.Benchmark, "/")
	extra := false
	for _, k := range keys {
		if k != "gomaxprocs" {
			parts = append(parts, k+"="+params[k])
			extra = true
		}
	}
	if extra {
		return parts, []string{"key=value sub-benchmark parts are placed last; their position in the name was not recorded (read the go test output again to keep it)"}
	}
	return parts, nil
}

// appendJVMArgs appends the JVM arguments of line (Env jvmArgs, one
// -jvmArgs line) to args: one -jvmArgs per argument, which JMH takes as
// they are when there are several (CommandLineOptions.treatQuoted), the
// line itself when it holds one argument (JMH splits a single -jvmArgs at
// spaces outside double quotes, which gives that argument back).
// IntelliJ's launcher agent (-javaagent:…idea_rt.jar…), a file of the IDE
// the recording ran from, is left out with a note.
func appendJVMArgs(args []string, line string) ([]string, []string) {
	var keep []string
	var notes []string
	for _, a := range jvmargs.Split(line) {
		if strings.HasPrefix(a, "-javaagent:") && strings.Contains(a, "idea_rt.jar") {
			notes = append(notes, "IntelliJ's launcher agent of the recording left out of -jvmArgs")
			continue
		}
		keep = append(keep, a)
	}
	if len(keep) == 1 {
		return append(args, "-jvmArgs", jvmargs.Line(keep)), notes
	}
	for _, a := range keep {
		args = append(args, "-jvmArgs", a)
	}
	return args, notes
}

// ParamsLauncherClass is the Java program that runs a JMH command whose
// params JMH's -p cannot pass (a value that holds a comma):
// `java -cp benchmarks.jar BenchtrimParams.java ARGS`, Java 11's launch of
// a single source file, takes every `--param NAME=VALUE` out of ARGS as
// one value of the param NAME (JMH's OptionsBuilder.param) and hands the
// rest to JMH's own parser (CommandLineOptions, the parent options), then
// runs JMH's Runner. WriteParamsLauncher writes it.
const ParamsLauncherClass = "BenchtrimParams"

// paramsLauncher is the source of ParamsLauncherClass (JMH 1.x API:
// org.openjdk.jmh.runner.Runner, options.CommandLineOptions,
// options.OptionsBuilder).
const paramsLauncher = `import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

// Runs JMH with --param NAME=VALUE taken as one value each (JMH's -p
// splits values at commas). Written by benchtrim.
public class BenchtrimParams {
    public static void main(String[] args) throws Exception {
        OptionsBuilder b = new OptionsBuilder();
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--param") && i + 1 < args.length) {
                String kv = args[++i];
                int eq = kv.indexOf('=');
                b.param(kv.substring(0, eq), kv.substring(eq + 1));
            } else {
                rest.add(args[i]);
            }
        }
        new Runner(b.parent(new CommandLineOptions(rest.toArray(new String[0]))).build()).run();
    }
}
`

// WriteParamsLauncher writes shell lines that create
// ParamsLauncherClass.java in the working directory (the commands that
// need it name it there).
func WriteParamsLauncher(b *strings.Builder) {
	b.WriteString("# " + ParamsLauncherClass + ".java passes param values that hold a comma to JMH, whose -p splits them.\n")
	b.WriteString("cat > " + ParamsLauncherClass + ".java <<'BENCHTRIM_EOF'\n")
	b.WriteString(paramsLauncher)
	b.WriteString("BENCHTRIM_EOF\n")
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
	for i := range results {
		if reducedCommand(&results[i]).Launcher != "" {
			WriteParamsLauncher(&b)
			break
		}
	}
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
