package nonparam

import (
	"math"
	"slices"
	"testing"
)

// specialFloats are values whose order keys must still order and compare
// like the floats.
var specialFloats = []float64{
	math.Inf(-1), -math.MaxFloat64, -1e300, -2.5, -1, -math.SmallestNonzeroFloat64,
	math.Copysign(0, -1), 0, math.SmallestNonzeroFloat64, 2.2250738585072014e-308,
	1, 1 + 1e-16, 2.5, 1e300, math.MaxFloat64, math.Inf(1),
}

func TestFloatKeyOrder(t *testing.T) {
	for _, a := range specialFloats {
		for _, b := range specialFloats {
			ka, kb := floatKey(a), floatKey(b)
			if (a < b) != (ka < kb) || (a == b) != (ka == kb) {
				t.Errorf("floatKey(%v) = %#x, floatKey(%v) = %#x: order differs", a, ka, b, kb)
			}
		}
	}
}

// TestSortKeys compares the radix sort with pdqsort on seeded data of sizes
// around radixMin, including ties, both signs of zero and infinities.
func TestSortKeys(t *testing.T) {
	r := newRand(9)
	for _, n := range []int{0, 1, 2, radixMin - 1, radixMin, radixMin + 1, 5000} {
		for _, kind := range []string{"normal", "positive", "tied", "special"} {
			x := make([]float64, n)
			for i := range x {
				switch kind {
				case "normal":
					x[i] = r.NormFloat64()
				case "positive":
					x[i] = 1e6 + 1e3*r.Float64() // shares sign and exponent bytes
				case "tied":
					x[i] = float64(r.IntN(7))
				case "special":
					x[i] = specialFloats[r.IntN(len(specialFloats))]
				}
			}
			keys, tmp := make([]uint64, n), make([]uint64, n)
			sortedKeys(keys, tmp, x)
			want := make([]uint64, n)
			for i, v := range x {
				want[i] = floatKey(v)
			}
			slices.Sort(want)
			if !slices.Equal(keys, want) {
				t.Errorf("n=%d %s: radix order differs from pdqsort", n, kind)
			}
		}
	}
}
