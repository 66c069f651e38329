package uoptime

import (
	"math"
	"testing"

	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/table"
)

// FuzzRead feeds arbitrary bytes to Read. Read must not panic, must fail
// only with a *ingest.ParseError (the input is in memory, so no I/O
// errors), and every row it keeps must satisfy the format's invariants.
func FuzzRead(f *testing.F) {
	ingesttest.AddSeeds(f, "testdata/*.csv")
	f.Add([]byte("b_name,ns_per_op\n"))
	f.Add([]byte("n,ns_per_op,bed_setup,it_setup,sr_setup,ir_setup,bed_pos,it_pos,sr_pos,ir_pos,b_name\n1,1,2147483647,2147483647,2147483647,2147483647,1,1,1,1,B\n"))
	f.Add([]byte("m_id,n,ns_per_op,bed_setup,it_setup,sr_setup,ir_setup,bed_pos,it_pos,sr_pos,ir_pos,b_name\n1,10,5.5,1,1,1,1,1,1,1,1,\"B\n\xff\x1b\"\n"))
	f.Add([]byte("m_id;n;ns_per_op;bed_setup;it_setup;sr_setup;ir_setup;bed_pos;it_pos;sr_pos;ir_pos;b_name\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tab := ingesttest.FuzzOnce(t, format{}, data, "fuzz.csv")
		if tab == nil {
			return
		}
		seen := map[[5]any]bool{}
		tab.Rows(func(r *table.Row) error {
			if math.IsNaN(r.NsPerOp) || math.IsInf(r.NsPerOp, 0) || r.NsPerOp <= 0 || r.Value != r.NsPerOp || r.Count < 1 {
				t.Fatalf("bad row kept: %+v", r)
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
