package duet

import (
	"slices"
	"testing"
)

func rec(run int32, pair byte, it int32, start, end int64) Record {
	return Record{Run: run, Pair: pair, Iteration: it, StartNs: start, EndNs: end, TimeNs: float64(end - start)}
}

// TestFilterWarmupRules: the code's rule keeps i ≥ iter_max/2 with iter_max
// over both pairs (a pair that timed out keeps its threshold from the
// other); the thesis rule drops the first ⌊n/2⌋ of each pair; SPEC CPU and
// warmupNone keep all.
func TestFilterWarmupRules(t *testing.T) {
	var recs []Record
	for i := int32(1); i <= 5; i++ { // A: 1..5 (1-based, DaCapo)
		recs = append(recs, rec(0, 'A', i, int64(i)*10, int64(i)*10+5))
	}
	for i := int32(1); i <= 3; i++ { // B timed out after 3
		recs = append(recs, rec(0, 'B', i, int64(i)*10, int64(i)*10+5))
	}
	its := func(rs []Record) []string {
		var out []string
		for _, r := range rs {
			out = append(out, string(r.Pair)+string('0'+byte(r.Iteration)))
		}
		return out
	}
	for _, c := range []struct {
		suite string
		rule  WarmupRule
		want  []string
	}{
		{"dacapo", warmupCode, []string{"A3", "A4", "A5", "B3"}}, // 2i ≥ 5
		{"dacapo", warmupHalf, []string{"A3", "A4", "A5", "B2", "B3"}},
		{"dacapo", warmupNone, its(recs)},
		{"speccpu", warmupCode, its(recs)},
	} {
		if got := its(filterWarmup(recs, c.suite, c.rule)); !slices.Equal(got, c.want) {
			t.Errorf("%s %s: %v, want %v", c.suite, c.rule, got, c.want)
		}
	}
}

// TestPairByIndex: an inner join on iteration; duplicates are averaged.
func TestPairByIndex(t *testing.T) {
	a := []Record{{Iteration: 1, TimeNs: 10}, {Iteration: 2, TimeNs: 20}, {Iteration: 2, TimeNs: 30}, {Iteration: 4, TimeNs: 40}}
	b := []Record{{Iteration: 2, TimeNs: 5}, {Iteration: 3, TimeNs: 7}, {Iteration: 4, TimeNs: 1}}
	if got := pairByIndex(nil, a, b); !slices.Equal(got, []float64{25 - 5, 40 - 1}) {
		t.Errorf("got %v", got)
	}
}

// TestFilterOverlapsStrict: a pair at exactly rate m is dropped.
func TestFilterOverlapsStrict(t *testing.T) {
	a := []Record{rec(0, 'A', 0, 0, 100)}
	b := []Record{rec(0, 'B', 0, 60, 160)} // overlap 40: rate 0.4
	ov := sweepOverlaps(a, b)
	if len(ov) != 1 || ov[0].Rate != 0.4 {
		t.Fatalf("overlaps %+v", ov)
	}
	if n := len(filterOverlaps(ov, a, b, 0.4)); n != 0 {
		t.Errorf("rate 0.4 kept at m = 0.4")
	}
	if n := len(filterOverlaps(ov, a, b, 0.39)); n != 1 {
		t.Errorf("rate 0.4 dropped at m = 0.39")
	}
	// Touching intervals do not overlap.
	if ov := allPairsOverlaps(a, []Record{rec(0, 'B', 0, 100, 200)}); len(ov) != 0 {
		t.Errorf("touching: %+v", ov)
	}
}

// TestSlowdownGaps: B's times grow by 1 + s, the gaps between B's
// iterations are kept, the first B iteration keeps its start, A is
// unchanged; for seqn the starts stay.
func TestSlowdownGaps(t *testing.T) {
	recs := []Record{rec(0, 'A', 0, 0, 100), rec(0, 'B', 0, 10, 110), rec(0, 'B', 1, 130, 230), rec(1, 'B', 0, 1000, 1200)}
	got := slowdownB(nil, recs, TypeDuet, 0.1)
	want := []Record{recs[0], {Run: 0, Pair: 'B', Iteration: 0, StartNs: 10, EndNs: 120, TimeNs: 110},
		{Run: 0, Pair: 'B', Iteration: 1, StartNs: 140, EndNs: 250, TimeNs: 110},
		{Run: 1, Pair: 'B', Iteration: 0, StartNs: 1000, EndNs: 1220, TimeNs: 220}}
	for i := range want {
		if got[i].StartNs != want[i].StartNs || got[i].EndNs != want[i].EndNs || got[i].TimeNs-want[i].TimeNs > 1e-9 {
			t.Errorf("duet record %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	got = slowdownB(got, recs, typeSeqn, 0.1)
	if got[2].StartNs != 130 || got[2].EndNs != 240 {
		t.Errorf("seqn: %+v", got[2])
	}
	if recs[1].EndNs != 110 {
		t.Error("input modified")
	}
}

// TestMannWhitneyOptions: the U test follows scipy.stats.mannwhitneyu's
// defaults (values from scipy 1.10.1, testdata/mannwhitney_reference.py):
// small samples with a tie take the asymptotic branch with tie and
// continuity correction, small untied ones the exact distribution, samples
// of more than 8 each the asymptotic one.
func TestMannWhitneyOptions(t *testing.T) {
	seq := func(from, n int, add float64) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(from+i) + add
		}
		return x
	}
	for _, c := range []struct {
		a, b  []float64
		p     float64
		exact bool
	}{
		{[]float64{1, 2, 2, 3}, []float64{2, 4, 5}, 0.19908985214820463, false},
		{[]float64{1, 2.5, 3.5, 7}, []float64{2, 4, 5}, 0.8571428571428571, true},
		{seq(0, 12, 0), seq(3, 12, 0.5), 0.040404119588223694, false},
	} {
		u, ok, err := mannWhitney(c.a, c.b, 0.05)
		if err != nil || !ok {
			t.Fatal(ok, err)
		}
		checkClose(t, "p", u.P, c.p, 1e-12)
		if u.Exact != c.exact || u.Equal != (c.p > 0.05) {
			t.Errorf("%v vs %v: %+v", c.a, c.b, u)
		}
	}
	if _, ok, _ := mannWhitney(nil, []float64{1}, 0.05); ok {
		t.Error("empty side tested")
	}
}

// TestCITestAPI: keyCITest draws from the stream Run uses, so it reproduces
// the CI of Run on the fixture; fewer than 2 run means give no CI.
func TestCITestAPI(t *testing.T) {
	gs := loadGroups(t, fixtures[0])
	g := groupOf(t, gs, TypeDuet)
	var x []float64
	for _, m := range runMeans(g, 0.4) {
		x = append(x, m.mean)
	}
	opt := DefaultOptions()
	res, err := analyze(gs, opt)
	if err != nil {
		t.Fatal(err)
	}
	b := res.Benchmarks[0]
	ci, ok, err := keyCITest(x, b.GrandMean, g.key, opt)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if b.CI != ci {
		t.Errorf("CITest %+v, Run %+v", ci, b.CI)
	}
	if _, ok, _ := keyCITest(x[:1], 1, g.key, opt); ok {
		t.Error("one run mean gave a CI")
	}
}
