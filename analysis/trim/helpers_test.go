package trim

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/table"
)

// suiteTable generates cfg's suite as JMH JSON (or kind), reads it back
// as benchtrim ingest would and returns the table (released at cleanup)
// and the suite with its truth.
func suiteTable(tb testing.TB, cfg synth.SuiteConfig, kind string) (*table.Table, *synth.Suite) {
	tb.Helper()
	s, err := synth.NewSuite(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	ext := map[string]string{synth.FormatJMH: ".json", synth.FormatUOpTime: ".csv", synth.FormatGoBench: ".txt"}[kind]
	path := filepath.Join(tb.TempDir(), "suite"+ext)
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := s.Write(kind, f); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	tab, _, _, err := ingest.ReadFiles([]string{path}, ingest.ReadOptions{Formats: all.Formats(), Format: kind})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(tab.Release)
	return tab, s
}

// jmhSuite is a JMH avgt suite of n methods (no params), forks × iterations
// of 1 s recorded with -wi 0, with the default mix of kinds.
func jmhSuite(n, forks, iterations int, seed uint64) synth.SuiteConfig {
	c := synth.DefaultSuiteConfig()
	c.Seed = seed
	c.Benchmarks = n
	c.Params = nil
	c.Instances, c.Trials = 1, 1
	c.Forks, c.Iterations = forks, iterations
	c.GC.Enabled = false
	return c
}

// truthOf maps a benchmark run's key to its truth.
func truthOf(s *synth.Suite) map[[2]string]synth.BenchmarkTruth {
	out := map[[2]string]synth.BenchmarkTruth{}
	for _, tr := range s.Truth() {
		out[[2]string{tr.JMHName, tr.ParamsKey}] = tr
	}
	return out
}

// fastOptions are DefaultOptions with fewer resamples (tests).
func fastOptions() Options {
	o := DefaultOptions
	o.Optimize.Bootstrap.Resamples = 2000
	o.Steady.Bootstrap.Resamples = 2000
	o.Reconfigure.AA.Resamples = 2000
	o.DetectDraws, o.Splits = 200, 4
	return o
}

// readFiles ingests paths (formats detected) into a table released when
// the test ends.
func readFiles(tb testing.TB, paths ...string) *table.Table {
	tb.Helper()
	tab, _, _, err := ingest.ReadFiles(paths, ingest.ReadOptions{Formats: all.Formats()})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(tab.Release)
	return tab
}
