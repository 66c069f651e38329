package compare

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/compress"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/table"
)

// frame is a column-typed result table written as CSV, Arrow IPC or Parquet.
type frame struct {
	fields []arrow.Field
	cols   []any // []string, []int64, []float64 or []bool per field
}

func (f *frame) str(name string, v []string) {
	f.fields = append(f.fields, arrow.Field{Name: name, Type: arrow.BinaryTypes.String})
	f.cols = append(f.cols, v)
}

func (f *frame) i64(name string, v []int64) {
	f.fields = append(f.fields, arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Int64})
	f.cols = append(f.cols, v)
}

func (f *frame) f64(name string, v []float64) {
	f.fields = append(f.fields, arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Float64})
	f.cols = append(f.cols, v)
}

func (f *frame) bool(name string, v []bool) {
	f.fields = append(f.fields, arrow.Field{Name: name, Type: arrow.FixedWidthTypes.Boolean})
	f.cols = append(f.cols, v)
}

func colLen(c any) int {
	switch x := c.(type) {
	case []string:
		return len(x)
	case []int64:
		return len(x)
	case []float64:
		return len(x)
	case []bool:
		return len(x)
	}
	panic(fmt.Sprintf("compare: frame column of type %T", c))
}

func (f *frame) rows() int {
	if len(f.cols) == 0 {
		return 0
	}
	n := colLen(f.cols[0])
	for j, c := range f.cols {
		if colLen(c) != n {
			panic(fmt.Sprintf("compare: frame column %s has %d rows, want %d", f.fields[j].Name, colLen(c), n))
		}
	}
	return n
}

// writeFile writes f atomically as CSV (.csv), Arrow IPC (.arrow, .ipc,
// .feather) or Parquet (.parquet, .pq), chosen by the extension.
func (f *frame) writeFile(path string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return atomicfile.Write(path, f.writeCSV)
	case ".arrow", ".ipc", ".feather":
		return atomicfile.Write(path, f.writeIPC)
	case ".parquet", ".pq":
		return atomicfile.Write(path, f.writeParquet)
	}
	return fmt.Errorf("%s: unknown output extension %q (want .csv, .arrow or .parquet)", path, filepath.Ext(path))
}

// CheckOutputPath returns an error unless path has an extension WriteFile
// can write (.csv, .arrow, .ipc, .feather, .parquet, .pq).
func CheckOutputPath(path string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv", ".arrow", ".ipc", ".feather", ".parquet", ".pq":
		return nil
	}
	return fmt.Errorf("%s: unknown output extension %q (want .csv, .arrow or .parquet)", path, filepath.Ext(path))
}

// formatFloat writes floats in the shortest form that reads back exactly;
// NaN is an empty cell.
func formatFloat(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

func (f *frame) writeCSV(w io.Writer) error {
	n := f.rows()
	cw := csv.NewWriter(w)
	rec := make([]string, len(f.fields))
	for j, fl := range f.fields {
		rec[j] = fl.Name
	}
	cw.Write(rec)
	for i := 0; i < n; i++ {
		for j, c := range f.cols {
			switch x := c.(type) {
			case []string:
				rec[j] = x[i]
			case []int64:
				rec[j] = strconv.FormatInt(x[i], 10)
			case []float64:
				rec[j] = formatFloat(x[i])
			case []bool:
				rec[j] = strconv.FormatBool(x[i])
			}
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

// record builds one Arrow record of the frame; NaN floats become nulls.
// The caller releases it.
func (f *frame) record(mem memory.Allocator) arrow.Record {
	n := f.rows()
	fields := make([]arrow.Field, len(f.fields))
	copy(fields, f.fields)
	for j := range fields {
		_, isFloat := f.cols[j].([]float64)
		fields[j].Nullable = isFloat
	}
	rb := array.NewRecordBuilder(mem, arrow.NewSchema(fields, nil))
	defer rb.Release()
	rb.Reserve(n)
	for j, c := range f.cols {
		switch x := c.(type) {
		case []string:
			rb.Field(j).(*array.StringBuilder).AppendValues(x, nil)
		case []int64:
			rb.Field(j).(*array.Int64Builder).AppendValues(x, nil)
		case []float64:
			valid := make([]bool, len(x))
			for i, v := range x {
				valid[i] = !math.IsNaN(v)
			}
			rb.Field(j).(*array.Float64Builder).AppendValues(x, valid)
		case []bool:
			rb.Field(j).(*array.BooleanBuilder).AppendValues(x, nil)
		}
	}
	return rb.NewRecord()
}

func (f *frame) writeIPC(w io.Writer) error {
	rec := f.record(memory.NewGoAllocator())
	defer rec.Release()
	fw, err := ipc.NewFileWriter(&positionWriter{w: w}, ipc.WithSchema(rec.Schema()))
	if err != nil {
		return err
	}
	if err := fw.Write(rec); err != nil {
		fw.Close()
		return err
	}
	return fw.Close()
}

func (f *frame) writeParquet(w io.Writer) error {
	rec := f.record(memory.NewGoAllocator())
	defer rec.Release()
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Zstd))
	fw, err := pqarrow.NewFileWriter(rec.Schema(), w, props, pqarrow.DefaultWriterProps())
	if err != nil {
		return err
	}
	if err := fw.Write(rec); err != nil {
		fw.Close()
		return err
	}
	return fw.Close()
}

// positionWriter gives ipc.NewFileWriter the io.WriteSeeker it asks for;
// the writer only ever asks for the current position.
type positionWriter struct {
	w   io.Writer
	pos int64
}

func (p *positionWriter) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	p.pos += int64(n)
	return n, err
}

func (p *positionWriter) Seek(offset int64, whence int) (int64, error) {
	if offset == 0 && whence == io.SeekCurrent {
		return p.pos, nil
	}
	return 0, errors.New("compare: the IPC writer may only ask for the current position")
}

// comparisonColumns collects the columns shared by A/B and A/A outputs.
type comparisonColumns struct {
	baseIter, testIter                  []int64
	baseMean, baseLo, baseHi            []float64
	testMean, testLo, testHi            []float64
	ratio, ratioLo, ratioHi, changeRate []float64
	u, p, delta                         []float64
	magnitude, verdict, errs            []string
	change                              []int64
	excludesOne, pBelowAlpha            []bool
}

func (cc *comparisonColumns) add(c *Comparison, err error, alpha float64) {
	if err != nil {
		nan := math.NaN()
		c = &Comparison{Base: SideStats{Mean: nanInterval()}, Test: SideStats{Mean: nanInterval()}, Ratio: nanInterval(),
			ChangeRate: nan, U: nan, P: nan, CliffsDelta: nan}
	}
	cc.baseIter = append(cc.baseIter, int64(c.Base.Iterations))
	cc.testIter = append(cc.testIter, int64(c.Test.Iterations))
	cc.baseMean = append(cc.baseMean, c.Base.Mean.Estimate)
	cc.baseLo = append(cc.baseLo, c.Base.Mean.Lower)
	cc.baseHi = append(cc.baseHi, c.Base.Mean.Upper)
	cc.testMean = append(cc.testMean, c.Test.Mean.Estimate)
	cc.testLo = append(cc.testLo, c.Test.Mean.Lower)
	cc.testHi = append(cc.testHi, c.Test.Mean.Upper)
	cc.ratio = append(cc.ratio, c.Ratio.Estimate)
	cc.ratioLo = append(cc.ratioLo, c.Ratio.Lower)
	cc.ratioHi = append(cc.ratioHi, c.Ratio.Upper)
	cc.changeRate = append(cc.changeRate, c.ChangeRate)
	cc.u = append(cc.u, c.U)
	cc.p = append(cc.p, c.P)
	cc.delta = append(cc.delta, c.CliffsDelta)
	mag, verdict, es := "", "", ""
	if err == nil {
		mag, verdict = c.Magnitude.String(), c.Verdict.String()
	} else {
		es = err.Error()
	}
	cc.magnitude = append(cc.magnitude, mag)
	cc.verdict = append(cc.verdict, verdict)
	cc.errs = append(cc.errs, es)
	cc.change = append(cc.change, int64(c.Verdict.Change))
	cc.excludesOne = append(cc.excludesOne, err == nil && c.ExcludesOne())
	cc.pBelowAlpha = append(cc.pBelowAlpha, err == nil && c.P < alpha)
}

func nanInterval() stats.Interval {
	nan := math.NaN()
	return stats.Interval{Estimate: nan, Lower: nan, Upper: nan}
}

func (cc *comparisonColumns) addTo(f *frame, baseName, testName string) {
	f.i64(baseName+"_iterations", cc.baseIter)
	f.i64(testName+"_iterations", cc.testIter)
	f.f64(baseName+"_mean_ns", cc.baseMean)
	f.f64(baseName+"_ci_lower_ns", cc.baseLo)
	f.f64(baseName+"_ci_upper_ns", cc.baseHi)
	f.f64(testName+"_mean_ns", cc.testMean)
	f.f64(testName+"_ci_lower_ns", cc.testLo)
	f.f64(testName+"_ci_upper_ns", cc.testHi)
	f.f64("ratio", cc.ratio)
	f.f64("ratio_ci_lower", cc.ratioLo)
	f.f64("ratio_ci_upper", cc.ratioHi)
	f.bool("ci_excludes_1", cc.excludesOne)
	f.f64("change_rate", cc.changeRate)
	f.f64("u", cc.u)
	f.f64("p", cc.p)
	f.bool("p_below_alpha", cc.pBelowAlpha)
	f.f64("cliffs_delta", cc.delta)
	f.str("cliff_magnitude", cc.magnitude)
	f.i64("change", cc.change)
	f.str("verdict", cc.verdict)
	f.str("error", cc.errs)
}

func constF64(n int, v float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func constI64(n int, v int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func constStr(n int, v string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func (o *Options) addSettings(f *frame, n int) {
	f.f64("confidence", constF64(n, o.Bootstrap.Confidence))
	f.i64("resamples", constI64(n, int64(o.Bootstrap.Resamples)))
	f.i64("invocation_samples", constI64(n, int64(o.Bootstrap.InvocationSamples)))
	f.f64("alpha", constF64(n, o.Alpha))
	f.i64("discard_warmup", constI64(n, int64(o.DiscardWarmup)))
	f.str("seed", constStr(n, strconv.FormatUint(o.Seed, 10)))
}

// frame returns the A/B report as one row per matched or unmatched
// benchmark (see WriteFile for the columns).
func (r *Report) frame() *frame {
	var bench, params, mode, status, baseRuns, testRuns []string
	var cc comparisonColumns
	for i := range r.Results {
		res := &r.Results[i]
		bench, params, mode = append(bench, res.Benchmark), append(params, res.Params), append(mode, res.Mode)
		baseRuns, testRuns = append(baseRuns, runsString(res.BaseRuns)), append(testRuns, runsString(res.TestRuns))
		st := "compared"
		if res.Err != nil {
			st = "failed"
		}
		status = append(status, st)
		cc.add(&res.Comparison, res.Err, r.Options.Alpha)
	}
	for _, u := range r.Unmatched {
		bench, params, mode = append(bench, u.Benchmark), append(params, u.Params), append(mode, u.Mode)
		b, t := runsString(u.Runs), ""
		if u.Side == "test" {
			b, t = t, b
		}
		baseRuns, testRuns = append(baseRuns, b), append(testRuns, t)
		status = append(status, "only in "+u.Side)
		cc.add(nil, errors.New("only in "+u.Side), r.Options.Alpha)
	}
	n := len(bench)
	f := &frame{}
	f.str("benchmark", bench)
	f.str("params", params)
	f.str("mode", mode)
	f.str("status", status)
	f.str("base_label", constStr(n, r.Base))
	f.str("test_label", constStr(n, r.Test))
	f.str("base_runs", baseRuns)
	f.str("test_runs", testRuns)
	cc.addTo(f, "base", "test")
	r.Options.addSettings(f, n)
	return f
}

// runsString lists run keys as "project@version" separated by ";".
func runsString(ks []table.Key) string {
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = k.Project + "@" + k.Version
	}
	return strings.Join(parts, ";")
}

// WriteFile writes the report for notebooks, one row per benchmark
// (matched ones by name, then the unmatched), as CSV (.csv), Arrow IPC
// (.arrow) or Parquet (.parquet) by the extension, atomically. Columns:
//
//	benchmark, params, mode       the matched name
//	status                        compared, failed, only in base, only in test
//	base_label, test_label        the sets' labels
//	base_runs, test_runs          pooled runs as project@version;…
//	base_iterations, test_iterations
//	base_mean_ns, base_ci_lower_ns, base_ci_upper_ns   and test_…: means with intervals
//	ratio, ratio_ci_lower, ratio_ci_upper, ci_excludes_1
//	change_rate                   |mean_test − mean_base| / mean_base
//	u, p, p_below_alpha           Mann-Whitney U on iteration means
//	cliffs_delta, cliff_magnitude
//	change, verdict               −1 faster, 0 no change, 1 slower; the text
//	error                         why a benchmark was not compared
//	confidence, resamples, invocation_samples, alpha, discard_warmup, seed
//
// Numbers that do not exist (unmatched, failed) are empty in CSV and null
// in Arrow and Parquet.
func (r *Report) WriteFile(path string) error { return r.frame().writeFile(path) }

// WriteFile writes the A/A report, one row per comparison (run and split),
// in the format chosen by the extension as Report.WriteFile does. Columns:
// project, version, benchmark, params, mode, split (the level), repeat,
// units_a, units_b, then the comparison columns of Report.WriteFile with
// "a" for base and "b" for test (a_iterations, a_mean_ns, …, ratio is B/A),
// then the settings. Skipped runs are not rows; see AAReport.Skipped.
func (r *AAReport) WriteFile(path string) error {
	var proj, ver, bench, params, mode []string
	var repeat, ua, ub []int64
	var cc comparisonColumns
	for i := range r.Results {
		res := &r.Results[i]
		proj, ver = append(proj, res.Key.Project), append(ver, res.Key.Version)
		bench, params, mode = append(bench, res.Key.Benchmark), append(params, res.Key.Params), append(mode, res.Key.Mode)
		repeat = append(repeat, int64(res.Repeat))
		ua, ub = append(ua, int64(res.UnitsA)), append(ub, int64(res.UnitsB))
		cc.add(&res.Comparison, res.Err, r.Options.Alpha)
	}
	n := len(bench)
	f := &frame{}
	f.str("project", proj)
	f.str("version", ver)
	f.str("benchmark", bench)
	f.str("params", params)
	f.str("mode", mode)
	f.str("split", constStr(n, r.Options.Split.String()))
	f.i64("repeat", repeat)
	f.i64("units_a", ua)
	f.i64("units_b", ub)
	cc.addTo(f, "a", "b")
	r.Options.addSettings(f, n)
	return f.writeFile(path)
}
