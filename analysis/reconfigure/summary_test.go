package reconfigure

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/table"
)

// handResults are three replayed benchmarks (two in project a, one in b)
// and one skipped, with made-up numbers to check the aggregation by hand.
func handResults() []Result {
	fork := func(id int32, warm int, stable bool) ForkResult {
		return ForkResult{Instance: 1, Trial: 1, Fork: id, WarmupIterations: warm, MeasurementIterations: 10, WarmupStable: stable}
	}
	aa := func(rate float64, notDiff bool) AAResult {
		return AAResult{Available: true, NotDifferent: notDiff, ChangeRate: rate}
	}
	return []Result{
		{Key: table.Key{Project: "a", Benchmark: "x"}, StaticSeconds: 500, IterationSeconds: 1, Criteria: []CriterionResult{{
			Criterion: CriterionCV, Forks: []ForkResult{fork(1, 5, true), fork(2, 7, true)}, ForksStable: true,
			AA: aa(0.005, true), DynamicSeconds: 100}}},
		{Key: table.Key{Project: "a", Benchmark: "y"}, StaticSeconds: 500, IterationSeconds: 1, Short: true, Criteria: []CriterionResult{{
			Criterion: CriterionCV, Forks: []ForkResult{fork(1, 50, false), fork(2, 50, false), fork(3, 20, true)},
			AA: aa(0.025, false), DynamicSeconds: 200}}},
		{Key: table.Key{Project: "b", Benchmark: "z"}, StaticSeconds: 1000, IterationSeconds: 2, Criteria: []CriterionResult{{
			Criterion: CriterionCV, Forks: []ForkResult{fork(1, 8, true), fork(2, 8, true)}, ForksStable: true,
			AA: AAResult{Reason: "no baseline"}, DynamicSeconds: 80}}},
		{Key: table.Key{Project: "b", Benchmark: "bad"}, Skipped: "no measurement iterations"},
	}
}

// TestSummarizeByHand checks the Table 2 and 3 aggregates against values
// computed by hand from handResults.
func TestSummarizeByHand(t *testing.T) {
	rows := summaryRows(handResults(), []Criterion{CriterionCV})
	if len(rows) != 3 || rows[0].Project != "a" || rows[1].Project != "b" || rows[2].Project != overall {
		t.Fatalf("rows %+v, want a, b, all", rows)
	}
	a, all := rows[0], rows[2]
	// Project a: change rates 0.005, 0.025: mean 0.015, sd = 0.02/√2.
	checkClose(t, "a change mean", a.ChangeMean, 0.015, 1e-12)
	checkClose(t, "a change sd", a.ChangeSD, 0.02/math.Sqrt2, 1e-12)
	checkClose(t, "a not different", a.NotDifferent, 0.5, 0)
	checkClose(t, "a below 1 %", a.Below1, 0.5, 0)
	checkClose(t, "a below 3 %", a.Below3, 1, 0)
	// Time: static 1000 s, dynamic 300 s: saved 70 %.
	checkClose(t, "a static h", a.StaticHours, 1000.0/3600, 1e-12)
	checkClose(t, "a saved", a.Saved, 0.7, 1e-12)
	// Warmup per fork: 5 7 50 50 20, mean 26.4; forks 2 and 3, mean 2.5.
	checkClose(t, "a warmup mean", a.WarmupMean, 26.4, 1e-12)
	checkClose(t, "a warmup sd", a.WarmupSD, math.Sqrt((21.4*21.4+19.4*19.4+23.6*23.6*2+6.4*6.4)/4), 1e-9)
	checkClose(t, "a forks mean", a.ForksMean, 2.5, 1e-12)
	checkClose(t, "a warmup never stable", a.WarmupNeverStable, 2.0/5, 1e-12)
	checkClose(t, "a forks never stable", a.ForksNeverStable, 0.5, 1e-12)
	if a.Short != 1 || a.Benchmarks != 2 || a.AATested != 2 {
		t.Errorf("a: short %d, benchmarks %d, tested %d; want 1, 2, 2", a.Short, a.Benchmarks, a.AATested)
	}
	// Overall: 3 benchmarks (the skipped one left out), 2 A/A tests.
	if all.Benchmarks != 3 || all.AATested != 2 {
		t.Errorf("all: benchmarks %d, tested %d; want 3, 2", all.Benchmarks, all.AATested)
	}
	checkClose(t, "all saved", all.Saved, 1-380.0/2000, 1e-12)
	checkClose(t, "all forks mean", all.ForksMean, 7.0/3, 1e-12)
	b := rows[1]
	if !math.IsNaN(b.NotDifferent) || !math.IsNaN(b.ChangeMean) {
		t.Errorf("b without A/A tests: not different %v, change %v; want NaN", b.NotDifferent, b.ChangeMean)
	}
	// The tables render every row.
	var buf bytes.Buffer
	if err := qualityTable(rows).WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	if err := timeTable(rows).WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| a ", "1.50 % ± 1.41 %", "70.0 %", "16.7 min", "26.4 ± 22.3", "| all "} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("tables lack %q:\n%s", want, buf.String())
		}
	}
}

// TestConfigsRoundTrip writes the dynamic configurations and reads them back.
func TestConfigsRoundTrip(t *testing.T) {
	res := handResults()
	res[0].Key.Params = "size=10,mode=a%2Cb" // commas survive CSV quoting
	want := configs(res)
	if len(want) != 7 {
		t.Fatalf("%d configurations, want 7 (one per fork run)", len(want))
	}
	var buf bytes.Buffer
	if err := writeConfigs(&buf, want); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), strings.Join(ConfigColumns, ",")+"\n") {
		t.Errorf("header: %q", strings.SplitN(buf.String(), "\n", 2)[0])
	}
	got, err := readConfigs(&buf, "dyn.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back\n%+v\nwant\n%+v", got, want)
	}
	if c := got[3]; c.Benchmark != "y" || c.Fork != 2 || c.WarmupIterations != 50 || c.warmupStable || c.ForksUsed != 3 || c.forksStable {
		t.Errorf("row 4 = %+v", c)
	}
}

// TestReadConfigsErrors: bad files give ParseErrors naming the line.
func TestReadConfigsErrors(t *testing.T) {
	head := strings.Join(ConfigColumns, ",") + "\n"
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", "dyn.csv:1: empty file"},
		{"header", "a,b,c,d,e,f,g,h,i,j,k,l,m,n\n", "dyn.csv:1: column 1 is \"a\""},
		{"criterion", head + "p,v,b,,avgt,foo,1,1,1,5,10,2,true,true\n", "dyn.csv:2: unknown stoppage criterion \"foo\""},
		{"count", head + "p,v,b,,avgt,cv,1,1,1,-5,10,2,true,true\n", "dyn.csv:2: warmup_iterations \"-5\" is not a count"},
		{"fork", head + "p,v,b,,avgt,cv,1,1,0,5,10,2,true,true\n", "dyn.csv:2: fork \"0\" is not a 1-based index"},
		{"bool", head + "p,v,b,,avgt,cv,1,1,1,5,10,2,yes,true\n", "dyn.csv:2: warmup_stable \"yes\" is not true or false"},
		{"fields", head + "p,v,b\n", "dyn.csv:2: wrong number of fields"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readConfigs(strings.NewReader(tc.in), "dyn.csv")
			var pe *ingest.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a ParseError", err)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %q, want prefix %q", err, tc.want)
			}
		})
	}
}
