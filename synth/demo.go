package synth

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
)

// UnmarshalText decodes a kind written by MarshalText.
func (k *Kind) UnmarshalText(b []byte) error {
	for _, c := range []Kind{KindUnset, KindFlat, KindWarmup, KindSlowdown, KindNoSteadyState} {
		if c.String() == string(b) {
			*k = c
			return nil
		}
	}
	return fmt.Errorf("synth: unknown kind %q", b)
}

// UnmarshalText decodes a shape written by MarshalText.
func (s *NoSteadyShape) UnmarshalText(b []byte) error {
	for _, c := range []NoSteadyShape{ShapeNone, ShapeOscillation, ShapeDrift} {
		if c.String() == string(b) {
			*s = c
			return nil
		}
	}
	return fmt.Errorf("synth: unknown no-steady-state shape %q", b)
}

// writeTruthJSON writes Truth() as an indented JSON array.
func (s *Suite) writeTruthJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s.Truth())
}

// Output formats accepted by Generate and Suite.Write.
const (
	FormatJMH     = "jmh"
	FormatUOpTime = "uoptime"
	FormatGoBench = "gobench"
	formatPA      = "pa"
	formatTruth   = "truth"
)

// generate writes cfg's suite in the format named by kind: "jmh" (JMH JSON
// of instance 1, trial 1), "uoptime" (µOpTime CSV), "gobench" (go test
// -bench text), "pa" (pa/bencher CSV) or "truth" (the truth as JSON).
func generate(kind string, w io.Writer, cfg SuiteConfig) error {
	s, err := NewSuite(cfg)
	if err != nil {
		return err
	}
	return s.Write(kind, w)
}

// Write writes the suite in the format named by kind (see Generate).
func (s *Suite) Write(kind string, w io.Writer) error {
	switch kind {
	case FormatJMH:
		return s.WriteJMH(w)
	case FormatUOpTime:
		return s.writeUOpTimeCSV(w)
	case FormatGoBench:
		return s.writeGoBench(w)
	case formatPA:
		return s.writePA(w)
	case formatTruth:
		return s.writeTruthJSON(w)
	}
	return fmt.Errorf("synth: unknown output kind %q (want %s, %s, %s, %s or %s)", kind, FormatJMH, FormatUOpTime, FormatGoBench, formatPA, formatTruth)
}

// Demo file names written by WriteDemoData.
const (
	DemoJMHAvgt   = "jmh-avgt.json"
	demoJMHSample = "jmh-sample.json"
	demoGoBench   = "gobench.txt"
	demoPA        = "pa.csv"
	DemoTruth     = "truth.json"
)

// DemoUOpTimeFile returns the name of the demo's µOpTime CSV of a version.
func DemoUOpTimeFile(version string) string { return "uoptime-" + version + ".csv" }

// DemoTruthFile is the content of truth.json: the truth of every demo file.
type DemoTruthFile struct {
	Seed uint64 `json:"seed"`
	// Files maps a file name to the truth of its series.
	Files map[string][]BenchmarkTruth `json:"files"`
	// UOpTimeVersions are the version labels of the µOpTime files and
	// UOpTimeChanges their known changes between consecutive versions
	// (only the changed pairs).
	UOpTimeVersions []string           `json:"uoptime_versions"`
	UOpTimeChanges  []VersionPairTruth `json:"uoptime_changes"`
}

// demoConfigs returns the suites of the demo set.
func demoConfigs(seed uint64) (avgt, sample, gobench, pa, uopt SuiteConfig, vc VersionsConfig) {
	avgt = DefaultSuiteConfig()
	avgt.Seed = seed
	avgt.Benchmarks = 5
	avgt.pkg = "org.example.demo"
	avgt.Specs = []BenchmarkSpec{
		{Class: "ParserBenchmark", Method: "parseJson", Kind: KindWarmup, WarmupIterations: 25, WarmupFactor: 3},
		{Class: "ParserBenchmark", Method: "parseXml", Kind: KindFlat},
		{Class: "CacheBenchmark", Method: "lookup", Kind: KindSlowdown, SlowdownAt: 110, SlowdownFactor: 1.2},
		{Class: "CacheBenchmark", Method: "insert", Kind: KindNoSteadyState, Shape: ShapeOscillation},
		{Class: "HashBenchmark", Method: "murmur3", Kind: KindWarmup, WarmupIterations: 8, WarmupFactor: 1.8},
	}
	avgt.Params = []ParamAxis{{Name: "size", Values: []string{"100", "10000"}}}
	avgt.Unit = "us/op"
	avgt.MinMean, avgt.MaxMean = 200, 50000
	avgt.Forks, avgt.Iterations = 4, 150
	avgt.Instances, avgt.Trials = 1, 1

	sample = DefaultSuiteConfig()
	sample.Seed = seed
	sample.Benchmarks = 3
	sample.pkg = "org.example.demo"
	sample.Specs = []BenchmarkSpec{
		{Class: "QueueBenchmark", Method: "offerPoll", Kind: KindWarmup, WarmupIterations: 6, WarmupFactor: 2.5},
		{Class: "QueueBenchmark", Method: "drain", Kind: KindFlat},
		{Class: "RegexBenchmark", Method: "matchEmail", Kind: KindFlat},
	}
	sample.Params = nil
	sample.Mode = modeSampleTime
	sample.Unit = "us/op"
	sample.JMHVersion = "1.36"
	sample.MinMean, sample.MaxMean = 5000, 200000
	sample.Forks, sample.Iterations = 3, 20
	sample.Instances, sample.Trials = 1, 1
	sample.Sample.MaxPerIteration = 150
	sample.GC.Enabled = false

	gobench = UOpTimeSuiteConfig()
	gobench.Seed = seed
	gobench.pkg = "org.example.gobench"
	gobench.goPackage = "example.com/demo/codec"
	gobench.Benchmarks = 4
	gobench.Params = []ParamAxis{{Name: "size", Values: []string{"64", "4096"}}}
	gobench.Iterations = 10
	gobench.goBench.setBytes = 1024
	gobench.Instances, gobench.Trials = 1, 1

	pa = DefaultSuiteConfig()
	pa.Seed = seed
	pa.pkg = "org.example.pa"
	pa.Project = "demo-pa"
	pa.Benchmarks = 4
	pa.Params = nil
	pa.Mode = modeThroughput
	pa.Unit = "ops/ms"
	pa.Instances, pa.Trials, pa.Forks, pa.Iterations = 2, 2, 2, 15
	pa.MinMean, pa.MaxMean = 100, 1e5

	uopt = UOpTimeSuiteConfig()
	uopt.Seed = seed
	uopt.Project = "demo-go"
	uopt.Benchmarks = 12
	uopt.ragged.dropIterations = 1
	vc = VersionsConfig{
		Labels:  []string{"v1.0.0", "v1.1.0", "v1.2.0"},
		Changes: []Change{{Benchmark: 2, Version: 1, Factor: 1.25}, {Benchmark: 7, Version: 2, Factor: 0.8}},
	}
	return avgt, sample, gobench, pa, uopt, vc
}

// WriteDemoData writes a small, realistic demo data set into dir (which
// must exist) and returns the paths written, each written atomically:
//
//   - jmh-avgt.json: JMH 1.37 avgt (us/op) with params and -prof gc, recorded
//     with -wi 0, 4 forks × 150 iterations; 5 methods × 2 params: two
//     warming up, one flat, one slowing down late, one oscillating;
//   - jmh-sample.json: JMH 1.36 sample mode, 3 forks × 20 iterations;
//   - uoptime-v1.0.0.csv, uoptime-v1.1.0.csv, uoptime-v1.2.0.csv: µOpTime
//     CSVs (3 instances × 3 suite runs × 5 iterations × 5 s) of 12 Go
//     benchmarks, with a +25 % change in v1.1.0 and a −20 % change in
//     v1.2.0, each missing one iteration (ragged);
//   - gobench.txt: `go test -bench -count 10 -benchmem` output;
//   - pa.csv: pa/bencher CSV, thrpt ops/ms, 2 instances × 2 trials × 2 forks;
//   - truth.json: DemoTruthFile with the truth of all of them.
//
// The same seed gives byte-identical files.
func WriteDemoData(dir string, seed uint64) (files []string, err error) {
	avgt, sample, gobench, pa, uopt, vc := demoConfigs(seed)
	truth := DemoTruthFile{Seed: seed, Files: map[string][]BenchmarkTruth{}}
	write := func(name string, fn func(io.Writer) error) error {
		path := filepath.Join(dir, name)
		if err := atomicfile.Write(path, fn); err != nil {
			return err
		}
		files = append(files, path)
		return nil
	}
	for _, job := range []struct {
		name, kind string
		cfg        SuiteConfig
	}{
		{DemoJMHAvgt, FormatJMH, avgt},
		{demoJMHSample, FormatJMH, sample},
		{demoGoBench, FormatGoBench, gobench},
		{demoPA, formatPA, pa},
	} {
		s, err := NewSuite(job.cfg)
		if err != nil {
			return files, err
		}
		if err := write(job.name, func(w io.Writer) error { return s.Write(job.kind, w) }); err != nil {
			return files, err
		}
		truth.Files[job.name] = s.Truth()
	}
	vs, err := NewVersions(uopt, vc)
	if err != nil {
		return files, err
	}
	truth.UOpTimeVersions = vs.Labels()
	for v := 0; v < vs.Len(); v++ {
		s := vs.Suite(v)
		name := DemoUOpTimeFile(vs.labels[v])
		if err := write(name, s.writeUOpTimeCSV); err != nil {
			return files, err
		}
		truth.Files[name] = s.Truth()
	}
	for _, p := range vs.PairTruth() {
		if p.Changed {
			truth.UOpTimeChanges = append(truth.UOpTimeChanges, p)
		}
	}
	err = write(DemoTruth, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(truth)
	})
	return files, err
}
