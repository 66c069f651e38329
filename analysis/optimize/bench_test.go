package optimize

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/table"
)

// BenchmarkBootstrapDraws measures the RCIW metrics as the optimiser calls
// them (workspace reused, one stream per configuration): resample draws/s.
func BenchmarkBootstrapDraws(b *testing.B) {
	for _, m := range []Metric{RCIWMean, RCIWMeanT, RCIWMedian} {
		for _, n := range []int{25, 75, 225} {
			b.Run(fmt.Sprintf("%s/n=%d", m, n), func(b *testing.B) {
				r := rand.New(rand.NewPCG(1, uint64(n)))
				x := make([]float64, n)
				for i := range x {
					x[i] = 100 * (1 + 0.02*r.NormFloat64())
				}
				ws := new(workspace)
				opt := estimate.DefaultBootstrap
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					metricValue(m, x, false, opt, newStream(1, "bench", m.ciMethod(), Config{int32(i)}), ws)
				}
				b.ReportMetric(float64(b.N)*float64(opt.Resamples)*float64(n)/b.Elapsed().Seconds(), "draws/s")
			})
		}
	}
}

// BenchmarkConfigurations measures how many configurations per second the
// exhaustive search evaluates (metric and CI) on µOpTime-shaped Go data
// (3 × 3 × 5 × 5, 225 configurations) with 10,000 resamples, per metric.
func BenchmarkConfigurations(b *testing.B) {
	series := build(b, goSuite("p", "v1", 4, 1, nil)...)
	for _, m := range allMetrics {
		for _, all := range []bool{true, false} {
			name := "pruned"
			if all {
				name = "all-configs"
			}
			b.Run(m.String()+"/"+name, func(b *testing.B) {
				opt := DefaultOptions
				opt.Metrics = []Metric{m}
				opt.AllConfigs = all
				opt.Workers = 1
				b.ReportAllocs()
				b.ResetTimer()
				evaluated := 0
				for i := 0; i < b.N; i++ {
					rep, err := optimize(series, opt)
					if err != nil {
						b.Fatal(err)
					}
					for _, r := range rep.Results {
						evaluated += r.Evaluated
					}
				}
				b.ReportMetric(float64(evaluated)/b.Elapsed().Seconds(), "configs/s")
				b.ReportMetric(float64(b.N*len(series))/b.Elapsed().Seconds(), "benchmarks/s")
			})
		}
	}
}

// BenchmarkZapPrototype times µOpTime with the prototype's settings (all
// five metrics, 10,000 resamples at 99 %, --first instance, one worker) on
// zap-v1.19.1 of µOpTime's Go data (../shared/data/uoptime-go), the run
// compared with the prototype's optimizer_go.py in docs/optimize.md:
//
//	go test ./analysis/optimize -run '^$' -bench ZapPrototype -benchtime 10x
//
// results computes every CI the per-benchmark results show (optimize with
// -o; the prototype's files hold the same CIs); summary skips them
// (NoReportedCIs: optimize printing only its answer). cpu-s/op is the
// process's user and system CPU time per run (getrusage; unlike ns/op it
// does not grow when other processes load the machine); the command adds
// start-up and the CSV ingest.
func BenchmarkZapPrototype(b *testing.B) {
	path := filepath.Join(testenv.Shared(b, "data", "uoptime-go"), "zap-v1.19.1.csv")
	series, release := readUoptime(b, path)
	defer release()
	for _, summary := range []bool{false, true} {
		name := "results"
		if summary {
			name = "summary"
		}
		b.Run(name, func(b *testing.B) {
			opt := prototypeOptions(allMetrics...)
			opt.Bootstrap = estimate.DefaultBootstrap
			opt.Workers = 1
			opt.NoReportedCIs = summary
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := testenv.CPUSeconds()
			var evaluated, rejected int
			for i := 0; i < b.N; i++ {
				rep, err := optimize(series, opt)
				if err != nil {
					b.Fatal(err)
				}
				evaluated, rejected = 0, 0
				for _, r := range rep.Results {
					evaluated += r.Evaluated
					rejected += r.EarlyRejected
				}
			}
			b.ReportMetric((testenv.CPUSeconds()-cpu0)/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(evaluated), "configs/op")
			b.ReportMetric(float64(rejected), "rejected-early/op")
		})
	}
}

// laaberSuite generates a suite shaped like Laaber et al.'s JMH data
// (ESEC/FSE 2020, µOpTime's data set 2): n benchmarks × 5 forks × 100
// iterations of 1 s, with iteration noise from 0.5 % to 10 % and
// fork-to-fork variation of a third of it.
func laaberSuite(tb testing.TB, n int) []*table.Series {
	b := table.NewBuilder(memory.NewGoAllocator(), 0)
	defer b.Release()
	g := grid{instances: 1, trials: 1, forks: 5, iterations: 100, slices: 1}
	r := rand.New(rand.NewPCG(2020, 1))
	for i := 0; i < n; i++ {
		noise := []float64{0.005, 0.01, 0.02, 0.05, 0.1}[i%5]
		addSpec(tb, b, spec{project: "laaber", version: "1", name: fmt.Sprintf("org.ex.Bench%04d.run", i), mode: "avgt",
			grid: g, mean: 10 + r.Float64()*1e6, noise: noise, forkSD: noise / 3, seed: uint64(i)})
	}
	t := b.Finish()
	defer t.Release()
	return t.Collect(table.Filter{})
}

// BenchmarkLaaberSuite times one run of all five metrics on 1,400
// benchmarks × 5 forks × 100 iterations on 2 workers (run it with
// -bench LaaberSuite -benchtime 1x; it takes minutes).
func BenchmarkLaaberSuite(b *testing.B) {
	series := laaberSuite(b, 1400)
	opt := DefaultOptions
	opt.Workers = 2
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		rep, err := optimize(series, opt)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(start).Seconds(), "s/suite")
		evaluated, reduced := 0, 0
		for _, r := range rep.Results {
			evaluated += r.Evaluated
			if r.Status == StatusReduced {
				reduced++
			}
		}
		b.ReportMetric(float64(evaluated), "configs")
		b.ReportMetric(float64(reduced)/float64(len(rep.Results)), "reduced")
	}
}

// BenchmarkLaaberSample times 70 benchmarks of the Laaber-shaped suite per
// metric (one worker), to see where the time of BenchmarkLaaberSuite goes.
func BenchmarkLaaberSample(b *testing.B) {
	series := laaberSuite(b, 70)
	for _, m := range allMetrics {
		b.Run(m.String(), func(b *testing.B) {
			opt := DefaultOptions
			opt.Metrics = []Metric{m}
			opt.Workers = 1
			for i := 0; i < b.N; i++ {
				rep, err := optimize(series, opt)
				if err != nil {
					b.Fatal(err)
				}
				evaluated, rejected := 0, 0
				for _, r := range rep.Results {
					evaluated += r.Evaluated
					rejected += r.EarlyRejected
				}
				b.ReportMetric(float64(evaluated)/float64(len(rep.Results)), "configs/benchmark")
				b.ReportMetric(float64(rejected)/float64(evaluated), "rejected-early")
			}
		})
	}
}
