package changepoint

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"sync"
)

// cropsOptions configures CROPS.
type cropsOptions struct {
	// cost and MinSegLen are as in Options (0 = the cost's default).
	cost      Cost
	minSegLen int
	// PenMin and PenMax bound the penalty range. If both are 0 the range
	// is TrainiRange(n) = [4·log n, 10⁵·log n]. If PenMin > PenMax they are
	// swapped (as R does); they must be finite, >= 0 and differ.
	PenMin, PenMax float64
	// sumMode is as in Options.
	sumMode sumMode
	// workers is the number of goroutines that run the PELT calls of one
	// CROPS round concurrently; <= 1 runs them sequentially. The result
	// does not depend on it.
	workers int
}

// defaultCROPSOptions is the setting of Traini et al.'s scripts: MeanVar
// cost, minimum segment length 2, range TrainiRange(n), sequential.
var defaultCROPSOptions = cropsOptions{cost: MeanVar, minSegLen: 2}

// trainiRange returns [4·log n, 10⁵·log n], the CROPS penalty range that
// Traini et al.'s changepoint.py passes to R (their paper states [4, 10⁵]).
func trainiRange(n int) (penMin, penMax float64) {
	l := math.Log(float64(n))
	return 4 * l, 1e5 * l
}

// PELTRun records one PELT call made by CROPS.
type PELTRun struct {
	Penalty float64
	// NumSegments is the number of segments (change points + 1).
	NumSegments int
	// Objective is F(n); Cost = F(n) - (NumSegments-1)·Penalty.
	Objective, Cost float64
	// Changepoints are in R's cpts() convention.
	Changepoints []int
}

// CROPSSegmentation is one row of R's cpts.full with the penalty interval
// [PenaltyLow, PenaltyHigh) = [pen.value.full[k], pen.value.full[k+1]) it
// is reported for.
//
// NumSegments, Cost and TestedPenalty are the k-th entries of R's internal
// cpt.out rows "numberofchangepoints" (which holds the number of segments),
// "penalised_cost" (which holds the unpenalised cost) and "pen_values".
// R sorts these lists and the list of segmentations separately and pairs
// them by rank; this is replicated, so in rare cases (PELT not being exact,
// see PELT) they need not describe Changepoints.
type CROPSSegmentation struct {
	Changepoints            []int
	PenaltyLow, PenaltyHigh float64
	NumSegments             int
	Cost                    float64
	TestedPenalty           float64
}

// CROPSResult is the outcome of CROPS on one series.
type CROPSResult struct {
	// N is the series length; PenMin and PenMax the range used.
	N              int
	PenMin, PenMax float64
	// Segmentations are the rows of R's cpts.full, most change points
	// first (increasing penalty).
	Segmentations []CROPSSegmentation
	// PenValueFull is R's pen.value.full (changepoint >= 2.3): the lower
	// bound of every row's interval followed by PenMax, so it is one longer
	// than Segmentations. It is not always monotone, and its first entry
	// can lie below PenMin (docs/changepoint.md, quirk 3).
	PenValueFull []float64
	// Runs lists every PELT call in the order R makes them.
	Runs []PELTRun
	// MaxRuns is R's printed "Maximum number of runs of algorithm":
	// segments at PenMin - segments at PenMax + 2.
	MaxRuns int
}

// NumChangepoints returns the number of change points of every row.
func (r *CROPSResult) NumChangepoints() []int {
	out := make([]int, len(r.Segmentations))
	for i, s := range r.Segmentations {
		out[i] = len(s.Changepoints)
	}
	return out
}

// allEqualTolerance is R's default all.equal tolerance,
// sqrt(.Machine$double.eps).
var allEqualTolerance = math.Sqrt(0x1p-52)

// crops runs PELT for every penalty needed to find all the optimal
// segmentations for penalties in [PenMin, PenMax], following Haynes,
// Eckley and Fearnhead, "Computationally efficient changepoint detection
// for a range of penalties", JCGS 26(1), 2017, exactly as R changepoint
// 2.3's range_of_penalties implements it:
//
//  1. Run PELT at PenMin and PenMax.
//  2. Keep three lists, each sorted on its own: the tested penalties
//     (ascending, unique), the segment counts (descending) and the
//     unpenalised costs (ascending); pair them by rank. Order the
//     segmentations by their number of change points, descending (stable).
//  3. Wherever neighbouring counts differ by more than 1, test the penalty
//     where their cost lines cross,
//     β = (cost[i+1] - cost[i]) · (nseg[i] - nseg[i+1])⁻¹,
//     unless it is all.equal (relative 1.5e-8) to the nearest tested
//     penalty. Repeat until nothing is left to test.
//  4. Drop the higher-penalty one of neighbours with equal counts.
//  5. Lower bounds: β_1 = smallest tested penalty,
//     β_k = (cost[k-1] - cost[k]) / (nseg[k] - nseg[k-1]);
//     pen.value.full = (β_1, ..., β_K, PenMax).
//
// It differs from R only in refusing series shorter than 2·MinSegLen
// (ErrTooShort), where R's C code reads past its arrays. x is not modified.
func crops(x []float64, opt cropsOptions) (*CROPSResult, error) {
	p, err := newPELT(x, opt.cost, opt.minSegLen, opt.sumMode)
	if err != nil {
		return nil, err
	}
	lo, hi := opt.PenMin, opt.PenMax
	if lo == 0 && hi == 0 {
		lo, hi = trainiRange(len(x))
	}
	if err := checkPenalty(lo); err != nil {
		return nil, err
	}
	if err := checkPenalty(hi); err != nil {
		return nil, err
	}
	if lo > hi {
		lo, hi = hi, lo
	}
	if lo == hi {
		return nil, fmt.Errorf("changepoint: CROPS penalty range [%v, %v] is empty", lo, hi)
	}

	runner := newCROPSRunner(p, opt.workers)
	res := &CROPSResult{N: len(x), PenMin: lo, PenMax: hi}

	var (
		testPen  []float64 // ascending, unique
		numSegs  []int     // descending
		costs    []float64 // ascending
		segs     [][]int   // by number of change points, descending (stable)
		interval = []float64{lo, hi}
	)
	for first := true; len(interval) > 0; first = false {
		runs := runner.run(interval)
		res.Runs = append(res.Runs, runs...)
		if first {
			res.MaxRuns = runs[0].NumSegments - runs[1].NumSegments + 2
		}

		testPen = append(testPen, interval...)
		slices.Sort(testPen)
		testPen = slices.Compact(testPen)
		for _, r := range runs {
			numSegs = append(numSegs, r.NumSegments)
			costs = append(costs, r.Cost)
			segs = append(segs, r.Changepoints)
		}
		slices.SortFunc(numSegs, func(a, b int) int { return b - a })
		slices.Sort(costs)
		slices.SortStableFunc(segs, func(a, b []int) int { return len(b) - len(a) })

		interval = interval[:0:0]
		for i := 0; i < len(testPen)-1; i++ {
			d := numSegs[i] - numSegs[i+1]
			if d > 1 || d < -1 {
				interval = append(interval, (costs[i+1]-costs[i])*rPowMinusOne(d))
			}
		}
		for k := len(interval) - 1; k >= 0; k-- {
			idx := whichMinAbsDiff(interval[k], testPen)
			if allEqual(interval[k], testPen[idx]) {
				interval = slices.Delete(interval, k, k+1)
			}
		}
	}

	// Prune neighbours with equal counts, dropping the higher penalty.
	for j := len(testPen) - 1; j >= 1; j-- {
		if numSegs[j] == numSegs[j-1] {
			numSegs = slices.Delete(numSegs, j, j+1)
			testPen = slices.Delete(testPen, j, j+1)
			costs = slices.Delete(costs, j, j+1)
			segs = slices.Delete(segs, j, j+1)
		}
	}

	nb := len(testPen)
	betaInt := make([]float64, nb)
	betaE := make([]float64, nb)
	for k := 0; k < nb; k++ {
		if k == 0 {
			betaInt[0] = testPen[0]
		} else {
			betaInt[k] = betaE[k-1]
		}
		if k == nb-1 {
			betaE[k] = testPen[k]
		} else {
			betaE[k] = (costs[k] - costs[k+1]) / float64(numSegs[k+1]-numSegs[k])
		}
	}
	res.PenValueFull = append(betaInt, hi)

	// Rows. In R a penalty tested twice in one round (two crossing points
	// equal to the last bit) leaves more segmentations than tested
	// penalties; the extra rows get NaN bounds.
	at := func(v []float64, k int) float64 {
		if k < len(v) {
			return v[k]
		}
		return math.NaN()
	}
	res.Segmentations = make([]CROPSSegmentation, len(segs))
	for k, c := range segs {
		row := CROPSSegmentation{
			Changepoints:  c,
			PenaltyLow:    at(res.PenValueFull, k),
			PenaltyHigh:   at(res.PenValueFull, k+1),
			Cost:          at(costs, k),
			TestedPenalty: at(testPen, k),
		}
		if k < len(numSegs) {
			row.NumSegments = numSegs[k]
		}
		res.Segmentations[k] = row
	}
	return res, nil
}

// rPowMinusOne returns R's d^-1 for an integer d on x86-64: R_pow calls
// powl, so 1/d is rounded to the 64-bit long double significand first and
// then to double.
func rPowMinusOne(d int) float64 {
	var q, one, den big.Float
	q.SetPrec(extendedPrec)
	one.SetInt64(1)
	den.SetInt64(int64(d))
	q.Quo(&one, &den)
	f, _ := q.Float64()
	return f
}

// whichMinAbsDiff is R's which.min(abs(v - xs)): the first index of the
// smallest absolute difference.
func whichMinAbsDiff(v float64, xs []float64) int {
	best, idx := math.Inf(1), 0
	for i, x := range xs {
		if d := math.Abs(v - x); d < best {
			best, idx = d, i
		}
	}
	return idx
}

// allEqual is R's isTRUE(all.equal(target, current)) for two finite
// scalars: equal, or mean relative difference |t-c|/|t| <= 1.5e-8 (an
// absolute difference when |t| <= 1.5e-8).
func allEqual(target, current float64) bool {
	if target == current {
		return true
	}
	xy := math.Abs(target - current)
	if xn := math.Abs(target); !math.IsInf(xn, 0) && xn > allEqualTolerance {
		xy /= xn
	}
	return !(math.IsNaN(xy) || xy > allEqualTolerance)
}

// cropsRunner runs the PELT calls of a CROPS round: batches of up to
// maxLanes penalties share one sweep (batchPELT), and with several workers
// the batches run concurrently; every result goes into the slot of its
// penalty, so the outcome does not depend on the number of workers.
type cropsRunner struct {
	engines  []*batchPELT
	maxLanes int
}

// cropsLaneBytes bounds the per-lane memory of a batch (F and the
// backtracking pointers for every t, F for every member: about 20·n bytes
// a lane).
const cropsLaneBytes = 64 << 20

func newCROPSRunner(p *peltState, workers int) *cropsRunner {
	workers = max(workers, 1)
	lanes := int(min(32, max(laneWidth, cropsLaneBytes/(20*int64(p.n+1)))))
	r := &cropsRunner{maxLanes: lanes / laneWidth * laneWidth}
	for range workers {
		r.engines = append(r.engines, newBatchPELT(p.st, p.cost, p.m, p.n))
	}
	return r
}

func (r *cropsRunner) run(pens []float64) []PELTRun {
	out := make([]PELTRun, len(pens))
	// Batches of at most maxLanes penalties, as few as that allows: the
	// lanes of one batch share every cost evaluation, so splitting a
	// batch that fits costs CPU time (about 1.4× at n = 3,000) for little
	// wall time. Workers run the batches of a round that needs several.
	nb := max(1, (len(pens)+r.maxLanes-1)/r.maxLanes)
	size := (len(pens) + nb - 1) / nb
	one := func(b *batchPELT, lo int) {
		hi := min(lo+size, len(pens))
		fn, ends := b.run(pens[lo:hi])
		for k, e := range ends {
			pen := pens[lo+k]
			nseg := len(e)
			out[lo+k] = PELTRun{
				Penalty: pen, NumSegments: nseg, Objective: fn[k],
				Cost:         fn[k] - float64(nseg-1)*pen,
				Changepoints: e[: nseg-1 : nseg-1],
			}
		}
	}
	w := min(len(r.engines), nb)
	if w <= 1 {
		for lo := 0; lo < len(pens); lo += size {
			one(r.engines[0], lo)
		}
		return out
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for k := 0; k < w; k++ {
		wg.Add(1)
		go func(b *batchPELT) {
			defer wg.Done()
			for lo := range next {
				one(b, lo)
			}
		}(r.engines[k])
	}
	for lo := 0; lo < len(pens); lo += size {
		next <- lo
	}
	close(next)
	wg.Wait()
	return out
}
