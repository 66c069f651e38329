package gobench

import (
	"math"
	"testing"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/table"
)

// FuzzRead feeds arbitrary bytes to Read. Read must not panic, must fail
// only with a *ingest.ParseError (in-memory input has no I/O errors), and
// the rows it keeps must satisfy the format's invariants.
func FuzzRead(f *testing.F) {
	ingesttest.AddSeeds(f, "testdata/*")
	f.Add([]byte("BenchmarkX-8 1 1 ns/op\nBenchmarkX 1 1 ns/op\nBenchmarkX/a=1/a=2-99 1 1 ns/op 1 ns/op\n"))
	f.Add([]byte(`{"Action":"output","Output":"BenchmarkA \t"}` + "\n" + `{"Action":"output","Output":"1 2 ns/op\n"}` + "\n"))
	f.Add([]byte("pkg: a\x1b\ncommit: \x7f\nUnit x\x01/op k\x02=v\x03\nBenchmarkC\x01-0 1 2 ns/op 3 x\x01/op\n"))
	f.Add([]byte("{\"Action\":\"output\",\"Output\":\"BenchmarkU\xff-4 10 7 ns/op\\u001b\\n\"}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tab := ingesttest.FuzzOnce(t, gobenchFormat{}, data, "fuzz.txt")
		if tab == nil {
			return
		}
		tab.Rows(func(r *table.Row) error {
			if r.Count < 1 || r.Iteration < 1 || r.Line < 1 {
				t.Fatalf("bad levels: %+v", r)
			}
			if r.Metric == table.Primary {
				if kind, _ := ingest.ClassifyUnit(r.Unit); kind != ingest.UnitTimePerOp {
					t.Fatalf("primary row with unit %q", r.Unit)
				}
				if math.IsNaN(r.NsPerOp) || math.IsInf(r.NsPerOp, 0) || r.NsPerOp <= 0 {
					t.Fatalf("bad primary time kept: %+v", r)
				}
			} else if !math.IsNaN(r.NsPerOp) || math.IsNaN(r.Value) || math.IsInf(r.Value, 0) || r.Metric != r.Unit {
				t.Fatalf("bad metric row kept: %+v", r)
			}
			return nil
		})
	})
}
