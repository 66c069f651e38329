package duet

import (
	"math"
	"testing"

	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/table"
)

// FuzzRead feeds arbitrary bytes to Read. Read must not panic, must fail
// only with a *ingest.ParseError (in-memory input has no I/O errors), and
// the rows it keeps must satisfy the format's invariants: a setup with
// the iteration offset for every key, a duet mode, pair A or B, a positive
// finite time, end ≥ start, and no (run, pair, iteration) twice.
//
//	go test -run '^$' -fuzz '^FuzzRead$' -fuzztime 60s -fuzzminimizetime 100x ./format/duet/
func FuzzRead(f *testing.F) {
	ingesttest.AddSeeds(f, "testdata/*.csv")
	f.Add([]byte(header + "dacapo,h2,duet,AB,A,0,1,10,100,110,d,cirrus1,NaN,m,u\ndacapo,h2,sequential,AB,B,2147483646,0,1e400,1.7e18,-1,,,,,\n"))
	f.Add([]byte(header + "x\xff,\"b\nc\",syncduet,AB,A,0,1,10,100,110,d\x01,h,c,m,u\nx,b,duet,AB,A,0,1,10,100,110,d,h,c,m,u\nx,b,duet,AB,A,0,1,10,100,110,d,h,c,m,u\n"))
	f.Add([]byte("suite;benchmark;type;pair;runid;iteration;iteration_time_ns;iteration_start_ns;iteration_end_ns\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tab := ingesttest.FuzzOnce(t, format{}, data, "fuzz.csv")
		if tab == nil {
			return
		}
		for _, s := range tab.Setups {
			if o := s.Env["iteration_offset"]; o != "0" && o != "1" || s.Tool != "duet" {
				t.Fatalf("setup %+v", s)
			}
		}
		seen := map[[5]any]bool{}
		tab.Rows(func(r *table.Row) error {
			k := table.Key{Project: r.Project, Version: r.Version, Benchmark: r.Benchmark, Params: r.Params, Mode: r.Mode}
			if r.Mode != "seqn" && r.Mode != "syncduet" && r.Mode != "duet" || r.Pair != "A" && r.Pair != "B" {
				t.Fatalf("bad mode or pair kept: %+v", r)
			}
			if math.IsNaN(r.NsPerOp) || math.IsInf(r.NsPerOp, 0) || r.NsPerOp <= 0 || !r.HasTime || r.EndNs < r.StartNs {
				t.Fatalf("bad time kept: %+v", r)
			}
			if r.Benchmark == "" || r.Project == "" || r.Fork < 1 || r.Iteration < 1 || r.Count != 1 {
				t.Fatalf("bad row kept: %+v", r)
			}
			lv := [5]any{k, r.Instance, r.Fork, r.Pair, r.Iteration}
			if seen[lv] {
				t.Fatalf("duplicate kept: %+v", r)
			}
			seen[lv] = true
			return nil
		})
	})
}
