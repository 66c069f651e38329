package changepoint

import "math"

// fastLog returns the natural logarithm of x, for PELT's inner loop.
//
// R evaluates log() with glibc, whose log is correctly rounded in all but a
// tiny fraction of cases; Go's math.Log is off by one ulp for about 0.5 %
// of arguments and costs a division. Both matter here: PELT evaluates
// log(σ²) for every (candidate, t) pair, and one-ulp differences in costs
// can flip CROPS's exact ties. fastLog is a table-driven evaluation in the
// style of glibc's (ARM optimized-routines) log, with the reduced argument
// carried in double-double, so its error is 0.5 ulp plus about 2⁻¹¹ ulp:
// it is correctly rounded except for arguments within ~2⁻¹¹ ulp of a
// rounding boundary (TestFastLogAccuracy measures it against a 256-bit
// reference).
//
//	x = 2^k·z,  z in [0x1.6p-1, 0x1.6p0),  z in subinterval i of 128
//	r = z·invc_i - 1   (exactly, as p-1 + fma(z, invc_i, -p), p = z·invc_i)
//	log x = k·ln2 + log c_i + log1p(r),   c_i = 1/invc_i
//
// with ln2 and log c_i in double-double, log1p(r) = r + r²·P(r) (Taylor to
// r⁸, |r| <= 2⁻⁸) and the high parts summed with exact Fast2Sum steps.
// Near 1 (|x-1| < 2⁻⁵) it evaluates log1p(x-1) directly with r² split
// exactly. Zero, negative, subnormal and non-finite arguments go to
// math.Log.
func fastLog(x float64) float64 {
	ix := math.Float64bits(x)
	if ix-near1Lo < near1Hi-near1Lo {
		return log1pNear1(x - 1)
	}
	// Zero, subnormal, negative, Inf and NaN.
	if ix-0x0010000000000000 >= 0x7ff0000000000000-0x0010000000000000 {
		if ix != 0 && ix < 0x0010000000000000 { // positive subnormal
			return fastLog(x*0x1p52) - 52*ln2Hi - 52*ln2Lo
		}
		return math.Log(x)
	}
	tmp := ix - logOff
	i := (tmp >> (52 - logTableBits)) % logTableN
	k := int64(tmp) >> 52
	z := math.Float64frombits(ix - tmp&(0xfff<<52))
	e := &logTable[i]

	// r = rhi + rlo exactly: p-1 is exact (p in [0.5, 2]) and fma gives
	// the rounding error of the product.
	p := z * e.invc
	rlo := math.FMA(z, e.invc, -p)
	rhi := p - 1

	kd := float64(k)
	a := kd * ln2Hi // exact: ln2Hi has 42 significant bits, |k| <= 1075
	// Fast2Sum steps: |a| >= |logcHi| unless a == 0, and |s1| >= 2⁻⁶ >
	// |rhi| outside the near-1 range.
	s1 := a + e.logcHi
	e1 := (a - s1) + e.logcHi
	hi := s1 + rhi
	e2 := (s1 - hi) + rhi

	// log1p(r) - r = r²·P(r), Taylor coefficients (truncation < r⁹/9),
	// Estrin's scheme with explicit FMAs (deterministic for any GOAMD64).
	r := rhi
	r2 := r * r
	r4 := r2 * r2
	p01 := math.FMA(1.0/3, r, -1.0/2)
	p23 := math.FMA(1.0/5, r, -1.0/4)
	p45 := math.FMA(1.0/7, r, -1.0/6)
	p0123 := math.FMA(p23, r2, p01)
	p456 := math.FMA(-1.0/8, r2, p45)
	poly := math.FMA(p456, r4, p0123)
	// log1p(rhi+rlo) = log1p(rhi) + rlo·(1 - rhi) + O(rlo·r²).
	rl := math.FMA(-rhi, rlo, rlo)
	lo := ((e1 + e2) + (rl + float64(kd*ln2Lo))) + math.FMA(r2, poly, e.logcLo)
	return hi + lo
}

// near1Lo and near1Hi bound the arguments 1-2⁻⁵ <= x < 1+2⁻⁵ that take the
// direct log1p path.
const (
	near1Lo = 0x3fef000000000000 // 1 - 2⁻⁵
	near1Hi = 0x3ff0800000000000 // 1 + 2⁻⁵
)

// log1pNear1 returns log(1+r) for |r| <= 2⁻⁵ with r exact:
//
//	log1p(r) = r - r²/2 + r³·(1/3 - r/4 + ... - r¹¹/14)
//
// with r² = sq + sqe split exactly by fma; truncation < |r|¹⁴/14 <= 2⁻⁷³.
func log1pNear1(r float64) float64 {
	sq := r * r
	sqe := math.FMA(r, r, -sq)
	h := -0.5 * sq
	hi := r + h
	e := (r - hi) + h
	t := 1.0/3 + r*(-1.0/4+r*(1.0/5+r*(-1.0/6+r*(1.0/7+r*(-1.0/8+r*(1.0/9+r*(-1.0/10+r*(1.0/11+r*(-1.0/12+r*(1.0/13+r*(-1.0/14)))))))))))
	return hi + (e - 0.5*sqe + r*sq*t)
}

// Layout of the table: z = x·2^-k lies in [0x1.6p-1, 0x1.6p0) and the top
// logTableBits bits of the mantissa of x - logOff select the subinterval.
const (
	logTableBits = 7
	logTableN    = 1 << logTableBits
	logOff       = 0x3fe6000000000000
)

// logEntry holds invc ≈ 1/(centre of the subinterval) and
// log(1/invc) = logcHi + logcLo to about 106 bits.
type logEntry struct {
	invc, logcHi, logcLo float64
}
