package synth

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
)

var update = flag.Bool("update", false, "rewrite the small files in testdata/ that this package generates")

// repoTestdata is the repository's testdata directory.
const repoTestdata = "../testdata"

type testdataFile struct {
	path   string // relative to testdata/
	format string
	cfg    SuiteConfig
	about  string
}

// testdataFiles defines the small hand-curated files other packages' tests
// read. Seeds are fixed; regenerate with
//
//	go test ./synth -run TestTestdataFiles -update
func testdataFiles() []testdataFile {
	avgt := DefaultSuiteConfig()
	avgt.Seed = 20240501
	avgt.Project, avgt.pkg = "small", "org.example.small"
	avgt.Benchmarks, avgt.Forks, avgt.Iterations = 2, 2, 6
	avgt.Params = []ParamAxis{{Name: "size", Values: []string{"10", "1000"}}}
	avgt.Specs = []BenchmarkSpec{{Kind: KindWarmup, WarmupIterations: 3, WarmupFactor: 2.5}, {Kind: KindFlat}}
	avgt.Unit = "us/op"
	avgt.MinMean, avgt.MaxMean = 500, 5000
	avgt.GC.Enabled = false
	avgt.Instances, avgt.Trials = 1, 1

	thrpt := DefaultSuiteConfig()
	thrpt.Seed = 20240502
	thrpt.Project, thrpt.pkg = "small", "org.example.small"
	thrpt.Benchmarks, thrpt.Forks, thrpt.Iterations, thrpt.Threads = 1, 2, 4, 4
	thrpt.Params = nil
	thrpt.Specs = []BenchmarkSpec{{Kind: KindFlat, Mean: 800}}
	thrpt.Mode, thrpt.Unit, thrpt.JMHVersion = modeThroughput, "ops/ms", "1.21"
	thrpt.GC.zeroAllocFraction = 0
	thrpt.Instances, thrpt.Trials = 1, 1

	sample := DefaultSuiteConfig()
	sample.Seed = 20240503
	sample.Project, sample.pkg = "small", "org.example.small"
	sample.Benchmarks, sample.Forks, sample.Iterations = 1, 2, 3
	sample.Params = nil
	sample.Specs = []BenchmarkSpec{{Kind: KindFlat, Mean: 18000}}
	sample.Mode, sample.Unit, sample.JMHVersion = modeSampleTime, "ms/op", "1.36"
	sample.Sample.MaxPerIteration = 12
	sample.GC.Enabled = false
	sample.Instances, sample.Trials = 1, 1

	sample137 := sample
	sample137.Seed = 20240504
	sample137.JMHVersion = "1.37"
	sample137.Unit = "us/op"
	sample137.Forks = 1

	uopt := UOpTimeSuiteConfig()
	uopt.Seed = 20240505
	uopt.Project = "small"
	uopt.Benchmarks = 3
	uopt.Instances, uopt.Trials, uopt.Iterations, uopt.slices = 2, 2, 3, 5
	uoptRagged := uopt
	uoptRagged.ragged.dropIterations = 1
	uoptRagged.ragged.dropSlices = 1

	gob := UOpTimeSuiteConfig()
	gob.Seed = 20240506
	gob.Project, gob.goPackage = "small", "example.com/small/codec"
	gob.Benchmarks, gob.Iterations, gob.Forks = 2, 3, 1
	gob.Params = []ParamAxis{{Name: "size", Values: []string{"64", "4096"}}}
	gob.goBench.customMetric = "p99-ns"
	gob.Instances, gob.Trials = 1, 1

	pa := DefaultSuiteConfig()
	pa.Seed = 20240507
	pa.Project, pa.pkg = "small", "org.example.small"
	pa.Benchmarks, pa.Params = 2, nil
	pa.Specs = []BenchmarkSpec{{Kind: KindFlat}, {Kind: KindFlat}}
	pa.Instances, pa.Trials, pa.Forks, pa.Iterations = 2, 2, 2, 3
	pa.Unit = "ns/op"

	paSample := pa
	paSample.Seed = 20240508
	paSample.Benchmarks = 1
	paSample.Specs = []BenchmarkSpec{{Kind: KindFlat, Mean: 40000}}
	paSample.Mode = modeSampleTime
	paSample.Instances, paSample.Trials, paSample.Forks = 1, 1, 2
	paSample.Sample.MaxPerIteration = 8

	return []testdataFile{
		{"jmh/small_avgt.json", FormatJMH, avgt, "JMH 1.37 avgt us/op, 2 methods × 2 params (size), 2 forks × 6 iterations recorded with -wi 0; the first method warms up for 3 iterations (2.5× slower at first)."},
		{"jmh/small_thrpt_gc.json", FormatJMH, thrpt, "JMH 1.21 thrpt ops/ms, 4 threads, no params, 2 forks × 4 iterations, -prof gc with the pre-1.37 `·` prefix (·gc.alloc.rate, ·gc.alloc.rate.norm, ·gc.count, ·gc.time when a GC happened, its rows ragged)."},
		{"jmh/small_sample.json", FormatJMH, sample, "JMH 1.36 sample ms/op, 2 forks × 3 iterations × 12 samples, rawDataHistogram on JMH's 10-bit grid, percentile secondaries named `<method>·p0.50`."},
		{"jmh/small_sample_137.json", FormatJMH, sample137, "JMH 1.37 sample us/op, 1 fork × 3 iterations × 12 samples, percentile secondaries named `p0.50` (1.37 naming)."},
		{"uoptime/small.csv", FormatUOpTime, uopt, "µOpTime Go CSV, 3 benchmarks, 2 instances × 2 suite runs × 3 iterations × 5 slices = 60 rows each (180 rows), full grid."},
		{"uoptime/small_ragged.csv", FormatUOpTime, uoptRagged, "As small.csv with one whole iteration (5 rows) and one single slice dropped: 174 rows; see truth.json `Dropped`."},
		{"gobench/small.txt", FormatGoBench, gob, "`go test -bench . -count 3 -benchmem` output of 2 benchmarks × 2 sub-benchmarks (size=64, size=4096), GOMAXPROCS 8, custom metric p99-ns."},
		{"pa/small.csv", formatPA, pa, "pa/bencher CSV, avgt ns/op, 2 benchmarks × 2 instances × 2 trials × 2 forks × 3 iterations = 48 rows, value_count 1."},
		{"pa/small_sample.csv", formatPA, paSample, "pa/bencher CSV, sample ns/op, 1 benchmark × 2 forks × 3 iterations, one row per histogram bucket with value_count = count (8 samples per iteration)."},
	}
}

func TestTestdataFiles(t *testing.T) {
	files := testdataFiles()
	truth := map[string][]BenchmarkTruth{}
	var readme strings.Builder
	readme.WriteString("# Small generated result files\n\n" +
		"Written by `synth` (benchtrim's synthetic benchmark generator) with fixed seeds, for\n" +
		"the ingesters' and analyzers' tests. Do not edit by hand; regenerate with\n\n" +
		"    go test ./synth -run TestTestdataFiles -update\n\n" +
		"`truth.json` maps each file to the truth of its series (synth.BenchmarkTruth):\n" +
		"kind (flat / warmup / slowdown / no-steady-state), true warmup iterations, true mean in\n" +
		"ns/op, injected outliers, dropped µOpTime rows.\n\n" +
		"| file | content | series | kinds |\n| --- | --- | --- | --- |\n")
	for _, f := range files {
		s := mustSuite(t, f.cfg)
		data := render(t, s, f.format)
		checkGolden(t, filepath.Join(repoTestdata, f.path), data)
		tr := s.Truth()
		truth[f.path] = tr
		var kinds []string
		for _, x := range tr {
			k := x.Kind.String()
			if x.Kind == KindWarmup {
				k += fmt.Sprintf(" (L=%d)", x.WarmupIterations)
			}
			kinds = append(kinds, k)
		}
		fmt.Fprintf(&readme, "| %s | %s | %d | %s |\n", f.path, strings.ReplaceAll(f.about, "|", "/"), len(tr), strings.Join(kinds, ", "))
	}
	js, err := json.MarshalIndent(truth, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, filepath.Join(repoTestdata, "synth", "truth.json"), append(js, '\n'))
	checkGolden(t, filepath.Join(repoTestdata, "synth", "README.md"), []byte(readme.String()))
}

// checkGolden compares data with the file at path, or rewrites it with -update.
func checkGolden(t *testing.T, path string, data []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := atomicfile.Write(path, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
			t.Fatal(err)
		}
		return
	}
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(old, data) {
		t.Errorf("%s differs from the generator's output; if the change is intended, run go test ./synth -run TestTestdataFiles -update", path)
	}
}
