package reconfigure

import (
	"math"
	"testing"
)

func TestBestAndOverallRows(t *testing.T) {
	rows := []SummaryRow{
		{Project: "a", Criterion: CriterionCV, AATested: 10, NotDifferent: 0.8, Saved: 0.9},
		{Project: "a", Criterion: CriterionRCIW, AATested: 10, NotDifferent: 0.95, Saved: 0.7},
		{Project: "a", Criterion: CriterionKLD, AATested: 10, NotDifferent: 0.9, Saved: 0.75},
		{Project: overall, Criterion: CriterionCV, AATested: 20, NotDifferent: 0.5, Saved: 0.9},
		{Project: overall, Criterion: CriterionRCIW, AATested: 20, NotDifferent: 0.6, Saved: 0.8},
		{Project: overall, Criterion: CriterionKLD, AATested: 20, NotDifferent: 0.6, Saved: 0.85},
	}
	// KLD and RCIW both ≥ 90 % not different: KLD saves more.
	if b := best(rows[:3]); b != 2 {
		t.Errorf("Best(project a) = %d, want 2 (KLD)", b)
	}
	// None ≥ 90 %: the most not different, ties by time saved (KLD).
	over := overallRows(rows, nil)
	if len(over) != 3 || over[0].Project != overall {
		t.Fatalf("OverallRows = %+v", over)
	}
	if b := best(over); b != 2 {
		t.Errorf("Best(overall) = %d, want 2", b)
	}
	// Nothing A/A-tested (not different is NaN): the largest saving wins.
	untested := []SummaryRow{{Criterion: CriterionCV, Saved: 0.5, NotDifferent: math.NaN()}, {Criterion: CriterionRCIW, Saved: 0.6, NotDifferent: math.NaN()}}
	if b := best(untested); b != 1 {
		t.Errorf("Best(untested) = %d, want 1", b)
	}
}
