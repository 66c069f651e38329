package compare

import (
	"github.com/benchtrim/benchtrim/estimate"
	"os"
	"path/filepath"
	"testing"

	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/table"
)

// readSuite writes s in format kind (synth.FormatJMH or synth.FormatUOpTime)
// to a temporary file, ingests it and returns its series.
func readSuite(t testing.TB, s *synth.Suite, kind, name string) []*table.Series {
	t.Helper()
	ext := ".json"
	if kind == synth.FormatUOpTime {
		ext = ".csv"
	}
	path := filepath.Join(t.TempDir(), name+ext)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Write(kind, f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	tab, _, _, err := ingest.ReadFiles([]string{path}, ingest.ReadOptions{Formats: all.Formats(), Format: kind})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tab.Release)
	return tab.Collect(table.Filter{})
}

// flatConfig is a JMH avgt suite of n benchmarks without warmup, slowdowns,
// unsteady series or outliers, one instance and trial without their random
// factors: values vary by fork (ForkSD) and iteration (Noise) only, the
// levels the bootstrap resamples, so A/A halves and unchanged versions
// differ only by noise it can see.
func flatConfig(n, forks, iterations int, seed uint64) synth.SuiteConfig {
	c := synth.DefaultSuiteConfig()
	c.Seed = seed
	c.Benchmarks = n
	c.Params = nil
	c.Forks, c.Iterations = forks, iterations
	c.Instances, c.Trials = 1, 1
	c.InstanceSD, c.TrialSD = 0, 0
	c.Warmup.Fraction, c.Slowdown.Fraction, c.NoSteady.Fraction = 0, 0, 0
	c.Outliers.Rate = 0
	c.GC.Enabled = false
	return c
}

// suite builds a suite or fails the test.
func suite(t testing.TB, c synth.SuiteConfig) *synth.Suite {
	t.Helper()
	s, err := synth.NewSuite(c)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// handSeries builds an avgt series by hand: forks[f][k] is iteration k+1 of
// fork f+1 in ns/op (instance 1, trial 1, count 1).
func handSeries(benchmark, version string, forks ...[]float64) *table.Series {
	s := &table.Series{Key: table.Key{Project: "p", Version: version, Benchmark: benchmark, Mode: "avgt"}, Metric: table.Primary, Unit: "ns/op"}
	for f, its := range forks {
		for k, v := range its {
			s.Levels[table.LevelInstance] = append(s.Levels[table.LevelInstance], 1)
			s.Levels[table.LevelTrial] = append(s.Levels[table.LevelTrial], 1)
			s.Levels[table.LevelFork] = append(s.Levels[table.LevelFork], int32(f+1))
			s.Levels[table.LevelIteration] = append(s.Levels[table.LevelIteration], int32(k+1))
			s.Levels[table.LevelSlice] = append(s.Levels[table.LevelSlice], 1)
			s.Warmup = append(s.Warmup, false)
			s.Value = append(s.Value, v)
			s.NsPerOp = append(s.NsPerOp, v)
			s.Count = append(s.Count, 1)
		}
	}
	return s
}

// testOptions are DefaultOptions with fewer resamples, for speed.
func testOptions(resamples int) Options {
	o := DefaultOptions
	o.Bootstrap.Resamples = resamples
	o.Rule, o.Alpha = estimate.TestRatio, 0.01 // the tests' expectations: 99 % intervals of the ratio
	return o
}

// resultFor returns the result of benchmark name (any params and mode) or
// fails the test.
func resultFor(t *testing.T, rep *metricRows, benchmark, params string) *Row {
	t.Helper()
	for i := range rep.Results {
		if r := &rep.Results[i]; r.Benchmark == benchmark && r.Params == params {
			return r
		}
	}
	t.Fatalf("no result for %s[%s]", benchmark, params)
	return nil
}

// aaOptions are DefaultOptions for an A/A test (one split by fork).
func aaOptions() Options {
	o := DefaultOptions
	o.AA = true
	return o
}

// aaTestOptions are aaOptions with resamples and repeats.
func aaTestOptions(resamples, repeats int) Options {
	o := aaOptions()
	o.Bootstrap.Resamples, o.Repeats = resamples, repeats
	return o
}

// reportOf is the A/B Report of one metric's comparison (compareSets).
func reportOf(g *metricRows) *Report {
	r := &Report{Options: g.Options, Base: g.Base, Test: g.Test}
	r.add(g)
	return r
}
