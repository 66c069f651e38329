package pa_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/format/internal/formattest"
	"github.com/benchtrim/benchtrim/format/pa"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/table"
)

// TestWriteRead writes a seeded random table (2 versions × 4 benchmarks in
// the four JMH modes × 2 params, 2 instances × 2 trials × 3 forks × 4
// iterations, values with all 53 bits) with Write and reads it back with
// Format: every row returns with its project, version, benchmark, params,
// mode, instance, trial, fork, iteration, count and value, bit for bit.
func TestWriteRead(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		tab := formattest.Random(t, formattest.Suite{
			Seed: seed, Project: "proj", Versions: []string{"v1.0.0", "v1.1.0"},
			Benchmarks: []string{"org.ex.A.run", "org.ex.B.parse", "org.ex.C.sample", "org.ex.D.cold"},
			Modes:      []string{"avgt", "thrpt", "sample", "ss"},
			Params:     []string{"", formattest.Params("size", "10", "type", "json")},
			Instances:  2, Trials: 2, Forks: 3, Iterations: 4,
		})
		var buf bytes.Buffer
		if err := pa.Write(&buf, tab); err != nil {
			t.Fatal(err)
		}
		if lines, rows := strings.Count(buf.String(), "\n"), tab.NumRows(); int64(lines) != rows+1 {
			t.Errorf("seed %d: %d lines for %d rows and the header", seed, lines, rows)
		}
		back, rep, err := ingesttest.Read(t, pa.Format(), bytes.NewReader(buf.Bytes()), ingest.Source{File: "x.csv"})
		if err != nil || !rep.Empty() {
			t.Fatalf("seed %d: reading back: %v\n%s", seed, err, ingesttest.ReportText(rep))
		}
		want := formattest.RowList(tab, "", true)
		if len(want) != 2*4*2*2*2*3*4 {
			t.Fatalf("seed %d: %d rows generated", seed, len(want))
		}
		formattest.SameRowLists(t, "pa", want, formattest.RowList(back, "", true))
		for _, s := range back.Collect(table.Filter{}) {
			if s.Project != "proj" || s.Unit == "" {
				t.Errorf("seed %d: %s read back with project %q unit %q", seed, s.Key, s.Project, s.Unit)
			}
		}
	}
}
