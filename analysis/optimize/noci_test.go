package optimize

import (
	"bytes"
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/table"
)

// TestNoReportedCIs: without the reported CIs, optimize chooses the same
// configurations and gives the same times, averages, cv and rmad values
// and printed answer (text and details) as with them; the CIs it skipped
// are NaN, and an RCIW metric keeps the chosen configuration's CI (its
// value), also where the full configuration or a baseline is the chosen
// one. On a generated suite and on µOpTime's zap data.
func TestNoReportedCIs(t *testing.T) {
	t.Run("generated", func(t *testing.T) {
		opt := fastOptions()
		opt.Bootstrap.Resamples = 2000
		checkNoReportedCIs(t, build(t, goSuite("p", "v1", 15, 3, nil)...), opt)
	})
	t.Run("zap", func(t *testing.T) {
		path := filepath.Join(testenv.Shared(t, "data", "uoptime-go"), "zap-v1.19.1.csv")
		series, release := readUoptime(t, path)
		defer release()
		opt := prototypeOptions(allMetrics...)
		opt.Bootstrap.Resamples = 2000
		checkNoReportedCIs(t, series, opt)
	})
}

func checkNoReportedCIs(t *testing.T, series []*table.Series, opt Options) {
	t.Helper()
	all, sum := withAndWithoutCIs(t, opt, func(o Options) (*Report, error) { return optimize(series, o) })
	if len(all.Results) != len(sum.Results) || len(all.Results) == 0 {
		t.Fatalf("%d results with the CIs, %d without", len(all.Results), len(sum.Results))
	}
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	skipped, kept, reduced := 0, 0, 0
	for i := range all.Results {
		a, s := &all.Results[i], &sum.Results[i]
		if a.Key != s.Key || a.Metric != s.Metric || a.Status != s.Status {
			t.Fatalf("result %d: %v %v %v, without CIs %v %v %v", i, a.Key, a.Metric, a.Status, s.Key, s.Metric, s.Status)
		}
		if a.Status == StatusReduced {
			reduced++
		}
		for _, e := range []struct {
			name string
			a, s *Evaluation
		}{{"full", &a.Full, &s.Full}, {"chosen", &a.Chosen, &s.Chosen}, {"minimum", &a.Minimum, &s.Minimum}, {"random", &a.Random, &s.Random}} {
			at := a.Key.String() + " " + a.Metric.String() + " " + e.name
			if e.a.Config != e.s.Config || e.a.TimeNs != e.s.TimeNs || e.a.Observations != e.s.Observations || !same(e.a.Average, e.s.Average) {
				t.Errorf("%s: %v %d ns, average %v; without CIs %v %d ns, average %v", at, e.a.Config, e.a.TimeNs, e.a.Average, e.s.Config, e.s.TimeNs, e.s.Average)
			}
			if math.IsNaN(e.a.Lower) || math.IsNaN(e.a.Upper) {
				t.Errorf("%s: CI [%v, %v] with the CIs", at, e.a.Lower, e.a.Upper)
			}
			if a.Metric.bootstrapped() && a.Status == StatusReduced && e.a.Config == a.Chosen.Config {
				// The search computed this CI (the chosen's metric); a
				// baseline or the full configuration may be the chosen one.
				kept++
				if !same(e.a.Lower, e.s.Lower) || !same(e.a.Upper, e.s.Upper) || !same(e.a.Value, e.s.Value) {
					t.Errorf("%s: value %v CI [%v, %v]; without CIs %v [%v, %v]", at, e.a.Value, e.a.Lower, e.a.Upper, e.s.Value, e.s.Lower, e.s.Upper)
				}
				continue
			}
			skipped++
			if !math.IsNaN(e.s.Lower) || !math.IsNaN(e.s.Upper) {
				t.Errorf("%s: CI [%v, %v] computed without CIs", at, e.s.Lower, e.s.Upper)
			}
			if !a.Metric.bootstrapped() && !same(e.a.Value, e.s.Value) {
				t.Errorf("%s: value %v, without CIs %v", at, e.a.Value, e.s.Value)
			}
		}
	}
	if reduced == 0 || kept == 0 || skipped == 0 {
		t.Fatalf("the data should reduce some runs and keep and skip CIs: %d reduced, %d kept, %d skipped", reduced, kept, skipped)
	}
	for name, write := range map[string]func(*Report, *bytes.Buffer) error{
		"text":    func(r *Report, w *bytes.Buffer) error { return r.WriteText(w) },
		"details": func(r *Report, w *bytes.Buffer) error { return r.WriteDetails(w) },
	} {
		var wa, ws bytes.Buffer
		if err := write(all, &wa); err != nil {
			t.Fatal(err)
		}
		if err := write(sum, &ws); err != nil {
			t.Fatal(err)
		}
		if wa.String() != ws.String() {
			t.Errorf("%s differs without the CIs:\n%s\nwith them:\n%s", name, ws.String(), wa.String())
		}
	}
}

// TestNoReportedCIsVersions: Run ignores NoReportedCIs when it compares
// versions, whose change detection reads the CIs.
func TestNoReportedCIsVersions(t *testing.T) {
	tab := mergeTable(t)
	want, got := withAndWithoutCIs(t, mergeOptions(), func(o Options) (*Report, error) { return Run(tab, o) })
	if want.Versions == nil || got.Options.NoReportedCIs {
		t.Fatalf("versions compared %v; NoReportedCIs still set %v", want.Versions != nil, got.Options.NoReportedCIs)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("the report with NoReportedCIs differs from the one without")
	}
}

// withAndWithoutCIs returns the reports of run with opt's NoReportedCIs
// false, then true.
func withAndWithoutCIs(t *testing.T, opt Options, run func(Options) (*Report, error)) (with, without *Report) {
	t.Helper()
	var reps [2]*Report
	for i, skip := range []bool{false, true} {
		opt.NoReportedCIs = skip
		r, err := run(opt)
		if err != nil {
			t.Fatal(err)
		}
		reps[i] = r
	}
	return reps[0], reps[1]
}
