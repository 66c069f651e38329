package uoptime

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/table"
)

// generateSuite writes a µOpTime CSV for a suite of benchmarks, each with
// the real data's 3 instances × 3 suite runs × 5 iterations × 5 slices
// (225 rows), lognormal times around a per-benchmark level. Rows are in the
// real files' order (benchmark blocks per instance).
func generateSuite(benchmarks int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 0x756f7074))
	var buf bytes.Buffer
	buf.WriteString("m_id,n,ns_per_op,bed_setup,it_setup,sr_setup,ir_setup,bed_pos,it_pos,sr_pos,ir_pos,b_name\n")
	level := make([]float64, benchmarks)
	for i := range level {
		level[i] = math.Exp(rng.Float64()*14 - 4) // 0.02 ns .. 22 µs
	}
	id := 0
	for ir := 1; ir <= 3; ir++ {
		for bi := 0; bi < benchmarks; bi++ {
			for sr := 1; sr <= 3; sr++ {
				for it := 1; it <= 5; it++ {
					for bed := 1; bed <= 5; bed++ {
						id++
						ns := level[bi] * math.Exp(0.05*rng.NormFloat64())
						n := int64(1e9 / ns)
						if n < 1 {
							n = 1
						}
						fmt.Fprintf(&buf, "%d,%d,%.4g,5,5,3,3,%d,%d,%d,%d,BenchmarkGenerated%d/size=%d\n", id, n, ns, bed, it, sr, ir, bi/10, bi%10)
					}
				}
			}
		}
	}
	return buf.Bytes()
}

func TestGenerateSuite(t *testing.T) {
	data := generateSuite(4, 1)
	tab, rep, err := readFrom(t, bytes.NewReader(data), "gen.csv")
	if err != nil || !rep.Empty() {
		t.Fatalf("err %v, report empty %v", err, rep.Empty())
	}
	if tab.NumRows() != 4*225 || len(tab.Setups) != 4 {
		t.Errorf("%d rows %d setups, want 900 and 4", tab.NumRows(), len(tab.Setups))
	}
}

// peakAllocator wraps an Arrow allocator and tracks its current and peak
// allocated bytes.
type peakAllocator struct {
	memory.Allocator
	cur, peak int64
}

func (a *peakAllocator) Allocate(n int) []byte {
	a.cur += int64(n)
	a.peak = max(a.peak, a.cur)
	return a.Allocator.Allocate(n)
}

func (a *peakAllocator) Reallocate(n int, b []byte) []byte {
	a.cur += int64(n - len(b))
	a.peak = max(a.peak, a.cur)
	return a.Allocator.Reallocate(n, b)
}

func (a *peakAllocator) Free(b []byte) {
	a.cur -= int64(len(b))
	a.Allocator.Free(b)
}

// benchRead ingests data b.N times and reports rows/s, the Arrow table's
// size (table-MB) and the peak of Arrow memory during the read
// (arrow-peak-MB, which includes builder growth).
func benchRead(b *testing.B, data []byte, rows int) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu0 := testenv.CPUSeconds()
	var tableBytes, peak int64
	for i := 0; i < b.N; i++ {
		mem := &peakAllocator{Allocator: memory.NewGoAllocator()}
		tb := table.NewBuilder(mem, 0)
		var rep ingest.Summary
		if err := (goFormat).Read(bytes.NewReader(data), ingest.Source{File: "gen.csv"}, tb, &rep); err != nil {
			b.Fatal(err)
		}
		tab := tb.Finish()
		tb.Release()
		if tab.NumRows() != int64(rows) {
			b.Fatalf("%d rows, want %d", tab.NumRows(), rows)
		}
		tableBytes, peak = mem.cur, mem.peak
		tab.Release()
	}
	cpu := testenv.CPUSeconds() - cpu0
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(rows)*float64(b.N)/cpu, "cpu-rows/s")
	b.ReportMetric(float64(len(data))*float64(b.N)/cpu/1e6, "cpu-MB/s")
	b.ReportMetric(float64(tableBytes)/1e6, "table-MB")
	b.ReportMetric(float64(peak)/1e6, "arrow-peak-MB")
}

// BenchmarkRead ingests a generated suite of 1,000 benchmarks × 225 rows
// and, when present, the real µOpTime files of ../shared/data.
func BenchmarkRead(b *testing.B) {
	data := generateSuite(1000, 1)
	b.Run("generated/benchmarks=1000", func(b *testing.B) { benchRead(b, data, 1000*225) })
	dir := filepath.Join("..", "..", "..", "shared", "data", "uoptime-go")
	files, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
	for _, f := range files {
		real, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		rows := bytes.Count(real, []byte("\n")) - 1
		b.Run("real/"+filepath.Base(f), func(b *testing.B) { benchRead(b, real, rows) })
	}
}
