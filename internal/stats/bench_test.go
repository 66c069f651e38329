package stats

import (
	"fmt"
	"testing"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/testenv"
)

// Flat bootstrap throughput: resample draws per second (B·n per CI) for the
// sizes of µOpTime configurations (n = 25, 225, 500), B = 10,000, 99 %.
//
//	go test -run '^$' -bench 'Bootstrap' ./internal/stats/
func BenchmarkBootstrap(b *testing.B) {
	kernels := []struct {
		name string
		ci   func([]float64, estimate.BootstrapOptions, *Stream, *Workspace) (estimate.Interval, error)
	}{
		{"mean", bootstrapMeanCI},
		{"median", bootstrapMedianCI},
		{"studentized", bootstrapMeanTCI},
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
					if _, err := k.ci(x, estimate.DefaultBootstrap, s, ws); err != nil {
						b.Fatal(err)
					}
				}
				draws := float64(b.N) * float64(estimate.DefaultBootstrap.Resamples) * float64(n)
				b.ReportMetric(draws/b.Elapsed().Seconds(), "draws/s")
			})
		}
	}
}

// Hierarchical bootstrap throughput on a JMH sample-mode benchmark: 5 forks ×
// 100 iterations × 1,000 invocation samples per iteration, stored as a
// histogram (values rounded to whole ns, about 70 distinct values per
// iteration) or as raw rows (count 1 each). Reports resamples/s and leaf
// draws/s.
//
//	go test -run '^$' -bench 'Hierarchical' ./internal/stats/
func BenchmarkHierarchical(b *testing.B) {
	s := NewStream(1, "bench-hier", 0)
	data := map[string]nested{
		"hist": makeNested(s, 5, 100, 1000, 1000, 10, 5, 20, true),
		"raw":  makeNested(s, 5, 100, 1000, 1000, 10, 5, 20, false),
	}
	for _, layout := range []string{"hist", "raw"} {
		d := data[layout]
		h := d.hierarchy(b)
		for _, stat := range []string{"mean", "median"} {
			for _, is := range []int{0, 1000, -1} {
				if layout == "raw" && is == 1000 {
					continue // same as -1 here
				}
				b.Run(fmt.Sprintf("%s/%s/is=%d", layout, stat, is), func(b *testing.B) {
					ci := HierarchicalMeanCI
					if stat == "median" {
						ci = hierarchicalMedianCI
					}
					resamples := 200 // per CI; the metric is per resample
					if is == 0 {
						resamples = 10000
					}
					opt := estimate.HierarchicalOptions{BootstrapOptions: estimate.BootstrapOptions{Resamples: resamples, Confidence: 0.99}, InvocationSamples: is}
					ws := new(Workspace)
					warm := opt
					warm.Resamples = 1
					ci(h, warm, s, ws) // build rank tables outside the timing
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						if _, err := ci(h, opt, s, ws); err != nil {
							b.Fatal(err)
						}
					}
					total := float64(b.N) * float64(resamples)
					leaves := 500.0
					if is != 0 {
						leaves = 500 * 1000
					}
					b.ReportMetric(total/b.Elapsed().Seconds(), "resamples/s")
					b.ReportMetric(total*(leaves+505)/b.Elapsed().Seconds(), "draws/s")
				})
			}
		}
	}
	// The same histogram drawn through alias tables instead of expanded ones.
	b.Run("hist-alias/mean/is=-1", func(b *testing.B) {
		defer func(v uint64) { expandMaxTotal = v }(expandMaxTotal)
		expandMaxTotal = 0
		h := data["hist"].hierarchy(b)
		opt := estimate.HierarchicalOptions{BootstrapOptions: estimate.BootstrapOptions{Resamples: 200, Confidence: 0.99}, InvocationSamples: -1}
		ws := new(Workspace)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := HierarchicalMeanCI(h, opt, s, ws); err != nil {
				b.Fatal(err)
			}
		}
		total := float64(b.N) * 200
		b.ReportMetric(total/b.Elapsed().Seconds(), "resamples/s")
		b.ReportMetric(total*(500*1000+505)/b.Elapsed().Seconds(), "draws/s")
	})
	// pa's index draws (HierarchicalOptions.PAIndices), as `compare --pa`
	// makes them: alias-table draws at every level.
	b.Run("hist/ratio-pa/is=0", func(b *testing.B) {
		test := makeNested(s, 5, 100, 1000, 1010, 10, 5, 20, true).hierarchy(b)
		control := data["hist"].hierarchy(b)
		opt := defaultHierarchical
		opt.PAIndices = true
		ws := new(Workspace)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := HierarchicalRatioCI(test, control, opt, s, ws); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)*2*10000/b.Elapsed().Seconds(), "resamples/s")
		b.ReportMetric(float64(b.N)*2*10000*505/b.Elapsed().Seconds(), "draws/s")
	})
	b.Run("hist/ratio/is=0", func(b *testing.B) {
		test := makeNested(s, 5, 100, 1000, 1010, 10, 5, 20, true).hierarchy(b)
		control := data["hist"].hierarchy(b)
		ws := new(Workspace)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := HierarchicalRatioCI(test, control, defaultHierarchical, s, ws); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)*2*10000/b.Elapsed().Seconds(), "resamples/s")
	})
}

// KLD stability probability of two samples of n values each (1,000 strips),
// as the dynamic reconfiguration criterion computes it once per iteration.
//
//	go test -run '^$' -bench 'KLD' ./internal/stats/
func BenchmarkKLDStability(b *testing.B) {
	s := NewStream(1, "bench-kld", 0)
	for _, n := range []int{1000, 5000, 50000} {
		x, y := normals(s, n, 1000, 20), normals(s, n, 1002, 20)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := kldStability(x, nil, y, nil, defaultKLD); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// histogram data: 5,000 invocations rounded to whole ns, with counts
	hx, hy := makeNested(s, 1, 5, 1000, 1000, 0, 0, 20, true), makeNested(s, 1, 5, 1000, 1002, 0, 0, 20, true)
	b.Run("hist/n=5000", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := kldStability(hx.values, hx.weights, hy.values, hy.weights, defaultKLD); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkResampleKernels times the flat bootstrap's kernels for the
// mean, the t statistic, the median's counts and the shared resampling
// (64 calls of sharedAsm, one of countsAsm, countsVecAsm or sharedVecAsm), on the scalar generator and (with AVX-512) on
// the vector one, per draw: batches of 64 resamples of n values.
//
//	go test -run '^$' -bench ResampleKernels ./internal/stats/
func BenchmarkResampleKernels(b *testing.B) {
	if !haveDrawKernel {
		testenv.Skip(b, "no draw kernels in this build")
	}
	for _, n := range []int{6, 12, 24, 75} {
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(i) - 7
		}
		s, q, d := make([]float64, 64), make([]float64, 64), make([]uint64, 64)
		c, c64, s2 := make([]int32, n), make([]int32, 64*n), make([]float64, 64)
		st := NewStream(1, "kernels", 1)
		th, th16 := lemireThresh(n), sharedThresh(n)
		centred := make([]float64, n)
		for i, v := range x {
			centred[i] = v - 30
		}
		vec := newSharedRecords(x, centred, new(Workspace))
		kernels := []struct {
			name string
			run  func()
		}{
			{"means", func() { meansAsm(&st.pcg, x, s, th) }},
			{"t", func() { tSumsAsm(&st.pcg, x, th, s, q, d) }},
			{"counts", func() {
				clear(c64)
				countsAsm(&st.pcg, c64, n, th)
			}},
			{"shared", func() {
				for range 64 {
					clear(c)
					sharedAsm(&st.pcg, x, centred, c, th16, th)
				}
			}},
		}
		if haveVecPCG {
			kernels = append(kernels, []struct {
				name string
				run  func()
			}{
				{"means-vec", func() { meansVecAsm(&st.pcg, x, s, th) }},
				{"t-vec", func() { tSumsVecAsm(&st.pcg, x, th, s, q, d) }},
				{"counts-vec", func() {
					clear(c64)
					countsVecAsm(&st.pcg, c64, n, th)
				}},
				{"shared-vec", func() {
					clear(c64)
					sharedVecAsm(&st.pcg, vec.rec, c64, n, th16, th, s, q, s2, d)
				}},
			}...)
		}
		for _, k := range kernels {
			b.Run(fmt.Sprintf("%s/n=%d", k.name, n), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					k.run()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*64*n), "ns/draw")
			})
		}
	}
}

// BenchmarkMedianPos compares medianPos with medianFromCounts' loop on
// the counts of resamples of n draws (per resample).
func BenchmarkMedianPos(b *testing.B) {
	if !haveTailsMask {
		testenv.Skip(b, "no medianPos in this build")
	}
	for _, n := range []int{8, 12, 16, 24, 40, 75} {
		st := NewStream(1, "median", uint64(n))
		rows := make([][]int32, 64)
		for r := range rows {
			rows[r] = make([]int32, n)
			for range n {
				rows[r][st.IntN(n)]++
			}
		}
		k := int32((n - 1) / 2)
		b.Run(fmt.Sprintf("loop/n=%d", n), func(b *testing.B) {
			var sink int
			for i := 0; i < b.N; i++ {
				counts := rows[i%64]
				j, c := 0, counts[0]
				for c <= k {
					j++
					c += counts[j]
				}
				sink += j
			}
			_ = sink
		})
		b.Run(fmt.Sprintf("medianPos/n=%d", n), func(b *testing.B) {
			var sink int
			for i := 0; i < b.N; i++ {
				j, _ := medianPos(rows[i%64], k)
				sink += j
			}
			_ = sink
		})
	}
}
