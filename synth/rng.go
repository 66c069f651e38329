package synth

import (
	"math"
	"math/rand/v2"
)

// Purposes of random streams; each gets its own stream so that, e.g., the
// outliers of a fork are known without generating its values.
const (
	purposeTruth uint64 = iota + 1
	purposeKinds
	purposeInstance
	purposeTrial
	purposeFork
	purposeOutlier
	purposeSamples
	purposeSlices
	purposeGoRun
	purposeGC
	purposeRagged
	purposeChanges
)

// mix64 is the splitmix64 finaliser (Steele, Lea, Flood 2014), a bijective
// avalanche mix of a 64-bit word.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// hashString is 64-bit FNV-1a of s, continuing from h (use fnvOffset to start).
func hashString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 0x100000001b3
	}
	// Terminate so that ("ab","c") and ("a","bc") differ.
	h ^= 0xff
	h *= 0x100000001b3
	return h
}

const fnvOffset = 0xcbf29ce484222325

// streamKey identifies a stream: a series/version hash plus a purpose and
// up to five level indices.
type streamKey struct {
	base    uint64
	purpose uint64
	idx     [5]uint64
}

// seeds derives the two PCG seeds of k for the suite seed.
func (k streamKey) seeds(seed uint64) (uint64, uint64) {
	h := mix64(k.base ^ mix64(k.purpose))
	for _, x := range k.idx {
		h = mix64(h ^ (x + 0x632be59bd9b4e019))
	}
	return mix64(seed ^ h), mix64(h ^ 0xd1b54a32d192ed03 ^ seed<<1)
}

// rng is a reusable PCG-backed random stream with the draws the model needs.
type rng struct {
	pcg *rand.PCG
	r   *rand.Rand
}

func newRNG() *rng {
	p := rand.NewPCG(0, 0)
	return &rng{pcg: p, r: rand.New(p)}
}

// reset reseeds the stream for key k under the suite seed.
func (g *rng) reset(seed uint64, k streamKey) *rng {
	g.pcg.Seed(k.seeds(seed))
	return g
}

// stream returns a fresh stream for key k.
func stream(seed uint64, k streamKey) *rng { return newRNG().reset(seed, k) }

func (g *rng) float64() float64 { return g.r.Float64() }

// uniform draws from [lo, hi).
func (g *rng) uniform(lo, hi float64) float64 { return lo + (hi-lo)*g.r.Float64() }

// intRange draws an integer from [lo, hi].
func (g *rng) intRange(lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + g.r.IntN(hi-lo+1)
}

// lognormal1 draws exp(σZ − σ²/2), a lognormal factor with expectation 1.
func (g *rng) lognormal1(sigma float64) float64 {
	if sigma == 0 {
		return 1
	}
	return math.Exp(sigma*g.r.NormFloat64() - sigma*sigma/2)
}

// poisson draws a Poisson(λ) count: Knuth's product method for λ < 30,
// otherwise a rounded normal approximation (ample for GC counts).
func (g *rng) poisson(lambda float64) int {
	if lambda <= 0 {
		return 0
	}
	if lambda < 30 {
		l := math.Exp(-lambda)
		k, p := 0, 1.0
		for {
			p *= g.r.Float64()
			if p <= l {
				return k
			}
			k++
		}
	}
	x := math.Round(lambda + math.Sqrt(lambda)*g.r.NormFloat64())
	return int(math.Max(0, x))
}
