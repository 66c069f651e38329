package reconfigure

import (
	"fmt"
	"math"

	"github.com/benchtrim/benchtrim/estimate"
)

// nonFinite names the first A/A statistic of crs that is not finite (a
// sum that overflowed float64 although every value was finite), or "".
func nonFinite(crs []CriterionResult) string {
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	for _, cr := range crs {
		if !cr.AA.Available {
			continue
		}
		for _, q := range []struct {
			name string
			iv   estimate.Interval
		}{{"ratio dynamic/static", cr.AA.Ratio.Ratio}, {"dynamic mean", cr.AA.Ratio.Test}, {"static mean", cr.AA.Ratio.Control}} {
			if !finite(q.iv.Estimate) || !finite(q.iv.Lower) || !finite(q.iv.Upper) {
				return fmt.Sprintf("%s criterion: the A/A test's %s", cr.Criterion, q.name)
			}
		}
		if !finite(cr.AA.ChangeRate) {
			return fmt.Sprintf("%s criterion: the A/A test's change rate", cr.Criterion)
		}
	}
	return ""
}
