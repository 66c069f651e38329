package trim

import (
	"math"
	"slices"

	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/table"
)

// injectedSlowdowns are the slowdowns injected into the second half of a
// split for the verdict check (0: the A/A test).
var injectedSlowdowns = []float64{0, 0.03, 0.10}

// outOfSample is the split validation of one benchmark's choice: the
// configuration is chosen on one half of the data and checked on the
// other.
//
// Each split shuffles the units of the top level of the design (instances,
// forks, or the iterations of a single fork) with the benchmark's seeded
// stream and halves them: H1 (the first ⌊n/2⌋) and H2. trim's rule and the
// fixed minimal configuration are applied to H1 alone (its variance
// components, counts bounded by both halves' sizes, the analytic precision
// h(k) = z·√V(k)/mean with z the normal quantile of the confidence level,
// since a bootstrap per split would cost as much as the analysis), then
// run on H2 in recorded order (design.replay):
//
//	error = |replay_H2(k) − mean(H2)| / mean(H2)
//
// and each slowdown δ of injectedSlowdowns is injected into H2 (its values
// × (1 + δ)): the verdict of H1 against H2 under k (slower, faster or
// unchanged: the ratio of the two replays outside 1 ± √2·h_H1(k)) is
// compared with the verdict of the full halves (ratio of their means
// outside 1 ± √(h_H1² + h_H2²) at their recorded counts). Agreement is the
// share of equal verdicts over splits and slowdowns.
type outOfSample struct {
	// Level is the level split; Splits how many splits were made (0 when
	// the top level has fewer than two units).
	Level  table.Level
	Splits int
	// Errors are trim's per-split errors; MinimumErrors the fixed
	// minimal configuration's.
	Errors, MinimumErrors []float64
	// Agreement and MinimumAgreement are the shares of verdicts equal to
	// the full halves' (NaN without splits).
	Agreement, MinimumAgreement float64
	// TimeShare and MinimumTimeShare are the mean over splits of the
	// configuration's time over the recorded time of H2's counts.
	TimeShare, MinimumTimeShare float64
}

// verdict is −1 (faster), 0 (unchanged) or +1 (slower) for a ratio test/base
// with half-width hw.
func verdict(ratio, hw float64) int {
	switch {
	case ratio-1 > hw:
		return 1
	case 1-ratio > hw:
		return -1
	}
	return 0
}

// rule picks a configuration (design counts) for a design half under a
// chooser; it is trim's rule or the fixed minimum.
type rule func(c *chooser) []float64

// validate runs the split validation of d with trim's rule and the fixed
// minimum.
func validate(d *design, cost costModel, trimRule, minimum rule, splits int, confidence float64, minObs int, rng *stats.Stream) outOfSample {
	o := outOfSample{Level: d.levels[0], Agreement: nan, MinimumAgreement: nan, TimeShare: nan, MinimumTimeShare: nan}
	n := d.units[0]
	if n < 2 || splits <= 0 {
		return o
	}
	z := stats.NormalQuantile(1 - (1-confidence)/2)
	analytic := func(h *design) *chooser {
		c := newChooser(h, cost, 0, minObs)
		if h.mean != 0 {
			c.hRec = z * math.Sqrt(c.vRec) / math.Abs(h.mean)
		}
		return c
	}
	perm := make([]int, n)
	var agree, minAgree, verdicts int
	var share, minShare float64
	for s := 0; s < splits; s++ {
		for i := range perm {
			perm[i] = i
		}
		for i := n - 1; i > 0; i-- {
			j := rng.IntN(i + 1)
			perm[i], perm[j] = perm[j], perm[i]
		}
		h1, h2 := slices.Clone(perm[:n/2]), slices.Clone(perm[n/2:])
		slices.Sort(h1)
		slices.Sort(h2)
		d1, d2 := d.subset(h1), d.subset(h2)
		if d1 == nil || d2 == nil {
			continue
		}
		c1, c2 := analytic(d1), analytic(d2)
		for j := range c1.bound {
			c1.bound[j] = min(c1.bound[j], c2.bound[j])
		}
		full2 := c2.recorded()
		hwFull := math.Hypot(c1.hRec, c2.hRec)
		ref := d2.mean
		o.Splits++
		for m, r := range []rule{trimRule, minimum} {
			k := r(c1)
			e := math.Abs(d2.replay(k)-ref) / math.Abs(ref)
			a, b := d1.replay(k), d2.replay(k)
			hw := math.Sqrt2 * c1.precision(k)
			same := 0
			for _, delta := range injectedSlowdowns {
				if verdict((1+delta)*d2.mean/d1.mean, hwFull) == verdict((1+delta)*b/a, hw) {
					same++
				}
			}
			ks := d.full(k)
			t := cost.timeNs(&ks) / full2.timeNs
			if m == 0 {
				o.Errors = append(o.Errors, e)
				agree += same
				share += t
			} else {
				o.MinimumErrors = append(o.MinimumErrors, e)
				minAgree += same
				minShare += t
			}
		}
		verdicts += len(injectedSlowdowns)
	}
	if o.Splits > 0 {
		o.Agreement = float64(agree) / float64(verdicts)
		o.MinimumAgreement = float64(minAgree) / float64(verdicts)
		o.TimeShare = share / float64(o.Splits)
		o.MinimumTimeShare = minShare / float64(o.Splits)
	}
	return o
}

// versionCheck is the out-of-sample check across versions: the
// configuration recommended for the previous version of the benchmark run
// (Base) replayed on this version's data, and the fixed minimal
// configuration alike.
//
//	error = |replay(k) − mean| / mean  (this version, after its warmup)
//
// Agree says whether the A/B verdict between the two versions under k
// (the ratio of the two replays outside 1 ± √(h_base(k)² + h(k)²)) equals
// the verdict of the full recordings (the ratio of the means outside
// 1 ± √(h_base² + h²), the recorded precisions).
type versionCheck struct {
	// Base is the previous version ("" when there is none or the check
	// could not run).
	Base                string
	Error, MinimumError float64
	Agree, MinimumAgree bool
}

// versionChecks fills FromPrevious of every benchmark run that has the
// same benchmark in the project's previous version (series order: versions
// in the order table.Select returns them). warmup holds each run's
// discarded warmup iterations.
func versionChecks(rep *Report, series []*table.Series, warmup []int) {
	type runKey struct{ project, benchmark, params, mode string }
	last := map[runKey]int{}
	for i, s := range series {
		b := &rep.Benchmarks[i]
		b.FromPrevious = versionCheck{Error: nan, MinimumError: nan}
		rk := runKey{s.Project, s.Benchmark, s.Params, s.Mode}
		j, ok := last[rk]
		last[rk] = i
		if !ok || b.Path == pathDuet || math.IsNaN(b.Precision) || math.IsNaN(rep.Benchmarks[j].Precision) {
			continue
		}
		prev := &rep.Benchmarks[j]
		w := func(x int) int {
			if rep.Benchmarks[x].Status == statusNoSteady {
				return 0
			}
			return warmup[x]
		}
		dThis, dPrev := newDesign(s, w(i)), newDesign(series[j], w(j))
		if dThis == nil || dPrev == nil {
			continue
		}
		b.FromPrevious.Base = series[j].Version
		fullVerdict := verdict(dThis.mean/dPrev.mean, math.Hypot(prev.Precision, b.Precision))
		for m, k := range [][]float64{designCounts(dThis, prev.Recommended), fixedMinimum(dThis, b.Tool, dThis.maxK)} {
			kPrev := clampCounts(dPrev, k, dThis)
			h := func(d *design, k []float64, hRec float64) float64 {
				return newChooser(d, costModel{}, hRec, 1).precision(k)
			}
			e := math.Abs(dThis.replay(k)-dThis.mean) / math.Abs(dThis.mean)
			agree := verdict(dThis.replay(k)/dPrev.replay(kPrev), math.Hypot(h(dPrev, kPrev, prev.Precision), h(dThis, k, b.Precision))) == fullVerdict
			if m == 0 {
				b.FromPrevious.Error, b.FromPrevious.Agree = e, agree
			} else {
				b.FromPrevious.MinimumError, b.FromPrevious.MinimumAgree = e, agree
			}
		}
	}
}

// designCounts maps configuration c to the counts of d's levels, at most
// the recorded ones.
func designCounts(d *design, c Config) []float64 {
	k := make([]float64, len(d.levels))
	for j, l := range d.levels {
		n := map[table.Level]int{table.LevelInstance: c.Instances, table.LevelTrial: c.Trials, table.LevelFork: c.Forks,
			table.LevelIteration: c.Iterations, table.LevelSlice: c.Slices}[l]
		k[j] = float64(min(max(n, 1), d.maxK[j]))
	}
	return k
}

// clampCounts carries counts k of design from to design to (level by
// level; a level to lacks counts 1), at most to's recorded counts.
func clampCounts(to *design, k []float64, from *design) []float64 {
	out := make([]float64, len(to.levels))
	for j, l := range to.levels {
		out[j] = 1
		for i, fl := range from.levels {
			if fl == l {
				out[j] = min(k[i], float64(to.maxK[j]))
			}
		}
	}
	return out
}
