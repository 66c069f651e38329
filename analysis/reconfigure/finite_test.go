package reconfigure

import (
	"math"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/table"
)

// TestOverflowingValuesAreSkipped: finite times near 1.7e308 overflow the
// A/A test's means, and times 1e200 apart the CV criterion's variance.
// Before, the replay printed NaN ratios and change rates (and a NaN mean
// change in the summary) and a CV that never became stable; now such a
// benchmark is skipped with the reason, and the others replay as before.
func TestOverflowingValuesAreSkipped(t *testing.T) {
	g := genSpec{forks: 5, iters: 60, mean: 1.5e308, noise: 0.01}
	huge := genSeries(table.Key{Project: "p", Version: "v", Benchmark: "Huge"}, g, 1)
	g.mean = 1000
	ok := genSeries(table.Key{Project: "p", Version: "v", Benchmark: "Ok"}, g, 1)
	wide := genSeries(table.Key{Project: "p", Version: "v", Benchmark: "Wide"}, g, 1)
	for i := range wide.NsPerOp {
		if i%7 == 0 {
			wide.NsPerOp[i] *= 1e200
			wide.Value[i] = wide.NsPerOp[i]
		}
	}
	opt := DefaultOptions
	opt.AA.Resamples, opt.RCIW.Resamples = 200, 200
	results, err := replayAll([]*table.Series{huge, ok, wide}, opt)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"ns/op values up to 1.", "", "ns/op values 1."}
	for i, r := range results {
		switch {
		case want[i] == "" && r.Skipped != "":
			t.Errorf("%s: skipped: %s", r.Key, r.Skipped)
		case want[i] == "" && (len(r.Criteria) != 3 || !r.Criteria[0].AA.Available || math.IsNaN(r.Criteria[0].AA.ChangeRate)):
			t.Errorf("%s: criteria %+v", r.Key, r.Criteria)
		case want[i] != "" && (!strings.HasPrefix(r.Skipped, want[i]) || !strings.Contains(r.Skipped, "overflow float64") || r.Criteria != nil):
			t.Errorf("%s: skipped %q, want %q… overflow float64", r.Key, r.Skipped, want[i])
		}
	}
}

// TestNonFiniteAA names the first A/A statistic that is not finite.
func TestNonFiniteAA(t *testing.T) {
	one := estimate.Interval{Estimate: 1, Lower: 0.9, Upper: 1.1}
	crs := []CriterionResult{{Criterion: CriterionCV, AA: AAResult{Available: true, Ratio: estimate.RatioCI{Ratio: one, Test: one, Control: one}}}}
	if q := nonFinite(crs); q != "" {
		t.Fatalf("finite: %q", q)
	}
	crs = append(crs, CriterionResult{Criterion: CriterionRCIW, AA: AAResult{Available: false, ChangeRate: math.NaN()}})
	if q := nonFinite(crs); q != "" {
		t.Fatalf("an A/A test not run: %q", q)
	}
	crs[0].AA.Ratio.Test.Upper = math.Inf(1)
	if q, want := nonFinite(crs), "cv criterion: the A/A test's dynamic mean"; q != want {
		t.Errorf("%q, want %q", q, want)
	}
}
