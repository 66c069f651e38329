package steady

import (
	"github.com/benchtrim/benchtrim/table"
)

// Override replaces fields of a recorded setup (the --wi --w --i --r --f
// flags); nil fields keep the setup's value.
type Override struct {
	WarmupIterations      *int
	WarmupTimeNs          *int64
	MeasurementIterations *int
	MeasurementTimeNs     *int64
	Forks                 *int
}

// Empty reports whether o overrides nothing.
func (o Override) Empty() bool {
	return o.WarmupIterations == nil && o.WarmupTimeNs == nil && o.MeasurementIterations == nil &&
		o.MeasurementTimeNs == nil && o.Forks == nil
}

// SetupConfigs is the configuration set that runs every benchmark as its
// recorded JMH setup states (forks, -wi, -w, -i, -r), with the fields of
// override replacing the setup's. A benchmark whose resulting configuration
// has no measurement iterations (unknown setup and no -i) has none.
//
// Data recorded for a steady-state analysis (-wi 0 and many iterations)
// states that recording setup, so without overrides the set evaluates "no
// warmup, measure everything"; pass the developers' values (or JMH's
// defaults, -wi 5 -w 10s -i 5 -r 10s -f 5) as overrides to evaluate them.
func SetupConfigs(name string, override Override) ConfigSet {
	return ConfigSet{Name: name, Lookup: func(_ table.Key, s *table.Setup) (BenchmarkConfig, bool) {
		var c Config
		forks := 0
		if s != nil {
			c = Config{WarmupIterations: s.WarmupIterations, WarmupTimeNs: s.WarmupTimeNs,
				MeasurementIterations: s.MeasurementIterations, MeasurementTimeNs: s.IterationTimeNs()}
			forks = s.Forks
		}
		if o := override.WarmupIterations; o != nil {
			c.WarmupIterations = *o
		}
		if o := override.WarmupTimeNs; o != nil {
			c.WarmupTimeNs = *o
		}
		if o := override.MeasurementIterations; o != nil {
			c.MeasurementIterations = *o
		}
		if o := override.MeasurementTimeNs; o != nil {
			c.MeasurementTimeNs = *o
		}
		if o := override.Forks; o != nil {
			forks = *o
		}
		if c.MeasurementIterations <= 0 {
			return BenchmarkConfig{}, false
		}
		return BenchmarkConfig{Forks: forks, Default: c, HasDefault: true}, true
	}}
}

// ForkConfig is one row of a per-fork configuration, such as a row of the
// dynamic configurations file of analysis/reconfigure: the fork of a
// benchmark run, its configuration and the number of forks the benchmark
// runs.
type ForkConfig struct {
	Key    table.Key
	ID     ForkID
	Config Config
	Forks  int
}

// PerForkConfigs is the configuration set given fork by fork: a benchmark
// runs the forks listed for it (at most Forks of them, the largest Forks of
// its rows) with their configurations; benchmarks without rows have none.
// Dynamic reconfiguration counts recorded iterations, so its rows have
// iteration times of 0 (one recorded iteration per configured iteration).
func PerForkConfigs(name string, rows []ForkConfig) ConfigSet {
	byKey := map[table.Key]*BenchmarkConfig{}
	for _, r := range rows {
		bc := byKey[r.Key]
		if bc == nil {
			bc = &BenchmarkConfig{PerFork: map[ForkID]Config{}}
			byKey[r.Key] = bc
		}
		bc.PerFork[r.ID] = r.Config
		bc.Forks = max(bc.Forks, r.Forks)
	}
	return ConfigSet{Name: name, Lookup: func(k table.Key, _ *table.Setup) (BenchmarkConfig, bool) {
		bc, ok := byKey[k]
		if !ok {
			return BenchmarkConfig{}, false
		}
		return *bc, true
	}}
}
