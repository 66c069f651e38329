package stats

import (
	"math/bits"
	"math/rand/v2"
)

// streamSeed derives the two PCG seed words of the stream (seed, key, block).
//
// The three inputs are hashed with 64-bit FNV-1a (Fowler, Noll, Vo) over
// seed (8 bytes little-endian), len(key) (8 bytes), the bytes of key and
// block (8 bytes); the length prefix keeps ("ab", "c") and ("a", "bc")
// apart. The hash is then spread into two words with SplitMix64 (Steele,
// Lea, Flood, OOPSLA 2014), so that nearby inputs give unrelated PCG states.
func streamSeed(seed uint64, key string, block uint64) (seed1, seed2 uint64) {
	const (
		offset = 14695981039346656037
		prime  = 1099511628211
	)
	h := uint64(offset)
	word := func(w uint64) {
		for i := 0; i < 8; i++ {
			h ^= w & 0xff
			h *= prime
			w >>= 8
		}
	}
	word(seed)
	word(uint64(len(key)))
	for i := 0; i < len(key); i++ {
		h ^= uint64(key[i])
		h *= prime
	}
	word(block)
	state := h
	return splitMix64(&state), splitMix64(&state)
}

// splitMix64 advances *state and returns the next SplitMix64 output.
func splitMix64(state *uint64) uint64 {
	*state += 0x9e3779b97f4a7c15
	z := *state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// NewRand returns a math/rand/v2 generator for the deterministic stream
// identified by (seed, key, block).
//
// Every random procedure in benchtrim draws from such a stream: seed is the
// user's seed, key names the unit of work (typically the benchmark key) and
// block numbers independent sub-streams of one unit (for example one per
// metric or per bootstrap). The generator is a PCG-DXSM (rand.PCG) seeded
// with a hash of the three values (64-bit FNV-1a spread by SplitMix64), so
// the stream does not depend on scheduling, GOMAXPROCS or the clock.
// NewRand(s, k, b) produces the same Uint64 sequence as NewStream(s, k, b).
func NewRand(seed uint64, key string, block uint64) *rand.Rand {
	s1, s2 := streamSeed(seed, key, block)
	return rand.New(rand.NewPCG(s1, s2))
}

// Stream is a deterministic PCG-DXSM random stream for hot loops.
//
// It holds a PCG-DXSM state by value (pcg: the generator and sequence of
// rand.PCG) and offers the few operations the bootstrap
// kernels need (Uint64, IntN, Float64) as direct, inlinable calls instead of
// the interface call behind *rand.Rand. A Stream implements rand.Source, so
// rand.New(s) gives the full math/rand/v2 API over the same sequence.
// A Stream is not safe for concurrent use; give each goroutine its own
// stream (for example one per benchmark key).
type Stream struct {
	pcg pcg
}

// pcg is math/rand/v2's rand.PCG: the same state, seeding and outputs
// (TestPCGMatchesRand), with its two state words ours to read, so that a
// hot loop can keep them in registers (aliasTable.sumDraws).
//
// The state is a 128-bit linear congruential generator, s ← s·m + c mod
// 2¹²⁸, with m and c of rand.PCG; each output is the DXSM permutation of
// the new state (M. E. O'Neill, PCG, 2014; the DXSM variant of numpy and
// Go): x = hi ⊕ hi≫32, x ← x·0xda942042e4dd58b5, x ← x ⊕ x≫48,
// x ← x·(lo | 1).
type pcg struct {
	hi, lo uint64
}

const (
	pcgMulHi    = 2549297995355413924
	pcgMulLo    = 4865540595714422341
	pcgIncHi    = 6364136223846793005
	pcgIncLo    = 1442695040888963407
	pcgCheapMul = 0xda942042e4dd58b5
)

// Seed sets the state to (seed1, seed2), as rand.PCG.Seed does.
func (p *pcg) Seed(seed1, seed2 uint64) { p.hi, p.lo = seed1, seed2 }

// next advances the state and returns it.
func (p *pcg) next() (hi, lo uint64) {
	hi, lo = bits.Mul64(p.lo, pcgMulLo)
	hi += p.hi*pcgMulLo + p.lo*pcgMulHi
	lo, c := bits.Add64(lo, pcgIncLo, 0)
	hi, _ = bits.Add64(hi, pcgIncHi, c)
	p.lo = lo
	p.hi = hi
	return hi, lo
}

// Uint64 advances the state and returns the DXSM output of the new state.
func (p *pcg) Uint64() uint64 {
	hi, lo := p.next()
	hi ^= hi >> 32
	hi *= pcgCheapMul
	hi ^= hi >> 48
	hi *= (lo | 1)
	return hi
}

// NewStream returns the stream identified by (seed, key, block); see NewRand.
func NewStream(seed uint64, key string, block uint64) *Stream {
	s1, s2 := streamSeed(seed, key, block)
	s := &Stream{}
	s.pcg.Seed(s1, s2)
	return s
}

// Uint64 returns a uniformly distributed 64-bit value.
func (s *Stream) Uint64() uint64 { return s.pcg.Uint64() }

// Float64 returns a uniform value in [0, 1) with 53 random bits,
// as rand.Rand.Float64 does.
func (s *Stream) Float64() float64 {
	return float64(s.pcg.Uint64()<<11>>11) / (1 << 53)
}

// IntN returns a uniform integer in [0, n) without bias.
//
// It uses Lemire's multiply-shift with rejection (D. Lemire, "Fast random
// integer generation in an interval", ACM TOMACS 29(1), 2019): the index is
// the high word of x·n for a 64-bit x, and x is redrawn in the rare case
// (probability below n/2^64) that the low word falls below 2^64 mod n.
// IntN panics if n <= 0.
func (s *Stream) IntN(n int) int {
	if n <= 0 {
		panic("stats: Stream.IntN: n <= 0")
	}
	return int(s.uint64n(uint64(n)))
}

// uint64n returns a uniform value in [0, n) for n > 0 (Lemire, unbiased).
func (s *Stream) uint64n(n uint64) uint64 {
	hi, lo := bits.Mul64(s.pcg.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(s.pcg.Uint64(), n)
		}
	}
	return hi
}

// uint32n returns a uniform value in [0, n) for 0 < n < 2^32 from a single
// 32-bit half of a fresh draw (Lemire, unbiased); used by the bootstrap
// kernels when they do not pair draws.
func (s *Stream) uint32n(n uint32) uint32 {
	m := uint64(uint32(s.pcg.Uint64())) * uint64(n)
	if uint32(m) < n {
		thresh := -n % n
		for uint32(m) < thresh {
			m = uint64(uint32(s.pcg.Uint64())) * uint64(n)
		}
	}
	return uint32(m >> 32)
}

var _ rand.Source = (*Stream)(nil)
