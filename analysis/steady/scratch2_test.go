package steady

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/benchtrim/benchtrim/changepoint"
)

func TestScratchCROPS(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, kind := range []string{"warm", "flat", "osc"} {
		x := make([]float64, 3000)
		for i := range x {
			c := 1.0
			switch kind {
			case "warm":
				c = 1 + 3*math.Exp(-float64(i)/120)
			case "osc":
				if (i/6)%2 == 0 {
					c = 1.1
				} else {
					c = 0.9
				}
			}
			x[i] = 100 * c * (1 + 0.02*r.NormFloat64())
		}
		t0 := time.Now()
		sel, err := changepoint.SelectPenalty(x, changepoint.DefaultSelectOptions)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s select: %v pen %v cpts %d runs %d fallback %v outcome %v", kind, time.Since(t0), sel.Penalty, len(sel.Segmentation.Changepoints), len(sel.CROPS.Runs), sel.Fallback, sel.Knee.Outcome)
		t0 = time.Now()
		s2, _ := changepoint.PELT(x, changepoint.DefaultOptions(len(x)))
		t.Logf("pelt 15log: %v cpts %d", time.Since(t0), len(s2.Changepoints))
	}
}
