package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func newRandFrom(s *Stream) *rand.Rand { return rand.New(s) }

func TestStreamDeterminism(t *testing.T) {
	a, b := NewStream(42, "pkg/BenchmarkX", 3), NewStream(42, "pkg/BenchmarkX", 3)
	r := NewRand(42, "pkg/BenchmarkX", 3)
	for i := 0; i < 1000; i++ {
		x, y, z := a.Uint64(), b.Uint64(), r.Uint64()
		if x != y || x != z {
			t.Fatalf("draw %d: streams differ: %x %x %x", i, x, y, z)
		}
	}
}

func TestStreamsDiffer(t *testing.T) {
	base := NewStream(42, "pkg/BenchmarkX", 3).Uint64()
	for _, c := range []struct {
		name  string
		seed  uint64
		key   string
		block uint64
	}{
		{"seed", 43, "pkg/BenchmarkX", 3},
		{"key", 42, "pkg/BenchmarkY", 3},
		{"block", 42, "pkg/BenchmarkX", 4},
		{"empty key", 42, "", 3},
	} {
		if got := NewStream(c.seed, c.key, c.block).Uint64(); got == base {
			t.Errorf("changing %s gives the same first draw %x", c.name, got)
		}
	}
	// The length prefix keeps concatenations apart.
	s1, s2 := streamSeed(1, "ab", 0)
	u1, u2 := streamSeed(1, "a", 0)
	if s1 == u1 && s2 == u2 {
		t.Error(`keys "ab" and "a" give the same seed`)
	}
}

// TestIntNUniform checks IntN and the paired 32-bit draws with a chi-square
// test at n = 7 (a size that does not divide 2^32, so rejection matters).
func TestIntNUniform(t *testing.T) {
	const n, draws = 7, 700000
	s := NewStream(1, "uniform", 0)
	for _, c := range []struct {
		name string
		draw func() int
	}{
		{"IntN", func() int { return s.IntN(n) }},
		{"uint32n", func() int { return int(s.uint32n(n)) }},
		{"twoUint32n", func() int { a, _ := s.twoUint32n(n, 5); return int(a) }},
	} {
		var counts [n]int
		for i := 0; i < draws; i++ {
			counts[c.draw()]++
		}
		var chi2 float64
		for _, k := range counts {
			d := float64(k) - draws/n
			chi2 += d * d / (draws / n)
		}
		// 6 degrees of freedom: P(chi2 > 22.46) = 0.001.
		if chi2 > 22.46 {
			t.Errorf("%s: chi-square %.1f over 7 cells (counts %v)", c.name, chi2, counts)
		}
	}
}

func TestFloat64Range(t *testing.T) {
	s := NewStream(2, "float", 0)
	var sum float64
	for i := 0; i < 100000; i++ {
		f := s.Float64()
		if f < 0 || f >= 1 {
			t.Fatalf("Float64 = %v outside [0, 1)", f)
		}
		sum += f
	}
	// Mean of 1e5 uniforms: sd 0.29/sqrt(1e5) ≈ 0.0009.
	if m := sum / 100000; math.Abs(m-0.5) > 0.005 {
		t.Errorf("mean of Float64 = %v, want ≈ 0.5", m)
	}
}

// pcg must be rand.PCG: the same outputs from the same seeds.
func TestPCGMatchesRand(t *testing.T) {
	for _, seed := range [][2]uint64{{0, 0}, {1, 2}, {^uint64(0), 12345}, {0x9e3779b97f4a7c15, 0xbf58476d1ce4e5b9}} {
		var p pcg
		p.Seed(seed[0], seed[1])
		r := rand.NewPCG(seed[0], seed[1])
		for i := 0; i < 1000; i++ {
			if got, want := p.Uint64(), r.Uint64(); got != want {
				t.Fatalf("seed %v, output %d: pcg %#x, rand.PCG %#x", seed, i, got, want)
			}
		}
	}
}
