package duet

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/table"
)

// renaissanceJSON is a Renaissance --json result (format_version 5) of
// benchmark bench whose VM started at startMs, with iterations (duration,
// uptime) in ns.
func renaissanceJSON(bench string, startMs int64, its [][2]int64) string {
	var res []string
	for _, it := range its {
		res = append(res, fmt.Sprintf(`{"duration_ns": %d, "uptime_ns": %d}`, it[0], it[1]))
	}
	return fmt.Sprintf(`{"benchmarks": [%q], "format_version": 5, "data": {%q: {"results": [%s], "termination": "normal"}},
 "environment": {"vm": {"name": "OpenJDK", "start_unix_ms": %d}}}`, bench, bench, strings.Join(res, ", "), startMs)
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeArtifacts writes the artifacts/ folder of a duetbench directory.
func writeArtifacts(t *testing.T, dir, host, date string) {
	write(t, filepath.Join(dir, "artifacts", "date"), date+"\n")
	write(t, filepath.Join(dir, "artifacts", "hostname"), host+"\n")
	write(t, filepath.Join(dir, "artifacts", "uname"), "Linux "+host+" 5.10.0 x86_64 GNU/Linux\n")
	write(t, filepath.Join(dir, "artifacts", "lscpu"), "Architecture:  x86_64\nModel name:    Intel(R) Xeon(R) CPU E5-2620 v4 @ 2.10GHz\nThread(s) per core: 2\n")
	write(t, filepath.Join(dir, "artifacts", "meminfo"), "MemTotal:       65861772 kB\nMemFree:  1 kB\n")
}

// writeInvocation writes a duetbench directory with a Renaissance
// asynchronous duet (2 runs × 2 pairs × 3 iterations) and returns it.
func writeInvocation(t *testing.T, dir, host, date string) string {
	writeArtifacts(t, dir, host, date)
	for run := 0; run < 2; run++ {
		for p, pair := range []string{"A", "B"} {
			base := int64(1652636049905 + 100*run + p)
			write(t, filepath.Join(dir, fmt.Sprintf("renaissance.chi-square.%d.duet.AB.%s.results.json", run, pair)),
				renaissanceJSON("chi-square", base, [][2]int64{{900, 5000}, {800, 6000}, {700, 7000}}))
		}
	}
	return dir
}

// TestReadDirSuites reads one duetbench directory holding a result of
// each suite reader: Renaissance JSON, DaCapo CSV with start_unix,
// ScalaBench CSV without it (old jar: total_ms after the date artifact),
// a SPEC CPU result directory, plus a file that is not a result.
func TestReadDirSuites(t *testing.T) {
	dir := t.TempDir()
	writeArtifacts(t, dir, "cirrus04", "Sun May 15 07:32:04 PM CEST 2022")
	write(t, filepath.Join(dir, "renaissance.scala-kmeans.0.seqn.None.A.results.json"),
		renaissanceJSON("scala-kmeans", 1652636049905, [][2]int64{{1000, 15000}, {900, 25000}}))
	write(t, filepath.Join(dir, "renaissance.scala-kmeans.0.seqn.None.B.results.json"),
		renaissanceJSON("scala-kmeans", 1652636060000, [][2]int64{{1100, 15000}, {950, 25000}}))
	dacapo := "iteration_time_ns,total_ms,process_cpu_time_ns,start_unix\n" +
		"5000000,120,1,1652636049905.5\n" +
		"4000000,125,1,1652636049911\n"
	write(t, filepath.Join(dir, "dacapo.h2.1.duet.BA.A.results.csv"), dacapo)
	write(t, filepath.Join(dir, "dacapo.h2.1.duet.BA.B.results.csv"), dacapo)
	old := "iteration_time_ns,total_ms,compilation_time_ms\n3000000,1500,7\n2000000,1503.25,7\n"
	write(t, filepath.Join(dir, "scalabench.actors.0.syncduet.AB.A.results.csv"), old)
	write(t, filepath.Join(dir, "scalabench.actors.0.syncduet.AB.B.results.csv"), old)
	spec := "runcpu v6\n Benchmark Times:\n  Run Start:    2022-06-01 14:04:52 (1654092292)\n" +
		"  Rate Start:   2022-06-01 14:04:52 (1654092292.28303)\n  Rate End:     2022-06-01 14:12:37 (1654092757.17651)\n" +
		"  Rate Start:   2022-06-01 14:12:38 (1654092758.5)\n  Rate End:     2022-06-01 14:20:00 (1654093200.000000001)\n"
	write(t, filepath.Join(dir, "speccpu.505_mcf_r.0.duet.AB.A.result", "CPU2017.002.log"), spec)
	write(t, filepath.Join(dir, "speccpu.505_mcf_r.0.duet.AB.B.result", "CPU2017.002.log"), spec)
	write(t, filepath.Join(dir, "duet.yml"), "duetbench: {}\n")

	tab, rep := readDir(t, dir, 4)
	if rep.Count(kindNotResult) != 1 || rep.Count(kindOldDaCapo) != 2 || rep.SkippedRows() != 0 || len(rep.Kinds()) != 2 {
		t.Errorf("report: want 1 ignored file and the old ScalaBench jar (once per pair):\n%s", ingesttest.ReportText(rep))
	}
	got := map[string]table.Row{}
	for _, r := range ingesttest.Rows(t, tab) {
		got[rowKey(&r)] = r
	}
	if len(got) != 16 {
		t.Errorf("%d rows, want 16: %v", len(got), got)
	}
	date := time.Date(2022, 5, 15, 19, 32, 4, 0, time.UTC).UnixNano() // CEST read as UTC, as pandas does
	for _, w := range []struct {
		key        string
		value      float64
		start, end int64
	}{
		{"renaissance/scala-kmeans/seqn A inst 1 fork 1 it 1", 1000, 1652636049905_000000 + 15000, 1652636049905_000000 + 16000},
		{"renaissance/scala-kmeans/seqn B inst 1 fork 1 it 2", 950, 1652636060000_000000 + 25000, 1652636060000_000000 + 25950},
		{"dacapo/h2/duet A inst 1 fork 2 it 1", 5e6, 1652636049905_500000, 1652636049905_500000 + 5e6},
		{"dacapo/h2/duet B inst 1 fork 2 it 2", 4e6, 1652636049911_000000, 1652636049911_000000 + 4e6},
		{"scalabench/actors/syncduet A inst 1 fork 1 it 1", 3e6, date + 1500_000000, date + 1500_000000 + 3e6},
		{"scalabench/actors/syncduet B inst 1 fork 1 it 2", 2e6, date + 1503_250000, date + 1503_250000 + 2e6},
		{"speccpu/505_mcf_r/duet A inst 1 fork 1 it 1", 464893480000, 1654092292_283030000, 1654092757_176510000},
		{"speccpu/505_mcf_r/duet B inst 1 fork 1 it 2", 441500000001, 1654092758_500000000, 1654093200_000000001},
	} {
		r, ok := got[w.key]
		if !ok {
			t.Errorf("no row %s", w.key)
			continue
		}
		if r.Value != w.value || r.StartNs != w.start || r.EndNs != w.end {
			t.Errorf("%s: value %v, %d–%d; want %v, %d–%d", w.key, r.Value, r.StartNs, r.EndNs, w.value, w.start, w.end)
		}
	}
	want := map[string]string{
		"renaissance scala-kmeans seqn": "1", "dacapo h2 duet": "0", "scalabench actors syncduet": "0", "speccpu 505_mcf_r duet": "1",
	}
	for _, s := range tab.Setups {
		k := s.Project + " " + s.Benchmark + " " + s.Mode
		if s.Env["iteration_offset"] != want[k] {
			t.Errorf("%s: iteration_offset %q, want %q", k, s.Env["iteration_offset"], want[k])
		}
		for e, v := range map[string]string{
			"instance.1.hostname": "cirrus04", "instance.1.environment": "bare-metal",
			"instance.1.lscpu": "Intel(R) Xeon(R) CPU E5-2620 v4 @ 2.10GHz", "instance.1.meminfo": "65861772 kB",
			"instance.1.date": "Sun May 15 07:32:04 PM CEST 2022", "instance.1.uname": "Linux cirrus04 5.10.0 x86_64 GNU/Linux",
		} {
			if s.Env[e] != v {
				t.Errorf("%s: %s = %q, want %q", k, e, s.Env[e], v)
			}
		}
	}
	if o := tab.Setup(table.Key{Project: "dacapo", Benchmark: "h2", Mode: "duet"}).Env["run.1.2.order"]; o != "BA" {
		t.Errorf("dacapo run 1 order %q, want BA", o)
	}
}

// TestParseDate checks the date(1) outputs the artifacts hold.
func TestParseDate(t *testing.T) {
	for s, want := range map[string]string{
		"Sun May 15 07:32:04 PM CEST 2022": "2022-05-15T19:32:04Z",
		"Wed Jun  1 14:04:52 UTC 2022":     "2022-06-01T14:04:52Z",
		"Tue 12 Jul 08:00:00 AEST 2022":    "2022-07-12T08:00:00Z",
		"Wed Jun 1 14:04:52 +0200 2022":    "2022-06-01T12:04:52Z",
		"Thu 01 Dec 2022 09:15:00 AM GMT":  "2022-12-01T09:15:00Z",
	} {
		got, err := parseDate(s)
		if err != nil || got.UTC().Format(time.RFC3339) != want {
			t.Errorf("ParseDate(%q) = %v, %v; want %s", s, got, err, want)
		}
	}
	if _, err := parseDate("yesterday"); err == nil {
		t.Error("ParseDate(yesterday) did not fail")
	}
}
