package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/benchtrim/benchtrim/internal/testenv"
)

// The benchmarks of this file time the built binary as users run it: whole
// processes, start-up included, CPU time (user + system) of the child from
// its rusage, peak RSS from its maxrss.

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// builtBinary builds ./cmd/benchtrim once per test process into a
// temporary folder (removed by TestMain's caller when the process ends:
// the OS temp dir) and returns its path.
func builtBinary(b testing.TB) string {
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "benchtrim-bin-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "benchtrim")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		b.Fatal(binErr)
	}
	return binPath
}

// procStats is the CPU time in seconds and the peak RSS in bytes of a
// finished child process.
func procStats(ps *os.ProcessState) (cpu float64, maxRSS int64) {
	return (ps.UserTime() + ps.SystemTime()).Seconds(), testenv.MaxRSS(ps)
}

// runProc runs a command to completion (stdout and stderr discarded
// unless it fails) and returns its CPU seconds and peak RSS.
func runProc(b *testing.B, name string, args ...string) (float64, int64) {
	cmd := exec.Command(name, args...)
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return procStats(cmd.ProcessState)
}

// BenchmarkStartup runs `benchtrim changepoint FILE` on 20 values, a
// command whose work is negligible: its CPU time is the start-up of the
// binary (runtime, package initialisation, flag parsing). It reports
// cpu-s/op, the child's user + system time per run (issue 26's target:
// ≤ 0.03 s), and maxrss-MB.
//
//	go test -run '^$' -bench Startup -benchtime 50x ./cmd/benchtrim
func BenchmarkStartup(b *testing.B) {
	bin := builtBinary(b)
	in := filepath.Join(b.TempDir(), "values.txt")
	var sb strings.Builder
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&sb, "%d\n", 100+i%3)
	}
	if err := os.WriteFile(in, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	var cpu float64
	var rss int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, r := runProc(b, bin, "changepoint", in)
		cpu += c
		rss = max(rss, r)
	}
	b.ReportMetric(cpu/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(rss)/1e6, "maxrss-MB")
}

// BenchmarkIngestProcess runs `benchtrim ingest -o OUT.EXT FILE` (EXT
// parquet and arrow) as a whole process on a JMH JSON file, alternated in
// one run with `python3 -c 'import json,sys; json.load(open(sys.argv[1]))'`
// on the same file (parsing alone, the baseline of issue 26), and reports
// for each MB of input per CPU-second (cpu-MB/s, py-cpu-MB/s), their ratio
// (x-python), and benchtrim's peak RSS (maxrss-MB). The input is a
// generated sample-mode file of 20 benchmarks (about 30 MB), or the file
// BENCHTRIM_INGEST_INPUT names. It skips when python3 is absent.
//
//	go test -run '^$' -bench IngestProcess -benchtime 3x ./cmd/benchtrim
func BenchmarkIngestProcess(b *testing.B) {
	py, err := exec.LookPath("python3")
	if err != nil {
		testenv.Skip(b, "python3 not installed (the baseline)")
	}
	bin := builtBinary(b)
	dir := b.TempDir()
	in := os.Getenv("BENCHTRIM_INGEST_INPUT")
	if in == "" {
		in = filepath.Join(dir, "big.json")
		runProc(b, bin, "-q", "generate", "--preset", "sample", "--benchmarks", "20", "-o", in)
	}
	st, err := os.Stat(in)
	if err != nil {
		b.Fatal(err)
	}
	mb := float64(st.Size()) / 1e6
	for _, ext := range []string{"parquet", "arrow"} {
		b.Run(ext, func(b *testing.B) {
			out := filepath.Join(dir, "out."+ext)
			var cpu, pyCPU float64
			var rss int64
			b.SetBytes(st.Size())
			for i := 0; i < b.N; i++ {
				c, r := runProc(b, bin, "-q", "ingest", "-o", out, in)
				cpu += c
				rss = max(rss, r)
				pc, _ := runProc(b, py, "-c", "import json,sys; json.load(open(sys.argv[1]))", in)
				pyCPU += pc
			}
			b.ReportMetric(mb*float64(b.N)/cpu, "cpu-MB/s")
			b.ReportMetric(mb*float64(b.N)/pyCPU, "py-cpu-MB/s")
			b.ReportMetric(pyCPU/cpu, "x-python")
			b.ReportMetric(float64(rss)/1e6, "maxrss-MB")
		})
	}
}

// BenchmarkDuetProcess runs `benchtrim duet FILE` as a whole process on a
// generated thesis-size duetprocess CSV (200 benchmarks × 3 types × 20
// runs × 50 iterations × 2 pairs: 1.2 M rows, 319 MB) and reports the
// child's cpu-s/op and its peak RSS (maxrss-MB; issue 26's target:
// ≤ 500 MB).
//
//	go test -run '^$' -bench DuetProcess -benchtime 2x ./cmd/benchtrim
func BenchmarkDuetProcess(b *testing.B) {
	bin := builtBinary(b)
	in := filepath.Join(b.TempDir(), "duet.csv")
	runProc(b, bin, "-q", "generate", "--preset", "duet", "--benchmarks", "200", "--forks", "20", "--iterations", "50", "-o", in)
	var cpu float64
	var rss int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, r := runProc(b, bin, "-q", "duet", in)
		cpu += c
		rss = max(rss, r)
	}
	b.ReportMetric(cpu/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(rss)/1e6, "maxrss-MB")
}
