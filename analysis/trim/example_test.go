package trim_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/benchtrim/benchtrim/analysis/trim"
	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
)

// Run takes a table of recorded results (here two benchmarks of one
// `go test -bench -count 30` run, read with ingest.ReadFiles) and
// recommends per benchmark the cheapest configuration whose detectable
// slowdown under the user's test (benchstat's U test at α = 0.05) is at
// most Options.Keep (1.5) times the recorded one's, or that still finds a
// 3 % slowdown (Options.MinEffect), with the command line that runs it:
// the noisy benchmark keeps 24 iterations (4.3 % ≤ 1.5 × 2.9 %), the
// quiet one needs 6 to detect 0.8 %. Options.Seed fixes every random
// draw: the same input and seed give the same recommendation.
func ExampleRun() {
	var b strings.Builder
	for i := 0; i < 30; i++ {
		// A quiet benchmark (±0.5 %) and a noisy one (±8 %).
		fmt.Fprintf(&b, "BenchmarkQuiet-8 \t1000000\t %.0f ns/op\n", 1000*(1+0.005*math.Sin(float64(i)*2.1)))
		fmt.Fprintf(&b, "BenchmarkNoisy-8 \t1000000\t %.0f ns/op\n", 1000*(1+0.08*math.Sin(float64(i)*1.3)))
	}
	dir, err := os.MkdirTemp("", "trim-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "sort.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		panic(err)
	}
	tab, _, _, err := ingest.ReadFiles([]string{path}, ingest.ReadOptions{Formats: all.Formats()})
	if err != nil {
		panic(err)
	}
	defer tab.Release()

	opt := trim.DefaultOptions
	opt.Seed = 1
	rep, err := trim.Run(tab, opt)
	if err != nil {
		panic(err)
	}
	for _, bm := range rep.Benchmarks {
		fmt.Printf("%s: %s, %d of %d iterations\n", bm.Key.Benchmark, bm.Status, bm.Recommended.Iterations, bm.Recorded.Iterations)
		fmt.Printf("  detectable slowdown %.1f %% (recorded %.1f %%)\n", 100*bm.Detectable, 100*bm.DetectableRecorded)
		fmt.Printf("  %s\n", strings.Join(bm.Command.Args, " "))
	}
	// Output:
	// BenchmarkNoisy: trimmed, 24 of 30 iterations
	//   detectable slowdown 4.3 % (recorded 2.9 %)
	//   go test -run ^$ -bench ^BenchmarkNoisy$ -count 24 -benchtime 1000000x -cpu 8
	// BenchmarkQuiet: trimmed, 6 of 30 iterations
	//   detectable slowdown 0.8 % (recorded 0.1 %)
	//   go test -run ^$ -bench ^BenchmarkQuiet$ -count 6 -benchtime 1000000x -cpu 8
}
