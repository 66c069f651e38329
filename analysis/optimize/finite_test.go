package optimize

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/table"
)

// TestOverflowingValuesAreSkipped: finite times near 1.7e308 overflow the
// sums of a mean (and times 1e200 apart those of a variance) to +Inf.
// Before, optimize reported "rmad is recommended … ≥ 90 % of runs within
// 5 %" next to a 0.0 % cell, "+Inf" and "NaN %"; now such a benchmark run
// is skipped with a reason naming it and the overflow, and the others are
// optimised as before.
func TestOverflowingValuesAreSkipped(t *testing.T) {
	specs := []spec{
		{project: "p", version: "v1", name: "BenchmarkHuge", grid: goGrid, mean: 1.5e308, noise: 0.01, seed: 1},
		{project: "p", version: "v1", name: "BenchmarkOk", grid: goGrid, mean: 1000, noise: 0.01, seed: 1},
		{project: "p", version: "v1", name: "BenchmarkWide", grid: goGrid, mean: 1e200, noise: 1, seed: 1},
	}
	b := table.NewBuilder(memory.NewGoAllocator(), 0)
	for _, s := range specs {
		addSpec(t, b, s)
	}
	tab := b.Finish()
	b.Release()
	defer tab.Release()
	opt := fastOptions()
	opt.Metrics = []Metric{RMAD, CV}
	rep, err := Run(tab, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 2 || rep.Results[0].Key.Benchmark != "BenchmarkOk" {
		t.Fatalf("results %d (first %v), want BenchmarkOk's 2", len(rep.Results), rep.Results[0].Key)
	}
	want := map[string]string{
		"BenchmarkHuge": "ns/op values up to 1.5",
		"BenchmarkWide": "ns/op values ",
	}
	if len(rep.Skipped) != 2 {
		t.Fatalf("skipped %+v, want BenchmarkHuge and BenchmarkWide", rep.Skipped)
	}
	for _, s := range rep.Skipped {
		if !strings.HasPrefix(s.Reason, want[s.Key.Benchmark]) || !strings.Contains(s.Reason, "overflow float64 in a sum of up to") || s.Rows != 225 {
			t.Errorf("%s skipped (%d rows): %q, want %q… overflow float64, 225 rows", s.Key, s.Rows, s.Reason, want[s.Key.Benchmark])
		}
	}
	var out bytes.Buffer
	rep.WriteText(&out)
	rep.WriteDetails(&out)
	if text := out.String(); strings.Contains(text, "Inf") || strings.Contains(text, "NaN") {
		t.Errorf("the report prints a non-finite result:\n%s", text)
	}
}

// TestNonFiniteResultDropped: a result whose average or change rate is not
// finite (an overflow the bound of stats.CheckSums does not foresee) is
// moved to Skipped with the quantity named, in key order.
func TestNonFiniteResultDropped(t *testing.T) {
	ok := Evaluation{Average: 10, Value: 0.01, Lower: 9, Upper: 11}
	bad := ok
	bad.Average = math.Inf(1)
	ka := table.Key{Project: "p", Version: "v", Benchmark: "A", Mode: "go"}
	kb := table.Key{Project: "p", Version: "v", Benchmark: "B", Mode: "go"}
	kc := table.Key{Project: "p", Version: "v", Benchmark: "C", Mode: "go"}
	rep := &Report{Options: fastOptions(),
		Results: []Result{
			{Key: ka, Metric: RMAD, Full: ok, Chosen: ok, Minimum: ok, Random: ok},
			{Key: kb, Metric: RMAD, Full: ok, Chosen: ok, Minimum: ok, Random: ok},
			{Key: kb, Metric: CV, Full: ok, Chosen: bad, Minimum: ok, Random: ok},
		},
		Skipped: []Skipped{{Key: kc, Reason: "no observations"}}}
	rep.dropNonFinite(nil)
	if len(rep.Results) != 1 || rep.Results[0].Key != ka {
		t.Fatalf("results %+v, want A's only", rep.Results)
	}
	if len(rep.Skipped) != 2 || rep.Skipped[0].Key != kb || rep.Skipped[1].Key != kc {
		t.Fatalf("skipped %+v, want B then C", rep.Skipped)
	}
	if got, want := rep.Skipped[0].Reason, "the chosen configuration's cv average is not finite (the values overflow float64)"; got != want {
		t.Errorf("reason %q, want %q", got, want)
	}
}
