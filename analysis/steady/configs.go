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

// empty reports whether o overrides nothing.
func (o Override) empty() bool {
	return o.WarmupIterations == nil && o.WarmupTimeNs == nil && o.MeasurementIterations == nil &&
		o.MeasurementTimeNs == nil && o.Forks == nil
}

// setupConfigs is the configuration set that runs every benchmark as its
// recorded JMH setup states (forks, -wi, -w, -i, -r), with the fields of
// override replacing the setup's. A benchmark whose resulting configuration
// has no measurement iterations (unknown setup and no -i) has none.
//
// Data recorded for a steady-state analysis (-wi 0 and many iterations)
// states that recording setup, so without overrides the set evaluates "no
// warmup, measure everything"; pass the developers' values (or JMH's
// defaults, -wi 5 -w 10s -i 5 -r 10s -f 5) as overrides to evaluate them.
func setupConfigs(name string, override Override) ConfigSet {
	return ConfigSet{Name: name, lookup: func(_ table.Key, s *table.Setup) (benchmarkConfig, bool) {
		var c WarmupConfig
		forks := 0
		if s != nil {
			c = WarmupConfig{WarmupIterations: s.WarmupIterations, WarmupTimeNs: s.WarmupTimeNs,
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
			return benchmarkConfig{}, false
		}
		return benchmarkConfig{forks: forks, Default: c, hasDefault: true}, true
	}}
}

// forkConfig is one row of a per-fork configuration, such as a row of the
// dynamic configurations file of analysis/reconfigure: the fork of a
// benchmark run, its configuration and the number of forks the benchmark
// runs.
type forkConfig struct {
	key    table.Key
	id     ForkID
	config WarmupConfig
	forks  int
}

// perForkConfigs is the configuration set given fork by fork: a benchmark
// runs the forks listed for it (at most Forks of them, the largest Forks of
// its rows) with their configurations; benchmarks without rows have none.
// Dynamic reconfiguration counts recorded iterations, so its rows have
// iteration times of 0 (one recorded iteration per configured iteration).
func perForkConfigs(name string, rows []forkConfig) ConfigSet {
	byKey := map[table.Key]*benchmarkConfig{}
	for _, r := range rows {
		bc := byKey[r.key]
		if bc == nil {
			bc = &benchmarkConfig{perFork: map[ForkID]WarmupConfig{}}
			byKey[r.key] = bc
		}
		bc.perFork[r.id] = r.config
		bc.forks = max(bc.forks, r.forks)
	}
	return ConfigSet{Name: name, lookup: func(k table.Key, _ *table.Setup) (benchmarkConfig, bool) {
		bc, ok := byKey[k]
		if !ok {
			return benchmarkConfig{}, false
		}
		return *bc, true
	}}
}
