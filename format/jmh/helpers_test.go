package jmh

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/table"
)

// result is what one Read produced.
type result struct {
	rows   []table.Row
	setups []table.Setup
	rep    *ingest.Summary
	err    error
}

// read runs Format.Read on r with a checked allocator and returns the rows
// and setups (the table is released before returning).
func read(t testing.TB, file string, r io.Reader) result {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	b := table.NewBuilder(mem, 1000)
	rep := &ingest.Summary{}
	err := format{}.Read(r, ingest.Source{File: file, Project: "proj", Version: "v1"}, b, rep)
	tb := b.Finish()
	b.Release()
	res := result{setups: tb.Setups, rep: rep, err: err}
	if err := tb.Rows(func(r *table.Row) error { res.rows = append(res.rows, *r); return nil }); err != nil {
		t.Fatal(err)
	}
	tb.Release()
	mem.AssertSize(t, 0)
	return res
}

func readFile(t testing.TB, path string) result {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return read(t, filepath.Base(path), bytes.NewReader(data))
}

// sharedJMHDir locates ../shared/data/jmh relative to the repository root,
// skipping the test when it is absent.
func sharedJMHDir(t testing.TB) string {
	t.Helper()
	return testenv.Shared(t, "data", "jmh")
}

// treeRecord is what the independent encoding/json reading of a file says
// about one record.
type treeRecord struct {
	index                          int
	benchmark, mode, params, unit  string
	threads, forks, warmupIter     int
	measIter                       int
	score                          float64 // NaN when written as a string
	primaryRows                    int     // values that must become rows
	primaryRejected                int     // NaN, ±Inf, ≤ 0 (0 allowed in sample mode), non-numeric
	countSum                       int64
	secondaryRows                  int
	textResults                    int
	forkRows                       int
	secondaryRowLens               map[string][]int // by raw key
	secondaryUnits                 map[string]string
	hasHistogram, hasRaw           bool
	weightedSum, weightedCount     float64 // over kept primary values, in the recorded unit
	jvmArgs                        []string
	measurementTime, warmupTimeStr string
}

// treeOf decodes data with encoding/json into a generic tree and counts
// the rows an ingester must produce, independently of the package's code.
func treeOf(t testing.TB, data []byte) []treeRecord {
	t.Helper()
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	var top []any
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatalf("encoding/json: %v", err)
	}
	num := func(v any) (float64, bool) {
		f, ok := v.(float64)
		return f, ok
	}
	var out []treeRecord
	for i, e := range top {
		m := e.(map[string]any)
		tr := treeRecord{index: i, secondaryRowLens: map[string][]int{}, secondaryUnits: map[string]string{}}
		tr.benchmark, _ = m["benchmark"].(string)
		tr.mode, _ = m["mode"].(string)
		if f, ok := num(m["threads"]); ok {
			tr.threads = int(f)
		}
		if f, ok := num(m["forks"]); ok {
			tr.forks = int(f)
		}
		if f, ok := num(m["warmupIterations"]); ok {
			tr.warmupIter = int(f)
		}
		if f, ok := num(m["measurementIterations"]); ok {
			tr.measIter = int(f)
		}
		if a, ok := m["jvmArgs"].([]any); ok {
			for _, x := range a {
				s, _ := x.(string)
				tr.jvmArgs = append(tr.jvmArgs, s)
			}
		}
		tr.measurementTime, _ = m["measurementTime"].(string)
		tr.warmupTimeStr, _ = m["warmupTime"].(string)
		if p, ok := m["params"].(map[string]any); ok {
			ps := map[string]string{}
			for k, v := range p {
				ps[k] = v.(string)
			}
			tr.params = table.CanonicalParams(ps)
		}
		pm := m["primaryMetric"].(map[string]any)
		tr.unit = pm["scoreUnit"].(string)
		tr.score = math.NaN()
		if f, ok := num(pm["score"]); ok {
			tr.score = f
		}
		keep := func(v float64) bool { return v > 0 || v == 0 && tr.mode == "sample" }
		if h, ok := pm["rawDataHistogram"].([]any); ok {
			tr.hasHistogram = true
			tr.forkRows = len(h)
			for _, fork := range h {
				for _, it := range fork.([]any) {
					for _, b := range it.([]any) {
						pair := b.([]any)
						v, ok := num(pair[0])
						c, _ := num(pair[1])
						if ok && keep(v) {
							tr.primaryRows++
							tr.countSum += int64(c)
							tr.weightedSum += v * c
							tr.weightedCount += c
						} else {
							tr.primaryRejected++
						}
					}
				}
			}
		} else if raw, ok := pm["rawData"].([]any); ok {
			tr.hasRaw = true
			tr.forkRows = len(raw)
			for _, fork := range raw {
				for _, x := range fork.([]any) {
					if v, ok := num(x); ok && keep(v) {
						tr.primaryRows++
						tr.countSum++
						tr.weightedSum += v
						tr.weightedCount++
					} else {
						tr.primaryRejected++
					}
				}
			}
		}
		sec, _ := m["secondaryMetrics"].(map[string]any)
		for k, sv := range sec {
			sm := sv.(map[string]any)
			unit, _ := sm["scoreUnit"].(string)
			tr.secondaryUnits[k] = unit
			n := 0
			var lens []int
			for _, fork := range sm["rawData"].([]any) {
				lens = append(lens, len(fork.([]any)))
				for _, x := range fork.([]any) {
					if v, ok := num(x); ok && !math.IsInf(v, 0) {
						n++
					}
				}
			}
			tr.secondaryRowLens[k] = lens
			if unit == "---" && n == 0 {
				tr.textResults++
				continue
			}
			tr.secondaryRows += n
		}
		out = append(out, tr)
	}
	return out
}

// runID is a record's identity in the table.
type runID struct{ benchmark, params, mode string }

func (tr *treeRecord) id() runID { return runID{tr.benchmark, tr.params, tr.mode} }

// checkAgainstTree compares an ingest result with the independent count:
// rows per record and metric, histogram count sums, setups, the
// normalisation of every row, and the record's score (JMH's mean of the
// values: count-weighted for sample mode) against the ingested values.
func checkAgainstTree(t *testing.T, res result, tree []treeRecord) {
	t.Helper()
	type agg struct {
		primary, secondary int
		countSum           int64
		sumNs, sumCountNs  float64
		sumValue           float64
		sumCount           float64
	}
	aggs := map[runID]*agg{}
	byID := map[runID]*treeRecord{}
	for i := range tree {
		byID[tree[i].id()] = &tree[i]
	}
	for i := range res.rows {
		r := &res.rows[i]
		id := runID{r.Benchmark, r.Params, r.Mode}
		tr := byID[id]
		if tr == nil {
			t.Fatalf("row %d of unknown run %v", i, id)
		}
		a := aggs[id]
		if a == nil {
			a = &agg{}
			aggs[id] = a
		}
		if r.Project != "proj" || r.Version != "v1" || r.Instance != 1 || r.Trial != 1 || r.Slice != 1 || r.Warmup {
			t.Fatalf("row %d: labels %+v", i, r)
		}
		if r.Fork < 1 || r.Iteration < 1 || r.Line < 1 || r.Count < 1 {
			t.Fatalf("row %d: fork %d iteration %d line %d count %d", i, r.Fork, r.Iteration, r.Line, r.Count)
		}
		if want := fmt.Sprintf(":$[%d]", tr.index); !strings.HasSuffix(r.Source, want) {
			t.Fatalf("row %d: source %q, want suffix %q", i, r.Source, want)
		}
		want, err := ingest.NsPerOp(r.Unit, r.Value, tr.threads)
		if err != nil && !math.IsNaN(r.NsPerOp) || err == nil && r.NsPerOp != want && !(math.IsNaN(want) && math.IsNaN(r.NsPerOp)) {
			t.Fatalf("row %d (%s %s %v %s): ns_per_op %v, ingest.NsPerOp gives %v, %v", i, id, r.Metric, r.Value, r.Unit, r.NsPerOp, want, err)
		}
		if r.Metric == table.Primary {
			if r.Unit != tr.unit {
				t.Fatalf("row %d: unit %q, want %q", i, r.Unit, tr.unit)
			}
			a.primary++
			a.countSum += r.Count
			a.sumNs += r.NsPerOp * float64(r.Count)
			a.sumValue += r.Value * float64(r.Count)
			a.sumCount += float64(r.Count)
		} else {
			a.secondary++
		}
	}
	if len(res.setups) != len(byID) {
		t.Errorf("%d setups, want %d", len(res.setups), len(byID))
	}
	for _, s := range res.setups {
		tr := byID[runID{s.Benchmark, s.Params, s.Mode}]
		if tr == nil {
			t.Errorf("setup for unknown run %v", s.Key)
			continue
		}
		if s.Tool != "jmh" || s.Forks != tr.forks || s.Threads != tr.threads || s.MeasurementIterations != tr.measIter || s.WarmupIterations != tr.warmupIter {
			t.Errorf("setup %v = %+v; file says forks %d threads %d iterations %d warmup %d", s.Key, s, tr.forks, tr.threads, tr.measIter, tr.warmupIter)
		}
	}
	for id, tr := range byID {
		a := aggs[id]
		if a == nil {
			a = &agg{}
		}
		if a.primary != tr.primaryRows || a.secondary != tr.secondaryRows || a.countSum != tr.countSum {
			t.Errorf("%v: %d primary rows (count sum %d), %d secondary rows; encoding/json count says %d (%d), %d",
				id, a.primary, a.countSum, a.secondary, tr.primaryRows, tr.countSum, tr.secondaryRows)
			continue
		}
		if tr.primaryRejected > 0 || math.IsNaN(tr.score) || a.sumCount == 0 {
			continue
		}
		// JMH's score is the mean of the values (count-weighted for
		// histograms); for time units it must equal the mean of ns_per_op
		// divided by ns(tu), for throughput the mean of the values.
		kind, ns := ingest.ClassifyUnit(tr.unit)
		var got, want float64
		switch kind {
		case ingest.UnitTimePerOp:
			got, want = a.sumNs/a.sumCount, tr.score*ns
		default:
			got, want = a.sumValue/a.sumCount, tr.score
		}
		if math.Abs(got-want) > 1e-9*math.Abs(want) {
			t.Errorf("%v: mean of ingested values %v, score says %v (rel. diff %.3g)", id, got, want, math.Abs(got-want)/math.Abs(want))
		}
	}
}

// examples returns the examples the report kept for kind (nil when none).
func examples(rep *ingest.Summary, kind string) []*ingest.ParseError {
	for _, k := range rep.Kinds() {
		if k.Kind == kind {
			return k.Examples
		}
	}
	return nil
}

func reportString(rep *ingest.Summary) string {
	var b strings.Builder
	rep.WriteTo(&b)
	return b.String()
}

// sameRow compares rows with NaN equal to NaN.
func sameRow(a, b table.Row) bool {
	if math.IsNaN(a.NsPerOp) && math.IsNaN(b.NsPerOp) {
		a.NsPerOp, b.NsPerOp = 0, 0
	}
	if math.IsNaN(a.Value) && math.IsNaN(b.Value) {
		a.Value, b.Value = 0, 0
	}
	return a == b
}

func sameRows(a, b []table.Row) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameRow(a[i], b[i]) {
			return false
		}
	}
	return true
}
