package pa

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
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
	ingesttest.BenchRead(b, paFormat{}, data, "gen.csv", rows)
}
