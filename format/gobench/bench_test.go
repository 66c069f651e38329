package gobench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
)

// generateOutput writes go test -bench -benchmem -count output for a suite
// of benchmarks in 10 packages, each line with ns/op, MB/s, B/op and
// allocs/op (4 rows). With asJSON the text is wrapped in test2json events,
// each result line split in two as go test does.
func generateOutput(benchmarks, count int, seed uint64, asJSON bool) (data []byte, rows int) {
	rng := rand.New(rand.NewPCG(seed, 0x676f62))
	var text strings.Builder
	perPkg := (benchmarks + 9) / 10
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	emit := func(pkg, s string) {
		if !asJSON {
			text.WriteString(s)
			return
		}
		enc.Encode(map[string]string{"Action": "output", "Package": pkg, "Output": s})
	}
	for b := 0; b < benchmarks; b++ {
		pkg := fmt.Sprintf("example.com/mod/pkg%d", b/perPkg)
		if b%perPkg == 0 {
			emit(pkg, "goos: linux\ngoarch: amd64\npkg: "+pkg+"\ncpu: AMD EPYC 7B13\n")
		}
		level := math.Exp(rng.Float64()*12 - 2)
		for c := 0; c < count; c++ {
			ns := level * math.Exp(0.03*rng.NormFloat64())
			n := int64(1e9/ns) + 1
			name := fmt.Sprintf("BenchmarkOp%d/size=%d-8", b%perPkg, 1<<(b%7))
			emit(pkg, fmt.Sprintf("%-40s\t", name))
			emit(pkg, fmt.Sprintf("%10d\t%12.4g ns/op\t%8.2f MB/s\t%6d B/op\t%4d allocs/op\n", n, ns, 1e3/ns, b%97*8, b%5))
			rows += 4
		}
	}
	if asJSON {
		return buf.Bytes(), rows
	}
	return []byte(text.String()), rows
}

func TestGenerateOutput(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		data, rows := generateOutput(20, 3, 1, asJSON)
		tab, rep, err := readFrom(t, bytes.NewReader(data), ingest.Source{File: "gen"})
		if err != nil || !rep.Empty() {
			t.Fatalf("json %v: err %v report %s", asJSON, err, reportText(rep))
		}
		if tab.NumRows() != int64(rows) || len(tab.Setups) != 20 {
			t.Errorf("json %v: %d rows %d setups, want %d and 20", asJSON, tab.NumRows(), len(tab.Setups), rows)
		}
	}
}

// BenchmarkRead ingests generated go test -bench output of 1,000
// benchmarks × -count 10 (40,000 rows), as text and as -json.
func BenchmarkRead(b *testing.B) {
	for _, asJSON := range []bool{false, true} {
		data, rows := generateOutput(1000, 10, 1, asJSON)
		b.Run(fmt.Sprintf("json=%v", asJSON), func(b *testing.B) {
			ingesttest.BenchRead(b, gobenchFormat{}, data, "gen", rows)
		})
	}
}
