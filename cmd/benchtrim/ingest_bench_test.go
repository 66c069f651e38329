package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkIngest runs `benchtrim ingest -o OUT.EXT big.json` end to end on
// a generated sample-mode JMH file (about 1.5 MB per benchmark) and
// reports MB/s of input. Profile it with -cpuprofile or -memprofile.
func BenchmarkIngest(b *testing.B) {
	for _, n := range []int{20} {
		dir := b.TempDir()
		in := filepath.Join(dir, "big.json")
		if err := run([]string{"benchtrim", "-q", "generate", "--preset", "sample", "--benchmarks", fmt.Sprint(n), "-o", in}, io.Discard, io.Discard); err != nil {
			b.Fatal(err)
		}
		st, err := os.Stat(in)
		if err != nil {
			b.Fatal(err)
		}
		for _, ext := range []string{"parquet", "arrow", "csv"} {
			b.Run(fmt.Sprintf("benchmarks=%d/%s", n, ext), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(st.Size())
				out := filepath.Join(dir, "out."+ext)
				for i := 0; i < b.N; i++ {
					if err := run([]string{"benchtrim", "-q", "ingest", "-o", out, in}, io.Discard, io.Discard); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
