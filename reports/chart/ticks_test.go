package chart

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"
)

// degenerateRanges are axis ranges that float64 arithmetic makes hard: one
// ULP, empty, reversed, infinite, NaN, as wide as float64 goes, subnormal.
var degenerateRanges = []struct {
	name   string
	lo, hi float64
}{
	{"one ULP at 1", 1, math.Nextafter(1, 2)},
	{"one ULP at 1e15", 1e15, math.Nextafter(1e15, 2e15)},
	{"empty at 0", 0, 0},
	{"empty at 1e20", 1e20, 1e20},
	{"empty at MaxFloat64", math.MaxFloat64, math.MaxFloat64},
	{"reversed", 5, -5},
	{"lo -Inf", math.Inf(-1), 3},
	{"hi +Inf", 3, math.Inf(1)},
	{"both infinite", math.Inf(-1), math.Inf(1)},
	{"NaN lo", math.NaN(), 3},
	{"NaN both", math.NaN(), math.NaN()},
	{"1e308 wide", -1e308, 1e308},
	{"MaxFloat64 wide", -math.MaxFloat64, math.MaxFloat64},
	{"subnormal", 0, 5e-324},
	{"subnormal pair", 5e-324, 1e-323},
	{"tiny", 1e-310, 1e-305},
}

// niceTicksDeadline runs NiceTicks in a goroutine and fails the test if
// it has not returned within d (the loop of issue 47 never ended).
func niceTicksDeadline(t *testing.T, lo, hi float64, n int, d time.Duration) []float64 {
	t.Helper()
	done := make(chan []float64, 1)
	go func() { done <- NiceTicks(lo, hi, n) }()
	select {
	case got := <-done:
		return got
	case <-time.After(d):
		t.Fatalf("NiceTicks(%v, %v, %d) has not returned after %v", lo, hi, n, d)
		return nil
	}
}

// checkTicks checks what NiceTicks promises for any (lo, hi, n): between
// 1 and n+1 finite, strictly increasing ticks inside TickRange(lo, hi),
// which is finite, at least the minimum width wide, and [lo, hi] itself
// when that is finite and wide enough; distinct labels.
func checkTicks(t *testing.T, lo, hi float64, n int, got []float64) {
	t.Helper()
	rlo, rhi := TickRange(lo, hi)
	if math.IsNaN(rlo) || math.IsNaN(rhi) || math.IsInf(rlo, 0) || math.IsInf(rhi, 0) || !(rlo < rhi) {
		t.Fatalf("TickRange(%v, %v) = [%v, %v]: not a finite range", lo, hi, rlo, rhi)
	}
	wide := hi-lo >= math.Max(minRelWidth*math.Max(math.Abs(lo), math.Abs(hi)), minWidth)
	if !math.IsInf(lo, 0) && !math.IsInf(hi, 0) && lo < hi && wide && (rlo != lo || rhi != hi) {
		t.Errorf("TickRange(%v, %v) = [%v, %v], want the range itself", lo, hi, rlo, rhi)
	}
	want := min(max(n, 2), 100) + 1
	if len(got) < 1 || len(got) > want {
		t.Fatalf("NiceTicks(%v, %v, %d): %d ticks, want 1 to %d: %v", lo, hi, n, len(got), want, got)
	}
	for i, v := range got {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < rlo || v > rhi {
			t.Errorf("NiceTicks(%v, %v, %d): tick %v outside [%v, %v]", lo, hi, n, v, rlo, rhi)
		}
		if i > 0 && !(v > got[i-1]) {
			t.Errorf("NiceTicks(%v, %v, %d): ticks not increasing: %v", lo, hi, n, got)
		}
	}
	seen := map[string]bool{}
	for _, l := range linearLabels(got, false) {
		if seen[l] {
			t.Errorf("NiceTicks(%v, %v, %d) = %v: label %q twice", lo, hi, n, got, l)
		}
		seen[l] = true
	}
}

// TestNiceTicksDegenerate checks that NiceTicks ends on every degenerate
// range with a finite, readable axis (issue 47: NiceTicks(1,
// 1.0000000000000002, 5) never ended, the tick counter stuck at 2⁵³).
func TestNiceTicksDegenerate(t *testing.T) {
	for _, c := range degenerateRanges {
		for _, n := range []int{-1, 0, 1, 4, 5, 1 << 40} {
			got := niceTicksDeadline(t, c.lo, c.hi, n, 5*time.Second)
			checkTicks(t, c.lo, c.hi, n, got)
		}
	}
	// The ticks of a range on the boundary are the ends themselves.
	if got := NiceTicks(0, 0.3, 3); got[len(got)-1] != 0.3 {
		t.Errorf("NiceTicks(0, 0.3, 3) = %v, want the last tick 0.3 exactly (not 3 × 0.1)", got)
	}
}

// TestChartDegenerate draws a chart over each degenerate range of data:
// it renders (or fails with errNoRange for data that has none), with no
// NaN or infinite coordinate in the SVG.
func TestChartDegenerate(t *testing.T) {
	for _, c := range degenerateRanges {
		for _, log := range []bool{false, true} {
			ch := &Chart{X: Axis{Integer: true}, Y: Axis{Log: log},
				Marks: []Mark{&Line{XYs: []XY{{X: 0, Y: c.lo}, {X: 1, Y: c.hi}}}}}
			var b bytes.Buffer
			done := make(chan error, 1)
			go func() { done <- ch.WriteSVG(&b) }()
			var err error
			select {
			case err = <-done:
			case <-time.After(20 * time.Second):
				t.Fatalf("%s (log %v): WriteSVG has not returned", c.name, log)
			}
			if err != nil {
				t.Errorf("%s (log %v): %v", c.name, log, err)
				continue
			}
			if s := b.String(); strings.Contains(s, "NaN") || strings.Contains(s, "Inf") {
				t.Errorf("%s (log %v): a coordinate NaN or Inf in the SVG", c.name, log)
			}
		}
	}
}

// FuzzNiceTicks checks NiceTicks on arbitrary float pairs and tick counts:
// it ends, with 1 to n+1 increasing finite ticks inside the range, labelled
// apart (checkTicks), and a chart over such data renders.
func FuzzNiceTicks(f *testing.F) {
	for _, c := range degenerateRanges {
		f.Add(math.Float64bits(c.lo), math.Float64bits(c.hi), 5)
	}
	f.Add(math.Float64bits(0), math.Float64bits(16), 5)
	f.Add(math.Float64bits(0.013), math.Float64bits(0.047), 4)
	f.Fuzz(func(t *testing.T, lob, hib uint64, n int) {
		lo, hi := math.Float64frombits(lob), math.Float64frombits(hib)
		got := niceTicksDeadline(t, lo, hi, n, 5*time.Second)
		checkTicks(t, lo, hi, n, got)
		ch := &Chart{Marks: []Mark{&Line{XYs: []XY{{X: lo, Y: hi}, {X: hi, Y: lo}}}}}
		var b bytes.Buffer
		if err := ch.WriteSVG(&b); err != nil && err != errNoRange {
			t.Fatalf("WriteSVG over [%v, %v]: %v", lo, hi, err)
		}
		if s := b.String(); strings.Contains(s, "NaN") || strings.Contains(s, "Inf") {
			t.Fatalf("WriteSVG over [%v, %v]: a coordinate NaN or Inf", lo, hi)
		}
	})
}

// TestLogLabelsOneNotation: the labels of one log axis share a notation:
// a CROPS penalty axis from 1000 to 1e6 reads 1e3 … 1e6, never 10000
// beside 1e5; one within 0.001 … 99999 stays plain.
func TestLogLabelsOneNotation(t *testing.T) {
	if got := strings.Join(LogLabels([]float64{1e3, 1e4, 1e5, 1e6}), " "); got != "1e3 1e4 1e5 1e6" {
		t.Errorf("labels %q, want 1e3 1e4 1e5 1e6", got)
	}
	if got := strings.Join(LogLabels([]float64{0.01, 0.1, 1, 10, 100}), " "); got != "0.01 0.1 1 10 100" {
		t.Errorf("labels %q", got)
	}
	a := Axis{Log: true}
	var labels []string
	for _, tk := range a.ticks(500, 2e6) {
		if tk.label != "" {
			labels = append(labels, tk.label)
		}
	}
	if got := strings.Join(labels, " "); got != "1e3 1e4 1e5 1e6" {
		t.Errorf("log axis 500 … 2e6: labels %q", got)
	}
}

// TestSpreadDropsCrowdedLabels: labels 1, 1.1, 1.25, 1.5, 2 of a ratio
// axis 20 px apart (widths 6, 20, 26, 18 and 6 px) keep the ones ranked
// first (1 and 2, then 1.5 and 1.25: 1.25 would come within 4 px of 1.5,
// so it goes, and 1.1 then fits); labels far apart are all kept.
func TestSpreadDropsCrowdedLabels(t *testing.T) {
	pos := []float64{0, 20, 40, 60, 80}
	wd := []float64{6, 20, 26, 18, 6}
	keep := Spread(pos, wd, []int{0, 3, 2, 1, 0}, 4)
	want := []bool{true, true, false, true, true}
	for i := range want {
		if keep[i] != want[i] {
			t.Fatalf("Spread kept %v, want %v", keep, want)
		}
	}
	far := Spread([]float64{0, 100, 200}, []float64{30, 30, 30}, []int{0, 0, 0}, 4)
	if !far[0] || !far[1] || !far[2] {
		t.Errorf("labels 100 px apart: kept %v", far)
	}
}
