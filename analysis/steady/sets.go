package steady

import (
	"fmt"

	"github.com/benchtrim/benchtrim/analysis/reconfigure"
)

// ConfigSets are the configuration sets benchtrim steady evaluates: the
// recorded setup with override replacing its values (setupConfigs, named
// "flags" when override replaces anything, else "setup"), then, when
// configsPath is not "", one set per criterion of the dynamic
// configurations file there (reconfigure.ReadConfigsFile,
// dynamicConfigs).
func ConfigSets(override Override, configsPath string) ([]ConfigSet, error) {
	name := "setup"
	if !override.empty() {
		name = "flags"
	}
	sets := []ConfigSet{setupConfigs(name, override)}
	if configsPath == "" {
		return sets, nil
	}
	rows, err := reconfigure.ReadConfigsFile(configsPath)
	if err != nil {
		return nil, err
	}
	dyn, err := dynamicConfigs(rows)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", configsPath, err)
	}
	return append(sets, dyn...), nil
}

// DropPlotData clears the iteration values and CROPS results kept for
// plots (Options.KeepValues, KeepCROPS) of the benchmark runs after the
// first plotMax, which WritePlots does not draw: a chunk of a spooled
// input, or a shard, keeps only those of its own first plotMax runs (a
// superset of those the whole run plots from it).
func (r *Report) DropPlotData(plotMax int) {
	for i := max(plotMax, 0); i < len(r.Benchmarks); i++ {
		for j := range r.Benchmarks[i].Forks {
			f := &r.Benchmarks[i].Forks[j]
			f.Values, f.CROPS, f.Knee = nil, nil, nil
		}
	}
}
