package pa

import (
	"math"
	"testing"

	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/table"
)

// FuzzRead feeds arbitrary bytes to Read. Read must not panic, must fail
// only with a *ingest.ParseError (in-memory input has no I/O errors), and
// the rows it keeps must satisfy the format's invariants.
func FuzzRead(f *testing.F) {
	ingesttest.AddSeeds(f, "testdata/*.csv")
	f.Add([]byte("project;commit;benchmark;params;instance;trial;fork;iteration;mode;unit;value_count;value\n;;b;a=1,,=2;;2147483647;1;1;thrpt;ops/ns;9223372036854775807;1e-320\n"))
	f.Add([]byte("project;commit;benchmark;params;instance;trial;fork;iteration;mode;unit;value_count;value\np\x01;c\xff;\"b\nx\";k=\x1b;m\x7f;1;1;1;weird;ns/op;1;5\np;c;b;;m;1;1;1;SingleShotTime;ns/op;1;5\n"))
	f.Add([]byte("project,commit,benchmark,params,instance,trial,fork,iteration,mode,unit,value_count,value\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tab := ingesttest.FuzzOnce(t, paFormat{}, data, "fuzz.csv")
		if tab == nil {
			return
		}
		seen := map[[5]any]bool{}
		tab.Rows(func(r *table.Row) error {
			k := table.Key{Project: r.Project, Version: r.Version, Benchmark: r.Benchmark, Params: r.Params, Mode: r.Mode}
			if _, err := table.ParseParams(r.Params); err != nil {
				t.Fatalf("params not canonical: %v", err)
			}
			if r.Count < 1 || r.Instance < 1 || r.Trial < 1 || r.Fork < 1 || r.Iteration < 1 || r.Benchmark == "" {
				t.Fatalf("bad row kept: %+v", r)
			}
			if math.IsNaN(r.NsPerOp) || math.IsInf(r.NsPerOp, 0) || r.NsPerOp < 0 || r.NsPerOp == 0 && r.Mode != "sample" {
				t.Fatalf("bad time kept: %+v", r)
			}
			if r.Mode != "sample" {
				lv := [5]any{k, r.Instance, r.Trial, r.Fork, r.Iteration}
				if seen[lv] {
					t.Fatalf("duplicate kept: %+v", r)
				}
				seen[lv] = true
			}
			return nil
		})
	})
}
