package optimize

import (
	"math"
	"reflect"
	"sort"
	"testing"

	"github.com/benchtrim/benchtrim/internal/nonparam"
	"github.com/benchtrim/benchtrim/table"
)

// versionSuite generates three versions of eight Go benchmarks: in v2
// BenchmarkA is 20 % slower and BenchmarkB 20 % faster, in v3 BenchmarkC is
// 10 % slower; everything else keeps its mean (fresh noise per version).
func versionSuite() []spec {
	changes := map[string]map[string]float64{
		"v2": {"BenchmarkA": 1.2, "BenchmarkB": 0.8},
		"v3": {"BenchmarkA": 1.2, "BenchmarkB": 0.8, "BenchmarkC": 1.1},
	}
	var out []spec
	for _, v := range []string{"v1", "v2", "v3"} {
		for i, name := range []string{"BenchmarkA", "BenchmarkB", "BenchmarkC", "BenchmarkD", "BenchmarkE", "BenchmarkF", "BenchmarkG", "BenchmarkH"} {
			noise := []float64{0.002, 0.005, 0.01, 0.02}[i%4]
			f := changes[v][name]
			if f == 0 {
				f = 1
			}
			out = append(out, spec{project: "p", version: v, name: name, grid: goGrid, mean: 100 * float64(i+1), factor: f,
				noise: noise, instanceSD: noise / 4, trialSD: noise / 4, seed: 8})
		}
	}
	return out
}

func detectedSet(vr *VersionReport, m Metric, from string, k int) []string {
	var out []string
	for _, c := range vr.Changes {
		if c.Metric == m && c.From == from && c.Detected[k] {
			out = append(out, c.Benchmark)
		}
	}
	sort.Strings(out)
	return out
}

func TestCompareVersions(t *testing.T) {
	series := build(t, versionSuite()...)
	opt := fastOptions()
	opt.Bootstrap.Resamples = 1000
	rep, err := optimize(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	vr, err := compareVersions(series, rep, defaultVersionOptions)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(vr.Versions["p"], []string{"v1", "v2", "v3"}) {
		t.Fatalf("versions %v", vr.Versions)
	}
	for _, m := range allMetrics {
		if got := detectedSet(vr, m, "v1", ground); !reflect.DeepEqual(got, []string{"BenchmarkA", "BenchmarkB"}) {
			t.Errorf("%s v1→v2: full detects %v, want A and B", m, got)
		}
		if got := detectedSet(vr, m, "v2", ground); !reflect.DeepEqual(got, []string{"BenchmarkC"}) {
			t.Errorf("%s v2→v3: full detects %v, want C", m, got)
		}
		// The ±20 % changes of the quietest benchmarks are caught by every method.
		for meth := Method(0); meth < numMethods; meth++ {
			got := detectedSet(vr, m, "v1", 1+int(meth))
			if m == RCIWMeanT && meth == MethodMinimum {
				// Three values: more than α/2 of the bootstrap-t resamples
				// are constant, so the interval is unbounded and nothing
				// is ever detected.
				if len(got) != 0 {
					t.Errorf("rciw-mean-t minimum baseline detects %v with an unbounded CI", got)
				}
				continue
			}
			if len(got) < 2 || got[0] != "BenchmarkA" || got[1] != "BenchmarkB" {
				t.Errorf("%s %s v1→v2 detects %v, want A and B among them", m, meth, got)
			}
		}
	}
	// Counts agree with the per-benchmark detections and the rates with the counts.
	for _, p := range vr.Pairs {
		if p.TP+p.FP+p.TN+p.FN != p.Benchmarks || p.TP+p.FN != p.FullChanges || p.TP+p.FP != p.Detected || p.Benchmarks != 8 {
			t.Errorf("inconsistent pair %+v", p)
		}
		if p.FP+p.TN > 0 && p.FPR != float64(p.FP)/float64(p.FP+p.TN) {
			t.Errorf("FPR of %+v", p)
		}
		if p.FullChanges == 0 && !math.IsNaN(p.FNR) {
			t.Errorf("FNR without changes should be NaN: %+v", p)
		}
	}
	if len(vr.Pairs) != 2*len(opt.Metrics)*int(numMethods) || len(vr.Totals) != len(opt.Metrics)*int(numMethods) {
		t.Fatalf("%d pairs and %d totals", len(vr.Pairs), len(vr.Totals))
	}
	for _, tot := range vr.Totals {
		if tot.Benchmarks != 16 || tot.FullChanges != 3 {
			t.Errorf("total %+v: want 16 comparisons with 3 changes", tot)
		}
	}

	// Slowdowns only: B got faster, so only A (v1→v2) and C (v2→v3) count.
	vo := defaultVersionOptions
	vo.SlowdownsOnly = true
	vr, err = compareVersions(series, rep, vo)
	if err != nil {
		t.Fatal(err)
	}
	if got := detectedSet(vr, RMAD, "v1", ground); !reflect.DeepEqual(got, []string{"BenchmarkA"}) {
		t.Errorf("slowdowns only v1→v2: %v", got)
	}

	// Another base: configurations of v2 applied to v3; v1 is not compared.
	vo = defaultVersionOptions
	vo.Base = "v2"
	vr, err = compareVersions(series, rep, vo)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(vr.Versions["p"], []string{"v2", "v3"}) || len(vr.Pairs) != len(opt.Metrics)*int(numMethods) {
		t.Errorf("base v2: versions %v, %d pairs", vr.Versions["p"], len(vr.Pairs))
	}
	vo.Base = "v9"
	if _, err := compareVersions(series, rep, vo); err == nil {
		t.Error("unknown base version: no error")
	}

	// Forward mode: the configuration evaluated on v2 is the base's. The
	// evaluation is a pure function of (seed, key, metric, configuration):
	// re-evaluating the base's choice on v2 reproduces the change.
	var base *Result
	for i := range rep.Results {
		if r := &rep.Results[i]; r.Key.Version == "v1" && r.Key.Benchmark == "BenchmarkD" && r.Metric == RCIWMean {
			base = r
		}
	}
	var v2 *table.Series
	for _, s := range series {
		if s.Version == "v2" && s.Benchmark == "BenchmarkD" {
			v2 = s
		}
	}
	p, _ := prepare(v2, &rep.Options)
	ev := p.evaluate(RCIWMean, base.Chosen.Config, true, &rep.Options, new(workspace))
	vr, _ = compareVersions(series, rep, defaultVersionOptions)
	for _, c := range vr.Changes {
		if c.Benchmark == "BenchmarkD" && c.From == "v1" && c.Metric == RCIWMean {
			if want := (ev.Average - base.Chosen.Average) / base.Chosen.Average; c.Change[1+MethodUOpTime] != want {
				t.Errorf("forward change %v, want %v", c.Change[1+MethodUOpTime], want)
			}
		}
	}
}

func TestVersionLess(t *testing.T) {
	in := []string{"v1.10.0", "v1.9.1", "v0.35.0", "v1.9.0", "v2", "abc", "v1.9", "v10"}
	sort.Slice(in, func(i, j int) bool { return versionLess(in[i], in[j]) })
	want := []string{"abc", "v0.35.0", "v1.9", "v1.9.0", "v1.9.1", "v1.10.0", "v2", "v10"}
	if !reflect.DeepEqual(in, want) {
		t.Errorf("sorted %v, want %v", in, want)
	}
}

func TestSummarizeAndCompareMetrics(t *testing.T) {
	series := handSeries(t)
	opt := fastOptions()
	opt.Metrics = []Metric{CV}
	opt.MinRepetitions = 2
	rep, err := optimize(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	sums := summarize(rep.Results)
	if len(sums) != 1 {
		t.Fatalf("%d summaries", len(sums))
	}
	s := sums[0]
	// Full: 12 s; chosen trial=2 iteration=1 slice=1: 2 s; mean 100.3 vs 1263.6/12 = 105.3: c = 0.04748.
	m := s.methods[MethodUOpTime]
	if s.fullTimeNs != 12e9 || m.timeNs != 2e9 || m.saved != 10.0/12 || s.reduced != 1 {
		t.Errorf("summary %+v", s)
	}
	if m.within != [4]float64{0, 0, 1, 1} {
		t.Errorf("within %v, want 0 0 1 1 (c = 0.0475)", m.within)
	}
	checkClose(t, "median change", m.medianChange, 5.0/105.3, 1e-12)

	// RQ2 on a generated suite: the statistics are those of package nonparam
	// on the change rates.
	series = build(t, goSuite("p", "v1", 15, 21, nil)...)
	opt = fastOptions()
	rep, err = optimize(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := compareMetrics(rep.Results, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmp) != 1 || len(cmp[0].metrics) != 5 || len(cmp[0].pairs) != 10 {
		t.Fatalf("comparison %+v", cmp)
	}
	groups := make([][]float64, 5)
	for _, r := range rep.Results {
		groups[r.Metric] = append(groups[r.Metric], r.changeRate(MethodUOpTime))
	}
	kw, _ := nonparam.KruskalWallis(groups)
	if kw != cmp[0].kruskal {
		t.Errorf("Kruskal-Wallis %+v, want %+v", cmp[0].kruskal, kw)
	}
	for _, p := range cmp[0].pairs {
		d, _ := nonparam.CliffsDelta(groups[p.a], groups[p.b])
		if p.delta != d || p.magnitude != nonparam.CliffMagnitude(d) || p.dunn.PAdjusted < p.dunn.P {
			t.Errorf("pair %s/%s: %+v", p.a, p.b, p)
		}
	}
	// One metric only: nothing to compare.
	opt.Metrics = []Metric{CV}
	rep, _ = optimize(series, opt)
	if cmp, _ := compareMetrics(rep.Results, 0); len(cmp) != 0 {
		t.Errorf("one metric gave %d comparisons", len(cmp))
	}
}
