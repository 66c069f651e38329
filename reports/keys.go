package reports

import "github.com/benchtrim/benchtrim/table"

// KeyColumns collects the key of a benchmark run per row (project,
// version, benchmark, params, mode), the first columns of the analyzers'
// data tables.
type KeyColumns struct{ project, version, benchmark, params, mode []string }

// Add appends the key of one row.
func (k *KeyColumns) Add(key table.Key) {
	k.project = append(k.project, key.Project)
	k.version = append(k.version, key.Version)
	k.benchmark = append(k.benchmark, key.Benchmark)
	k.params = append(k.params, key.Params)
	k.mode = append(k.mode, key.Mode)
}

// AddTo adds the five columns to f, in that order.
func (k *KeyColumns) AddTo(f *Frame) {
	f.String("project", k.project)
	f.String("version", k.version)
	f.String("benchmark", k.benchmark)
	f.String("params", k.params)
	f.String("mode", k.mode)
}
