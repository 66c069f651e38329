package reconfigure

import (
	"fmt"
	"math"

	"github.com/benchtrim/benchtrim/internal/stats"
)

// Stream purposes: every random draw of a benchmark comes from the stream
// (seed, benchmark key, block(purpose, …)).
const (
	purposeSample     = 1 // criterion sample of (fork, iteration)
	purposeWarmupRCIW = 2 // RCIW of M_j in the warmup of a fork
	purposeForkRCIW   = 3 // RCIW of F_j over forks
	purposeAA         = 4 // A/A test of a criterion
)

// block packs a stream's purpose, criterion, fork and index.
func block(purpose uint64, c Criterion, fork, index int) uint64 {
	return purpose<<56 | uint64(c)<<48 | uint64(fork&0xffff)<<32 | uint64(uint32(index))
}

// phase holds the cumulative sets of one stoppage decision, the warmup of
// one fork (sets M_1, M_2, … of iterations, Eq. 1) or the forks (sets
// F_1, F_2, … of the forks' measurement iterations, Eq. 2), and the
// criterion's statistic of each set.
//
// The statistic of set j is CV(M_j) or RCIW(M_j) for CV and RCIW, and the
// stability probability p(M_(j−1), M_j) for KLD (undefined for j = 1).
type phase struct {
	crit    Criterion
	opt     *Options
	nested  bool // forks > iterations (Eq. 2) rather than iterations only
	purpose uint64
	fork    int
	key     string
	ws      *stats.Workspace

	// rows of all sets so far for the hierarchical bootstrap; set j holds
	// rows [0, ends[j]).
	vals, wts []float64
	outerIDs  []int32
	innerIDs  []int32
	ends      []int
	inner     int32

	cur, prev weighted // the last two cumulative sets, compressed
	stat      []float64
	done      []bool
}

func newPhase(c Criterion, opt *Options, nested bool, purpose uint64, fork int, key string, ws *stats.Workspace) *phase {
	return &phase{crit: c, opt: opt, nested: nested, purpose: purpose, fork: fork, key: key, ws: ws}
}

// sets returns the number of cumulative sets.
func (p *phase) sets() int { return len(p.ends) }

// add appends the next unit (an iteration: one part; a fork: one part per
// measurement iteration) and forms the next cumulative set. outer is the
// fork id of a nested phase.
func (p *phase) add(parts []weighted, outer int32) error {
	unit := weighted{}
	for _, part := range parts {
		p.inner++
		for k := range part.x {
			p.vals = append(p.vals, part.x[k])
			p.wts = append(p.wts, part.w[k])
			p.innerIDs = append(p.innerIDs, p.inner)
			if p.nested {
				p.outerIDs = append(p.outerIDs, outer)
			}
		}
		unit = mergeWeighted(weighted{}, unit, part)
	}
	p.ends = append(p.ends, len(p.vals))
	p.prev, p.cur = p.cur, mergeWeighted(p.prev, p.cur, unit)
	p.stat = append(p.stat, math.NaN())
	p.done = append(p.done, false)
	j := len(p.ends) - 1
	switch p.crit {
	case CriterionCV:
		p.stat[j], p.done[j] = stats.CV(p.cur.x, p.cur.w), true
	case CriterionKLD:
		if j > 0 {
			v, err := stats.KLDStability(p.prev.x, p.prev.w, p.cur.x, p.cur.w)
			if err != nil {
				return fmt.Errorf("kld of set %d: %w", j+1, err)
			}
			p.stat[j] = v
		}
		p.done[j] = true
	}
	return nil
}

// statistic returns the statistic of set j (0-based), computing the RCIW
// on first use.
func (p *phase) statistic(j int) (float64, error) {
	if p.done[j] {
		return p.stat[j], nil
	}
	end := p.ends[j]
	var h *stats.Hierarchy
	var err error
	if p.nested {
		h, err = stats.NewHierarchy(p.vals[:end], p.wts[:end], p.outerIDs[:end], p.innerIDs[:end])
	} else {
		h, err = stats.NewHierarchy(p.vals[:end], p.wts[:end], p.innerIDs[:end])
	}
	if err != nil {
		return math.NaN(), err
	}
	rng := stats.NewStream(p.opt.Seed, p.key, block(p.purpose, p.crit, p.fork, j))
	iv, err := stats.HierarchicalMeanCI(h, p.opt.RCIW, rng, p.ws)
	if err != nil {
		return math.NaN(), err
	}
	p.stat[j], p.done[j] = iv.RCIW(), true
	return p.stat[j], nil
}

// check decides stability over the window of the last min(window, n)
// cumulative sets W = {M_(n−w+1), …, M_n} (Eq. 1 and 2 of Laaber et al.):
//
//	CV, RCIW:  stable ⇔ max_(j∈W) s_j − min_(j∈W) s_j ≤ threshold   (|W| >= 2)
//	KLD:       stable ⇔ mean_(j∈W, j>1) p(M_(j−1), M_j) > threshold  (at least one p)
//
// It returns the decision and the value compared with the threshold (the
// range, or the mean probability; NaN when the window is too small or a
// statistic is undefined, which is never stable).
func (p *phase) check(window int) (bool, float64, error) {
	n := p.sets()
	lo := max(0, n-window)
	thr := p.opt.Thresholds.of(p.crit)
	if p.crit == CriterionKLD {
		var sum float64
		k := 0
		for j := max(lo, 1); j < n; j++ {
			v, err := p.statistic(j)
			if err != nil {
				return false, math.NaN(), err
			}
			sum += v
			k++
		}
		if k == 0 {
			return false, math.NaN(), nil
		}
		mean := sum / float64(k)
		return mean > thr, mean, nil
	}
	if n-lo < 2 {
		return false, math.NaN(), nil
	}
	lowest, highest := math.Inf(1), math.Inf(-1)
	for j := lo; j < n; j++ {
		v, err := p.statistic(j)
		if err != nil {
			return false, math.NaN(), err
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false, math.NaN(), nil
		}
		lowest, highest = math.Min(lowest, v), math.Max(highest, v)
	}
	spread := highest - lowest
	return spread <= thr, spread, nil
}
