package stats

import (
	"errors"
	"math"
	"testing"
)

// TestCheckSums: the bounds N·max|x| and N·spread² with N = n²·max(1, max w)
// against float64's largest value, 1.7976931348623157e308.
func TestCheckSums(t *testing.T) {
	for _, c := range []struct {
		name    string
		x, w    []float64
		squares bool
		ok      bool
	}{
		{"times", []float64{1200, 1250, 1190}, nil, false, true},
		{"near max", []float64{1.7e308, 1.6e308}, nil, false, false},
		// 3² × 1e307 = 9e307 fits; 3² × 2e307 = 1.8e308 does not.
		{"n² × max fits", []float64{1e307, 1e307, 1e307}, nil, false, true},
		{"n² × max overflows", []float64{2e307, 2e307, 2e307}, nil, false, false},
		{"weights count", []float64{1e306, 1e306}, []float64{1, 100}, false, false},
		// Spread 1e154: 4 × 1e308 > max; 1e153: 4 × 1e306 fits.
		{"squares overflow", []float64{1, 1e154}, nil, true, false},
		{"squares fit", []float64{1, 1e153}, nil, false, true},
		{"non-finite ignored", []float64{math.NaN(), math.Inf(1), 5}, nil, false, true},
		{"empty", nil, nil, false, true},
	} {
		err := CheckSums(c.x, c.w)
		var oe *overflowError
		switch {
		case c.ok && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case !c.ok && !errors.As(err, &oe):
			t.Errorf("%s: error %v, want an *OverflowError", c.name, err)
		case !c.ok && oe.Squares != c.squares:
			t.Errorf("%s: Squares %v, want %v (%v)", c.name, oe.Squares, c.squares, err)
		}
	}
	want := "values up to 1.7e+308 overflow float64 in a sum of up to 4 of them"
	if err := CheckSums([]float64{1.7e308, 1}, nil); err == nil || err.Error() != want {
		t.Errorf("message %v, want %q", err, want)
	}
}
