package reconfigure

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

// DynamicConfig is one fork of a benchmark's dynamic configuration under
// one criterion: a row of the "dynamic configurations" file that the
// steady-state analysis reads for its evaluation.
type DynamicConfig struct {
	table.Key
	Criterion Criterion
	// Instance, Trial and Fork identify the fork in the data.
	Instance, Trial, Fork int32
	// WarmupIterations is where the criterion stopped the fork's warmup
	// (or its cap); MeasurementIterations the iterations measured after it.
	WarmupIterations, MeasurementIterations int
	// ForksUsed is the number of forks the benchmark ran under the criterion.
	ForksUsed int
	// warmupStable is false when the warmup ran to its cap; forksStable is
	// false when the forks ran to f_max (or to the data's last fork).
	warmupStable, forksStable bool
}

// ConfigColumns are the columns of the dynamic configurations CSV, in order:
//
//	project, version, benchmark, params, mode   the benchmark key (table.Key)
//	criterion               cv, rciw or kld
//	instance, trial, fork   the fork's ids in the data (1-based)
//	warmup_iterations       warmup iterations of the fork (wi_f)
//	measurement_iterations  measurement iterations of the fork (mi, fewer in short data)
//	forks_used              forks the benchmark ran under the criterion
//	warmup_stable           true when the criterion stopped the warmup, false when capped
//	forks_stable            true when the criterion stopped the forks, false when capped
//
// There is one row per (benchmark, criterion, fork run); skipped benchmarks
// have no rows. Iteration i (1-based, in the order of the data) of a fork is
// warmup when i <= warmup_iterations and measured when
// warmup_iterations < i <= warmup_iterations + measurement_iterations.
var ConfigColumns = []string{"project", "version", "benchmark", "params", "mode", "criterion",
	"instance", "trial", "fork", "warmup_iterations", "measurement_iterations", "forks_used",
	"warmup_stable", "forks_stable"}

// configs returns the dynamic configurations of the results, one per fork
// run, in result, criterion and fork order.
func configs(results []Result) []DynamicConfig {
	var out []DynamicConfig
	for _, r := range results {
		for _, cr := range r.Criteria {
			for _, f := range cr.Forks {
				out = append(out, DynamicConfig{
					Key: r.Key, Criterion: cr.Criterion, Instance: f.Instance, Trial: f.Trial, Fork: f.Fork,
					WarmupIterations: f.WarmupIterations, MeasurementIterations: f.MeasurementIterations,
					ForksUsed: cr.forksUsed(), warmupStable: f.WarmupStable, forksStable: cr.ForksStable,
				})
			}
		}
	}
	return out
}

// configsFrame is the dynamic configurations as a typed frame with the
// ConfigColumns, written as CSV, Arrow or Parquet by Frame.WriteFile.
func configsFrame(configs []DynamicConfig) *reports.Frame {
	n := len(configs)
	proj, ver, bench, params, mode, crit := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	inst, trial, fork, wi, mi, fu := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	ws, fs := make([]bool, n), make([]bool, n)
	for i, c := range configs {
		proj[i], ver[i], bench[i], params[i], mode[i], crit[i] = c.Project, c.Version, c.Benchmark, c.Params, c.Mode, c.Criterion.String()
		inst[i], trial[i], fork[i] = int64(c.Instance), int64(c.Trial), int64(c.Fork)
		wi[i], mi[i], fu[i] = int64(c.WarmupIterations), int64(c.MeasurementIterations), int64(c.ForksUsed)
		ws[i], fs[i] = c.warmupStable, c.forksStable
	}
	f := &reports.Frame{}
	for j, col := range [][]string{proj, ver, bench, params, mode, crit} {
		f.String(ConfigColumns[j], col)
	}
	for j, col := range [][]int64{inst, trial, fork, wi, mi, fu} {
		f.Int(ConfigColumns[6+j], col)
	}
	f.Bool(ConfigColumns[12], ws)
	f.Bool(ConfigColumns[13], fs)
	return f
}

// writeConfigs writes configs as CSV with a ConfigColumns header.
func writeConfigs(w io.Writer, configs []DynamicConfig) error {
	return configsFrame(configs).WriteCSV(w)
}

// readConfigs reads a dynamic configurations CSV written by writeConfigs.
// name is used in errors, which are *ingest.ParseError values naming the
// line. Reading stops at the first bad row.
func readConfigs(r io.Reader, name string) ([]DynamicConfig, error) {
	rows, err := reports.ReadCSVRows(r, name)
	if err != nil {
		return nil, csvError(name, err)
	}
	return parseConfigs(rows)
}

// ReadConfigsFile reads a dynamic configurations file in any format
// Frame(FrameConfigs) can be written in (CSV, Arrow IPC, Parquet; by extension).
// Errors name the file and the line (CSV) or row.
func ReadConfigsFile(path string) ([]DynamicConfig, error) {
	rows, err := reports.ReadRows(path)
	if err != nil {
		return nil, csvError(path, err)
	}
	return parseConfigs(rows)
}

// parseConfigs checks and converts the rows of a configurations file.
func parseConfigs(rows *reports.Rows) ([]DynamicConfig, error) {
	bad := func(i int, format string, args ...any) error {
		e := &ingest.ParseError{File: rows.File, Msg: fmt.Sprintf(format, args...)}
		switch {
		case i < 0:
			e.Line = 1
		case rows.Line(i) > 0:
			e.Line = rows.Line(i)
		default:
			e.Msg = fmt.Sprintf("row %d: %s", i+1, e.Msg)
		}
		return e
	}
	head := rows.Header
	if head == nil {
		return nil, bad(-1, "empty file: want the header %v", ConfigColumns)
	}
	for i, c := range ConfigColumns {
		if i >= len(head) || head[i] != c {
			got := ""
			if i < len(head) {
				got = head[i]
			}
			return nil, bad(-1, "column %d is %q, want %q (a dynamic configurations file has columns %v)", i+1, got, c, ConfigColumns)
		}
	}
	out := make([]DynamicConfig, 0, len(rows.Cells))
	for row, rec := range rows.Cells {
		if len(rec) != len(ConfigColumns) {
			return nil, bad(row, "wrong number of fields: %d, want %d", len(rec), len(ConfigColumns))
		}
		var c DynamicConfig
		var err error
		c.Key = table.Key{Project: rec[0], Version: rec[1], Benchmark: rec[2], Params: rec[3], Mode: rec[4]}
		if c.Criterion, err = parseCriterion(rec[5]); err != nil {
			return nil, bad(row, "%v", err)
		}
		ints := []struct {
			col int
			dst *int
		}{{9, &c.WarmupIterations}, {10, &c.MeasurementIterations}, {11, &c.ForksUsed}}
		for _, f := range ints {
			v, err := strconv.Atoi(rec[f.col])
			if err != nil || v < 0 {
				return nil, bad(row, "%s %q is not a count", ConfigColumns[f.col], rec[f.col])
			}
			*f.dst = v
		}
		ids := []struct {
			col int
			dst *int32
		}{{6, &c.Instance}, {7, &c.Trial}, {8, &c.Fork}}
		for _, f := range ids {
			v, err := strconv.ParseInt(rec[f.col], 10, 32)
			if err != nil || v < 1 {
				return nil, bad(row, "%s %q is not a 1-based index", ConfigColumns[f.col], rec[f.col])
			}
			*f.dst = int32(v)
		}
		bools := []struct {
			col int
			dst *bool
		}{{12, &c.warmupStable}, {13, &c.forksStable}}
		for _, f := range bools {
			v, err := strconv.ParseBool(rec[f.col])
			if err != nil {
				return nil, bad(row, "%s %q is not true or false", ConfigColumns[f.col], rec[f.col])
			}
			*f.dst = v
		}
		if c.ForksUsed < 1 || c.MeasurementIterations < 1 {
			return nil, bad(row, "forks_used and measurement_iterations must be at least 1")
		}
		out = append(out, c)
	}
	return out, nil
}

// csvError turns an encoding/csv error into a ParseError with its line;
// other errors (which already name the file) pass unchanged.
func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &ingest.ParseError{File: name, Line: pe.Line, Msg: pe.Err.Error()}
	}
	return err
}
