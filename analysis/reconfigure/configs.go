package reconfigure

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/benchtrim/benchtrim/ingest"
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
	// WarmupStable is false when the warmup ran to its cap; ForksStable is
	// false when the forks ran to f_max (or to the data's last fork).
	WarmupStable, ForksStable bool
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

// Configs returns the dynamic configurations of the results, one per fork
// run, in result, criterion and fork order.
func Configs(results []Result) []DynamicConfig {
	var out []DynamicConfig
	for _, r := range results {
		for _, cr := range r.Criteria {
			for _, f := range cr.Forks {
				out = append(out, DynamicConfig{
					Key: r.Key, Criterion: cr.Criterion, Instance: f.Instance, Trial: f.Trial, Fork: f.Fork,
					WarmupIterations: f.WarmupIterations, MeasurementIterations: f.MeasurementIterations,
					ForksUsed: cr.ForksUsed(), WarmupStable: f.WarmupStable, ForksStable: cr.ForksStable,
				})
			}
		}
	}
	return out
}

// WriteConfigs writes configs as CSV with a ConfigColumns header.
func WriteConfigs(w io.Writer, configs []DynamicConfig) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(ConfigColumns); err != nil {
		return err
	}
	i32 := func(v int32) string { return strconv.FormatInt(int64(v), 10) }
	for _, c := range configs {
		rec := []string{c.Project, c.Version, c.Benchmark, c.Params, c.Mode, c.Criterion.String(),
			i32(c.Instance), i32(c.Trial), i32(c.Fork), strconv.Itoa(c.WarmupIterations), strconv.Itoa(c.MeasurementIterations),
			strconv.Itoa(c.ForksUsed), strconv.FormatBool(c.WarmupStable), strconv.FormatBool(c.ForksStable)}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadConfigs reads a dynamic configurations CSV written by WriteConfigs.
// name is used in errors, which are *ingest.ParseError values naming the
// line. Reading stops at the first bad row.
func ReadConfigs(r io.Reader, name string) ([]DynamicConfig, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(ConfigColumns)
	cr.ReuseRecord = true
	bad := func(line int, format string, args ...any) error {
		return &ingest.ParseError{File: name, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	head, err := cr.Read()
	if err != nil {
		if err == io.EOF {
			return nil, bad(1, "empty file: want the header %v", ConfigColumns)
		}
		return nil, csvError(name, err)
	}
	for i, c := range ConfigColumns {
		if head[i] != c {
			return nil, bad(1, "column %d is %q, want %q (a dynamic configurations file has columns %v)", i+1, head[i], c, ConfigColumns)
		}
	}
	var out []DynamicConfig
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, csvError(name, err)
		}
		line, _ := cr.FieldPos(0)
		var c DynamicConfig
		c.Key = table.Key{Project: rec[0], Version: rec[1], Benchmark: rec[2], Params: rec[3], Mode: rec[4]}
		if c.Criterion, err = ParseCriterion(rec[5]); err != nil {
			return nil, bad(line, "%v", err)
		}
		ints := []struct {
			col int
			dst *int
		}{{9, &c.WarmupIterations}, {10, &c.MeasurementIterations}, {11, &c.ForksUsed}}
		for _, f := range ints {
			v, err := strconv.Atoi(rec[f.col])
			if err != nil || v < 0 {
				return nil, bad(line, "%s %q is not a count", ConfigColumns[f.col], rec[f.col])
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
				return nil, bad(line, "%s %q is not a 1-based index", ConfigColumns[f.col], rec[f.col])
			}
			*f.dst = int32(v)
		}
		bools := []struct {
			col int
			dst *bool
		}{{12, &c.WarmupStable}, {13, &c.ForksStable}}
		for _, f := range bools {
			v, err := strconv.ParseBool(rec[f.col])
			if err != nil {
				return nil, bad(line, "%s %q is not true or false", ConfigColumns[f.col], rec[f.col])
			}
			*f.dst = v
		}
		if c.ForksUsed < 1 || c.MeasurementIterations < 1 {
			return nil, bad(line, "forks_used and measurement_iterations must be at least 1")
		}
		out = append(out, c)
	}
}

// csvError turns an encoding/csv error into a ParseError with its line.
func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &ingest.ParseError{File: name, Line: pe.Line, Msg: pe.Err.Error()}
	}
	return fmt.Errorf("%s: %w", name, err)
}
