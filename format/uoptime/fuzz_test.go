package uoptime

import (
	"math"
	"testing"

	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/table"
)

// FuzzRead feeds arbitrary bytes to Read of both layouts. Read must not
// panic, must fail only with a *ingest.ParseError (the input is in memory,
// so no I/O errors), and every row it keeps must satisfy the format's
// invariants: a positive finite ns_per_op equal to the value, a count ≥ 1,
// and no two rows of one benchmark run at the same place.
func FuzzRead(f *testing.F) {
	ingesttest.AddSeeds(f, "testdata/*.csv")
	f.Add([]byte("b_name,ns_per_op\n"))
	f.Add([]byte("n,ns_per_op,bed_setup,it_setup,sr_setup,ir_setup,bed_pos,it_pos,sr_pos,ir_pos,b_name\n1,1,2147483647,2147483647,2147483647,2147483647,1,1,1,1,B\n"))
	f.Add([]byte("m_id,n,ns_per_op,bed_setup,it_setup,sr_setup,ir_setup,bed_pos,it_pos,sr_pos,ir_pos,b_name\n1,10,5.5,1,1,1,1,1,1,1,1,\"B\n\xff\x1b\"\n"))
	f.Add([]byte("m_id;n;ns_per_op;bed_setup;it_setup;sr_setup;ir_setup;bed_pos;it_pos;sr_pos;ir_pos;b_name\n"))
	f.Add([]byte(jmhHeader + "0,10.0,5.5,2147483647,2147483647,1,1,p#B#x=1&y=2\n1,10.0,5.5,2147483647,2147483647,1,1,p#B#y=2&x=1\n"))
	f.Add([]byte(jmhHeader + "0,10.0,5.5,1,1,1,1,\"p#B\n#\xff=\x1b&&=\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, ff := range []format{goFormat, jmhFormat} {
			tab := ingesttest.FuzzOnce(t, ff, data, "fuzz.csv")
			if tab == nil {
				continue
			}
			seen := map[[9]any]bool{}
			tab.Rows(func(r *table.Row) error {
				if math.IsNaN(r.NsPerOp) || math.IsInf(r.NsPerOp, 0) || r.NsPerOp <= 0 || r.Value != r.NsPerOp || r.Count < 1 {
					t.Fatalf("%s: bad row kept: %+v", ff.Name(), r)
				}
				k := [9]any{r.Project, r.Benchmark, r.Params, r.Mode, r.Instance, r.Trial, r.Fork, r.Iteration, r.Slice}
				if seen[k] {
					t.Fatalf("%s: duplicate row kept: %+v", ff.Name(), r)
				}
				seen[k] = true
				return nil
			})
		}
	})
}
