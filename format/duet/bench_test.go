package duet

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/table"
)

// BenchmarkRead reads duetprocess CSVs of the duet preset with runs × 40
// iterations per pair (9,600 rows at 10 runs, 96,000 at 100), reporting
// rows/s and MB/s.
//
//	go test -run '^$' -bench Read ./format/duet/
func BenchmarkRead(b *testing.B) {
	for _, runs := range []int{10, 100} {
		cfg := synth.DefaultDuetConfig()
		cfg.Runs = runs
		var buf bytes.Buffer
		d, err := synth.GenerateDuet(cfg)
		if err != nil {
			b.Fatal(err)
		}
		if err := d.WriteCSV(&buf); err != nil {
			b.Fatal(err)
		}
		data := buf.Bytes()
		b.Run(fmt.Sprintf("rows=%d", runs*960), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			var rows int64
			for i := 0; i < b.N; i++ {
				tb := table.NewBuilder(memory.NewGoAllocator(), 0)
				var rep ingest.Summary
				if err := (format{}).Read(bytes.NewReader(data), ingest.Source{File: "b.csv"}, tb, &rep); err != nil {
					b.Fatal(err)
				}
				t := tb.Finish()
				rows = t.NumRows()
				t.Release()
				tb.Release()
			}
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
