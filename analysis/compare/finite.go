package compare

import (
	"fmt"
	"math"

	"github.com/benchtrim/benchtrim/estimate"
)

// finiteErr says which statistic of c is not finite (a sum that overflowed
// float64 although every value was finite), or nil. A comparison with such
// a statistic is a Result.Err, never a reported outcome.
func (c *Comparison) finiteErr() error {
	for _, q := range []struct {
		name string
		iv   estimate.Interval
	}{{"base mean", c.Base.Mean}, {"test mean", c.Test.Mean}, {"ratio test/base", c.Ratio}} {
		if err := intervalFinite(q.name, q.iv); err != nil {
			return err
		}
	}
	for _, q := range []struct {
		name string
		v    float64
	}{{"change rate", c.ChangeRate}, {"U statistic", c.U}, {"p-value", c.P}, {"Cliff's delta", c.CliffsDelta}, {"change", c.Verdict.Percent}} {
		if !finite(q.v) {
			return notFinite(q.name)
		}
	}
	return nil
}

// intervalFinite checks an estimate and its interval.
func intervalFinite(name string, iv estimate.Interval) error {
	if !finite(iv.Estimate) || !finite(iv.Lower) || !finite(iv.Upper) {
		return notFinite(name)
	}
	return nil
}

func notFinite(name string) error {
	return fmt.Errorf("the %s is not finite (the values overflow float64)", name)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
