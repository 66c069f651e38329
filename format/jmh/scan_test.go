package jmh

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestParseDecimal: parseNumber's fast path for plain decimals gives
// strconv.ParseFloat's bits, and leaves to strconv what it cannot do
// exactly, on edge cases and on a million random decimals of up to 24
// digits (JMH's shortest round-trip spellings are 1 to 17 digits).
func TestParseDecimal(t *testing.T) {
	check := func(s string) {
		t.Helper()
		want, err := strconv.ParseFloat(s, 64)
		got, ok := parseNumber([]byte(s))
		if (err == nil) != ok || ok && math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("parseNumber(%q) = %v, %v; strconv: %v, %v", s, got, ok, want, err)
		}
	}
	fast := 0
	for _, s := range []string{"0", "-0", "0.0", "-0.0", "1", "00.5", "0.07100000000000001", "9007199254740991",
		"9007199254740992", "9007199254740993", "900719925474099.3", "0.0000000000000000000001", "0.00000000000000000000001",
		"1.", ".5", "-", "1e5", "1.5E-4", "+1", "1.2.3", "12345678901234567890", "-3.25", "1_0"} {
		check(s)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 1_000_000; i++ {
		var b strings.Builder
		if rng.IntN(4) == 0 {
			b.WriteByte('-')
		}
		n := 1 + rng.IntN(24)
		point := rng.IntN(n + 1)
		for j := 0; j < n; j++ {
			if j == point && j > 0 {
				b.WriteByte('.')
			}
			b.WriteByte(byte('0' + rng.IntN(10)))
		}
		s := b.String()
		if _, ok := parseDecimal([]byte(s)); ok {
			fast++
		}
		check(s)
	}
	if fast < 300_000 {
		t.Errorf("the fast path took %d of 1,000,000 random decimals; want most of the short ones", fast)
	}
}
