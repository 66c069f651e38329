package steady

import (
	"testing"

	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/table"
)

// synthSeries turns series i of a synthetic suite (instance 1, trial 1,
// every fork) into the table.Series an ingested JMH avgt file of it would
// give: one row per iteration, count 1, the recording setup attached.
func synthSeries(s *synth.Suite, i int) *table.Series {
	cfg := s.Config()
	tr := s.Truth()[i]
	key := table.Key{Project: cfg.Project, Version: cfg.Version, Benchmark: tr.JMHName, Params: tr.ParamsKey, Mode: string(cfg.Mode)}
	setup := &table.Setup{Key: key, Tool: "jmh", Forks: cfg.Forks, MeasurementIterations: cfg.Iterations,
		MeasurementTimeNs: cfg.IterationTime.Nanoseconds(), WarmupTimeNs: cfg.IterationTime.Nanoseconds()}
	ser := &table.Series{Key: key, Metric: table.Primary, Unit: "ns/op", Setup: setup}
	n := cfg.Forks * cfg.Iterations
	for l := range ser.Levels {
		ser.Levels[l] = make([]int32, 0, n)
	}
	for f := 1; f <= cfg.Forks; f++ {
		for k, v := range s.ForkValues(i, 1, 1, f) {
			ser.Levels[table.LevelInstance] = append(ser.Levels[table.LevelInstance], 1)
			ser.Levels[table.LevelTrial] = append(ser.Levels[table.LevelTrial], 1)
			ser.Levels[table.LevelFork] = append(ser.Levels[table.LevelFork], int32(f))
			ser.Levels[table.LevelIteration] = append(ser.Levels[table.LevelIteration], int32(k+1))
			ser.Levels[table.LevelSlice] = append(ser.Levels[table.LevelSlice], 1)
			ser.Warmup = append(ser.Warmup, false)
			ser.Value = append(ser.Value, v)
			ser.NsPerOp = append(ser.NsPerOp, v)
			ser.Count = append(ser.Count, 1)
		}
	}
	return ser
}

// newSuite builds a suite with the given specs (one series each, no params)
// of forks × iterations of 1 s.
func newSuite(t testing.TB, seed uint64, forks, iterations int, specs []synth.BenchmarkSpec, tweak func(*synth.SuiteConfig)) *synth.Suite {
	t.Helper()
	cfg := synth.DefaultSuiteConfig()
	cfg.Seed = seed
	cfg.Benchmarks = len(specs)
	cfg.Specs = specs
	cfg.Params = nil
	cfg.Instances, cfg.Trials = 1, 1
	cfg.Forks, cfg.Iterations = forks, iterations
	cfg.GC.Enabled = false
	if tweak != nil {
		tweak(&cfg)
	}
	s, err := synth.NewSuite(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
