package page

import (
	"math"
	"sort"
)

// violin is one distribution of a benchmark run (the distributions
// frame's rows of one run and configuration): its version and
// configuration, iteration count, mean and quantiles (p, value in ns).
type violin struct {
	version, config string
	n               float64
	mean            float64
	p, q            []float64
	// unit, scale, score and scoreErr are the distributions frame's unit,
	// score_scale, score and score_error (JMH's Score and Score Error in
	// the file's unit; NaN when unknown).
	unit                   string
	scale, score, scoreErr float64
}

// quantile interpolates the kept quantiles at p.
func (v *violin) quantile(p float64) float64 {
	if len(v.q) == 1 {
		return v.q[0]
	}
	i := sort.SearchFloat64s(v.p, p)
	switch {
	case i == 0:
		return v.q[0]
	case i >= len(v.p):
		return v.q[len(v.q)-1]
	}
	a, b := v.p[i-1], v.p[i]
	if b == a {
		return v.q[i]
	}
	return v.q[i-1] + (p-a)/(b-a)*(v.q[i]-v.q[i-1])
}

// silverman is Silverman's rule-of-thumb bandwidth of the sorted x,
// 0.9·min(sd, IQR/1.34)·n^(−1/5) (the sd alone when the IQR is 0), 0 when
// every value is equal.
func silverman(x []float64) float64 {
	n := float64(len(x))
	if len(x) < 2 {
		return 0
	}
	mean := 0.0
	for _, v := range x {
		mean += v
	}
	mean /= n
	ss := 0.0
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	sd := math.Sqrt(ss / (n - 1))
	q := func(p float64) float64 {
		h := p * (n - 1)
		i := int(h)
		if i+1 >= len(x) {
			return x[len(x)-1]
		}
		return x[i] + (h-float64(i))*(x[i+1]-x[i])
	}
	s := sd
	if iqr := (q(0.75) - q(0.25)) / 1.34; iqr > 0 && iqr < sd {
		s = iqr
	}
	return 0.9 * s * math.Pow(n, -0.2)
}
