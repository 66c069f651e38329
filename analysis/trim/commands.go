package trim

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/benchtrim/benchtrim/analysis/optimize"
)

// WriteCommands writes a POSIX shell script that runs the recommended
// configuration of every benchmark run of each project's last version
// (the recorded one for benchmarks trim keeps): the next version's run.
//
// Go benchmarks whose commands agree but for the benchmark (the same
// package, -count, -benchtime, -cpu, -benchmem, repeats and instances)
// run in one go test process (commandGroups): its -bench pattern selects
// exactly them (goPattern). JMH benchmarks run one command each, `java
// -jar benchmarks.jar '^pkg\.Class\.method$' -p k=v -f F -wi W -i I -w Tw
// -r Tr -bm MODE` with the recorded -t, -jvmArgs and -prof (the forms of
// optimize.Result.Command); one whose param value holds a comma runs
// through optimize.ParamsLauncherClass, whose source the script writes
// first. Every command is preceded by comments naming its benchmarks,
// their status, configuration and time; commands that must run several
// times in a row are wrapped in a loop; duet data gets a comment. The
// header gives the script's time in trim's time model, start-ups
// included.
func (r *Report) WriteCommands(w io.Writer) error {
	groups := commandGroups(r.Benchmarks, lastVersions(r))
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	b.WriteString("# Configurations recommended by `benchtrim trim`: what to run instead of the recording.\n")
	fmt.Fprintf(&b, "# Suite time %s → %s (every version of the plan, start-ups included).\n", secs(r.Totals.TimeBeforeNs), secs(r.Totals.TimeAfterNs))
	total, startup, runs := r.commandsTime(groups)
	fmt.Fprintf(&b, "# These commands (each project's last version): %s", secs(total))
	if runs > 0 {
		fmt.Fprintf(&b, ", of which %s the start of %d go test processes", secs(startup), runs)
	}
	b.WriteString(".\n")
	b.WriteString("# Commands marked \"on each of N instances\" run on N machines side by side.\n")
	b.WriteString("set -e\n")
	for _, g := range groups {
		if g.launcher {
			b.WriteByte('\n')
			optimize.WriteParamsLauncher(&b)
			break
		}
	}
	for _, g := range groups {
		b.WriteByte('\n')
		if len(g.members) > 1 {
			fmt.Fprintf(&b, "# %d benchmark runs in one process:\n", len(g.members))
		}
		for _, i := range g.members {
			x := &r.Benchmarks[i]
			fmt.Fprintf(&b, "# %s: %s", x.Key, x.Status)
			if x.Status == StatusTrimmed {
				fmt.Fprintf(&b, "; %s (recorded %s)", x.Recommended, time.Duration(x.Recorded.TimeNs).Round(time.Millisecond))
			}
			b.WriteByte('\n')
			if x.Command.Note != "" {
				fmt.Fprintf(&b, "# note: %s\n", x.Command.Note)
			}
			if x.Command.Args == nil && x.Status == StatusDuet {
				b.WriteString("# duet data: see benchtrim duet\n")
			}
		}
		for _, args := range g.args {
			cmd := optimize.Command{Args: args}
			if g.instances > 1 {
				fmt.Fprintf(&b, "# on each of %d instances\n", g.instances)
			}
			if g.repeat > 1 {
				reps := make([]string, g.repeat)
				for k := range reps {
					reps[k] = strconv.Itoa(k + 1)
				}
				fmt.Fprintf(&b, "for run in %s; do %s; done\n", strings.Join(reps, " "), cmd.Line())
			} else {
				fmt.Fprintf(&b, "%s\n", cmd.Line())
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// commandsTime is the time of the script's commands groups in trim's
// time model: the recommended configurations' times plus each go test
// command's start-up per run (startup of it, in runs).
func (r *Report) commandsTime(groups []commandGroup) (total, startup int64, runs int) {
	for _, g := range groups {
		for _, i := range g.members {
			total += r.Benchmarks[i].Recommended.TimeNs
		}
		if g.startupNs > 0 {
			n := g.runs(r.Options.ParallelInstances)
			startup += int64(n) * g.startupNs
			runs += n
		}
	}
	return total + startup, startup, runs
}

// WriteAnnotations writes, per JMH benchmark class, the annotations that
// set the recommended configuration: @Fork, @Warmup and @Measurement on
// the class with the largest value over its methods (and their params),
// so that no method runs less than trim recommends, and a method-level
// override for each method that needs less. Go benchmarks have no
// annotations and are left out.
func (r *Report) WriteAnnotations(w io.Writer) error {
	type cfg struct{ forks, wi, i int64 }
	type method struct {
		c                cfg
		warmupNs, iterNs int64
	}
	classes := map[string]map[string]*method{}
	for i := range r.Benchmarks {
		x := &r.Benchmarks[i]
		if x.Tool != "jmh" || x.Status == StatusDuet || x.Status == StatusSkipped {
			continue
		}
		dot := strings.LastIndex(x.Key.Benchmark, ".")
		class, name := x.Key.Benchmark[:max(dot, 0)], x.Key.Benchmark[dot+1:]
		c := x.Recommended
		if classes[class] == nil {
			classes[class] = map[string]*method{}
		}
		m := classes[class][name]
		if m == nil {
			m = &method{warmupNs: c.WarmupTimeNs, iterNs: c.IterationTimeNs}
			classes[class][name] = m
		}
		m.c.forks = max(m.c.forks, int64(c.Forks))
		m.c.wi = max(m.c.wi, int64(c.WarmupIterations))
		m.c.i = max(m.c.i, int64(c.Iterations))
	}
	names := make([]string, 0, len(classes))
	for c := range classes {
		names = append(names, c)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("// JMH annotations recommended by `benchtrim trim` (import java.util.concurrent.TimeUnit and org.openjdk.jmh.annotations.*).\n")
	for _, class := range names {
		ms := classes[class]
		mnames := make([]string, 0, len(ms))
		var top method
		for n, m := range ms {
			mnames = append(mnames, n)
			top.c.forks, top.c.wi, top.c.i = max(top.c.forks, m.c.forks), max(top.c.wi, m.c.wi), max(top.c.i, m.c.i)
			top.warmupNs, top.iterNs = max(top.warmupNs, m.warmupNs), max(top.iterNs, m.iterNs)
		}
		sort.Strings(mnames)
		fmt.Fprintf(&b, "\n// %s (the largest over its methods and params)\n", class)
		writeAnnotation(&b, "", top.c.forks, top.c.wi, top.warmupNs, top.c.i, top.iterNs)
		short := class[strings.LastIndex(class, ".")+1:]
		fmt.Fprintf(&b, "public class %s { … }\n", short)
		for _, n := range mnames {
			m := ms[n]
			if m.c == top.c {
				continue
			}
			fmt.Fprintf(&b, "    // %s needs less:\n", n)
			writeAnnotation(&b, "    ", m.c.forks, m.c.wi, m.warmupNs, m.c.i, m.iterNs)
			fmt.Fprintf(&b, "    @Benchmark public … %s(…)\n", n)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeAnnotation(b *strings.Builder, indent string, forks, wi, wt, i, it int64) {
	fmt.Fprintf(b, "%s@Fork(%d)\n", indent, forks)
	v, u := jmhUnit(wt)
	fmt.Fprintf(b, "%s@Warmup(iterations = %d, time = %d, timeUnit = TimeUnit.%s)\n", indent, wi, v, u)
	v, u = jmhUnit(it)
	fmt.Fprintf(b, "%s@Measurement(iterations = %d, time = %d, timeUnit = TimeUnit.%s)\n", indent, i, v, u)
}

// jmhUnit expresses ns in the largest whole TimeUnit.
func jmhUnit(ns int64) (int64, string) {
	switch {
	case ns > 0 && ns%1e9 == 0:
		return ns / 1e9, "SECONDS"
	case ns > 0 && ns%1e6 == 0:
		return ns / 1e6, "MILLISECONDS"
	case ns > 0 && ns%1e3 == 0:
		return ns / 1e3, "MICROSECONDS"
	}
	return ns, "NANOSECONDS"
}
