package gobench

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
// only with a *ingest.ParseError (in-memory input has no I/O errors), and
// the rows it keeps must satisfy the format's invariants.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("testdata/*")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("BenchmarkX-8 1 1 ns/op\nBenchmarkX 1 1 ns/op\nBenchmarkX/a=1/a=2-99 1 1 ns/op 1 ns/op\n"))
	f.Add([]byte(`{"Action":"output","Output":"BenchmarkA \t"}` + "\n" + `{"Action":"output","Output":"1 2 ns/op\n"}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b := table.NewBuilder(memory.NewGoAllocator(), 256)
		defer b.Release()
		var rep ingest.Report
		err := Format{}.Read(bytes.NewReader(data), ingest.Source{File: "fuzz.txt"}, b, &rep)
		if err != nil {
			var pe *ingest.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T) is not a *ingest.ParseError", err, err)
			}
			return
		}
		tab := b.Finish()
		defer tab.Release()
		setups := map[table.Key]bool{}
		for _, s := range tab.Setups {
			setups[s.Key] = true
		}
		tab.Rows(func(r *table.Row) error {
			if r.Count < 1 || r.Iteration < 1 || r.Line < 1 {
				t.Fatalf("bad levels: %+v", r)
			}
			if !setups[table.Key{Project: r.Project, Version: r.Version, Benchmark: r.Benchmark, Params: r.Params, Mode: r.Mode}] {
				t.Fatalf("row without setup: %+v", r)
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
