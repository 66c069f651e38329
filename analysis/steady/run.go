package steady

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/benchtrim/benchtrim/analysis/reconfigure"
	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

// Names of the data tables Report.Frame returns.
const (
	FrameForks                = "forks"                 // one row per fork: classes, steady-state start, segments
	FrameBenchmarks           = "benchmarks"            // one row per benchmark run: class, forks per class
	FrameEvaluation           = "evaluation"            // one row per (configuration set, fork): WEE, RPD, time waste
	FrameBenchmarkEvaluations = "benchmark-evaluations" // one row per (configuration set, benchmark run): RPD over forks
)

// EvaluationSidecar is where the FrameBenchmarkEvaluations frame goes when
// the FrameEvaluation frame is written to path: NAME.benchmarks.EXT beside
// it, in the same format (benchtrim steady --eval-out).
func EvaluationSidecar(path string) string {
	ext := filepath.Ext(path)
	return strings.TrimSuffix(path, ext) + ".benchmarks" + ext
}

// Run is the steady-state analysis of every primary series of t that
// opt.Select keeps, with the evaluation of opt.Configs. The method finds
// where warmup ends in the measured iterations, so the data should be
// recorded without warmup iterations (JMH -wi 0). Benchmarks run in
// parallel on opt.Workers goroutines; the report does not depend on their
// number. It is the package's entry point.
func Run(t *table.Table, opt Options) (*Report, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	series, err := t.Select(opt.Select)
	if err != nil {
		return nil, err
	}
	return analyze(series, opt)
}

// Frame returns a data table by name (FrameForks, FrameBenchmarks,
// FrameEvaluation or FrameBenchmarkEvaluations) for the shared writer.
func (res *Report) Frame(name string) (*reports.Frame, error) {
	switch name {
	case FrameForks:
		return forksFrame(res), nil
	case FrameBenchmarks:
		return benchmarksFrame(res), nil
	case FrameEvaluation:
		return evaluationFrame(res), nil
	case FrameBenchmarkEvaluations:
		return benchmarkEvaluationFrame(res), nil
	}
	return nil, fmt.Errorf("steady: no data table %q", name)
}

// dynamicConfigs turns the fork configurations dynamic reconfiguration
// chose (reconfigure.Report.Frame(reconfigure.FrameConfigs), read back with
// reconfigure.ReadConfigsFile) into one configuration set per criterion,
// named "dynamic-cv", "dynamic-rciw", "dynamic-kld"; their iterations are
// recorded iterations.
func dynamicConfigs(rows []reconfigure.DynamicConfig) ([]ConfigSet, error) {
	byCrit := map[string][]forkConfig{}
	for _, r := range rows {
		crit := r.Criterion.String()
		byCrit[crit] = append(byCrit[crit], forkConfig{key: r.Key,
			id:     ForkID{Instance: r.Instance, Trial: r.Trial, Fork: r.Fork},
			config: WarmupConfig{WarmupIterations: r.WarmupIterations, MeasurementIterations: r.MeasurementIterations},
			forks:  r.ForksUsed})
	}
	if len(byCrit) == 0 {
		return nil, fmt.Errorf("no configurations")
	}
	crits := make([]string, 0, len(byCrit))
	for k := range byCrit {
		crits = append(crits, k)
	}
	sort.Strings(crits)
	var sets []ConfigSet
	for _, k := range crits {
		sets = append(sets, perForkConfigs("dynamic-"+k, byCrit[k]))
	}
	return sets, nil
}
