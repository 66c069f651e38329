package stats

import "math"

// The index draw of pa v0.1.0 (github.com/chrstphlbr/pa, pkg/bootstrap
// sampleSize), for HierarchicalOptions.PAIndices.

// paTable is the alias table of pa's index among count units, made on
// first use.
func (h *Hierarchy) paTable(count int32) *aliasTable {
	if int(count) >= len(h.paTables) {
		h.paTables = append(h.paTables, make([]*aliasTable, int(count)+1-len(h.paTables))...)
	}
	a := h.paTables[count]
	if a == nil {
		a = newAliasTable(paIndexProbabilities(int(count)))
		h.paTables[count] = a
	}
	return a
}

// paIndexProbabilities is the distribution of pa's index ⌊|x| mod l⌋
// (math.Mod(math.Abs(x), l)) for x normal with mean μ = (l−1)/2 and
// standard deviation σ = √(l(l+1)/12), the mean and sample standard
// deviation of 0 … l−1:
//
//	P(i) = Σ_{k≥0} P(|x| ∈ [kl+i, kl+i+1)),  P(|x| ∈ [a, b)) = Φ((b−μ)/σ) − Φ((a−μ)/σ) + Φ((−a−μ)/σ) − Φ((−b−μ)/σ)
//
// summed until the folded normal has no mass left beyond kl (μ + 40σ).
func paIndexProbabilities(l int) []float64 {
	fl := float64(l)
	mu, sigma := (fl-1)/2, math.Sqrt(fl*(fl+1)/12)
	mass := func(a, b float64) float64 {
		return normalCDF((b-mu)/sigma) - normalCDF((a-mu)/sigma) + normalCDF((-a-mu)/sigma) - normalCDF((-b-mu)/sigma)
	}
	p := make([]float64, l)
	for k := 0.0; k*fl < mu+40*sigma; k++ {
		for i := range p {
			p[i] += mass(k*fl+float64(i), k*fl+float64(i)+1)
		}
	}
	return p
}

// aliasTable draws index i with probability p_i / Σp in constant time
// (Vose's alias method: M. D. Vose, "A linear algorithm for generating
// random numbers with a given distribution", IEEE TSE 17(9), 1991).
type aliasTable struct {
	// e[i] holds column i's probability × 2³² (thr; 2³² − 1 for a column
	// that is its own alias) and its alias: a draw keeps i when its 32-bit
	// coin is below thr, else takes alias. One entry per column keeps a
	// draw to one load.
	e []aliasEntry
}

type aliasEntry struct {
	thr   uint32
	alias int32
}

func newAliasTable(p []float64) *aliasTable {
	n := len(p)
	sum := 0.0
	for _, x := range p {
		sum += x
	}
	prob := make([]float64, n)
	a := &aliasTable{e: make([]aliasEntry, n)}
	scaled := make([]float64, n)
	var small, large []int32
	for i, x := range p {
		scaled[i] = x * float64(n) / sum
		if scaled[i] < 1 {
			small = append(small, int32(i))
		} else {
			large = append(large, int32(i))
		}
	}
	for len(small) > 0 && len(large) > 0 {
		s, g := small[len(small)-1], large[len(large)-1]
		small = small[:len(small)-1]
		prob[s], a.e[s].alias = scaled[s], g
		scaled[g] -= 1 - scaled[s]
		if scaled[g] < 1 {
			large = large[:len(large)-1]
			small = append(small, g)
		}
	}
	for _, i := range append(small, large...) {
		prob[i], a.e[i].alias = 1, i
	}
	for i, p := range prob {
		// A threshold of 2³² (p = 1) keeps every coin: as 2³² − 1 with
		// the column its own alias, the draw is the same.
		t := math.Round(p * (1 << 32))
		if t >= 1<<32 {
			t = 1<<32 - 1
			a.e[i].alias = int32(i)
		}
		a.e[i].thr = uint32(t)
	}
	return a
}

// draw takes the column from the high 32 bits of one random word (by
// multiplication, Lemire 2019, without rejection: a bias below n/2³²) and
// the coin from the low 32 bits; both candidates are loaded before the
// choice, so that it compiles to a conditional move, not a branch the
// processor mispredicts on half of the draws.
func (a *aliasTable) draw(rng *Stream) int32 {
	r := rng.pcg.Uint64()
	e := a.e[((r>>32)*uint64(len(a.e)))>>32]
	out := int32(((r >> 32) * uint64(len(a.e))) >> 32)
	if uint32(r) >= e.thr {
		out = e.alias
	}
	return out
}

// sumDraws returns sum + Σ means[a.draw(rng)] over len(means) draws: the
// draws and additions of len(means) calls of draw, in order, and the same
// bits. len(a.e) must equal len(means). On amd64 a kernel in assembly
// (sumDrawsAsm) does the loop with the generator's state in registers: a
// draw is then bound by the 128-bit state update (one MULQ, two IMULQ and
// three additions), not by its store and reload through memory.
func (a *aliasTable) sumDraws(rng *Stream, means []float64, sum float64) float64 {
	if len(means) != len(a.e) {
		panic("stats: aliasTable.sumDraws: table and means differ in length")
	}
	if haveDrawKernel {
		return sumDrawsAsm(&rng.pcg, a.e, means, sum)
	}
	return a.sumDrawsGo(rng, means, sum)
}

// sumDrawsGo is sumDraws in Go, the reference of sumDrawsAsm.
func (a *aliasTable) sumDrawsGo(rng *Stream, means []float64, sum float64) float64 {
	for range means {
		sum += means[a.draw(rng)]
	}
	return sum
}

// sumUniform returns sum + Σ means[rng.uint32n(len(means))] over
// len(means) draws: those draws and additions in order, the same bits, in
// the amd64 kernel sumUniformAsm as sumDraws does. len(means) must be in
// [1, 2³²).
func sumUniform(rng *Stream, means []float64, sum float64) float64 {
	if haveDrawKernel {
		return sumUniformAsm(&rng.pcg, means, lemireThresh(len(means)), sum)
	}
	return sumUniformGo(rng, means, sum)
}

// sumUniformGo is sumUniform in Go, the reference of sumUniformAsm.
func sumUniformGo(rng *Stream, means []float64, sum float64) float64 {
	n := uint32(len(means))
	for range means {
		sum += means[rng.uint32n(n)]
	}
	return sum
}
