package pa

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/table"
)

// generateCSV writes a bencher-style CSV: benchmarks × 2 params × 3
// instances × 2 trials × 3 forks × 10 iterations in avgt mode (us/op, Java
// %e values), rows = benchmarks·360.
func generateCSV(benchmarks int, seed uint64) (data []byte, rows int) {
	rng := rand.New(rand.NewPCG(seed, 0x7061))
	var buf bytes.Buffer
	buf.WriteString("project;commit;benchmark;params;instance;trial;fork;iteration;mode;unit;value_count;value\n")
	for b := 0; b < benchmarks; b++ {
		level := math.Exp(rng.Float64()*10 - 3)
		for p := 0; p < 2; p++ {
			for inst := 1; inst <= 3; inst++ {
				for tr := 1; tr <= 2; tr++ {
					for fk := 1; fk <= 3; fk++ {
						for it := 1; it <= 10; it++ {
							v := level * math.Exp(0.05*rng.NormFloat64())
							fmt.Fprintf(&buf, "proj;abc1234;org.example.bench.Suite%d.method%d;size=%d,type=hash;m%d;%d;%d;%d;avgt;us/op;1;%.6e\n",
								b/50, b%50, 10<<p, inst, tr, fk, it, v)
							rows++
						}
					}
				}
			}
		}
	}
	return buf.Bytes(), rows
}

func TestGenerateCSV(t *testing.T) {
	data, rows := generateCSV(3, 1)
	tab, rep, err := readFrom(t, bytes.NewReader(data), ingest.Source{File: "gen.csv"})
	if err != nil || !rep.Empty() {
		t.Fatalf("err %v report %s", err, reportText(rep))
	}
	if tab.NumRows() != int64(rows) || len(tab.Setups) != 6 {
		t.Errorf("%d rows %d setups, want %d and 6", tab.NumRows(), len(tab.Setups), rows)
	}
}

// BenchmarkRead ingests a generated bencher CSV of 1,000 benchmarks ×
// 360 rows.
func BenchmarkRead(b *testing.B) {
	data, rows := generateCSV(1000, 1)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu0 := cpuSeconds(b)
	for i := 0; i < b.N; i++ {
		tb := table.NewBuilder(memory.NewGoAllocator(), 0)
		var rep ingest.Report
		if err := (Format{}).Read(bytes.NewReader(data), ingest.Source{File: "gen.csv"}, tb, &rep); err != nil {
			b.Fatal(err)
		}
		tab := tb.Finish()
		if tab.NumRows() != int64(rows) {
			b.Fatalf("%d rows, want %d", tab.NumRows(), rows)
		}
		tab.Release()
		tb.Release()
	}
	cpu := cpuSeconds(b) - cpu0
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(rows)*float64(b.N)/cpu, "cpu-rows/s")
	b.ReportMetric(float64(len(data))*float64(b.N)/cpu/1e6, "cpu-MB/s")
}

// cpuSeconds is the process's user + system CPU time. Throughput per CPU
// second (cpu-MB/s, cpu-rows/s) stays meaningful on a machine shared with
// other work, where wall-clock MB/s is not.
func cpuSeconds(b *testing.B) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
