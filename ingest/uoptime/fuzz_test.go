package uoptime

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/table"
)

// FuzzRead feeds arbitrary bytes to Read. Read must not panic, must fail
// only with a *ingest.ParseError (the input is in memory, so no I/O
// errors), and every row it keeps must satisfy the format's invariants.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.csv")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("b_name,ns_per_op\n"))
	f.Add([]byte("n,ns_per_op,bed_setup,it_setup,sr_setup,ir_setup,bed_pos,it_pos,sr_pos,ir_pos,b_name\n1,1,2147483647,2147483647,2147483647,2147483647,1,1,1,1,B\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b := table.NewBuilder(memory.NewGoAllocator(), 256)
		defer b.Release()
		var rep ingest.Report
		err := Format{}.Read(bytes.NewReader(data), ingest.Source{File: "fuzz.csv"}, b, &rep)
		if err != nil {
			var pe *ingest.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T) is not a *ingest.ParseError", err, err)
			}
			return
		}
		tab := b.Finish()
		defer tab.Release()
		setups := map[string]*table.Setup{}
		for i := range tab.Setups {
			setups[tab.Setups[i].Benchmark] = &tab.Setups[i]
		}
		seen := map[[5]any]bool{}
		tab.Rows(func(r *table.Row) error {
			if math.IsNaN(r.NsPerOp) || math.IsInf(r.NsPerOp, 0) || r.NsPerOp <= 0 || r.Value != r.NsPerOp || r.Count < 1 {
				t.Fatalf("bad row kept: %+v", r)
			}
			if setups[r.Benchmark] == nil {
				t.Fatalf("row without setup: %+v", r)
			}
			k := [5]any{r.Benchmark, r.Instance, r.Trial, r.Iteration, r.Slice}
			if seen[k] {
				t.Fatalf("duplicate row kept: %+v", r)
			}
			seen[k] = true
			return nil
		})
	})
}
