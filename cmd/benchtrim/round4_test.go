package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile/tabletest"
)

// ulpInput writes a JMH result of one benchmark, 3 forks × 80 iterations,
// whose values are 1000 ns/op and the next float64 above it: valid data on
// which every plot's axis is one ULP wide.
func ulpInput(t *testing.T, dir string) string {
	t.Helper()
	return namedInput(t, dir, "ulp.json", "org.example.Ulp.same")
}

// namedInput is ulpInput's data for the benchmarks names, in the file name.
func namedInput(t *testing.T, dir, name string, names ...string) string {
	t.Helper()
	a, b := strconv.FormatFloat(1000, 'g', -1, 64), strconv.FormatFloat(math.Nextafter(1000, 2000), 'g', -1, 64)
	var forks []string
	for f := 0; f < 3; f++ {
		var it []string
		for i := 0; i < 80; i++ {
			it = append(it, map[bool]string{true: a, false: b}[(i+f)%3 == 0])
		}
		forks = append(forks, "["+strings.Join(it, ",")+"]")
	}
	var runs []string
	for _, n := range names {
		runs = append(runs, fmt.Sprintf(`{"jmhVersion":"1.37","benchmark":%q,"mode":"avgt","threads":1,"forks":3,`+
			`"warmupIterations":0,"measurementIterations":80,"params":{},"primaryMetric":{"score":1000,"scoreUnit":"ns/op","rawData":[%s]}}`,
			n, strings.Join(forks, ",")))
	}
	js := "[" + strings.Join(runs, ",") + "]"
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// runDeadline runs the command line in a goroutine and fails the test when
// it has not ended within d.
func runDeadline(t *testing.T, d time.Duration, args ...string) (string, string, error) {
	t.Helper()
	type result struct {
		out, errs string
		err       error
	}
	done := make(chan result, 1)
	go func() {
		o, e, err := runCLI(t, args...)
		done <- result{o, e, err}
	}()
	select {
	case r := <-done:
		return r.out, r.errs, r.err
	case <-time.After(d):
		t.Fatalf("benchtrim %s has not ended after %v", strings.Join(args, " "), d)
		return "", "", nil
	}
}

// TestPlotsOfOneULP runs steady --plots (SVG and PNG) and trim --report
// on a benchmark whose values differ in their last bit (issue 47, class
// 1: the axis' tick loop never ended); both end, and the plots and the
// report hold tick labels and no NaN.
func TestPlotsOfOneULP(t *testing.T) {
	dir := t.TempDir()
	in := ulpInput(t, dir)
	for _, format := range []string{"svg", "png"} {
		plots := filepath.Join(dir, "plots-"+format)
		if _, stderr, err := runDeadline(t, 2*time.Minute, "--quiet", "steady", "--steady-window", "20", "--resamples", "200",
			"--plots", plots, "--plot-format", format, in); err != nil {
			t.Fatalf("steady --plots: %v\n%s", err, stderr)
		}
		entries, err := os.ReadDir(plots)
		if err != nil || len(entries) == 0 {
			t.Fatalf("steady --plots %s: %d files (%v)", format, len(entries), err)
		}
		if format == "svg" {
			for _, e := range entries {
				if !strings.HasSuffix(e.Name(), ".svg") {
					continue
				}
				// A series plot's value axis holds 1000; a CROPS plot's
				// penalty axis is logarithmic, labelled 1e-13 … 1e6.
				want := ">1000<"
				if strings.HasSuffix(e.Name(), "-crops.svg") {
					want = ">1e3<"
				}
				b, err := os.ReadFile(filepath.Join(plots, e.Name()))
				if err != nil || !strings.Contains(string(b), want) || strings.Contains(string(b), "NaN") {
					t.Errorf("%s: no tick label %s or a NaN (%v)", e.Name(), want[1:len(want)-1], err)
				}
			}
		}
	}
	page := filepath.Join(dir, "r.html")
	if _, stderr, err := runDeadline(t, 2*time.Minute, "--quiet", "trim", "--steady-window", "20", "--resamples", "200",
		"--report", page, in); err != nil {
		t.Fatalf("trim --report: %v\n%s", err, stderr)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	charts := regexp.MustCompile(`(?s)<svg.*?</svg>`).FindAllString(string(b), -1)
	if len(charts) == 0 {
		t.Errorf("report: no chart")
	}
	for _, c := range charts {
		if strings.Contains(c, "NaN") || strings.Contains(c, "Inf") {
			t.Errorf("report: a chart with NaN or Inf: %.300s", c)
		}
	}
}

// TestSpecialOutputs gives outputs that exist and are not regular files,
// made by the test (a FIFO, a character device with /dev/null's numbers
// when root, symbolic links to them), and outputs that name standard output
// (-, links to /proc/self/fd/1 and /dev/stdout, /dev/stdout for a table):
// the first are refused before any work and stay what they were, the
// second get the bytes in place, the links left as they were (issue 47,
// class 2: such paths became regular files).
func TestSpecialOutputs(t *testing.T) {
	dir := t.TempDir()
	in := repoFile("testdata", "jmh", "small_avgt.json")
	fifo, toFifo := filepath.Join(dir, "fifo.csv"), filepath.Join(dir, "to-fifo.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Symlink("fifo.csv", toFifo)
	special := map[string]os.FileMode{fifo: os.ModeNamedPipe, toFifo: os.ModeNamedPipe}
	if os.Geteuid() == 0 {
		dev := filepath.Join(dir, "null.sh")
		if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
			t.Fatal(err)
		}
		special[dev] = os.ModeDevice | os.ModeCharDevice
	} else {
		testenv.Skip(t, "not root: no character device of its own (mknod); FIFOs only")
	}
	for p := range special {
		flag := map[bool]string{true: "--commands-out", false: "-o"}[strings.HasSuffix(p, ".sh")]
		args := []string{"--quiet", "optimize", flag, p, in}
		if flag == "--commands-out" {
			args = []string{"--quiet", "trim", "--steady-window", "3", "--resamples", "100", flag, p, in}
		}
		_, stderr, err := runDeadline(t, time.Minute, args...)
		if err == nil || !strings.Contains(err.Error(), "not a regular file; refusing to replace it") {
			t.Errorf("%s %s: error %v, want a refusal\n%s", flag, p, err, stderr)
		}
		if fi, err := os.Lstat(p); err != nil || fi.Mode().Type() != special[p] && fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: now %v (%v), want it still %v", p, fi.Mode(), err, special[p])
		}
	}
	fd1, devStdout := filepath.Join(dir, "fd1.csv"), filepath.Join(dir, "stdout.csv")
	os.Symlink("/proc/self/fd/1", fd1)
	os.Symlink("/dev/stdout", devStdout)
	for _, p := range []string{"-", "/dev/stdout", fd1, devStdout} {
		stdout, stderr, err := runDeadline(t, time.Minute, "optimize", "-o", p, in)
		if err != nil {
			t.Errorf("-o %s: %v\n%s", p, err, stderr)
			continue
		}
		rows, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
		if err != nil || len(rows) < 2 || rows[0][0] != "project" || strings.Contains(stdout, "µOpTime") {
			t.Errorf("-o %s: stdout is not the CSV table alone (%v):\n%.300s", p, err, stdout)
		}
		if !strings.Contains(stderr, "µOpTime: ") || !strings.Contains(stderr, "wrote "+p) {
			t.Errorf("-o %s: the text is not on stderr:\n%s", p, stderr)
		}
	}
	for _, p := range []string{fd1, devStdout} {
		if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symbolic link (%v)", p, err)
		}
	}
	stdout, _, err := runDeadline(t, time.Minute, "--quiet", "export", "--to", "pa", "-o", "-", in)
	if err != nil || !strings.HasPrefix(stdout, "project;commit;benchmark;") {
		t.Errorf("export -o -: %v\n%.200s", err, stdout)
	}
}

// TestSpecialInputsOfReportAndMerge puts a FIFO without a writer and
// /dev/zero where benchtrim report and benchtrim merge read files of their
// own (a partial; a trim folder's manifest and a file it lists): each is
// refused at once, naming the file and what it is (issue 47, class 2:
// both hung).
func TestSpecialInputsOfReportAndMerge(t *testing.T) {
	dir := t.TempDir()
	in := ulpInput(t, dir)
	fifo := filepath.Join(dir, "fifo.partial")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, "/dev/zero"} {
		_, _, err := runDeadline(t, time.Minute, "merge", p)
		if err == nil || !strings.Contains(err.Error(), p+": is a ") || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("merge %s: %v", p, err)
		}
	}
	out := filepath.Join(dir, "out")
	if _, stderr, err := runCLI(t, "--quiet", "trim", "--steady-window", "20", "--resamples", "200", "--out-dir", out, in); err != nil {
		t.Fatalf("trim --out-dir: %v\n%s", err, stderr)
	}
	for _, name := range []string{"plan.csv", "manifest.sha256"} {
		for _, special := range []string{"fifo", "/dev/zero"} {
			p := filepath.Join(out, name)
			saved, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			os.Remove(p)
			if special == "fifo" {
				err = syscall.Mkfifo(p, 0o644)
			} else {
				err = os.Symlink(special, p)
			}
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = runDeadline(t, time.Minute, "report", out, "-o", filepath.Join(dir, "r.html"))
			if err == nil || !strings.Contains(err.Error(), p+": is a ") || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("report with %s as %s: %v", special, name, err)
			}
			os.Remove(p)
			os.WriteFile(p, saved, 0o644)
		}
	}
}

// TestMaxRowsBoundsOneRun writes a Parquet table of one sample-mode run of
// 5,000 rows (a histogram: one position, so it compresses to almost
// nothing) beside a small run, and analyses it with --max-rows 1000:
// optimize and compare --aa refuse it naming the run, after reading only
// what the bound allows; --max-rows 0 (no bound) still analyses it (issue
// 47, class 5: such a run was held whole whatever --max-rows said, 6 GB
// for 32 M rows).
func TestMaxRowsBoundsOneRun(t *testing.T) {
	dir := t.TempDir()
	b := table.NewBuilder(nil, 0)
	for _, n := range []struct {
		name string
		rows int
	}{{"b.Bomb", 5000}, {"b.Small", 10}} {
		k := table.Key{Project: "p", Version: "v1", Benchmark: n.name, Mode: "sample"}
		for i := 0; i < n.rows; i++ {
			r := table.Row{Project: k.Project, Version: k.Version, Benchmark: k.Benchmark, Mode: k.Mode, Unit: "ns/op",
				Value: float64(100 + i%7), NsPerOp: float64(100 + i%7), Count: 1, Instance: 1, Trial: 1, Fork: 1, Iteration: 1, Slice: 1}
			if err := b.Append(&r); err != nil {
				t.Fatal(err)
			}
		}
		b.AddSetup(table.Setup{Key: k, Tool: "jmh", Forks: 1, MeasurementIterations: 1})
	}
	tab := b.Finish()
	b.Release()
	in := filepath.Join(dir, "bomb.parquet")
	if err := tabletest.WriteFile(in, tab); err != nil {
		t.Fatal(err)
	}
	tab.Release()
	for _, args := range [][]string{{"optimize", "--resamples", "100", in}, {"compare", "--aa", "--aa-repeats", "2", "--resamples", "100", in}} {
		_, stderr, err := runCLI(t, append([]string{"--quiet", "--max-rows", "1000"}, args...)...)
		if err == nil || !strings.Contains(err.Error(), "b.Bomb (sample): ") || !strings.Contains(err.Error(), "over the 1000 an analysis holds in memory at once") ||
			!strings.Contains(err.Error(), "p@v1 b.Bomb (sample)") || !strings.Contains(err.Error(), "--max-rows") {
			t.Errorf("%s --max-rows 1000: error %v, want one naming the run\n%s", args[0], err, stderr)
		}
	}
	if _, stderr, err := runCLI(t, "--quiet", "--max-rows", "0", "optimize", "--resamples", "100", in); err != nil {
		t.Errorf("optimize --max-rows 0: %v\n%s", err, stderr)
	}
}

// TestPlotFolderIsOneSet runs steady --plots into one folder twice, on
// three benchmarks and then on one of 300-byte name: the folder then holds
// the second run's plots and index only, every file name at most 255 bytes
// (the long name shortened with its hash), the index naming the whole
// benchmark; a folder holding another file is refused before any work
// (issue 47, class 7: 64 of 96 files were stale, and a 250-byte name failed
// the run with "file name too long").
func TestPlotFolderIsOneSet(t *testing.T) {
	dir := t.TempDir()
	plots := filepath.Join(dir, "plots")
	three := namedInput(t, dir, "three.json", "org.example.A.a", "org.example.B.b", "org.example.C.c")
	long := "org.example." + strings.Repeat("VeryLongBenchmarkClassName", 12) + ".m"
	one := namedInput(t, dir, "one.json", long)
	for _, in := range []string{three, one} {
		if _, stderr, err := runCLI(t, "--quiet", "steady", "--steady-window", "20", "--resamples", "100", "--plots", plots, in); err != nil {
			t.Fatalf("steady --plots on %s: %v\n%s", filepath.Base(in), err, stderr)
		}
	}
	entries, err := os.ReadDir(plots)
	if err != nil {
		t.Fatal(err)
	}
	var svgs []string
	for _, e := range entries {
		if len(e.Name()) > 255 {
			t.Errorf("file name of %d bytes", len(e.Name()))
		}
		if strings.HasSuffix(e.Name(), ".svg") {
			svgs = append(svgs, e.Name())
		}
	}
	for _, f := range svgs {
		if !strings.Contains(f, "VeryLong") {
			t.Errorf("plot %s of the first run is still there", f)
		}
	}
	if len(svgs) < 3 || len(entries) != len(svgs)+1 { // a series plot (and a CROPS curve) per fork, index.csv
		t.Errorf("plots: %v, want the second run's plots and index.csv", entries)
	}
	rows := readCSV(t, filepath.Join(plots, "index.csv"))
	if len(rows) != 1+len(svgs) {
		t.Fatalf("index: %d rows, want %d", len(rows), 1+len(svgs))
	}
	for _, r := range rows[1:] {
		if !strings.Contains(r[2], long) || !slices.Contains(svgs, r[0]) {
			t.Errorf("index row %q: want a file of the folder and the whole name", r)
		}
	}
	os.WriteFile(filepath.Join(plots, "notes.txt"), []byte("mine"), 0o644)
	_, _, err = runCLI(t, "--quiet", "steady", "--steady-window", "20", "--resamples", "100", "--plots", plots, one)
	if err == nil || !strings.Contains(err.Error(), "holds files this output does not write (notes.txt)") {
		t.Errorf("a folder with another file: %v", err)
	}
}

// TestReportChecksFrameColumns writes a trim folder, puts its plan and
// its steady-forks file in each other's place and makes the manifest anew
// (as sha256sum would): benchtrim report refuses the folder, naming the
// file and the columns it lacks (issue 47, class 7: the page rendered
// with empty cells).
func TestReportChecksFrameColumns(t *testing.T) {
	dir := t.TempDir()
	in := ulpInput(t, dir)
	out := filepath.Join(dir, "out")
	if _, stderr, err := runCLI(t, "--quiet", "trim", "--steady-window", "20", "--resamples", "200", "--out-dir", out, in); err != nil {
		t.Fatalf("trim --out-dir: %v\n%s", err, stderr)
	}
	plan, forks := filepath.Join(out, "plan.csv"), filepath.Join(out, "steady-forks.csv")
	a, errA := os.ReadFile(plan)
	b, errB := os.ReadFile(forks)
	if errA != nil || errB != nil {
		t.Fatalf("%v %v", errA, errB)
	}
	os.WriteFile(plan, b, 0o644)
	os.WriteFile(forks, a, 0o644)
	manifest, err := os.ReadFile(filepath.Join(out, "manifest.sha256"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(manifest)), "\n") {
		_, name, _ := strings.Cut(l, "  ")
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, fmt.Sprintf("%x  %s", sha256.Sum256(data), name))
	}
	os.WriteFile(filepath.Join(out, "manifest.sha256"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	_, _, err = runCLI(t, "report", out, "-o", filepath.Join(dir, "r.html"))
	if err == nil || !strings.Contains(err.Error(), "plan.csv: no column ") || !strings.Contains(err.Error(), "which the plan frame of benchtrim trim has") {
		t.Errorf("report of swapped frames: %v", err)
	}
}

// TestCountsHaveMaxima asks for more work than any analysis needs (trim
// --splits 1000000, 10⁸ resamples, a generated suite of 10⁸ iterations):
// each is a usage error naming the flag and its maximum, before any input
// is read; and every count flag with a maximum says it in its usage
// (issue 47, class 9: trim --splits 1000000 ran without bound).
func TestCountsHaveMaxima(t *testing.T) {
	tmp := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"trim", "--splits", "1000000", "nothing.json"}, "benchtrim trim: --splits 1000000: must be at most 1000"},
		{[]string{"optimize", "--resamples", "100000000", "nothing.json"}, "benchtrim optimize: --resamples 100000000: must be at most 10000000"},
		{[]string{"compare", "--aa", "--aa-repeats", "5000", "nothing.json"}, "--aa-repeats 5000: must be at most 1000"},
		{[]string{"generate", "--iterations", "100000000", "-o", filepath.Join(tmp, "x.json")}, "--iterations 100000000: must be at most 10000000"},
		{[]string{"--workers", "100000", "ingest", "-o", filepath.Join(tmp, "x.csv"), "nothing.json"}, "--workers 100000: must be at most 1024"},
	} {
		var out bytes.Buffer
		err := run(append([]string{"benchtrim"}, c.args...), &out, &out)
		if code := exitCode(err, &out); code != 2 || !strings.Contains(out.String(), c.want) {
			t.Errorf("%v: exit %d, output %q, want 2 and %q", c.args, code, out.String(), c.want)
		}
	}
	// The maxima in the usage: every int flag of every command (as the
	// app sets them up) that is a count with a maximum says it.
	bounded := map[string]bool{"splits": true, "resamples": true, "aa-repeats": true, "plot-max": true, "iterations": true, "forks": true,
		"benchmarks": true, "invocations": true, "window": true, "outlier-window": true, "workers": true}
	app := newApp(io.Discard, io.Discard, []string{"benchtrim"})
	seen := 0
	for _, cmd := range append(app.Commands, &cli.Command{Name: "benchtrim", Flags: app.Flags}) {
		for _, f := range cmd.Flags {
			if fl, ok := f.(*cli.IntFlag); ok && bounded[fl.Name] {
				seen++
				if !strings.Contains(fl.Usage, "(at most ") {
					t.Errorf("%s --%s: usage %q does not state its maximum", cmd.Name, fl.Name, fl.Usage)
				}
			}
		}
	}
	if seen < len(bounded) {
		t.Errorf("%d bounded int flags seen, want at least %d", seen, len(bounded))
	}
}
