package duet

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/table"
)

// measured is a row without its place (source, line).
func measured(r table.Row) string {
	return fmt.Sprintf("%s %s %s %s %s inst %d fork %d it %d: %v %v %d %d", r.Project, r.Version, r.Benchmark, r.Mode, r.Pair,
		r.Instance, r.Fork, r.Iteration, r.Value, r.NsPerOp, r.StartNs, r.EndNs)
}

// TestRealRenaissance reads the real asynchronous duet of SOURCES.md (the
// author's 2022-03-20 laptop runs of Renaissance chi-square, 2 runs × 2
// pairs × 10 iterations) twice: as the raw directory of its four JSON
// results and as fixtures/chi-square_duet_2runs.csv, which SOURCES.md says
// was converted from those JSONs with duetprocess's rule. The 40 rows must
// be equal; only the artifacts differ (the fixture's placeholders
// "unrecorded" and environment laptop-test; the directory has none).
func TestRealRenaissance(t *testing.T) {
	raw := testenv.Shared(t, "data", "duet", "raw", "renaissance_chi-square_duet_2022-03-20")
	csvPath := testenv.Shared(t, "data", "duet", "fixtures", "chi-square_duet_2runs.csv")
	csvTab, csvRep, err := ingesttest.ReadFile(t, format{}, csvPath, ingest.Source{})
	if err != nil {
		t.Fatal(err)
	}
	if !csvRep.Empty() {
		t.Errorf("fixture report:\n%s", ingesttest.ReportText(csvRep))
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := table.NewBuilder(mem, 0)
	defer b.Release()
	var rep ingest.Summary
	if err := (format{}).ReadDir(raw, ingest.Source{}, b, &rep); err != nil {
		t.Fatal(err)
	}
	dirTab := b.Finish()
	defer dirTab.Release()
	// Three warnings, no row skipped: the first-scheme names, no
	// artifacts/, and the early processing CSV beside the JSONs.
	if rep.SkippedRows() != 0 || rep.Count(kindFirstScheme) != 1 || rep.Count(kindNoArtifacts) != 1 || rep.Count(kindNotResult) != 1 {
		t.Errorf("directory report:\n%s", ingesttest.ReportText(&rep))
	}
	csvRows, dirRows := ingesttest.Rows(t, csvTab), ingesttest.Rows(t, dirTab)
	if len(csvRows) != 40 || len(dirRows) != 40 {
		t.Fatalf("%d rows from the CSV, %d from the directory; want 40 each", len(csvRows), len(dirRows))
	}
	for i := range csvRows {
		if a, b := measured(csvRows[i]), measured(dirRows[i]); a != b {
			t.Errorf("row %d:\n  csv %s\n  dir %s", i, a, b)
		}
	}
	pairs := map[string]int{}
	for _, r := range dirRows {
		pairs[fmt.Sprintf("fork %d %s", r.Fork, r.Pair)]++
		if r.Mode != "duet" || r.Project != "renaissance" || r.Benchmark != "chi-square" || r.Instance != 1 {
			t.Errorf("row %s", measured(r))
		}
	}
	for _, k := range []string{"fork 1 A", "fork 1 B", "fork 2 A", "fork 2 B"} {
		if pairs[k] != 10 {
			t.Errorf("%s: %d iterations, want 10 (%v)", k, pairs[k], pairs)
		}
	}
	// First iteration of run 0, pair A: start_unix_ms·10⁶ + uptime_ns.
	if r := dirRows[0]; r.StartNs != 1647774987700_000000+15465435372 || r.Value != 9052543216 || r.Iteration != 1 {
		t.Errorf("first row %s", measured(r))
	}
	ce, de := csvTab.Setups[0].Env, dirTab.Setups[0].Env
	for _, k := range []string{"iteration_offset", "run.1.1.order", "run.1.2.order"} {
		if ce[k] != de[k] {
			t.Errorf("%s: csv %q, directory %q", k, ce[k], de[k])
		}
	}
	if ce["instance.1.environment"] != "laptop-test" || de["instance.1.environment"] != "" || de["iteration_offset"] != "1" {
		t.Errorf("envs: csv %v, directory %v", ce, de)
	}
	// The early processing CSV beside the JSONs has no timestamps: named
	// as such, not "unrecognised".
	early := filepath.Join(raw, "results.renaissance.test.csv")
	_, _, _, err = ingest.ReadFiles([]string{early}, ingest.ReadOptions{Formats: alone})
	if want := early + ":1: header: missing columns suite, type, iteration_start_ns, iteration_end_ns"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("early CSV: %v, want %q", err, want)
	}
}

// TestRealMay reads the early duetprocess CSV of 2022-05-15 (type
// "sequential", no environment column) and its normalised fixture (type
// seqn, environment laptop-test): 32 rows each, equal but for the
// instance's environment; 2 runs × 2 pairs × 4 iterations of each type.
func TestRealMay(t *testing.T) {
	raw := testenv.Shared(t, "data", "duet", "raw", "duetprocess_csv_2022-05-15", "results.renaissance.test.csv")
	fix := testenv.Shared(t, "data", "duet", "fixtures", "chi-square_duet_seqn_2runs_2022-05-15.csv")
	rawTab, rawRep, err := ingesttest.ReadFile(t, format{}, raw, ingest.Source{})
	if err != nil {
		t.Fatal(err)
	}
	if rawRep.Count(kindOldType) != 1 || len(rawRep.Kinds()) != 1 {
		t.Errorf("report: want one warning about type sequential:\n%s", ingesttest.ReportText(rawRep))
	}
	fixTab, fixRep, err := ingesttest.ReadFile(t, format{}, fix, ingest.Source{})
	if err != nil || !fixRep.Empty() {
		t.Fatalf("%v\n%s", err, ingesttest.ReportText(fixRep))
	}
	a, b := ingesttest.Rows(t, rawTab), ingesttest.Rows(t, fixTab)
	if len(a) != 32 || len(b) != 32 {
		t.Fatalf("%d and %d rows, want 32", len(a), len(b))
	}
	runs := map[string]int{}
	for i := range a {
		if measured(a[i]) != measured(b[i]) {
			t.Errorf("row %d: %s vs %s", i, measured(a[i]), measured(b[i]))
		}
		runs[fmt.Sprintf("%s fork %d %s", a[i].Mode, a[i].Fork, a[i].Pair)]++
	}
	if len(runs) != 8 {
		t.Errorf("runs %v: want seqn and duet × 2 forks × 2 pairs", runs)
	}
	for k, n := range runs {
		if n != 4 {
			t.Errorf("%s: %d iterations, want 4", k, n)
		}
	}
	s := fixTab.Setup(table.Key{Project: "renaissance", Benchmark: "chi-square", Mode: "seqn"})
	if s.Env["instance.1.hostname"] != "sirius" || s.Env["instance.1.meminfo"] != "16277312 kB" || s.Env["run.1.2.order"] != "BA" {
		t.Errorf("seqn setup env %v", s.Env)
	}
	if e := rawTab.Setups[0].Env["instance.1.environment"]; e != "" {
		t.Errorf("derived environment of host sirius %q, want \"\"", e)
	}
}
