package changepoint

import (
	"math"
	"strings"
	"testing"
)

func TestParsePenalty(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Penalty
		at60 float64 // At(60); NaN for the CROPS rules
	}{
		{"crops", Penalty{Rule: PenaltyCROPS}, math.NaN()},
		{"", Penalty{Rule: PenaltyCROPS}, math.NaN()},
		{"crops-ascending", Penalty{Rule: PenaltyCROPSAscending}, math.NaN()},
		{"15log", Penalty{Rule: PenaltyBarrett}, 15 * math.Log(60)},
		{"Barrett", Penalty{Rule: PenaltyBarrett}, 15 * math.Log(60)},
		{"250.5", Penalty{Rule: PenaltyManual, Manual: PenaltyTerm{Value: 250.5}}, 250.5},
		{"10log", Penalty{Rule: PenaltyManual, Manual: PenaltyTerm{Value: 10, PerLogN: true}}, 10 * math.Log(60)},
	} {
		got, err := ParsePenalty(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParsePenalty(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
			continue
		}
		if at := got.at(60); !(at == tc.at60 || math.IsNaN(at) && math.IsNaN(tc.at60)) {
			t.Errorf("%q.At(60) = %v, want %v", tc.in, at, tc.at60)
		}
		if tc.in != "" && tc.in != "Barrett" {
			if back, err := ParsePenalty(got.String()); err != nil || back != got {
				t.Errorf("%q: String %q reads back as %+v, %v", tc.in, got.String(), back, err)
			}
		}
	}
	for _, bad := range []string{"lots", "-1", "NaN", "Inflog", "xlog"} {
		if _, err := ParsePenalty(bad); err == nil {
			t.Errorf("ParsePenalty(%q): no error", bad)
		}
	}
}

func TestParsePenaltyRange(t *testing.T) {
	r, err := ParsePenaltyRange("4log,1e5log")
	if err != nil {
		t.Fatal(err)
	}
	lo, hi, err := r.At(3000)
	wlo, whi := trainiRange(3000)
	if err != nil || lo != wlo || hi != whi {
		t.Errorf("4log,1e5log at 3000 = %v, %v, %v; want TrainiRange %v, %v", lo, hi, err, wlo, whi)
	}
	if lo, hi, err := (PenaltyRange{}).At(100); err != nil || lo != 4*math.Log(100) || hi != 1e5*math.Log(100) {
		t.Errorf("zero range at 100 = %v, %v, %v", lo, hi, err)
	}
	r, _ = ParsePenaltyRange("4,1e5")
	if lo, hi, err := r.At(10); err != nil || lo != 4 || hi != 1e5 {
		t.Errorf("4,1e5 = %v, %v, %v", lo, hi, err)
	}
	// 100 > 10·log n for n < e^10: the order depends on n.
	r, _ = ParsePenaltyRange("100,10log")
	if _, _, err := r.At(1000); err == nil || !strings.Contains(err.Error(), "want 0 <= a < b") {
		t.Errorf("100,10log at 1000: err %v", err)
	}
	if _, _, err := r.At(100000); err != nil {
		t.Errorf("100,10log at 100000: %v", err)
	}
	for _, bad := range []string{"4", "1,2,3", "a,b", "-1,5"} {
		if _, err := ParsePenaltyRange(bad); err == nil {
			t.Errorf("ParsePenaltyRange(%q): no error", bad)
		}
	}
}

func TestAnalyze(t *testing.T) {
	x := make([]float64, 60)
	for i := range x {
		x[i] = 100 * (1 + 0.01*math.Sin(float64(i)*1.7))
		if i < 8 {
			x[i] *= 3
		}
	}
	pen, _ := ParsePenalty("15log")
	r, err := Analyze(x, AnalyzeOptions{Cost: MeanVar, Penalty: pen})
	if err != nil || len(r.Changepoints) != 1 || r.Changepoints[0] != 8 || r.PenaltyRule != "15log" ||
		float64(r.Penalty) != BarrettPenalty(60) || len(r.Segments) != 2 || r.Segments[1].Start != 9 || r.CROPS != nil {
		t.Fatalf("15log: %+v, %v", r, err)
	}
	pen, _ = ParsePenalty("crops")
	r, err = Analyze(x, AnalyzeOptions{Cost: MeanVar, MinSegLen: 2, Penalty: pen})
	if err != nil || r.CROPS == nil || !r.Fallback || len(r.Notes) != 1 || r.CROPS.PELTRuns == 0 {
		t.Fatalf("crops: %+v, %v", r, err)
	}
	pen, _ = ParsePenalty("1e6")
	r, _ = Analyze(x, AnalyzeOptions{Cost: MeanVar, Penalty: pen})
	if len(r.Changepoints) != 0 || !strings.Contains(r.NoChangepointReason(), "a smaller --penalty finds more change points") {
		t.Errorf("1e6: %v, %q", r.Changepoints, r.NoChangepointReason())
	}
	if _, err := Analyze(nil, AnalyzeOptions{Penalty: pen}); err == nil {
		t.Error("no values: no error")
	}
}
