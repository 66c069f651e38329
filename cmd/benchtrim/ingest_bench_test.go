package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/internal/testenv"
)

// BenchmarkIngest runs `benchtrim ingest -o OUT.EXT big.json` end to end on
// a generated sample-mode JMH file (about 1.5 MB per benchmark) and
// reports MB/s of input (wall clock) and cpu-MB/s (per second of process
// CPU time, user + system: steadier on a shared machine). Profile it with
// -cpuprofile or -memprofile. BENCHTRIM_INGEST_INPUT names an input file to
// use instead of the generated one (the profile then holds no generator).
//
//	go test -run '^$' -bench Ingest -benchtime 2x ./cmd/benchtrim
func BenchmarkIngest(b *testing.B) {
	for _, n := range []int{20} {
		dir := b.TempDir()
		in := os.Getenv("BENCHTRIM_INGEST_INPUT")
		if in == "" {
			in = filepath.Join(dir, "big.json")
			if err := run([]string{"benchtrim", "-q", "generate", "--preset", "sample", "--benchmarks", fmt.Sprint(n), "-o", in}, io.Discard, io.Discard); err != nil {
				b.Fatal(err)
			}
		}
		st, err := os.Stat(in)
		if err != nil {
			b.Fatal(err)
		}
		for _, ext := range benchIngestExts() {
			b.Run(fmt.Sprintf("benchmarks=%d/%s", n, ext), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(st.Size())
				out := filepath.Join(dir, "out."+ext)
				cpu := testenv.CPUSeconds()
				for i := 0; i < b.N; i++ {
					if err := run([]string{"benchtrim", "-q", "ingest", "-o", out, in}, io.Discard, io.Discard); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(st.Size())*float64(b.N)/(testenv.CPUSeconds()-cpu)/1e6, "cpu-MB/s")
			})
		}
	}
}

// benchIngestExts is the output formats BenchmarkIngest writes: parquet,
// arrow and csv, or the comma-separated list in BENCHTRIM_INGEST_EXTS.
func benchIngestExts() []string {
	if s := os.Getenv("BENCHTRIM_INGEST_EXTS"); s != "" {
		return strings.Split(s, ",")
	}
	return []string{"parquet", "arrow", "csv"}
}
