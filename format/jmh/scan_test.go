package jmh

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
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
		s := randomDecimal(rng, 24, false)
		if _, ok := parseDecimal([]byte(s)); ok {
			fast++
		}
		check(s)
	}
	if fast < 300_000 {
		t.Errorf("the fast path took %d of 1,000,000 random decimals; want most of the short ones", fast)
	}
}

// TestParseDecimalLong: the decimals of 17 to 19 digits (m ≥ 2^53, as JMH
// prints bucket values such as 16.016000000000002) go through eiselLemire
// and give strconv.ParseFloat's bits: random ones, the 19-digit decimals
// just below and above the midpoint of two neighbouring float64s, and
// integers exactly halfway between two float64s (whose ties go to even).
// The fast path must take nearly all of the random ones.
func TestParseDecimalLong(t *testing.T) {
	check := func(s string) bool {
		t.Helper()
		want, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := parseDecimal([]byte(s))
		if ok && math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("parseDecimal(%q) = %v (%#x); strconv: %v (%#x)", s, got, math.Float64bits(got), want, math.Float64bits(want))
		}
		return ok
	}
	rng := rand.New(rand.NewPCG(3, 4))
	fast, n := 0, 300_000
	for i := 0; i < n; i++ {
		digits := 17 + rng.IntN(3)
		b := []byte(strconv.FormatUint(uint64(1e18)+rng.Uint64N(uint64(9e18)), 10))[:digits]
		if b[0] == '0' {
			b[0] = '1'
		}
		if point := rng.IntN(digits); point > 0 {
			b = append(b[:point], append([]byte{'.'}, b[point:]...)...)
		}
		if rng.IntN(2) == 0 {
			b = append([]byte{'-'}, b...)
		}
		if check(string(b)) {
			fast++
		}
	}
	if fast < n*99/100 {
		t.Errorf("eiselLemire took %d of %d; want nearly all", fast, n)
	}
	// Near halfway: mid is the exact midpoint of x and the next float64 up;
	// its 19 significant digits, cut and rounded up, fall on either side.
	for i := 0; i < 20_000; i++ {
		x := math.Ldexp(1+rng.Float64(), rng.IntN(40)-20)
		mid := new(big.Float).SetPrec(200).SetFloat64(x)
		mid.Add(mid, new(big.Float).SetPrec(200).SetFloat64(math.Nextafter(x, math.Inf(1))))
		mid.Quo(mid, big.NewFloat(2))
		for _, mode := range []big.RoundingMode{big.ToZero, big.AwayFromZero} {
			s := mid.SetMode(mode).Text('f', 19-len(mid.Text('f', 0))+boolInt(x < 1)*leadingZeros(x))
			if strings.IndexFunc(strings.Replace(s, ".", "", 1), func(r rune) bool { return r != '0' }) >= 0 {
				check(trimDigits(s, 19))
			}
		}
	}
	// Exactly halfway: 2^e + 2^(e-53) for e in 54..63 lies between two
	// float64s (their spacing is 2^(e-52)); odd multiples of the half step
	// too.
	for e := 54; e <= 63; e++ {
		for j := uint64(1); j < 64; j += 2 {
			m := uint64(1)<<e + j<<(e-53)
			if m >= 1e19 {
				continue
			}
			d := strconv.FormatUint(m, 10)
			check(d)
			check(d[:len(d)-2] + "." + d[len(d)-2:])
		}
	}
}

// trimDigits keeps the first n digits of the decimal s (and its point).
func trimDigits(s string, n int) string {
	lead := 0
	for lead < len(s) && (s[lead] == '0' || s[lead] == '.') {
		lead++
	}
	out, k := []byte(s[:lead]), 0
	for _, c := range []byte(s[lead:]) {
		if c != '.' {
			if k == n {
				break
			}
			k++
		}
		out = append(out, c)
	}
	return strings.TrimSuffix(string(out), ".")
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// leadingZeros is the number of zeros after the point before the first
// significant digit of x < 1.
func leadingZeros(x float64) int {
	return int(-math.Floor(math.Log10(x))) - 1
}

// TestInvPow10 recomputes eiselLemire's table with math/big: 10^-k times
// the power of two that puts it in [2^127, 2^128), truncated.
func TestInvPow10(t *testing.T) {
	lo, hi := new(big.Int).Lsh(big.NewInt(1), 127), new(big.Int).Lsh(big.NewInt(1), 128)
	for k, p := range invPow10 {
		ten := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil)
		// ⌊2^s / 10^k⌋ for the s that lands in [2^127, 2^128).
		for s := 127; s < 260; s++ {
			q := new(big.Int).Quo(new(big.Int).Lsh(big.NewInt(1), uint(s)), ten)
			if q.Cmp(lo) < 0 {
				continue
			}
			if q.Cmp(hi) >= 0 {
				t.Fatalf("k=%d: no scale", k)
			}
			want := [2]uint64{new(big.Int).Rsh(q, 64).Uint64(), new(big.Int).And(q, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 64), big.NewInt(1))).Uint64()}
			if p != want {
				t.Errorf("invPow10[%d] = %#x, want %#x", k, p, want)
			}
			if e2 := 1 + floorLog2Pow10(-k); e2 != 127-s+1 {
				t.Errorf("floorLog2Pow10(%d) + 1 = %d, want %d", -k, e2, 127-s+1)
			}
			break
		}
	}
}

// randomDecimal is a random decimal of 1 to maxDigits digits, negative one
// time in four, with a point somewhere among them or none; with
// leadingPoint sometimes before the first digit (".5").
func randomDecimal(rng *rand.Rand, maxDigits int, leadingPoint bool) string {
	var b strings.Builder
	if rng.IntN(4) == 0 {
		b.WriteByte('-')
	}
	n := 1 + rng.IntN(maxDigits)
	point := rng.IntN(n + 1)
	for j := 0; j < n; j++ {
		if j == point && (j > 0 || leadingPoint && rng.IntN(8) == 0) {
			b.WriteByte('.')
		}
		b.WriteByte(byte('0' + rng.IntN(10)))
	}
	return b.String()
}

// TestPlainDecimal: where plainDecimal takes a number it ends where the
// general path's token ends and gives parseNumber's bits; it declines
// numbers followed by a byte that could continue them, and it takes nearly
// every plain decimal of up to 19 digits.
func TestPlainDecimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	taken, plain := 0, 0
	for i := 0; i < 300_000; i++ {
		s := randomDecimal(rng, 21, true)
		digits := len(s) - strings.Count(s, "-") - strings.Count(s, ".")
		if rng.IntN(16) == 0 {
			s += []string{".", "e3", "E-2", "+", "-"}[rng.IntN(5)]
		}
		for _, tail := range []string{",", " ", "]", "\n", "e5", ".5", "7", "x"} {
			buf := []byte(s + tail)
			v, end, fast := plainDecimal(buf, 0)
			want, ok := parseNumber([]byte(s))
			if tail == "," && ok && digits <= 19 && !strings.ContainsAny(s, "eE+") && strings.Count(s, ".") <= 1 && !strings.HasSuffix(s, ".") && !strings.HasPrefix(strings.TrimPrefix(s, "-"), ".") {
				plain++
				if fast {
					taken++
				}
			}
			if !fast {
				continue
			}
			if isNumByte[tail[0]] {
				t.Fatalf("plainDecimal(%q) took a number that goes on", buf)
			}
			if end != len(s) || !ok || math.Float64bits(v) != math.Float64bits(want) {
				t.Fatalf("plainDecimal(%q) = %v, %d; parseNumber(%q) = %v, %v", buf, v, end, s, want, ok)
			}
		}
	}
	if taken < plain*99/100 {
		t.Errorf("plainDecimal took %d of %d plain decimals", taken, plain)
	}
}

// TestPlainBucket: plainBucket reads the buckets JMH writes and leaves the
// others (consuming nothing) to the general path.
func TestPlainBucket(t *testing.T) {
	for _, tc := range []struct {
		in    string
		v     float64
		count int64
		ok    bool
	}{
		{"[ 15.792, 9 ],", 15.792, 9, true},
		{"[16.016000000000002,3]", 16.016000000000002, 3, true},
		{"[ -1.5e3, 12 ]", -1500, 12, true},
		{"[ 2, 123456789012345678 ]", 2, 123456789012345678, true},
		{"[ 2, 1234567890123456789 ]", 2, 1234567890123456789, true},
		{"[ 2, 12345678901234567890 ]", 0, 0, false}, // overflows a long
		{"[ 2, 0 ]", 0, 0, false},
		{"[ 2, 1.0 ]", 0, 0, false},
		{"[ 2 ]", 0, 0, false},
		{"[ 1.5, 2, 3 ]", 0, 0, false},
		{"[ \"x\", 2 ]", 0, 0, false},
	} {
		s := newScanner(strings.NewReader(tc.in), "f", nil)
		s.ensure(len(tc.in))
		v, count, ok := plainBucket(s)
		if ok != tc.ok || v != tc.v || count != tc.count {
			t.Errorf("plainBucket(%q) = %v, %d, %v; want %v, %d, %v", tc.in, v, count, ok, tc.v, tc.count, tc.ok)
		}
		if want := 0; !ok && s.pos != want {
			t.Errorf("plainBucket(%q) declined but moved to %d", tc.in, s.pos)
		}
	}
}

// TestEightDigits: eightDigits holds exactly for eight ASCII digits (every
// byte value tried in every position), and parseEightDigits gives their
// number, on random words and the extremes.
func TestEightDigits(t *testing.T) {
	word := func(s string) uint64 { return binary.LittleEndian.Uint64([]byte(s)) }
	for pos := 0; pos < 8; pos++ {
		for c := 0; c < 256; c++ {
			b := []byte("12345678")
			b[pos] = byte(c)
			want := c >= '0' && c <= '9'
			if got := eightDigits(binary.LittleEndian.Uint64(b)); got != want {
				t.Fatalf("eightDigits(%q) = %v", b, got)
			}
		}
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, s := range []string{"00000000", "99999999", "12345678", "00000001", "10000000"} {
		if got, want := parseEightDigits(word(s)), mustUint(t, s); got != want {
			t.Fatalf("parseEightDigits(%q) = %d", s, got)
		}
	}
	for i := 0; i < 100_000; i++ {
		s := fmt.Sprintf("%08d", rng.IntN(100_000_000))
		if got, want := parseEightDigits(word(s)), mustUint(t, s); got != want {
			t.Fatalf("parseEightDigits(%q) = %d", s, got)
		}
	}
}

func mustUint(t *testing.T, s string) uint64 {
	t.Helper()
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestAddValDoubles: a record's value buffer doubles as it grows (up to
// valDoubleLimit values), so that 100,000 values take 7 allocations
// (1,024 … 131,072 values) instead of append's 29 (it grows large slices
// by a quarter, copying and discarding five times the final size).
func TestAddValDoubles(t *testing.T) {
	allocs := testing.AllocsPerRun(3, func() {
		var r record
		for i := 0; i < 100000; i++ {
			r.addVal(value{v: float64(i), count: 1})
		}
		if len(r.vals) != 100000 || r.vals[99999].v != 99999 {
			t.Fatalf("%d values, last %v", len(r.vals), r.vals[len(r.vals)-1].v)
		}
	})
	if allocs > 8 {
		t.Errorf("%v allocations for 100,000 values, want at most 8", allocs)
	}
	// Past valDoubleLimit it grows by a quarter: the buffer of a huge
	// record stays within a quarter (and a size class) of its values.
	var r record
	for i := 0; i < 3*valDoubleLimit; i++ {
		r.addVal(value{v: float64(i)})
	}
	if c, n := cap(r.vals), len(r.vals); float64(c) > 1.3*float64(n) || r.vals[n-1].v != float64(n-1) {
		t.Errorf("%d values in a buffer of %d (last %v), want at most 1.3 times as many", n, c, r.vals[n-1].v)
	}
}
