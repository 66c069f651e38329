package changepoint

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// bigOf returns x as a big.Float of x87 precision.
func bigOf(x float64) *big.Float {
	return new(big.Float).SetPrec(extendedPrec).SetMode(big.ToNearestEven).SetFloat64(x)
}

func newBig() *big.Float { return new(big.Float).SetPrec(extendedPrec).SetMode(big.ToNearestEven) }

// sameX87 reports whether a holds exactly the big.Float b (sign of zero
// included).
func sameX87(a x87, b *big.Float) bool {
	return a.big().Cmp(b) == 0 && a.neg == b.Signbit()
}

// randomDouble draws doubles of every kind the sums meet: wide and narrow
// magnitudes, both signs, zeros, exact small integers, near-equal values
// (cancellation), subnormals.
func randomDouble(rng *rand.Rand) float64 {
	switch rng.IntN(8) {
	case 0:
		return 0
	case 1:
		return float64(rng.IntN(7) - 3)
	case 2:
		return math.Float64frombits(rng.Uint64N(1 << 52)) // subnormal
	case 3:
		return 0.1 + rng.NormFloat64()*1e-9
	default:
		x := math.Ldexp(rng.Float64()+0.5, rng.IntN(600)-300)
		if rng.IntN(2) == 0 {
			x = -x
		}
		return x
	}
}

// TestX87MatchesBigFloat: every x87 operation gives math/big.Float's
// result at precision 64, to nearest even (the emulation this package
// used before), and float64 gives Float64's double, on a million random
// operand pairs and on chains of sums (cumulative sums with cancellation).
func TestX87MatchesBigFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(87, 1))
	operand := func() (x87, *big.Float) {
		// A double, or a sum, product or quotient of doubles (64 bits).
		a, b := randomDouble(rng), randomDouble(rng)
		switch rng.IntN(4) {
		case 0:
			return x87Of(a), bigOf(a)
		case 1:
			return x87Of(a).add(x87Of(b)), newBig().Add(bigOf(a), bigOf(b))
		case 2:
			return x87Of(a).mul(x87Of(b)), newBig().Mul(bigOf(a), bigOf(b))
		default:
			n := 1 + rng.IntN(100000)
			return x87Of(a).quoInt(n), newBig().Quo(bigOf(a), new(big.Float).SetInt64(int64(n)))
		}
	}
	for i := 0; i < 1_000_000; i++ {
		a, ab := operand()
		b, bb := operand()
		if !sameX87(a, ab) {
			t.Fatalf("operand %v: x87 %v", ab, a.big())
		}
		if got, want := a.add(b), newBig().Add(ab, bb); !sameX87(got, want) {
			t.Fatalf("%v + %v = %v, big.Float %v", ab, bb, got.big(), want)
		}
		if got, want := a.add(b.negate()), newBig().Sub(ab, bb); !sameX87(got, want) {
			t.Fatalf("%v - %v = %v, big.Float %v", ab, bb, got.big(), want)
		}
		if got, want := a.mul(b), newBig().Mul(ab, bb); !sameX87(got, want) {
			t.Fatalf("%v · %v = %v, big.Float %v", ab, bb, got.big(), want)
		}
		n := 1 + rng.IntN(1<<20)
		if got, want := a.quoInt(n), newBig().Quo(ab, new(big.Float).SetInt64(int64(n))); !sameX87(got, want) {
			t.Fatalf("%v / %d = %v, big.Float %v", ab, n, got.big(), want)
		}
		got := a.float64()
		want, _ := ab.Float64()
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("float64(%v) = %v, big.Float %v", ab, got, want)
		}
	}
	// Operands 0 to 140 binary places apart with full 64-bit significands
	// (the alignment, carry, cancellation and sticky paths of add).
	mant := func() uint64 {
		switch rng.IntN(4) {
		case 0:
			return 1<<63 | 1
		case 1:
			return 1<<64 - 1
		case 2:
			return 1<<63 | rng.Uint64N(8)<<rng.IntN(61)
		}
		return 1<<63 | rng.Uint64()
	}
	for i := 0; i < 1_000_000; i++ {
		a := x87{m: mant(), e: rng.IntN(40) - 20, neg: rng.IntN(2) == 0}
		b := x87{m: mant(), e: a.e - rng.IntN(141), neg: rng.IntN(2) == 0}
		if rng.IntN(2) == 0 {
			a, b = b, a
		}
		if got, want := a.add(b), newBig().Add(a.big(), b.big()); !sameX87(got, want) {
			t.Fatalf("%v + %v = %v, big.Float %v", a.big(), b.big(), got.big(), want)
		}
	}
	// Cumulative sums of a warm-up series and of values with a large
	// offset, as cumsumExtended and the two-pass mean meet them.
	for _, off := range []float64{0, 1e9, -3.5} {
		x := warmupSeries(rng.Uint64(), 5000, 200)
		s, sb := x87{}, newBig()
		for _, v := range x {
			v += off
			s, sb = s.add(x87Of(v)), sb.Add(sb, bigOf(v))
			sq := float64(v * v)
			if !sameX87(s, sb) || !sameX87(x87Of(v).mul(x87Of(v)), newBig().Mul(bigOf(v), bigOf(v))) || !sameX87(x87Of(sq), bigOf(sq)) {
				t.Fatalf("offset %v: sum %v, big.Float %v", off, s.big(), sb)
			}
		}
	}
}
