package reconfigure

import (
	"math"
	"slices"
	"testing"

	"github.com/benchtrim/benchtrim/table"
)

// TestAlgorithm1HandChecked replays a small avgt benchmark under the CV
// criterion and compares the stop points with those worked out by hand from
// Algorithm 1 and Eq. 1 and 2 of Laaber et al. (ESEC/FSE 2020).
//
// Configuration ⟨wi_min 3, wi_max 6, mi 2, f_min 2, f_max 4⟩, s_W = 3, CV
// threshold 0.01. avgt iterations are single values with weight 1, so the
// cumulative set M_i of a fork is its first i values and CV = population
// sd / mean (no randomness is involved).
//
// Fork 1: 10 10 12 10 10 10 | 10 10
//
//	CV(M_1) = CV(M_2) = 0
//	M_3 = {10,10,12}: mean 32/3, pop. var 8/9, CV = 0.94281/10.6667 = 0.088388
//	M_4 adds 10: mean 10.5, var 0.75, CV = 0.86603/10.5 = 0.082479
//	M_5 adds 10: mean 10.4, var 0.64, CV = 0.8/10.4 = 0.076923
//	M_6 adds 10: mean 62/6, var 5/9, CV = 0.74536/10.3333 = 0.072131
//	checks (i >= wi_min, window of the last 3 CVs, range <= 0.01?):
//	  i=3 {0, 0, .088388} .088; i=4 {0, .088388, .082479} .088;
//	  i=5 {.088388, .082479, .076923} .011465; i=6 {.082479, .076923, .072131} .010348
//	never stable: capped at wi_max = 6 (the fork has 8 = wi_max + mi iterations);
//	measurement iterations 7, 8: D_1 = {10, 10}.
//
// Fork 2: 10 11 10 10 | 11 10 | 10 10
//
//	CV(M_2) = 0.5/10.5 = 0.047619; CV(M_3) = 0.47140/10.3333 = 0.045620;
//	CV(M_4) = 0.43301/10.25 = 0.042245
//	i=3 {0, .047619, .045620} .0476; i=4 {.047619, .045620, .042245} .005375 <= .01:
//	stable after 4 warmup iterations; measurement iterations 5, 6: D_2 = {11, 10}.
//
// Forks 3 and 4: 10 10 10 | 10 10 | 10 10 10: CV(M_1..3) = 0, stable at i = 3;
// measurement iterations 4, 5: D_3 = D_4 = {10, 10}.
//
// Forks (Eq. 2) over F_f = D_1 ∪ … ∪ D_f:
//
//	CV(F_1) = 0
//	F_2 = {10,10,11,10}: mean 10.25, var 0.1875, CV = 0.43301/10.25 = 0.042245
//	F_3 = F_2 + {10,10}: mean 61/6, var 5/36, CV = 0.37268/10.1667 = 0.036657
//	F_4 = F_3 + {10,10}: mean 10.125, var 0.109375, CV = 0.33072/10.125 = 0.032663
//
// With a fork window of 2 (the prototype's): after fork 2 {0, .042245} range
// .042 (not stable); after fork 3 {.042245, .036657} range .005588: stop
// with 3 forks. With the fork window s_W = 3: after fork 2 the window holds
// the two sets there are, {0, .042245}; after fork 3 {0, .042245, .036657}
// range .042; after fork 4 {.042245, .036657, .032663} range .009582: stable
// at fork 4 = f_max (stopped by the criterion, not capped).
func TestAlgorithm1HandChecked(t *testing.T) {
	key := table.Key{Project: "p", Benchmark: "hand", Mode: "avgt"}
	s := seriesOf(key,
		[]float64{10, 10, 12, 10, 10, 10, 10, 10},
		[]float64{10, 11, 10, 10, 11, 10, 10, 10},
		[]float64{10, 10, 10, 10, 10, 10, 10, 10},
		[]float64{10, 10, 10, 10, 10, 10, 10, 10},
	)
	opt := DefaultOptions
	opt.Config = Config{WarmupMin: 3, WarmupMax: 6, Measurement: 2, ForksMin: 2, ForksMax: 4}
	opt.Window = 3
	opt.Criteria = []Criterion{CriterionCV}
	opt.Baseline = Baseline{Warmup: 4, Measurement: 4, Forks: 4}

	for _, tc := range []struct {
		name        string
		forkWindow  int
		wantWarmup  []int
		wantStable  []bool
		wantForksOK bool
		forksValue  float64
	}{
		{"fork window 2", 2, []int{6, 4, 3}, []bool{false, true, true}, true, 0.005588},
		{"fork window s_W", 0, []int{6, 4, 3, 3}, []bool{false, true, true, true}, true, 0.009582},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := opt
			o.ForkWindow = tc.forkWindow
			res, err := replaySeries(s, o)
			if err != nil {
				t.Fatal(err)
			}
			if res.Skipped != "" {
				t.Fatalf("skipped: %s", res.Skipped)
			}
			cr := res.Criterion(CriterionCV)
			if got := warmups(cr); !slices.Equal(got, tc.wantWarmup) {
				t.Errorf("warmup per fork = %v, want %v", got, tc.wantWarmup)
			}
			for i, f := range cr.Forks {
				if f.WarmupStable != tc.wantStable[i] {
					t.Errorf("fork %d: warmup stable = %v, want %v", i+1, f.WarmupStable, tc.wantStable[i])
				}
				if f.MeasurementIterations != 2 {
					t.Errorf("fork %d: %d measurement iterations, want 2", i+1, f.MeasurementIterations)
				}
			}
			checkClose(t, "fork 1 range at cap", cr.Forks[0].Value, 0.010348, 5e-6)
			checkClose(t, "fork 2 range at stop", cr.Forks[1].Value, 0.005375, 5e-6)
			if cr.ForksStable != tc.wantForksOK {
				t.Errorf("forks stable = %v, want %v", cr.ForksStable, tc.wantForksOK)
			}
			checkClose(t, "fork criterion range", cr.ForksValue, tc.forksValue, 5e-6)
			// t_dyn = Σ_f [(1 + 0.0088)·wi_f + 2] s with 1 s iterations.
			var wi int
			for _, w := range tc.wantWarmup {
				wi += w
			}
			want := 1.0088*float64(wi) + 2*float64(len(tc.wantWarmup))
			checkClose(t, "dynamic seconds", cr.DynamicSeconds, want, 1e-9)
			checkClose(t, "static seconds", res.StaticSeconds, 4*8, 0)
		})
	}
}

// TestWindowEdges checks the window rules of phase.check directly: CV and
// RCIW need two sets in the window, KLD one probability (two sets); a NaN
// statistic is never stable.
func TestWindowEdges(t *testing.T) {
	opt := DefaultOptions
	one := func(v float64) []weighted { return []weighted{{x: []float64{v}, w: []float64{1}}} }
	p := newPhase(CriterionCV, &opt, false, purposeWarmupRCIW, 0, "k", nil)
	p.add(one(5), 0)
	if ok, v, _ := p.check(5); ok || !math.IsNaN(v) {
		t.Errorf("CV with one set: stable %v value %v, want false NaN", ok, v)
	}
	p.add(one(5), 0)
	if ok, v, _ := p.check(5); !ok || v != 0 {
		t.Errorf("CV of {5}, {5, 5}: stable %v value %v, want true 0", ok, v)
	}
	k := newPhase(CriterionKLD, &opt, false, purposeWarmupRCIW, 0, "k", nil)
	k.add(one(5), 0)
	if ok, v, _ := k.check(5); ok || !math.IsNaN(v) {
		t.Errorf("KLD with one set: stable %v value %v, want false NaN", ok, v)
	}
	// {5} against {5, 5}: both point masses at 5, range a single point: p = 1.
	k.add(one(5), 0)
	if ok, v, _ := k.check(5); !ok || v != 1 {
		t.Errorf("KLD of {5}, {5, 5}: stable %v value %v, want true 1", ok, v)
	}
}
