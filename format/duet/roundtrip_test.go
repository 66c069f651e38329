package duet

import (
	"bytes"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/table"
)

// TestRoundTripThroughTableFiles: duet results have no writer in benchtrim
// (the duetprocess CSV is written by the duet tool chain), so the table file
// is this format's round trip. The hand-made mixed.csv (three hosts, 0- and
// 1-based suites, all three types) and the generated duet preset are read
// and written as .arrow, .parquet and .csv; tablefile.ReadFile gives back every
// row (pair, start_ns and end_ns included) and every setup (the Env keys
// of instances, runs and the iteration offset).
func TestRoundTripThroughTableFiles(t *testing.T) {
	tab, _, err := ingesttest.ReadFile(t, format{}, "testdata/mixed.csv", ingest.Source{})
	if err != nil {
		t.Fatal(err)
	}
	ingesttest.CheckTableFiles(t, tab)
	tab.Release()

	data, err := synth.GenerateDuet(synth.DefaultDuetConfig())
	if err != nil {
		t.Fatal(err)
	}
	var csv bytes.Buffer
	if err := data.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	b := table.NewBuilder(memory.DefaultAllocator, 0)
	defer b.Release()
	var rep ingest.Summary
	if err := (format{}).Read(bytes.NewReader(csv.Bytes()), ingest.Source{File: "duet.csv"}, b, &rep); err != nil {
		t.Fatal(err)
	}
	gen := b.Finish()
	defer gen.Release()
	if lines := bytes.Count(csv.Bytes(), []byte("\n")) - 1; gen.NumRows() != int64(lines) || rep.SkippedRows() != 0 {
		t.Fatalf("generated: %d rows of %d iteration lines, %d skipped", gen.NumRows(), lines, rep.SkippedRows())
	}
	ingesttest.CheckTableFiles(t, gen)
}
