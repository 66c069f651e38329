package nonparam

import (
	"math"
	"slices"
)

// floatKey maps a NaN-free float64 to a uint64 whose unsigned order is the
// order of the floats and whose equality is float equality: −0 and +0 share
// a key, and ±Inf map to the extremes. Negative floats have all bits
// flipped, non-negative ones only the sign bit.
func floatKey(f float64) uint64 {
	if f == 0 {
		f = 0 // −0 → +0
	}
	b := math.Float64bits(f)
	if b&(1<<63) != 0 {
		return ^b
	}
	return b | 1<<63
}

// sortedKeys writes the keys of x to dst (len(dst) == len(x)) and sorts
// them, using tmp (len(tmp) ≥ len(x)) as scratch.
func sortedKeys(dst, tmp []uint64, x []float64) {
	for i, v := range x {
		dst[i] = floatKey(v)
	}
	sortKeys(dst, tmp)
}

// radixMin is the size from which sortKeys uses the radix sort; below it
// pdqsort is as fast.
const radixMin = 2048

// sortKeys sorts s ascending, using tmp (len(tmp) ≥ len(s)) as scratch.
// From radixMin keys on it is a least-significant-digit radix sort with
// 8-bit digits (Knuth, TAOCP vol. 3, 5.2.5), which skips the digits that all
// keys share — typically the sign and exponent bytes of measurements — and
// so runs in O(n) time.
func sortKeys(s, tmp []uint64) {
	if len(s) < radixMin {
		slices.Sort(s)
		return
	}
	var counts [8][256]int
	for _, v := range s {
		for d := range 8 {
			counts[d][byte(v>>(8*d))]++
		}
	}
	src, dst := s, tmp[:len(s)]
	for d := range 8 {
		c := &counts[d]
		if c[byte(src[0]>>(8*d))] == len(src) {
			continue // every key has this digit
		}
		sum := 0
		for i, n := range c {
			c[i] = sum
			sum += n
		}
		shift := 8 * d
		for _, v := range src {
			b := byte(v >> shift)
			dst[c[b]] = v
			c[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &s[0] {
		copy(s, src)
	}
}
