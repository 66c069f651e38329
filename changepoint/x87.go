package changepoint

import (
	"math"
	"math/big"
	"math/bits"
)

// x87 is a value of the x87 80-bit extended format that R uses for
// LDOUBLE on x86-64 Linux, with an unbounded exponent:
//
//	(-1)^neg · m · 2^(e-63),  m with its top bit set, or ±0 (m == 0).
//
// Its operations round the exact result to 64 significand bits, to
// nearest, ties to even (IEEE 754 roundTiesToEven), as an x87 register
// with the default precision control does (Intel 64 and IA-32
// Architectures SDM, Vol. 1, ch. 8, "precision control"), and as
// math/big.Float with precision 64, which TestX87MatchesBigFloat checks
// them against, at a fraction of its cost. The exact sum, product or
// quotient is held in 128 bits plus a sticky bit for anything below,
// enough for a correctly rounded 64-bit result.
type x87 struct {
	m   uint64
	e   int
	neg bool
}

// x87Of returns x, finite, exactly (a double has 53 <= 64 significand
// bits).
func x87Of(x float64) x87 {
	if x == 0 {
		return x87{neg: math.Signbit(x)}
	}
	b := math.Float64bits(x)
	neg := b>>63 != 0
	exp := int(b>>52) & 0x7ff
	frac := b & (1<<52 - 1)
	if exp == 0 { // subnormal: frac·2^-1074
		lz := bits.LeadingZeros64(frac)
		return x87{m: frac << lz, e: -1011 - lz, neg: neg}
	}
	return x87{m: (1<<52 | frac) << 11, e: exp - 1023, neg: neg}
}

// negate returns -a.
func (a x87) negate() x87 { a.neg = !a.neg; return a }

// round128 returns (hi + lo/2^64 + s)·2^(e-63), s a fraction in (0, 2^-64)
// when sticky, rounded to 64 bits, to nearest, ties to even; hi has its
// top bit set.
func round128(hi, lo uint64, sticky bool, e int, neg bool) x87 {
	if lo>>63 == 1 && (lo<<1 != 0 || sticky || hi&1 == 1) {
		hi++
		if hi == 0 { // 2^64
			hi, e = 1<<63, e+1
		}
	}
	return x87{m: hi, e: e, neg: neg}
}

// add returns a + b rounded to 64 bits. A zero sum is +0 unless both are
// -0 (IEEE round to nearest).
func (a x87) add(b x87) x87 {
	switch {
	case a.m == 0 && b.m == 0:
		return x87{neg: a.neg && b.neg}
	case a.m == 0:
		return b
	case b.m == 0:
		return a
	}
	if a.e < b.e || a.e == b.e && a.m < b.m {
		a, b = b, a // |a| >= |b|
	}
	// The 128-bit window holds a.m·2^64 and b.m·2^64 shifted right by d;
	// sticky says whether bits of b fell out below it.
	d := uint(a.e - b.e)
	var bhi, blo uint64
	sticky := false
	switch {
	case d == 0:
		bhi = b.m
	case d < 64:
		bhi, blo = b.m>>d, b.m<<(64-d)
	case d < 128:
		blo, sticky = b.m>>(d-64), b.m<<(128-d) != 0
	default:
		sticky = true
	}
	e := a.e
	if a.neg == b.neg {
		lo, c := bits.Add64(0, blo, 0)
		hi, c := bits.Add64(a.m, bhi, c)
		if c != 0 { // a carry into bit 128: shift the window right by one
			sticky = sticky || lo&1 != 0
			lo, hi, e = lo>>1|hi<<63, hi>>1|1<<63, e+1
		}
		return round128(hi, lo, sticky, e, a.neg)
	}
	// |a| - |b|: with bits of b below the window, the exact difference
	// lies strictly between the window's difference minus one and it.
	lo, br := bits.Sub64(0, blo, 0)
	hi, _ := bits.Sub64(a.m, bhi, br)
	if sticky {
		lo, br = bits.Sub64(lo, 1, 0)
		hi -= br
	}
	if hi == 0 && lo == 0 && !sticky {
		return x87{}
	}
	// Cancellation of more than one bit needs d <= 1, where nothing fell
	// out of the window (sticky is false).
	if hi == 0 {
		hi, lo, e = lo, 0, e-64
	}
	if s := uint(bits.LeadingZeros64(hi)); s > 0 {
		hi, lo, e = hi<<s|lo>>(64-s), lo<<s, e-int(s)
	}
	return round128(hi, lo, sticky, e, a.neg)
}

// mul returns a·b rounded to 64 bits.
func (a x87) mul(b x87) x87 {
	neg := a.neg != b.neg
	if a.m == 0 || b.m == 0 {
		return x87{neg: neg}
	}
	hi, lo := bits.Mul64(a.m, b.m) // in [2^126, 2^128)
	e := a.e + b.e + 1
	if hi>>63 == 0 {
		hi, lo, e = hi<<1|lo>>63, lo<<1, e-1
	}
	return round128(hi, lo, false, e, neg)
}

// quoInt returns a/n rounded to 64 bits, n >= 1.
func (a x87) quoInt(n int) x87 {
	if a.m == 0 {
		return a
	}
	// 128 bits of a.m·2^64/n (a.m >= 2^63 > n - 1, so hi >= 1), and
	// whether a remainder is left.
	hi, r := bits.Div64(0, a.m, uint64(n))
	lo, r := bits.Div64(r, 0, uint64(n))
	e := a.e
	if s := uint(bits.LeadingZeros64(hi)); s > 0 {
		hi, lo, e = hi<<s|lo>>(64-s), lo<<s, e-int(s)
	}
	return round128(hi, lo, r != 0, e, a.neg)
}

// float64 rounds a to the nearest double, ties to even (a C cast of a
// long double). Values outside the normal range of doubles (subnormal
// results, overflow to ±Inf) are rounded by math/big.
func (a x87) float64() float64 {
	if a.m == 0 {
		if a.neg {
			return math.Copysign(0, -1)
		}
		return 0
	}
	e := a.e
	if e < -1022 || e > 1023 {
		f, _ := a.big().Float64()
		return f
	}
	m, rem := a.m>>11, a.m&(1<<11-1)
	if rem > 1<<10 || rem == 1<<10 && m&1 == 1 {
		m++
		if m == 1<<53 {
			m, e = 1<<52, e+1
			if e > 1023 {
				if a.neg {
					return math.Inf(-1)
				}
				return math.Inf(1)
			}
		}
	}
	b := uint64(e+1023)<<52 | m&(1<<52-1)
	if a.neg {
		b |= 1 << 63
	}
	return math.Float64frombits(b)
}

// big returns a as a big.Float of precision 64.
func (a x87) big() *big.Float {
	f := new(big.Float).SetPrec(extendedPrec).SetMode(big.ToNearestEven)
	f.SetMantExp(new(big.Float).SetUint64(a.m), a.e-63)
	if a.neg {
		f.Neg(f)
	}
	return f
}
