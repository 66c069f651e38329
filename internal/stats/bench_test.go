package stats

import (
	"fmt"
	"testing"
)

// Flat bootstrap throughput: resample draws per second (B·n per CI) for the
// sizes of µOpTime configurations (n = 25, 225, 500), B = 10,000, 99 %.
//
//	go test -run '^$' -bench 'Bootstrap' ./internal/stats/
func BenchmarkBootstrap(b *testing.B) {
	kernels := []struct {
		name string
		ci   func([]float64, BootstrapOptions, *Stream, *Workspace) (Interval, error)
	}{
		{"mean", BootstrapMeanCI},
		{"median", BootstrapMedianCI},
		{"studentized", BootstrapMeanTCI},
	}
	for _, k := range kernels {
		for _, n := range []int{25, 225, 500} {
			b.Run(fmt.Sprintf("%s/n=%d", k.name, n), func(b *testing.B) {
				s := NewStream(1, "bench", uint64(n))
				x := normals(s, n, 1000, 20)
				ws := new(Workspace)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if _, err := k.ci(x, DefaultBootstrap, s, ws); err != nil {
						b.Fatal(err)
					}
				}
				draws := float64(b.N) * float64(DefaultBootstrap.Resamples) * float64(n)
				b.ReportMetric(draws/b.Elapsed().Seconds(), "draws/s")
			})
		}
	}
}
