package steady

import (
	"testing"

	"github.com/benchtrim/benchtrim/table"
)

func TestEquivalentCI(t *testing.T) {
	for _, tc := range []struct {
		lo, hi         float64
		traini, strict bool
	}{
		{0.96, 1.04, true, true},
		{0.97, 1.08, true, false}, // straddles 1.05: not wholly beyond, not wholly within
		{0.90, 0.94, false, false},
		{0.90, 0.95, false, false}, // hi <= 0.95 differs (kalibera.py's test)
		{1.05, 1.2, false, false},  // lo >= 1.05 differs
		{0.5, 2, true, false},
	} {
		for _, rule := range []Equivalence{equivalenceTraini, equivalenceTrainiStrict} {
			opt := DefaultOptions
			opt.Equivalence = rule
			a := newAnalyzer(&opt)
			want := tc.traini
			if rule == equivalenceTrainiStrict {
				want = tc.strict
			}
			if got := a.equivalentCI(tc.lo, tc.hi); got != want {
				t.Errorf("%v: CI [%v, %v] equivalent = %v, want %v", rule, tc.lo, tc.hi, got, want)
			}
		}
	}
}

func TestBarrettRule(t *testing.T) {
	// Constant segments (variance 0) in ns/op; Barrett compares in seconds.
	abs, _ := ParseBarrettDelta("0.001")
	rel, _ := ParseBarrettDelta("1%")
	for _, tc := range []struct {
		name    string
		delta   BarrettDelta
		start   []int
		level   []float64
		barrett BarrettClass
		st      int
	}{
		// 150 ns and 100 ns differ by 5e-8 s, far inside δ = 1 ms: flat.
		{"absolute 1 ms", abs, []int{0, 100}, []float64{150, 100}, BarrettFlat, 0},
		// δ = 1 % of the fastest mean (1e-7 s) = 1e-9 s: the band around
		// the last segment is [0.99e-7, 1.01e-7] s and 1.5e-7 lies above it.
		{"1 % warmup", rel, []int{0, 100}, []float64{150, 100}, BarrettWarmup, 100},
		// The last segment at 150 ns: 100 ns lies below [1.49e-7, 1.51e-7].
		{"1 % slowdown", rel, []int{0, 100}, []float64{100, 150}, BarrettSlowdown, 100},
		// Last at 100.5 ns, band [0.995e-7, 1.015e-7]: the 100-ns segments
		// are equivalent, the 200-ns one differs (above: warmup), so the
		// steady state starts after it, at 200.
		{"1 % two returns", rel, []int{0, 100, 200, 300}, []float64{100, 200, 100, 100.5}, BarrettWarmup, 200},
	} {
		opt := DefaultOptions
		opt.Equivalence = equivalenceBarrett
		opt.BarrettDelta = tc.delta
		opt.SteadyWindow = 300
		opt.Segmenter = levelSegmenter{}
		// Constant levels would make the points next to a step outliers
		// (p99 − p1 = 0 in windows that hold one or two of them).
		opt.Outliers.Disabled = true
		br, err := analyzeForks(table.Key{Benchmark: tc.name}, nil, []forkSeries{levels(1, 600, 1, tc.start, tc.level)}, opt)
		if err != nil {
			t.Fatal(err)
		}
		if f := br.Forks[0]; f.Class != ForkSteady || f.Barrett != tc.barrett || f.SteadyStart != tc.st {
			t.Errorf("%s: %v/%v st %d, want steady/%v st %d", tc.name, f.Class, f.Barrett, f.SteadyStart, tc.barrett, tc.st)
		}
	}
}

func TestParseFlags(t *testing.T) {
	if e, err := ParseEquivalence("barrett"); e != equivalenceBarrett || err != nil {
		t.Errorf("barrett: %v %v", e, err)
	}
	if _, err := ParseEquivalence("georges"); err == nil {
		t.Error("ParseEquivalence(georges): no error")
	}
	if d, err := ParseBarrettDelta("2.5%"); err != nil || !d.Relative || !close(d.Value, 0.025) || d.String() != "2.5%" {
		t.Errorf("2.5%%: %+v %v", d, err)
	}
	if _, err := ParseBarrettDelta("-1"); err == nil {
		t.Error("ParseBarrettDelta(-1): no error")
	}
}
