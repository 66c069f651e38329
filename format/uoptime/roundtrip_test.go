package uoptime

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/tablefile"
	"github.com/benchtrim/benchtrim/tablefile/tabletest"
)

// TestRoundTripThroughTableFiles reads µOpTime files (a regular and a
// ragged generated suite, and the reader's own good.csv and ragged.csv)
// and writes the table as .arrow, .parquet and .csv: tablefile.ReadFile gives
// back every row, all columns, and every setup. µOpTime CSV has no writer,
// so the table file is this format's round trip. The rows read back from
// .parquet are also compared with the CSV as encoding/csv splits it
// (benchmark, the four positions, n and ns_per_op of every line), so the
// values are the file's, not merely equal to themselves.
func TestRoundTripThroughTableFiles(t *testing.T) {
	for _, path := range []string{
		filepath.Join("..", "..", "testdata", "uoptime", "small.csv"),
		filepath.Join("..", "..", "testdata", "uoptime", "small_ragged.csv"),
		filepath.Join("testdata", "good.csv"),
		filepath.Join("testdata", "ragged.csv"),
	} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			tab, rep, err := readPath(t, path)
			if err != nil {
				t.Fatal(err)
			}
			if rep.SkippedRows() != 0 {
				t.Fatalf("skipped rows:\n%s", ingesttest.ReportText(rep))
			}
			ingesttest.CheckTableFiles(t, tab)

			pq := filepath.Join(t.TempDir(), "t.parquet")
			if err := tabletest.WriteFile(pq, tab); err != nil {
				t.Fatal(err)
			}
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			back, err := tablefile.ReadFile(pq, mem)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range ingesttest.Rows(t, back) {
				got = append(got, fmt.Sprintf("%s i%d t%d it%d s%d n=%d v=%s", r.Benchmark, r.Instance, r.Trial, r.Iteration, r.Slice,
					r.Count, strconv.FormatFloat(r.Value, 'g', -1, 64)))
			}
			back.Release()
			mem.AssertSize(t, 0)
			sort.Strings(got)
			want := csvLines(t, path)
			if len(want) == 0 || len(got) != len(want) {
				t.Fatalf("%d rows read back, the CSV has %d lines", len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("row %d read back as %q, the CSV says %q", i, got[i], want[i])
				}
			}
		})
	}
}

// csvLines lists the data lines of a µOpTime CSV as "b_name iIR tSR itIT
// sBED n=N v=NS", sorted, splitting it with encoding/csv by header name.
func csvLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	var out []string
	for _, r := range recs[1:] {
		v, err := strconv.ParseFloat(r[col["ns_per_op"]], 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s i%s t%s it%s s%s n=%s v=%s", r[col["b_name"]], r[col["ir_pos"]], r[col["sr_pos"]],
			r[col["it_pos"]], r[col["bed_pos"]], r[col["n"]], strconv.FormatFloat(v, 'g', -1, 64)))
	}
	sort.Strings(out)
	return out
}
