package trim

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/benchtrim/benchtrim/table"
)

// OverheadDefault, as an Options.Overhead or Options.CommandOverhead
// value, stands for the tool's default start-up (DefaultGoTestStartup,
// DefaultJMHForkStartup, DefaultJMHHostStartup): what DefaultOptions has
// for the fork and command levels.
const OverheadDefault time.Duration = -1

// The default start-ups where no file says and the user gives none
// (--overhead), measured on the project's 2-core machine (docs/trim.md,
// "Commands": the commands, and the wall and CPU times under load; the
// defaults are the CPU times, what an idle machine takes):
//
//   - DefaultGoTestStartup: one `go test -run '^$' -bench '^$'` of
//     testdata/gopkg with its packages built: the go command, its build
//     check, linking the test binary, the binary's start and exit (0.37 to
//     0.49 CPU-s). A package with more dependencies links longer.
//   - DefaultJMHForkStartup: one JMH fork beyond its iterations: the
//     forked JVM's start, JMH's set-up in it and its exit (JMH 1.37, JDK
//     17: 0.50 to 0.55 CPU-s a fork, from -f 6 against -f 1 of 10 ms
//     iterations).
//   - DefaultJMHHostStartup: the host JVM of one `java -jar
//     benchmarks.jar` run beyond its forks: its start, reading the
//     benchmark list and its exit (about 0.6 CPU-s: the -f 1 run less one
//     fork).
const (
	DefaultGoTestStartup  = 500 * time.Millisecond
	DefaultJMHForkStartup = 500 * time.Millisecond
	DefaultJMHHostStartup = 600 * time.Millisecond
)

// ParseOverhead reads Options.Overhead and Options.CommandOverhead from
// their text form (benchtrim trim's --overhead): comma-separated
// LEVEL=DURATION pairs for the levels instance, trial, fork and command;
// a level not named keeps its default (0 for instance and trial,
// OverheadDefault for fork and command); "" is every default.
func ParseOverhead(s string) (levels [table.NumLevels]time.Duration, command time.Duration, err error) {
	levels = DefaultOptions.Overhead
	command = DefaultOptions.CommandOverhead
	if s == "" {
		return levels, command, nil
	}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		l, known := table.ParseLevel(k)
		if !ok || !(k == "command" || known && l <= table.LevelFork) {
			return levels, command, fmt.Errorf("want LEVEL=DURATION with LEVEL instance, trial, fork or command, got %q", kv)
		}
		d, err := time.ParseDuration(strings.TrimSpace(v))
		if err != nil || d < 0 {
			return levels, command, fmt.Errorf("%s: want a duration such as 1s or 2m, got %q", k, v)
		}
		if k == "command" {
			command = d
		} else {
			levels[l] = d
		}
	}
	return levels, command, nil
}

// validOverhead reports whether d is a usable overhead: ≥ 0, or
// OverheadDefault.
func validOverhead(d time.Duration) bool { return d >= 0 || d == OverheadDefault }

// startupCosts returns the per-level overheads o_l of the per-benchmark
// time model (costModel) for a benchmark of tool with setup, and the
// start-up of one run of its command that the suite's time counts per
// command run instead (go test, whose one process runs a group of
// benchmarks: commandStartups):
//
//   - instance and trial: Options.Overhead (0 by default);
//   - fork: Options.Overhead, by default DefaultJMHForkStartup for JMH
//     (every fork is a JVM start) and 0 otherwise (a go test fork is a run
//     of its command);
//   - the command's start: JMH runs one command per benchmark and trial,
//     so its host JVM (Options.CommandOverhead, by default
//     DefaultJMHHostStartup) adds to the trial level's o_t; go test's
//     (Options.CommandOverhead, by default DefaultGoTestStartup plus the
//     test binary's start-up and exit the file holds, setup Env
//     table.EnvStartupNs from -json timestamps) is returned as commandNs.
func (o *Options) startupCosts(tool string, setup *table.Setup) (levels [table.NumLevels]float64, commandNs int64) {
	for l, d := range o.Overhead {
		if d > 0 {
			levels[l] = float64(d)
		}
	}
	if o.Overhead[table.LevelFork] == OverheadDefault && tool == "jmh" {
		levels[table.LevelFork] = float64(DefaultJMHForkStartup)
	}
	cmd := o.CommandOverhead
	switch tool {
	case "jmh":
		if cmd == OverheadDefault {
			cmd = DefaultJMHHostStartup
		}
		levels[table.LevelTrial] += float64(cmd)
	case "go":
		if cmd != OverheadDefault {
			return levels, int64(cmd)
		}
		commandNs = int64(DefaultGoTestStartup)
		if setup != nil {
			if v, err := strconv.ParseFloat(setup.Env[table.EnvStartupNs], 64); err == nil && v > 0 && !math.IsInf(v, 0) {
				commandNs += int64(math.Round(v))
			}
		}
	}
	return levels, commandNs
}
