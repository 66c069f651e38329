package compare

import (
	"fmt"
	"math"

	"github.com/benchtrim/benchtrim/estimate"
)

// finiteErr says which statistic of c is not finite, or nil: a mean whose
// sum overflowed float64 although every value was finite, or a ratio (and
// the change and change rate from it) over a base mean of 0 or near it. A
// comparison with such a statistic is a Row.Err, never a reported
// outcome.
func (c *Row) finiteErr() error {
	const overflow, ratio = "the values overflow float64", "a base mean of 0 or near it, or values that overflow float64"
	for _, q := range []struct {
		name, why string
		iv        estimate.Interval
	}{{"base mean", overflow, c.Base.Mean}, {"test mean", overflow, c.Test.Mean}, {"ratio test/base", ratio, c.Ratio}} {
		if !finite(q.iv.Estimate) || !finite(q.iv.Lower) || !finite(q.iv.Upper) {
			return notFinite(q.name, q.why)
		}
	}
	for _, q := range []struct {
		name string
		v    float64
	}{{"change rate", c.ChangeRate}, {"change", c.Verdict.Percent}, {"U statistic", c.U}, {"p-value", c.P}, {"Cliff's delta", c.CliffsDelta}} {
		if !finite(q.v) {
			return notFinite(q.name, ratio)
		}
	}
	return nil
}

func notFinite(name, why string) error {
	return fmt.Errorf("the %s is not finite (%s)", name, why)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
