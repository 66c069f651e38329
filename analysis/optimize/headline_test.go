package optimize

import (
	"math"
	"strings"
	"testing"
)

func TestTotalsAndBest(t *testing.T) {
	sum := func(version string, m Metric, n, notReduced int, full, chosen int64, within5 float64) summary {
		s := summary{project: "p", version: version, metric: m, benchmarks: n, notReduced: notReduced, fullTimeNs: full}
		s.methods[MethodUOpTime].timeNs = chosen
		s.methods[MethodUOpTime].within = [4]float64{within5 / 2, within5, within5, 1}
		return s
	}
	sums := []summary{
		sum("v1", CV, 4, 1, 100, 50, 1),
		sum("v1", RMAD, 4, 0, 100, 10, 0.5),
		sum("v2", CV, 6, 2, 300, 100, 0.5),
		sum("v2", RMAD, 6, 0, 300, 20, 1),
	}
	tot := totals(sums)
	if len(tot) != 2 || tot[0].metric != CV || tot[1].metric != RMAD {
		t.Fatalf("totals %+v", tot)
	}
	// CV: 10 runs, time 150 of 400, within 5 %: (4·1 + 6·0.5)/10 = 0.7.
	cv := tot[0]
	if cv.benchmarks != 10 || cv.notReduced != 3 || cv.fullTimeNs != 400 || cv.timeNs != 150 ||
		math.Abs(cv.saved-0.625) > 1e-15 || math.Abs(cv.within[2]-0.7) > 1e-15 {
		t.Errorf("cv total %+v", cv)
	}
	// RMAD: time 30 of 400, within 5 %: (4·0.5 + 6·1)/10 = 0.8.
	rmad := tot[1]
	if rmad.timeNs != 30 || math.Abs(rmad.saved-0.925) > 1e-15 || math.Abs(rmad.within[2]-0.8) > 1e-15 {
		t.Errorf("rmad total %+v", rmad)
	}
	// Neither keeps 90 % within 5 %: the one keeping the most wins.
	if b := best(tot); b != 1 {
		t.Errorf("Best = %d, want 1 (rmad, 80 %% within 5 %%)", b)
	}
	// When both keep ≥ 90 %, the larger saving wins.
	tot[0].within[2], tot[1].within[2] = 0.95, 0.9
	tot[0].saved = 0.99
	if b := best(tot); b != 0 {
		t.Errorf("Best = %d, want 0 (cv saves more)", b)
	}
	if best(nil) != -1 {
		t.Error("Best(nil) != -1")
	}
}

// TestRecommendationWhenNoneKeepsResults: data whose warmup the
// configurations keep (the first iterations of a fork, 3× slower) move
// every metric's result far from the full run's; the text says that no
// metric keeps 90 % of the runs within 5 % instead of claiming it.
func TestRecommendationWhenNoneKeepsResults(t *testing.T) {
	g := grid{instances: 1, trials: 1, forks: 3, iterations: 30, slices: 1}
	series := build(t, spec{project: "j", version: "1", name: "org.ex.W.m", mode: "avgt", grid: g, mean: 100,
		noise: 0.003, warmupIters: 10, warmupFactor: 3, seed: 4})
	opt := fastOptions()
	opt.Metrics = []Metric{CV, RMAD}
	rep, err := optimize(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	writeText(&sb, rep, nil)
	if !strings.Contains(sb.String(), "is recommended: no metric keeps 90 % of runs within 5 %; it keeps the most.") || strings.Contains(sb.String(), "the largest saving with") {
		t.Errorf("text:\n%s", sb.String())
	}
}
