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
	// thr[i] is column i's probability × 2³²: a draw keeps i when its
	// 32-bit coin is below thr[i], else takes alias[i].
	thr   []uint64
	alias []int32
}

func newAliasTable(p []float64) *aliasTable {
	n := len(p)
	sum := 0.0
	for _, x := range p {
		sum += x
	}
	prob := make([]float64, n)
	a := &aliasTable{thr: make([]uint64, n), alias: make([]int32, n)}
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
		prob[s], a.alias[s] = scaled[s], g
		scaled[g] -= 1 - scaled[s]
		if scaled[g] < 1 {
			large = large[:len(large)-1]
			small = append(small, g)
		}
	}
	for _, i := range append(small, large...) {
		prob[i], a.alias[i] = 1, i
	}
	for i, p := range prob {
		a.thr[i] = uint64(math.Round(p * (1 << 32)))
	}
	return a
}

// draw takes the column from the high 32 bits of one random word (by
// multiplication, Lemire 2019, without rejection: a bias below n/2³²) and
// the coin from the low 32 bits, without a branch on the coin.
func (a *aliasTable) draw(rng *Stream) int32 {
	r := rng.pcg.Uint64()
	i := ((r >> 32) * uint64(len(a.thr))) >> 32
	out := int32(i)
	if r&0xffffffff >= a.thr[i] {
		out = a.alias[i]
	}
	return out
}
