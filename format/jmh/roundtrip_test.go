package jmh

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile"
	"github.com/benchtrim/benchtrim/tablefile/tabletest"
)

// TestRoundTripThroughTableFiles reads JMH files (avgt, sample-mode
// histograms, JMH 1.37 sample, thrpt with GC secondary metrics whose
// ns_per_op is NaN) and writes the table as .arrow, .parquet and .csv:
// tablefile.ReadFile gives back every row, all columns, and every setup.
// JMH has no writer, so the table file is this format's round trip. The
// table read back from .arrow is also compared with the independent
// encoding/json count of the file (checkAgainstTree), so the values are
// the file's, not merely equal to themselves.
func TestRoundTripThroughTableFiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "jmh", "*.json"))
	files = append(files, filepath.Join("testdata", "valid_sample.json"))
	if len(files) < 5 {
		t.Fatalf("found %d test files: %v", len(files), files)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			tab, rep, err := ingesttest.ReadFile(t, format{}, path, ingest.Source{Project: "proj", Version: "v1"})
			if err != nil {
				t.Fatal(err)
			}
			if rep.SkippedRows() != 0 {
				t.Fatalf("skipped rows:\n%s", ingesttest.ReportText(rep))
			}
			ingesttest.CheckTableFiles(t, tab)

			arrowFile := filepath.Join(t.TempDir(), "t.arrow")
			if err := tabletest.WriteFile(arrowFile, tab); err != nil {
				t.Fatal(err)
			}
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			back, err := tablefile.ReadFile(arrowFile, mem)
			if err != nil {
				t.Fatal(err)
			}
			res := result{setups: back.Setups, rep: rep, rows: ingesttest.Rows(t, back)}
			back.Release()
			mem.AssertSize(t, 0)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			checkAgainstTree(t, res, treeOf(t, data))
		})
	}
}

// TestDiffRowsSeesOneULP is the control for the round-trip tests: DiffRows
// (ingesttest) reports a value one ulp off, a changed level and a row
// missing, and accepts NaN for NaN.
func TestDiffRowsSeesOneULP(t *testing.T) {
	tab, _, err := ingesttest.ReadFile(t, format{}, filepath.Join("..", "..", "testdata", "jmh", "small_thrpt_gc.json"), ingest.Source{})
	if err != nil {
		t.Fatal(err)
	}
	want := ingesttest.Rows(t, tab)
	nan := 0
	for _, r := range want {
		if math.IsNaN(r.NsPerOp) {
			nan++
		}
	}
	if nan == 0 {
		t.Fatal("no secondary row with NaN ns_per_op: the NaN case is not exercised")
	}
	if d := ingesttest.DiffRows(want, append([]table.Row(nil), want...)); d != "" {
		t.Errorf("same rows: %s", d)
	}
	for name, change := range map[string]func([]table.Row) []table.Row{
		"value one ulp up": func(r []table.Row) []table.Row { r[3].Value = math.Nextafter(r[3].Value, math.Inf(1)); return r },
		"fork changed":     func(r []table.Row) []table.Row { r[2].Fork++; return r },
		"row missing":      func(r []table.Row) []table.Row { return r[1:] },
	} {
		if d := ingesttest.DiffRows(want, change(append([]table.Row(nil), want...))); d == "" {
			t.Errorf("%s: DiffRows saw no difference", name)
		}
	}
}
