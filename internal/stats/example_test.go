package stats_test

import (
	"fmt"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/stats"
)

// µOpTime-style stability metrics of one configuration's values (cv with
// the population standard deviation, as numpy's std in the µOpTime
// prototype: 0.0220; rmad = median |x − median| / median: 0.0026, as
// numpy computes them). One stream per benchmark key, one workspace per
// goroutine.
func Example_metrics() {
	x := []float64{1021.5, 1019.8, 1030.2, 1018.7, 1025.1, 1090.4, 1022.3, 1020.9}
	rng := stats.NewStream(42, "pkg/BenchmarkFoo", 0)
	ws := new(stats.Workspace)

	cv := stats.CV(x, nil)
	rmad := stats.RMAD(x, nil)
	mean, err := stats.BootstrapCI(stats.MeanPercentile, x, estimate.DefaultBootstrap, rng, ws)
	if err != nil {
		panic(err)
	}
	fmt.Printf("cv %.4f, rmad %.4f, rciw of the mean %.4f\n", cv, rmad, mean.RCIW())
	// Output: cv 0.0220, rmad 0.0026, rciw of the mean 0.0352
}

// An A/B comparison of two JMH sample-mode recordings: rows are histogram
// bins (value, count) of iterations inside forks, sorted by (fork, iteration).
func Example_ratio() {
	build := func(shift float64) *stats.Hierarchy {
		var vals, counts []float64
		var fork, iter []int32
		for f := int32(0); f < 3; f++ {
			for i := int32(0); i < 4; i++ {
				for _, v := range []float64{40, 41, 43} {
					vals = append(vals, v+shift+float64(f))
					counts = append(counts, float64(10+i))
					fork = append(fork, f)
					iter = append(iter, i)
				}
			}
		}
		h, err := stats.NewHierarchy(vals, counts, fork, iter)
		if err != nil {
			panic(err)
		}
		return h
	}
	control, test := build(0), build(4)
	opt := estimate.HierarchicalOptions{BootstrapOptions: estimate.DefaultBootstrap, InvocationSamples: -1}
	ci, err := stats.HierarchicalRatioCI(test, control, opt, stats.NewStream(1, "pkg/BenchmarkFoo", 0), nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("ratio %.4f [%.4f, %.4f]: the test is slower\n", ci.Ratio.Estimate, ci.Ratio.Lower, ci.Ratio.Upper)
	// Output: ratio 1.0945 [1.0535, 1.1370]: the test is slower
}
