package changepoint

// extendedPrec is the significand width of the x87 80-bit extended format
// that R uses for LDOUBLE on x86-64 Linux.
const extendedPrec = 64

// extended emulates an x87 long double register with the default extended
// precision control (see x87): every operation rounds its exact result to
// 64 significand bits, to nearest, ties to even. Converting back to
// float64 rounds again to 53 bits (double rounding), exactly as a C cast
// (double)x does. The exponent range is unbounded, which only differs from
// x87 for values beyond ±1.19e4932, far outside any input this package
// accepts (finite float64 data).
type extended struct{ v x87 }

func newExtended() *extended { return &extended{} }

// reset sets the register to zero.
func (e *extended) reset() { e.v = x87{} }

// add performs v += x with one rounding to 64 bits.
func (e *extended) add(x float64) { e.v = e.v.add(x87Of(x)) }

// quoInt performs v /= n with one rounding to 64 bits.
func (e *extended) quoInt(n int) { e.v = e.v.quoInt(n) }

// float64 rounds the register to the nearest double, ties to even.
func (e *extended) float64() float64 { return e.v.float64() }

// cumsumExtended writes dst[0] = 0 and dst[i+1] = (double)(x[0]+...+x[i])
// with the running sum held in extended precision, as R's cumsum() does
// for doubles:
//
//	LDOUBLE sum = 0; for i: sum += x[i]; s[i] = (double) sum;
//
// When square is true it accumulates x[i]*x[i] (the product rounded to
// double first, as R computes y^2 before cumsum).
func cumsumExtended(dst, x []float64, square bool) {
	e := newExtended()
	dst[0] = 0
	for i, v := range x {
		if square {
			v = float64(v * v)
		}
		e.add(v)
		dst[i+1] = e.float64()
	}
}

// cumsumDouble is cumsumExtended with a plain float64 accumulator.
func cumsumDouble(dst, x []float64, square bool) {
	var s float64
	dst[0] = 0
	for i, v := range x {
		if square {
			v = float64(v * v)
		}
		s += v
		dst[i+1] = s
	}
}

// meanExtended is R's mean() of a double vector (summary.c, real_mean):
//
//	s = Σ x[i] / n                 (long double)
//	s += Σ (x[i] - s) / n          (second pass, long double)
//
// returned rounded to double. x must not be empty.
func meanExtended(e *extended, x []float64) float64 {
	n := len(x)
	e.reset()
	for _, v := range x {
		e.add(v)
	}
	e.quoInt(n)
	if f := e.float64(); f-f != 0 { // not finite: no refinement (R does the same)
		return f
	}
	s := e.v
	var t x87
	for _, v := range x {
		t = t.add(x87Of(v).add(s.negate()))
	}
	e.v = s.add(t.quoInt(n))
	return e.float64()
}

// varianceMLEExtended is R changepoint's param.est variance of one segment,
// var(x)*(len-1)/len, where var is R's cov.c two-pass estimator with long
// double accumulation around the double mean m = mean(x):
//
//	var = (double)( Σ (x[i]-m)² / (len-1) )   (long double)
//	mle = var*(len-1)/len                      (double)
//
// For len == 1 (possible only with the mean cost and MinSegLen 1) R's var
// is NA; the MLE of one point is 0, which is returned.
func varianceMLEExtended(e *extended, x []float64, m float64) float64 {
	n := len(x)
	if n < 2 {
		return 0
	}
	mm := x87Of(m).negate()
	e.reset()
	for _, v := range x {
		d := x87Of(v).add(mm)
		e.v = e.v.add(d.mul(d))
	}
	e.quoInt(n - 1)
	v := e.float64()
	return float64(v*float64(n-1)) / float64(n)
}
