package reconfigure

import (
	"fmt"
	"os"
	"testing"

	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/table"
)

// paperSuite generates a suite shaped like the data of Laaber et al.
// (ESEC/FSE 2020): JMH avgt recorded with -wi 0, 5 forks × 100 iterations of
// 1 s, projects × perProject benchmarks from synth's default model (40 %
// warming up, 10 % slowing down late, 10 % without a steady state, 2 %
// iteration noise, 3 % between forks, outliers).
func paperSuite(tb testing.TB, projects, perProject int) []*table.Series {
	var out []*table.Series
	for p := 0; p < projects; p++ {
		cfg := synth.DefaultSuiteConfig()
		cfg.Project = fmt.Sprintf("project%02d", p+1)
		cfg.Benchmarks = perProject
		cfg.Params = nil
		cfg.Forks, cfg.Iterations = 5, 100
		cfg.Instances, cfg.Trials = 1, 1
		cfg.Seed = uint64(100 + p)
		s, err := synth.NewSuite(cfg)
		if err != nil {
			tb.Fatal(err)
		}
		for i, tr := range s.Truth() {
			key := table.Key{Project: cfg.Project, Version: cfg.Version, Benchmark: tr.JMHName, Mode: "avgt"}
			forks := make([][]float64, cfg.Forks)
			for f := range forks {
				forks[f] = s.ForkValues(i, 1, 1, f+1)
			}
			ser := seriesOf(key, forks...)
			ser.Setup = &table.Setup{Key: key, MeasurementTimeNs: 1e9}
			out = append(out, ser)
		}
	}
	return out
}

// BenchmarkReplaySuite replays all three criteria and their A/A tests on a
// generated suite of 1,400 benchmarks (7 projects × 200, 5 forks × 100 avgt
// iterations) with 2 workers, and on 20 sample-mode benchmarks (5 forks ×
// 100 iterations × 1,000 invocations). With -v it logs Table 2 and 3.
//
//	go test -run '^$' -bench ReplaySuite -benchtime 1x -v ./analysis/reconfigure/
func BenchmarkReplaySuite(b *testing.B) {
	b.Run("avgt/1400", func(b *testing.B) {
		series := paperSuite(b, 7, 200)
		replayBench(b, series)
	})
	b.Run("sample/20", func(b *testing.B) {
		series := make([]*table.Series, 20)
		for i := range series {
			key := table.Key{Project: "sampled", Benchmark: fmt.Sprintf("Bench.s%02d", i), Mode: "sample"}
			g := genSpec{forks: 5, iters: 100, mean: 2000 * float64(i+1), noise: 0.02, forkSD: 0.02, invocations: 1000, invNoise: 0.05}
			if i%2 == 1 {
				g.curve = func(k int) float64 {
					if k < 15 {
						return 1 + 0.1*float64(15-k)
					}
					return 1
				}
			}
			series[i] = genSeries(key, g, 9)
		}
		replayBench(b, series)
	})
}

func replayBench(b *testing.B, series []*table.Series) {
	opt := DefaultOptions
	opt.Workers = 2
	b.ReportAllocs()
	b.ResetTimer()
	var res []Result
	for i := 0; i < b.N; i++ {
		var err error
		if res, err = replayAll(series, opt); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)*float64(len(series))/b.Elapsed().Seconds(), "benchmarks/s")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/suite")
	if testing.Verbose() {
		rows := summaryRows(res, nil)
		qualityTable(rows).WriteMarkdown(os.Stdout)
		timeTable(rows).WriteMarkdown(os.Stdout)
	}
}
