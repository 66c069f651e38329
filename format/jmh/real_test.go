package jmh

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/internal/jvmargs"
	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/table"
)

// realFiles are the JMH files described in ../shared/data/jmh/SOURCES.md.
var realFiles = []string{
	"101jmh_avgt_gcprof-dot-prefix_12threads_jmh1.23.json",
	"countsquares_avgt_gcprof_params_ragged-gctime_jmh1.37.json",
	"hollow_all-modes_params_jmh1.25.json",
	"jmhdmn_thrpt_10forks_10iter_jmh1.19.json",
	"jmhplayground_avgt_perfasm-text-metric_NaN_jmh1.37.json",
	"kvstore_ss_40iter_params_jmh1.36.json",
	"pgclient_sample_2forks_s-per-op_jmh1.21.json",
	"weightedlottery_avgt_gcchurn_missing-fork_jmh1.21.json",
}

// TestRealFiles ingests every real file and compares it with an
// independent encoding/json count (helpers_test.go).
func TestRealFiles(t *testing.T) {
	dir := sharedJMHDir(t)
	for _, name := range realFiles {
		t.Run(strings.SplitN(name, "_", 2)[0], func(t *testing.T) {
			path := filepath.Join(dir, name)
			data, err := os.ReadFile(path)
			if err != nil {
				testenv.Skip(t, "%s: %v", name, err)
			}
			res := readFile(t, path)
			if res.err != nil {
				t.Fatal(res.err)
			}
			if !(format{}).Sniff(data[:min(len(data), 64<<10)]) {
				t.Errorf("Sniff rejects %s", name)
			}
			checkAgainstTree(t, res, treeOf(t, data))
			if n := res.rep.SkippedRows(); n != res.rep.Count(kindText) {
				t.Errorf("skipped %d rows, want only text results skipped:\n%s", n, reportString(res.rep))
			}
		})
	}
}

func loadReal(t *testing.T, name string) (result, []treeRecord) {
	t.Helper()
	path := filepath.Join(sharedJMHDir(t), name)
	data, err := os.ReadFile(path)
	if err != nil {
		testenv.Skip(t, "%s: %v", name, err)
	}
	res := readFile(t, path)
	if res.err != nil {
		t.Fatal(res.err)
	}
	return res, treeOf(t, data)
}

// rowsOf selects rows of a benchmark (suffix match) and metric.
func rowsOf(res result, benchSuffix, metric string) []table.Row {
	var out []table.Row
	for _, r := range res.rows {
		if strings.HasSuffix(r.Benchmark, benchSuffix) && r.Metric == metric {
			out = append(out, r)
		}
	}
	return out
}

func maxLevels(rows []table.Row) (forks, iters int32) {
	for _, r := range rows {
		forks = max(forks, r.Fork)
		iters = max(iters, r.Iteration)
	}
	return
}

func setupOf(t *testing.T, res result, benchSuffix string) *table.Setup {
	t.Helper()
	for i := range res.setups {
		if strings.HasSuffix(res.setups[i].Benchmark, benchSuffix) {
			return &res.setups[i]
		}
	}
	t.Fatalf("no setup for %s", benchSuffix)
	return nil
}

// SOURCES.md §5: simple_05 says forks 3 but has 2 fork rows.
func TestRealWeightedLotteryMissingFork(t *testing.T) {
	res, _ := loadReal(t, "weightedlottery_avgt_gcchurn_missing-fork_jmh1.21.json")
	rows := rowsOf(res, "ManySamplesNoRepetitionsPowerDistBenchmark.simple_05", table.Primary)
	if f, it := maxLevels(rows); len(rows) != 6 || f != 2 || it != 3 {
		t.Errorf("simple_05: %d rows, %d forks, %d iterations; want 6, 2, 3", len(rows), f, it)
	}
	if s := setupOf(t, res, "ManySamplesNoRepetitionsPowerDistBenchmark.simple_05"); s.Forks != 3 {
		t.Errorf("setup forks %d, want the configured 3", s.Forks)
	}
	if n := res.rep.Count(kindMissingFork); n != 1 {
		t.Fatalf("%d missing-fork warnings, want 1:\n%s", n, reportString(res.rep))
	}
	ex := examples(res.rep, kindMissingFork)[0]
	if !strings.Contains(ex.Error(), "weightedlottery") || !strings.HasSuffix(ex.Path, ".primaryMetric.rawData") || ex.Line == 0 {
		t.Errorf("missing-fork warning %q lacks file, line or path", ex)
	}
	// Ragged ·gc.churn.PS_Survivor_Space rows [2,3,3] and [1,2,1] (and
	// their .norm twins) are kept with iteration = position.
	if n := res.rep.Count(kindRaggedSec); n != 4 {
		t.Errorf("%d ragged-secondary warnings, want 4", n)
	}
	if got := rowsOf(res, "", "gc.alloc.rate"); len(got) == 0 {
		t.Error("·gc.alloc.rate not stored as gc.alloc.rate")
	}
}

// SOURCES.md §2: sample mode in s/op, 2 forks × 5 iterations × one bucket.
func TestRealPgclientSeconds(t *testing.T) {
	res, _ := loadReal(t, "pgclient_sample_2forks_s-per-op_jmh1.21.json")
	rows := rowsOf(res, "ClientBenchmark.jdbcBurstQuery", table.Primary)
	if f, it := maxLevels(rows); len(rows) != 10 || f != 2 || it != 5 {
		t.Fatalf("jdbcBurstQuery: %d rows, %d forks, %d iterations; want 10, 2, 5", len(rows), f, it)
	}
	sum := 0.0
	for _, r := range rows {
		if r.Count != 1 || r.Unit != "s/op" || r.Mode != "sample" {
			t.Errorf("row %+v: want count 1, s/op, sample", r)
		}
		sum += r.NsPerOp
	}
	// score 3.7283168255999994 s/op (the file's primaryMetric.score).
	if mean := sum / 10; math.Abs(mean-3.7283168255999994e9) > 1 {
		t.Errorf("mean ns/op %v, want 3.7283168256e9", mean)
	}
	if r := rows[0]; r.Value != 3.9468400640000003 || r.NsPerOp != 3.9468400640000003*1e9 {
		t.Errorf("first value %v (%v ns), want 3.9468400640000003 s", r.Value, r.NsPerOp)
	}
	if !strings.Contains(rows[0].Params, "connectUri=postgres://postgres:postgres@localhost:5432/postgres") || !strings.Contains(rows[0].Params, "sql=SELECT NOW()") {
		t.Errorf("params %q", rows[0].Params)
	}
	// jdbcBurstQuery·p0.50 … become p0.50 …, ns-normalised.
	p50 := rowsOf(res, "ClientBenchmark.jdbcBurstQuery", "p0.50")
	if len(p50) != 10 || p50[0].NsPerOp != p50[0].Value*1e9 {
		t.Errorf("p0.50: %d rows (want 10), first %+v", len(p50), p50)
	}
}

// SOURCES.md §6: thrpt, 10 forks × 10 iterations, ops/s, Windows jvm path.
func TestRealJmhdmnThroughput(t *testing.T) {
	res, _ := loadReal(t, "jmhdmn_thrpt_10forks_10iter_jmh1.19.json")
	for _, s := range res.setups {
		rows := rowsOf(res, s.Benchmark, table.Primary)
		if f, it := maxLevels(rows); len(rows) != 100 || f != 10 || it != 10 {
			t.Errorf("%s: %d rows, %d×%d; want 100, 10×10", s.Benchmark, len(rows), f, it)
		}
		for _, r := range rows {
			if r.Unit != "ops/s" || r.NsPerOp != 1e9/r.Value {
				t.Fatalf("row %+v: want ns_per_op = 1e9/value", r)
			}
		}
		if s.Forks != 10 || s.WarmupIterations != 10 || s.WarmupTimeNs != 1e9 || s.MeasurementTimeNs != 1e9 || s.ToolVersion != "1.19" {
			t.Errorf("setup %+v", s)
		}
		if s.Env["jvm"] != `C:\Program Files\Java\jre-10\bin\java.exe` {
			t.Errorf("jvm %q", s.Env["jvm"])
		}
		if _, ok := s.Env["vmName"]; ok {
			t.Errorf("vmName %q invented (JMH 1.19 has none)", s.Env["vmName"])
		}
	}
}

// SOURCES.md §3: 12 threads, avgt ms/op, ·gc prefix, measurement 1 ms.
func TestReal101jmhThreads(t *testing.T) {
	res, _ := loadReal(t, "101jmh_avgt_gcprof-dot-prefix_12threads_jmh1.23.json")
	if len(res.setups) != 4 {
		t.Fatalf("%d setups, want 4", len(res.setups))
	}
	for _, s := range res.setups {
		if s.Threads != 12 || s.Forks != 2 || s.MeasurementIterations != 10 || s.MeasurementTimeNs != 1e6 || s.WarmupTimeNs != 5e9 {
			t.Errorf("setup %+v: want threads 12, forks 2, 10 × 1 ms, warmup 5 s", s)
		}
		if !strings.Contains(s.Env["jvmArgs"], "-Xmx6144m") {
			t.Errorf("jvmArgs %q", s.Env["jvmArgs"])
		}
	}
	metrics := map[string]int{}
	for _, r := range res.rows {
		metrics[r.Metric]++
		if r.Metric == table.Primary && r.NsPerOp != r.Value*1e6 {
			t.Fatalf("avgt ms/op %v normalised to %v (threads must not matter)", r.Value, r.NsPerOp)
		}
		if r.Metric != table.Primary && !math.IsNaN(r.NsPerOp) {
			t.Fatalf("%s (%s) has ns_per_op %v, want NaN", r.Metric, r.Unit, r.NsPerOp)
		}
	}
	for _, m := range []string{table.Primary, "gc.alloc.rate", "gc.alloc.rate.norm", "gc.count"} {
		if metrics[m] != 80 {
			t.Errorf("metric %s: %d rows, want 80 (4 records × 2 × 10)", m, metrics[m])
		}
	}
}

// SOURCES.md §7: single-shot, 40 iterations.
func TestRealKvstoreSingleShot(t *testing.T) {
	res, _ := loadReal(t, "kvstore_ss_40iter_params_jmh1.36.json")
	if len(res.setups) != 12 || len(res.rows) != 480 {
		t.Fatalf("%d setups, %d rows; want 12, 480", len(res.setups), len(res.rows))
	}
	for _, s := range res.setups {
		if !s.SingleShot || s.WarmupIterations != 40 || s.MeasurementIterations != 40 || s.WarmupTimeNs != 0 || s.MeasurementTimeNs != 0 || s.BatchSize != 1 || s.Mode != "ss" {
			t.Errorf("setup %+v: want single-shot 40+40, batch 1", s)
		}
		if !strings.Contains(s.Params, "compression=") || !strings.Contains(s.Params, "oneFailureOutOf=") {
			t.Errorf("params %q", s.Params)
		}
	}
}

// SOURCES.md §4: gc.time rows are ragged (1 to 8 of 8 iterations).
func TestRealCountSquaresRaggedGCTime(t *testing.T) {
	res, tree := loadReal(t, "countsquares_avgt_gcprof_params_ragged-gctime_jmh1.37.json")
	ragged := 0
	for _, tr := range tree {
		for _, n := range tr.secondaryRowLens["gc.time"] {
			if n < tr.measIter {
				ragged++
			}
		}
		// Other metrics could be ragged too; count them independently.
		for k, lens := range tr.secondaryRowLens {
			if k == "gc.time" {
				continue
			}
			for _, n := range lens {
				if n < tr.measIter {
					ragged++
				}
			}
		}
	}
	if ragged != 29 {
		t.Errorf("encoding/json finds %d ragged secondary rows, SOURCES.md says 29", ragged)
	}
	if n := res.rep.Count(kindRaggedSec); n != ragged {
		t.Errorf("%d ragged-secondary warnings, want %d", n, ragged)
	}
	// A ragged row keeps its values with iteration = position 1..n.
	for _, tr := range tree {
		lens := tr.secondaryRowLens["gc.time"]
		if len(lens) != 1 || lens[0] >= tr.measIter || lens[0] == 0 {
			continue
		}
		var its []int32
		for _, r := range res.rows {
			if r.Benchmark == tr.benchmark && r.Params == tr.params && r.Metric == "gc.time" {
				its = append(its, r.Iteration)
			}
		}
		if len(its) != lens[0] || its[len(its)-1] != int32(lens[0]) {
			t.Errorf("%s [%s] gc.time iterations %v, want 1..%d", tr.benchmark, tr.params, its, lens[0])
		}
		break
	}
	s := setupOf(t, res, "")
	if !strings.Contains(s.Env["jvmArgs"], "-Duser.variant") || s.Env["jdkVersion"] != "25" || s.MeasurementTimeNs != 300e6 {
		t.Errorf("setup %+v", s)
	}
}

// SOURCES.md §8: the perfasm text result is skipped and counted.
func TestRealJmhPlaygroundTextResult(t *testing.T) {
	res, _ := loadReal(t, "jmhplayground_avgt_perfasm-text-metric_NaN_jmh1.37.json")
	if n := res.rep.Count(kindText); n != 1 {
		t.Fatalf("text results counted %d, want 1", n)
	}
	ex := examples(res.rep, kindText)[0]
	if ex.Path != "$[0].secondaryMetrics.asm" || ex.Line == 0 {
		t.Errorf("text result reported at %q line %d", ex.Path, ex.Line)
	}
	for _, r := range res.rows {
		if r.Metric != table.Primary {
			t.Fatalf("row of metric %q kept", r.Metric)
		}
		if r.Params != "same=false,shuffle=true" {
			t.Fatalf("params %q", r.Params)
		}
	}
	if len(res.rows) != 10 {
		t.Errorf("%d rows, want 10 (2 forks × 5)", len(res.rows))
	}
}

// SOURCES.md §1: all four modes; sample percentiles named p0.00 … p1.00.
func TestRealHollowAllModes(t *testing.T) {
	res, tree := loadReal(t, "hollow_all-modes_params_jmh1.25.json")
	modes := map[string]int{}
	metrics := map[string]bool{}
	for _, r := range res.rows {
		modes[r.Mode]++
		if r.Metric != table.Primary {
			metrics[r.Metric] = true
		}
	}
	want := 0
	for _, tr := range tree {
		if tr.mode == "sample" {
			want += tr.primaryRows
		}
	}
	if len(modes) != 4 || modes["sample"] != want+120 {
		t.Errorf("rows per mode %v; want 4 modes and %d sample rows", modes, want+120)
	}
	for _, p := range []string{"p0.00", "p0.50", "p0.90", "p0.95", "p0.99", "p0.999", "p0.9999", "p1.00"} {
		if !metrics[p] {
			t.Errorf("metric %s missing (have %v)", p, metrics)
		}
	}
	if len(metrics) != 8 {
		t.Errorf("secondary metrics %v, want the 8 percentiles", metrics)
	}
}

// TestRealFilesThroughTableFiles writes the table of every real file as
// .arrow, .parquet and .csv and reads each back: every row, column and
// setup (the Parquet encoder on real names, NaN values, missing forks,
// ragged secondary metrics).
func TestRealFilesThroughTableFiles(t *testing.T) {
	dir := sharedJMHDir(t)
	for _, name := range realFiles {
		t.Run(strings.SplitN(name, "_", 2)[0], func(t *testing.T) {
			path := filepath.Join(dir, name)
			if _, err := os.Stat(path); err != nil {
				testenv.Skip(t, "%s: %v", name, err)
			}
			tab, _, err := ingesttest.ReadFile(t, format{}, path, ingest.Source{Project: "real", Version: "v1"})
			if err != nil {
				t.Fatal(err)
			}
			ingesttest.CheckTableFiles(t, tab)
		})
	}
}

// TestRealProfilers: the profilers named in the setups of the real files
// are those their secondary metrics come from (the file names say which
// profiler ran: gcprof, gcchurn and perfasm), none for sample mode's
// percentiles; and the jvmArgs of every record read back into the
// record's arguments as JMH splits a -jvmArgs line, the IntelliJ agent's
// path with its space included.
func TestRealProfilers(t *testing.T) {
	want := map[string]string{
		"101jmh_avgt_gcprof-dot-prefix_12threads_jmh1.23.json":       "gc",
		"countsquares_avgt_gcprof_params_ragged-gctime_jmh1.37.json": "gc",
		"hollow_all-modes_params_jmh1.25.json":                       "",
		"jmhdmn_thrpt_10forks_10iter_jmh1.19.json":                   "",
		"jmhplayground_avgt_perfasm-text-metric_NaN_jmh1.37.json":    "perfasm",
		"kvstore_ss_40iter_params_jmh1.36.json":                      "",
		"pgclient_sample_2forks_s-per-op_jmh1.21.json":               "",
		"weightedlottery_avgt_gcchurn_missing-fork_jmh1.21.json":     "gc",
	}
	dir := sharedJMHDir(t)
	for _, name := range realFiles {
		path := filepath.Join(dir, name)
		data, err := os.ReadFile(path)
		if err != nil {
			testenv.Skip(t, "%s: %v", name, err)
		}
		res := readFile(t, path)
		if res.err != nil {
			t.Fatal(res.err)
		}
		args := map[string]bool{}
		for _, rec := range treeOf(t, data) {
			args[strings.Join(rec.jvmArgs, "\x00")] = true
		}
		for _, s := range res.setups {
			if got := s.Env[table.EnvProfilers]; got != want[name] {
				t.Errorf("%s: %s: profilers %q, want %q", name, s.Key, got, want[name])
			}
			if back := strings.Join(jvmargs.Split(s.Env[table.EnvJVMArgs]), "\x00"); !args[back] {
				t.Errorf("%s: %s: jvmArgs line %q reads back as %q, not a record's arguments", name, s.Key, s.Env[table.EnvJVMArgs], back)
			}
		}
	}
}
