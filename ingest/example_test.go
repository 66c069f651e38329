package ingest_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/table"
)

// ReadFiles detects each file's format among the readers of format/all,
// reads the files into one canonical table (one row per observation, in
// ns/op) and counts what it did not take. Here a `go test -bench -count 3`
// output of two benchmarks, read into two series (runs) of three
// iterations (table.Table.Select returns them by key); the project is
// labelled from the file's name, the sub-benchmark's name=value parts are
// its params, and the line that is no result is counted.
func ExampleReadFiles() {
	dir, err := os.MkdirTemp("", "ingest-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "old.txt")
	out := `goos: linux
goarch: amd64
pkg: example.com/sort
BenchmarkSort/n=100-8   	  100000	     11200 ns/op
BenchmarkSort/n=100-8   	  100000	     11400 ns/op
BenchmarkSort/n=100-8   	  100000	     11300 ns/op
BenchmarkSearch-8       	10000000	       120 ns/op
BenchmarkSearch-8       	10000000	       118 ns/op
BenchmarkSearch-8       	10000000	       125 ns/op
this line is not a benchmark result
PASS
ok  	example.com/sort	4.2s
`
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		panic(err)
	}

	tab, rep, files, err := ingest.ReadFiles([]string{path}, ingest.ReadOptions{Formats: all.Formats()})
	if err != nil {
		panic(err)
	}
	defer tab.Release()
	for _, f := range files {
		fmt.Printf("%s: %s, %d rows\n", filepath.Base(f.Path), f.Format, f.Rows)
	}
	series, err := tab.Select(table.Filter{})
	if err != nil {
		panic(err)
	}
	for _, s := range series {
		fmt.Printf("project %q, benchmark %s, params %q, mode %s: %v ns/op\n", s.Project, s.Benchmark, s.Params, s.Mode, s.NsPerOp)
	}
	fmt.Println("lines not taken:", rep.IgnoredLines())
	// Output:
	// old.txt: gobench, 6 rows
	// project "old", benchmark BenchmarkSearch, params "", mode go: [120 118 125] ns/op
	// project "old", benchmark BenchmarkSort, params "n=100", mode go: [11200 11400 11300] ns/op
	// lines not taken: 1
}
