package synth

import (
	"runtime"
	"testing"
	"time"

	"github.com/benchtrim/benchtrim/internal/testenv"
)

// countWriter discards its input and counts it.
type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return len(p), nil
}

func benchmarkWrite(b *testing.B, c SuiteConfig, format string) {
	s := mustSuite(b, c)
	b.ReportAllocs()
	var total int64
	for b.Loop() {
		w := &countWriter{}
		if err := s.Write(format, w); err != nil {
			b.Fatal(err)
		}
		total += w.n
	}
	b.ReportMetric(float64(total)/1e6/b.Elapsed().Seconds(), "MB/s")
	b.ReportMetric(float64(total)/float64(b.N)/1e6, "MB/op")
}

// BenchmarkWriteJMHSample measures writing sample-mode JMH JSON
// (generation, quantisation, statistics and formatting), in MB/s of output.
func BenchmarkWriteJMHSample(b *testing.B) {
	benchmarkWrite(b, sampleSuiteConfig(10), FormatJMH)
}

func BenchmarkWriteJMHAvgt(b *testing.B) {
	c := DefaultSuiteConfig()
	c.Benchmarks, c.Forks, c.Iterations = 20, 5, 200
	benchmarkWrite(b, c, FormatJMH)
}

func BenchmarkWriteUOpTimeCSV(b *testing.B) {
	c := UOpTimeSuiteConfig()
	c.Benchmarks = 100
	benchmarkWrite(b, c, FormatUOpTime)
}

func BenchmarkWritePASample(b *testing.B) {
	c := sampleSuiteConfig(4)
	c.Instances, c.Trials = 1, 1
	benchmarkWrite(b, c, formatPA)
}

// BenchmarkWriteJMHSample200MB writes a sample-mode JMH JSON of more than
// 200 MB to a counting writer and reports its throughput and the peak live
// heap (sampled every millisecond), which stays bounded by one record per
// worker because the writer streams.
func BenchmarkWriteJMHSample200MB(b *testing.B) {
	s := mustSuite(b, sampleSuiteConfig(140)) // ≈ 210 MB
	runtime.GC()
	peak := testenv.PeakHeap(time.Millisecond)
	var total int64
	for b.Loop() {
		w := &countWriter{}
		if err := s.WriteJMH(w); err != nil {
			b.Fatal(err)
		}
		if w.n < 200e6 {
			b.Fatalf("wrote %d bytes, want ≥ 200 MB", w.n)
		}
		total += w.n
	}
	peakBytes := peak()
	b.ReportMetric(float64(total)/1e6/b.Elapsed().Seconds(), "MB/s")
	b.ReportMetric(float64(total)/float64(b.N)/1e6, "MB/op")
	b.ReportMetric(float64(peakBytes)/1e6, "peak-heap-MB")
}

// BenchmarkWriteDemoData checks the demo's < 1 s target.
func BenchmarkWriteDemoData(b *testing.B) {
	dir := b.TempDir()
	for b.Loop() {
		if _, err := WriteDemoData(dir, 1); err != nil {
			b.Fatal(err)
		}
	}
}
