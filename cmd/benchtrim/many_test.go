package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/benchtrim/benchtrim/internal/testenv"
)

// Inputs of many small benchmarks, where what ingest keeps per benchmark
// (setups, checks, the summary) outweighs the rows (hardening round 3,
// docs/development.md "Memory at many benchmarks").

// writeManyJMH writes a JMH JSON array of n benchmarks of one fork and one
// iteration each, about 108 bytes a benchmark.
func writeManyJMH(w io.Writer, n int) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("[\n")
	for i := 0; i < n; i++ {
		if i > 0 {
			bw.WriteString(",\n")
		}
		v := strconv.Itoa(100+i%1000) + ".5"
		fmt.Fprintf(bw, `{"benchmark":"o.e.B.m%07d","mode":"avgt","forks":1,"primaryMetric":{"score":%s,"scoreUnit":"ns/op","rawData":[[%s]]}}`, i, v, v)
	}
	bw.WriteString("\n]\n")
	return bw.Flush()
}

// writeManyDuet writes a duetprocess CSV of about n iterations (rounded
// up to whole runs): benchmarks × 3 types × 100 runs × 2 pairs × 50
// iterations, about 70 bytes an iteration.
func writeManyDuet(w io.Writer, n int) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("suite,benchmark,type,order,pair,runid,iteration,iteration_time_ns,iteration_start_ns,iteration_end_ns\n")
	const runs, iters = 100, 50
	t := int64(1654509600000000000)
	for b := 0; b*3*runs*2*iters < n; b++ {
		for _, typ := range []string{"seqn", "syncduet", "duet"} {
			for r := 0; r < runs; r++ {
				for p := 0; p < 2; p++ {
					for it := 1; it <= iters; it++ {
						d := int64(1000 + (it*7+r)%100)
						fmt.Fprintf(bw, "dacapo,b%d,%s,AB,%c,%d,%d,%d,%d,%d\n", b, typ, 'A'+p, r, it, d, t, t+d)
						t += d + 1
					}
				}
			}
		}
	}
	return bw.Flush()
}

// writeManyGoTest writes go test -bench output of n benchmarks of one
// result line each, distinct names in one package, about 40 bytes a
// benchmark.
func writeManyGoTest(w io.Writer, n int) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/many\ncpu: test\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(bw, "BenchmarkB%07d-8\t1000000\t%d.5 ns/op\n", i, 100+i%1000)
	}
	bw.WriteString("PASS\nok  \texample.com/many\t1.0s\n")
	return bw.Flush()
}

// manyInput writes an input of n benchmarks (jmh, gobench) or iterations (duet)
// into dir and returns its path and size.
func manyInput(tb testing.TB, dir, kind string, n int) (string, int64) {
	tb.Helper()
	write, ext := writeManyJMH, ".json"
	switch kind {
	case "duet":
		write, ext = writeManyDuet, ".csv"
	case "gobench":
		write, ext = writeManyGoTest, ".txt"
	}
	path := filepath.Join(dir, fmt.Sprintf("%s%d%s", kind, n, ext))
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := write(f, n); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return path, st.Size()
}

// ingestAllocs runs `benchtrim ingest in -o out` and returns the bytes it
// allocated (runtime.MemStats.TotalAlloc: deterministic, unlike the peak).
func ingestAllocs(tb testing.TB, in, out string) uint64 {
	tb.Helper()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := run([]string{"benchtrim", "-q", "ingest", in, "-o", out}, io.Discard, io.Discard); err != nil {
		tb.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestIngestMemoryLinear: what ingest allocates per benchmark (JMH: 2·10⁴
// against 2·10⁵ one-value benchmarks) and per iteration (duet: 3·10⁴
// against 3·10⁵) does not grow with their number: at ten times the input
// it stays within 1.5 times. Before hardening round 3 pqarrow's statistics
// gathered each record's distinct benchmark names with a copy per 64
// bytes (20 GB allocated for 10⁵ benchmarks).
func TestIngestMemoryLinear(t *testing.T) {
	if testing.Short() {
		testenv.Skip(t, "ingests 2·10⁵ benchmarks")
	}
	dir := t.TempDir()
	for _, c := range []struct {
		kind        string
		small, many int
	}{{"jmh", 20_000, 200_000}, {"duet", 30_000, 300_000}, {"gobench", 20_000, 200_000}} {
		t.Run(c.kind, func(t *testing.T) {
			var perUnit [2]float64
			for i, n := range []int{c.small, c.many} {
				in, _ := manyInput(t, dir, c.kind, n)
				perUnit[i] = float64(ingestAllocs(t, in, filepath.Join(dir, "out.parquet"))) / float64(n)
				os.Remove(in)
			}
			t.Logf("%s: %.0f bytes allocated per unit at %d, %.0f at %d", c.kind, perUnit[0], c.small, perUnit[1], c.many)
			if perUnit[1] > 1.5*perUnit[0] {
				t.Errorf("%s: %.0f bytes allocated per unit at %d, %.0f at %d: grows with the input", c.kind, perUnit[0], c.small, perUnit[1], c.many)
			}
		})
	}
}

// BenchmarkIngestMany runs `benchtrim ingest -o OUT.parquet` on JMH files
// of many one-value benchmarks and duet results of many iterations, at
// two sizes ten times apart, and reports per benchmark (iteration) the
// CPU time (cpu-ns/bench) and bytes allocated (alloc-B/bench), and the
// peak heap (sampled every 10 ms) per input byte (peak-B/in-B): at both
// sizes alike when memory and time are linear in the input.
//
//	go test -run '^$' -bench IngestMany -benchtime 1x ./cmd/benchtrim
func BenchmarkIngestMany(b *testing.B) {
	dir := b.TempDir()
	for _, c := range []struct {
		kind string
		n    int
	}{{"jmh", 100_000}, {"jmh", 1_000_000}, {"duet", 300_000}, {"duet", 3_000_000}} {
		in, size := manyInput(b, dir, c.kind, c.n)
		b.Run(fmt.Sprintf("%s/n=%d", c.kind, c.n), func(b *testing.B) {
			out := filepath.Join(dir, "out.parquet")
			peak := testenv.PeakHeap(10 * time.Millisecond)
			cpu := testenv.CPUSeconds()
			var alloc uint64
			for i := 0; i < b.N; i++ {
				alloc += ingestAllocs(b, in, out)
			}
			units := float64(c.n) * float64(b.N)
			b.ReportMetric((testenv.CPUSeconds()-cpu)*1e9/units, "cpu-ns/bench")
			b.ReportMetric(float64(alloc)/units, "alloc-B/bench")
			b.ReportMetric(float64(peak())/float64(size), "peak-B/in-B")
		})
		os.Remove(in)
	}
}

// BenchmarkIngestManyRSS runs the built binary's `ingest -o OUT.parquet`
// on 10⁶ one-line benchmarks of distinct names as go test output and as
// JMH JSON, alternated, and reports each one's peak RSS (maxrss-MB) and
// their ratio (gobench/jmh): issue 47 found 2.69 GB against 910 MB.
//
//	go test -run '^$' -bench IngestManyRSS -benchtime 2x ./cmd/benchtrim
func BenchmarkIngestManyRSS(b *testing.B) {
	bin := builtBinary(b)
	dir := b.TempDir()
	goIn, _ := manyInput(b, dir, "gobench", 1_000_000)
	jmhIn, _ := manyInput(b, dir, "jmh", 1_000_000)
	out := filepath.Join(dir, "out.parquet")
	var goRSS, jmhRSS int64
	for i := 0; i < b.N; i++ {
		_, g := runProc(b, bin, "-q", "ingest", goIn, "-o", out)
		_, j := runProc(b, bin, "-q", "ingest", jmhIn, "-o", out)
		goRSS, jmhRSS = max(goRSS, g), max(jmhRSS, j)
	}
	b.ReportMetric(float64(goRSS)/1e6, "gobench-maxrss-MB")
	b.ReportMetric(float64(jmhRSS)/1e6, "jmh-maxrss-MB")
	b.ReportMetric(float64(goRSS)/float64(jmhRSS), "gobench/jmh")
}
