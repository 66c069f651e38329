package steady

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/table"
)

// BenchmarkAnalyzeFork times the analysis of one 3,000-iteration fork with a
// 300-iteration warmup (outliers, segmentation, equivalence tests) per
// penalty rule.
func BenchmarkAnalyzeFork(b *testing.B) {
	s := newSuite(b, 1, 1, 3000, []synth.BenchmarkSpec{
		{Class: "W", Method: "warmup", Kind: synth.KindWarmup, Mean: 2000, WarmupIterations: 300, WarmupFactor: 3},
	}, nil)
	forks := forksOf(synthSeries(s, 0))
	for _, rule := range []PenaltyRule{PenaltyBarrett, PenaltyCROPS, PenaltyCROPSAscending} {
		b.Run(rule.String(), func(b *testing.B) {
			opt := DefaultOptions
			opt.Penalty = rule
			a := newAnalyzer(&opt)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				a.analyzeFork("bench", &forks[0], AutoWindow(len(forks[0].values)))
			}
			b.ReportMetric(float64(b.N*len(forks[0].values))/b.Elapsed().Seconds(), "points/s")
		})
	}
}

// BenchmarkRatioCI times one Kalibera-Jones ratio CI of two samples of
// 2,500 and 500 points with 10,000 resamples (an equivalence test or a fork
// RPD of a 3,000-iteration fork).
func BenchmarkRatioCI(b *testing.B) {
	s := newSuite(b, 1, 1, 3000, []synth.BenchmarkSpec{{Class: "F", Method: "flat", Kind: synth.KindFlat, Mean: 100}}, nil)
	x := s.ForkValues(0, 1, 1, 1)
	opt := DefaultOptions
	a := newAnalyzer(&opt)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		a.ratioCI(x[500:], x[:500], stats.NewStream(1, "b", uint64(i)))
	}
	b.ReportMetric(float64(b.N)*3000*1e4/b.Elapsed().Seconds(), "draws/s")
}

// accuracySpecs are the behaviours of BenchmarkAccuracy and the Barrett class
// each should get with a steady window of 500 in 1,500 iterations.
var accuracySpecs = []struct {
	spec synth.BenchmarkSpec
	want BarrettClass
}{
	{synth.BenchmarkSpec{Class: "W", Method: "warmup", Kind: synth.KindWarmup, Mean: 1000, WarmupIterations: 200, WarmupFactor: 3}, BarrettWarmup},
	{synth.BenchmarkSpec{Class: "F", Method: "flat", Kind: synth.KindFlat, Mean: 1000}, BarrettFlat},
	{synth.BenchmarkSpec{Class: "S", Method: "slowdown", Kind: synth.KindSlowdown, Mean: 1000, SlowdownAt: 700, SlowdownFactor: 1.25}, BarrettSlowdown},
	{synth.BenchmarkSpec{Class: "L", Method: "late", Kind: synth.KindSlowdown, Mean: 1000, SlowdownAt: 1300, SlowdownFactor: 1.25}, BarrettNoSteady},
	{synth.BenchmarkSpec{Class: "O", Method: "oscillation", Kind: synth.KindNoSteadyState, Shape: synth.ShapeOscillation, Mean: 1000}, BarrettNoSteady},
	{synth.BenchmarkSpec{Class: "D", Method: "drift", Kind: synth.KindNoSteadyState, Shape: synth.ShapeDrift, Mean: 1000}, BarrettNoSteady},
}

// BenchmarkAccuracy reports, per penalty rule, the share of generated forks
// (6 seeds × 2 forks of 1,500 iterations per behaviour) whose Barrett class
// matches the generated behaviour. Run with -benchtime 1x (about a minute).
func BenchmarkAccuracy(b *testing.B) {
	var specs []synth.BenchmarkSpec
	want := map[string]BarrettClass{}
	for _, a := range accuracySpecs {
		specs = append(specs, a.spec)
		want[a.spec.Method] = a.want
	}
	for _, rule := range []PenaltyRule{PenaltyBarrett, PenaltyCROPS, PenaltyCROPSAscending} {
		b.Run(rule.String(), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				right, total := map[string]int{}, map[string]int{}
				for seed := uint64(1); seed <= 6; seed++ {
					s := newSuite(b, seed, 2, 1500, specs, func(c *synth.SuiteConfig) { c.NoSteady.Period = 600 })
					opt := DefaultOptions
					opt.Penalty = rule
					opt.SteadyWindow = 500 // docs/steady.md's accuracy table is at W = 500
					for k, tr := range s.Truth() {
						ser := synthSeries(s, k)
						br, err := analyzeForks(ser.Key, ser.Setup, forksOf(ser), opt)
						if err != nil {
							b.Fatal(err)
						}
						for _, f := range br.Forks {
							total[tr.Method]++
							if f.Barrett == want[tr.Method] {
								right[tr.Method]++
							}
						}
					}
				}
				for m, n := range total {
					b.ReportMetric(float64(right[m])/float64(n), m+"-correct")
				}
			}
		})
	}
}

// timingSegmenter adds the time spent in the wrapped Segmenter to *ns.
type timingSegmenter struct {
	Segmenter
	ns *atomic.Int64
}

func (t timingSegmenter) Segment(x []float64) (*Segmentation, error) {
	start := time.Now()
	s, err := t.Segmenter.Segment(x)
	t.ns.Add(int64(time.Since(start)))
	return s, err
}

// peakRSS returns the process's peak resident set size in bytes (Linux
// VmHWM), or 0.
func peakRSS() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb * 1024
		}
	}
	return 0
}

// BenchmarkScaleTraini runs the whole analysis and two configuration sets on
// a synthetic data set the size of Traini et al.'s: 586 benchmark runs × 10
// forks × 3,000 iterations of 100 ms (1.76·10⁷ points), generated series by
// series so that only the workers' series are in memory. It needs
// BENCHTRIM_STEADY_SCALE=1 (it takes long) and reports the wall time, the
// process CPU time, the share of worker time spent in the segmentation
// (CROPS + Kneedle + PELT), and the peak RSS. BENCHTRIM_STEADY_SCALE=0.1 runs a tenth of the
// benchmarks.
func BenchmarkScaleTraini(b *testing.B) {
	frac, err := strconv.ParseFloat(os.Getenv("BENCHTRIM_STEADY_SCALE"), 64)
	if err != nil || frac <= 0 {
		testenv.Skip(b, "set BENCHTRIM_STEADY_SCALE=1 (or a fraction) to run the Traini-size data set")
	}
	cfg := synth.DefaultSuiteConfig()
	cfg.Seed = 2022
	cfg.Benchmarks = max(1, int(293*frac))
	cfg.Params = []synth.ParamAxis{{Name: "size", Values: []string{"16", "1024"}}} // 586 runs
	cfg.Instances, cfg.Trials, cfg.Forks, cfg.Iterations = 1, 1, 10, 3000
	cfg.IterationTime = 100 * time.Millisecond
	cfg.Warmup.MinIterations, cfg.Warmup.MaxIterations = 50, 600
	cfg.NoSteady.Period = 400
	cfg.GC.Enabled = false
	s, err := synth.NewSuite(cfg)
	if err != nil {
		b.Fatal(err)
	}
	dev := Override{WarmupIterations: ptr(5), WarmupTimeNs: ptr(int64(1e9)), MeasurementIterations: ptr(5), MeasurementTimeNs: ptr(int64(1e9)), Forks: ptr(3)}
	jmh := Override{WarmupIterations: ptr(5), WarmupTimeNs: ptr(int64(10e9)), MeasurementIterations: ptr(5), MeasurementTimeNs: ptr(int64(10e9)), Forks: ptr(5)}
	for i := 0; i < b.N; i++ {
		var segNs atomic.Int64
		cpu0 := testenv.CPUSeconds()
		opt := DefaultOptions
		opt.Segmenter = timingSegmenter{peltSegmenter{rule: PenaltyCROPS}, &segNs}
		opt.Configs = []ConfigSet{setupConfigs("dev", dev), setupConfigs("jmh-default", jmh)}
		var done atomic.Int64
		start := time.Now()
		opt.Progress = func(int) {
			if d := done.Add(1); d%50 == 0 {
				fmt.Fprintf(os.Stderr, "scale: %d/%d runs, %v\n", d, s.Len(), time.Since(start).Round(time.Second))
			}
		}
		res, err := analyzeSource(s.Len(), func(k int) (*table.Series, error) { return synthSeries(s, k), nil }, opt)
		if err != nil {
			b.Fatal(err)
		}
		wall := time.Since(start)
		workers := runtime.GOMAXPROCS(0)
		points := float64(s.Len() * cfg.Forks * cfg.Iterations)
		b.ReportMetric(wall.Seconds(), "wall-s")
		b.ReportMetric(testenv.CPUSeconds()-cpu0, "cpu-s")
		b.ReportMetric(points, "points")
		b.ReportMetric(float64(segNs.Load())/(wall.Seconds()*1e9*float64(workers)), "segmentation-share")
		b.ReportMetric(peakRSS()/(1<<20), "peak-RSS-MiB")
		// The tables go to stderr: go test truncates long benchmark logs.
		fmt.Fprintf(os.Stderr, "%d runs, %d workers, %v\n", s.Len(), workers, wall)
		res.classTable().WriteMarkdown(os.Stderr)
		res.evaluationTable().WriteMarkdown(os.Stderr)
		cmp, err := compare(res, 0, 1)
		if err != nil {
			b.Fatal(err)
		}
		comparisonTable(cmp).WriteMarkdown(os.Stderr)
	}
}

func ptr[T any](v T) *T { return &v }
