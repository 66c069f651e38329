package trim

import (
	"math"
	"slices"

	"github.com/benchtrim/benchtrim/analysis/internal/verdict"
	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/table"
)

// injectedSlowdowns are the slowdowns injected into the second half of a
// split for the verdict check (0: the A/A test).
var injectedSlowdowns = []float64{0, 0.03, 0.10}

// OutOfSample is the split validation of one benchmark's choice: the
// configuration is chosen on one half of the data and checked on the
// other, by the user's test.
//
// Each split shuffles the units of the top level of the design (instances,
// forks, or the iterations of a single fork) with the benchmark's seeded
// stream and halves them: H1 (the first ⌊n/2⌋) and H2. trim's rule (with
// a quarter of the A/B pairs per detectable slowdown) and the fixed minimal
// configuration are applied to H1 alone, counts bounded by both halves'
// sizes, then run on both halves in recorded order (sampler.replay):
//
//	error = |replay_H2(k) − mean(H2)| / mean(H2)
//
// and each slowdown δ of injectedSlowdowns is injected into H2 (its values
// × (1 + δ)): the verdict of the user's test (Options.Test at
// Options.Alpha) on k's runs of H1 and H2 is compared with its verdict on
// the full halves. Agreement is the share of equal verdicts over splits
// and slowdowns.
type OutOfSample struct {
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

// validate runs the split validation of d with trim's rule and the fixed
// minimum.
func validate(d *design, cost costModel, tool string, noSteady bool, opt *Options, key string) OutOfSample {
	o := OutOfSample{Level: d.levels[0], Agreement: nan, MinimumAgreement: nan, TimeShare: nan, MinimumTimeShare: nan}
	n := d.units[0]
	if n < 2 || opt.Splits <= 0 {
		return o
	}
	rng := stats.NewStream(opt.Seed, key, blockSplits)
	perm := make([]int, n)
	var agree, minAgree, verdicts int
	var share, minShare float64
	for sp := 0; sp < opt.Splits; sp++ {
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
		if d1 == nil || d2 == nil || len(d1.levels) != len(d2.levels) {
			continue
		}
		s1 := newSampler(d1)
		sub := stats.NewStream(opt.Seed, key, blockSplits+uint64(1+sp)*16)
		det := newDetector(s1, opt.Test, opt.Alpha, max(10, opt.DetectDraws/4), func() *stats.Stream {
			return stats.NewStream(opt.Seed, key, blockSplits+uint64(1+sp)*16+1)
		})
		sr := newSearch(d1, cost, det)
		for j := range sr.bound {
			sr.bound[j] = min(sr.bound[j], d2.maxK[j])
			sr.fixed[j] = noSteady && d1.levels[j] >= table.LevelIteration
		}
		rec := config(slices.Clone(sr.bound))
		target, ratio := opt.target(det.detectable(rec))
		sr.setMinEffect(opt)
		k, _, ok := sr.cheapest((1-minSaving)*sr.timeNs(rec), target, ratio)
		if !ok {
			k = rec
		}
		recT := sr.timeNs(rec)
		o.Splits++
		full := make([]int, len(injectedSlowdowns))
		for i, delta := range injectedSlowdowns {
			full[i] = opt.decide(d1, rec, d2, rec, 1+delta, sub)
		}
		for m, kk := range []config{k, fixedMinimum(d1, tool, sr.bound)} {
			e := math.Abs(d2.replay(kk.floats())-d2.mean) / math.Abs(d2.mean)
			same := 0
			for i, delta := range injectedSlowdowns {
				if full[i] == opt.decide(d1, kk, d2, kk, 1+delta, sub) {
					same++
				}
			}
			t := sr.timeNs(kk) / recT
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

// checkResamples is the number of bootstrap resamples behind a TestRatio
// verdict of the checks.
const checkResamples = 2000

// decide is the user's test (Options.Test at Options.Alpha) on
// configuration ka run on design da (base) against kb run on db (test),
// the test's values × scale, both in recorded order (sampler.replay): +1
// slower, −1 faster, 0 no change. TestRatio draws its bootstrap from rng.
func (o *Options) decide(da *design, ka config, db *design, kb config, scale float64, rng *stats.Stream) int {
	if o.Test == estimate.TestRatio {
		pa, pb := da.prefix(ka), db.prefix(kb)
		if pa == nil || pb == nil {
			return 0
		}
		for i := range pb.obs {
			pb.obs[i] *= scale
		}
		ha, err1 := pa.hierarchy()
		hb, err2 := pb.hierarchy()
		if err1 != nil || err2 != nil {
			return 0
		}
		bo := estimate.HierarchicalOptions{BootstrapOptions: estimate.BootstrapOptions{Resamples: checkResamples, Confidence: 1 - o.Alpha}}
		r, err := stats.HierarchicalRatioCI(hb, ha, bo, rng, nil)
		switch {
		case err != nil:
			return 0
		case r.Ratio.Lower > 1:
			return 1
		case r.Ratio.Upper < 1:
			return -1
		}
		return 0
	}
	a := newSampler(da).replay(nil, ka)
	b := newSampler(db).replay(nil, kb)
	for i := range b {
		b[i] *= scale
	}
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	return verdict.Flat(o.Test, o.Alpha, a, b).Change
}

// prefix is the design of the first k units at every level (recorded
// order), renumbered, with its variance components; nil when fewer than
// two observations remain.
func (d *design) prefix(k config) *design {
	first := d.children()
	s := &design{levels: d.levels, ids: make([][]int32, len(d.levels)), units: make([]int, len(d.levels))}
	var walk func(j int, u int32)
	walk = func(j int, u int32) {
		s.units[j]++
		if j == len(d.levels)-1 {
			s.obs = append(s.obs, d.obs[u])
			for l := range d.levels {
				s.ids[l] = append(s.ids[l], int32(s.units[l]-1))
			}
			return
		}
		a, b := first[j][u], first[j][u+1]
		for c := a; c < min(b, a+int32(k[j+1])); c++ {
			walk(j+1, c)
		}
	}
	for u := int32(0); u < min(int32(k[0]), int32(d.units[0])); u++ {
		walk(0, u)
	}
	if len(s.obs) < 2 {
		return nil
	}
	s.estimate()
	return s
}

// VersionCheck is the out-of-sample check across versions: the
// configuration recommended for the previous version of the benchmark run
// (Base) run on both versions' data, and the fixed minimal configuration
// alike.
//
//	error = |replay(k) − mean| / mean  (this version, after its warmup)
//
// Agree says whether the user's test on k's runs of the two versions
// (sampler.replay) gives the verdict it gives on the full recordings.
type VersionCheck struct {
	// Base is the previous version ("" when there is none or the check
	// could not run).
	Base                string
	Error, MinimumError float64
	Agree, MinimumAgree bool
	// Change is the full recordings' verdict (+1 slower, −1 faster, 0).
	Change int
}

// versionChecks fills FromPrevious of every benchmark run that has the
// same benchmark in the project's previous version (versions in the order
// of order, per project). warmup holds each run's discarded warmup
// iterations.
func versionChecks(rep *Report, series []*table.Series, warmup []int, order func(project string) []string) {
	type runKey struct{ project, benchmark, params, mode string }
	byVersion := map[runKey]map[string]int{}
	for i, s := range series {
		rk := runKey{s.Project, s.Benchmark, s.Params, s.Mode}
		if byVersion[rk] == nil {
			byVersion[rk] = map[string]int{}
		}
		byVersion[rk][s.Version] = i
		rep.Benchmarks[i].FromPrevious = VersionCheck{Error: nan, MinimumError: nan}
	}
	opt := &rep.Options
	w := func(x int) int {
		if rep.Benchmarks[x].Status == StatusNoSteady {
			return 0
		}
		return warmup[x]
	}
	for i, s := range series {
		b := &rep.Benchmarks[i]
		vs := order(s.Project)
		pos := slices.Index(vs, s.Version)
		if pos <= 0 || b.Path == PathDuet || math.IsNaN(b.Precision) {
			continue
		}
		j, ok := byVersion[runKey{s.Project, s.Benchmark, s.Params, s.Mode}][vs[pos-1]]
		if !ok || math.IsNaN(rep.Benchmarks[j].Precision) {
			continue
		}
		prev := &rep.Benchmarks[j]
		dThis, dPrev := newDesign(s, w(i)), newDesign(series[j], w(j))
		if dThis == nil || dPrev == nil || len(dThis.levels) != len(dPrev.levels) {
			continue
		}
		rng := stats.NewStream(opt.Seed, b.Key.String(), blockSplits+1)
		b.FromPrevious.Base = series[j].Version
		fullPrev, fullThis := config(slices.Clone(dPrev.maxK)), config(slices.Clone(dThis.maxK))
		b.FromPrevious.Change = opt.decide(dPrev, fullPrev, dThis, fullThis, 1, rng)
		for m, k := range []config{designCounts(dThis, prev.Recommended), fixedMinimum(dThis, b.Tool, dThis.maxK)} {
			kPrev := clampCounts(dPrev, k, dThis)
			e := math.Abs(dThis.replay(k.floats())-dThis.mean) / math.Abs(dThis.mean)
			agree := opt.decide(dPrev, kPrev, dThis, k, 1, rng) == b.FromPrevious.Change
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
func designCounts(d *design, c Config) config {
	k := make(config, len(d.levels))
	for j, l := range d.levels {
		n := map[table.Level]int{table.LevelInstance: c.Instances, table.LevelTrial: c.Trials, table.LevelFork: c.Forks,
			table.LevelIteration: c.Iterations, table.LevelSlice: c.Slices}[l]
		k[j] = min(max(n, 1), d.maxK[j])
	}
	return k
}

// clampCounts carries counts k of design from to design to (level by
// level; a level to lacks counts 1), at most to's recorded counts.
func clampCounts(to *design, k config, from *design) config {
	out := make(config, len(to.levels))
	for j, l := range to.levels {
		out[j] = 1
		for i, fl := range from.levels {
			if fl == l {
				out[j] = min(k[i], to.maxK[j])
			}
		}
	}
	return out
}
