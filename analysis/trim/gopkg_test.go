package trim

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/benchtrim/benchtrim/table"
)

// goPkg is the small real Go package these tests run (testdata/gopkg at
// the repository's root).
var goPkg = filepath.Join("..", "..", "testdata", "gopkg")

// goTool runs the go command in testdata/gopkg (its own module, the
// local toolchain, no workspace) and returns its standard output and
// how long it took.
func goTool(t *testing.T, args ...string) ([]byte, time.Duration) {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command: %v", err)
	}
	cmd := exec.Command(goBin, args...)
	cmd.Dir = goPkg
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.Bytes())
	}
	return out, time.Since(start)
}

// printedNames are the benchmark names (without -GOMAXPROCS) of the
// result lines of go test output, in order.
func printedNames(out []byte) []string {
	var names []string
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		n := f[0]
		if i := strings.LastIndexByte(n, '-'); i > 0 {
			n = n[:i]
		}
		names = append(names, n)
	}
	return names
}

// TestGoPatternsRunExactlyTheGroup: for seeded random subsets of the
// leaf benchmarks of testdata/gopkg (key=value levels before and after
// positional ones, names with regexp syntax, a space and a repeat, and
// BenchmarkSumAll beside BenchmarkSum), the -bench pattern of the
// subset's boxes makes the real go test run exactly the subset, each
// once.
func TestGoPatternsRunExactlyTheGroup(t *testing.T) {
	out, _ := goTool(t, "test", "-run", "^$", "-bench", ".", "-benchtime", "1x")
	all := printedNames(out)
	if len(all) != 18 {
		t.Fatalf("testdata/gopkg runs %d benchmarks, want 18:\n%s", len(all), out)
	}
	rng := rand.New(rand.NewPCG(45, 6))
	for trial := 0; trial < 4; trial++ {
		var subset [][]string
		want := map[string]int{}
		for _, n := range all {
			if rng.IntN(2) == 0 {
				subset = append(subset, strings.Split(n, "/"))
				want[n] = 1
			}
		}
		pats := goPatterns(boxes(subset), maxPatternBytes)
		if len(pats) != 1 {
			t.Fatalf("%d patterns", len(pats))
		}
		out, _ := goTool(t, "test", "-run", "^$", "-bench", pats[0], "-benchtime", "1x")
		got := map[string]int{}
		for _, n := range printedNames(out) {
			got[n]++
		}
		if len(got) != len(want) {
			t.Errorf("pattern %q ran %v, want %v", pats[0], got, want)
			continue
		}
		for n := range want {
			if got[n] != 1 {
				t.Errorf("pattern %q ran %v, want %v", pats[0], got, want)
				break
			}
		}
	}
}

// TestCommandsRunAsPlanned records testdata/gopkg's BenchmarkSum,
// BenchmarkHash and BenchmarkAlloc with `go test -json -bench -benchmem
// -count 6 -benchtime 30ms`, trims the recording and runs the commands
// trim writes: they run exactly the recorded benchmarks, each the
// planned number of times with -benchmem, and take the plan's time in
// trim's time model within a factor of commandsTolerance. The go test
// start-up is this machine's (--overhead command=, measured here as the
// wall time of go test runs that run no benchmark), so that a loaded
// machine checks the model, not the default.
func TestCommandsRunAsPlanned(t *testing.T) {
	goTool(t, "test", "-run", "^$", "-bench", "^$") // build the test binary's packages once
	var starts []time.Duration
	for i := 0; i < 3; i++ {
		_, d := goTool(t, "test", "-run", "^$", "-bench", "^$")
		starts = append(starts, d)
	}
	sort.Slice(starts, func(i, j int) bool { return starts[i] < starts[j] })
	startup := starts[1]
	rec, recWall := goTool(t, "test", "-json", "-run", "^$", "-bench", "^Benchmark(Sum|Hash|Alloc)$", "-benchmem", "-count", "6", "-benchtime", "30ms")
	path := filepath.Join(t.TempDir(), "gopkg-v1.json")
	if err := os.WriteFile(path, rec, 0o644); err != nil {
		t.Fatal(err)
	}
	tab := readFiles(t, path)
	opt := fastOptions()
	opt.Splits = 2
	opt.CommandOverhead = startup
	rep, err := Run(tab, opt)
	if err != nil {
		t.Fatal(err)
	}
	var script bytes.Buffer
	if err := rep.WriteCommands(&script); err != nil {
		t.Fatal(err)
	}
	sh := filepath.Join(t.TempDir(), "commands.sh")
	if err := os.WriteFile(sh, script.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	groups := commandGroups(rep.Benchmarks, lastVersions(rep))
	planned, plannedStartup, runs := rep.commandsTime(groups)
	shBin, err := exec.LookPath("sh")
	if err != nil {
		t.Fatalf("no sh: %v", err)
	}
	cmd := exec.Command(shBin, sh)
	cmd.Dir = goPkg
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	begin := time.Now()
	out, err := cmd.Output()
	wall := time.Since(begin)
	if err != nil {
		t.Fatalf("sh commands.sh: %v\n%s\n%s%s", err, script.Bytes(), out, stderr.Bytes())
	}
	ratio := float64(wall) / float64(planned)
	t.Logf("go test start-up %v (of %v); recorded in %v (the plan's recorded time %v); %d benchmark runs in %d commands, %d go test runs: planned %v (start-up %v), ran in %v: %.2f×\n%s",
		startup, starts, recWall.Round(time.Millisecond), time.Duration(rep.Totals.TimeBeforeNs).Round(time.Millisecond),
		len(rep.Benchmarks), len(groups), runs, time.Duration(planned).Round(time.Millisecond),
		time.Duration(plannedStartup).Round(time.Millisecond), wall.Round(time.Millisecond), ratio, script.Bytes())

	// Exactly the recorded benchmarks ran, each -count × repeats times.
	want := map[string]int{}
	for i := range rep.Benchmarks {
		b := &rep.Benchmarks[i]
		name := b.Key.Benchmark
		if s := tab.Setup(b.Key); s != nil && s.Name != "" {
			name = s.Name
		}
		want[name] = b.Recommended.Iterations * b.Command.Repeat
	}
	got := map[string]int{}
	for _, n := range printedNames(out) {
		got[n]++
	}
	if len(want) != 9 {
		t.Errorf("%d benchmark runs recorded, want 9 (6 Sum, 2 Hash, Alloc)", len(want))
	}
	for n, c := range want {
		if got[n] != c {
			t.Errorf("%s ran %d times, want %d (-count × repeats)", n, got[n], c)
		}
	}
	for n := range got {
		if _, ok := want[n]; !ok {
			t.Errorf("%s ran, but was not recorded", n)
		}
	}
	if c := strings.Count(string(out), " B/op"); c != len(printedNames(out)) {
		t.Errorf("%d of %d result lines have B/op: -benchmem was dropped", c, len(printedNames(out)))
	}
	if ratio < 1/commandsTolerance || ratio > commandsTolerance {
		t.Errorf("the commands ran in %v, the plan says %v (%.2f×, want within %g×)", wall, time.Duration(planned), ratio, commandsTolerance)
	}
	for i := range rep.Benchmarks {
		if s := tab.Setup(rep.Benchmarks[i].Key); s == nil || s.Env[table.EnvStartupNs] == "" {
			t.Errorf("%s: the -json recording's start-up is not in the setup", rep.Benchmarks[i].Key)
		}
	}
}

// commandsTolerance is how far the commands' wall time may be from the
// plan's (a factor either way): both run on a shared machine, the
// recording a few seconds before the commands.
const commandsTolerance = 1.5
