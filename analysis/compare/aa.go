package compare

import (
	"fmt"
	"sort"

	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/internal/workpool"
	"github.com/benchtrim/benchtrim/table"
)

// AAResult is one A/A comparison: half B (test) against half A (base) of
// one benchmark run under one random split.
type AAResult struct {
	Key table.Key
	// Repeat numbers the split, from 1.
	Repeat int
	// UnitsA and UnitsB are the numbers of split units (forks, trials or
	// instances) in each half.
	UnitsA, UnitsB int
	Comparison
	// Err says why this split could not be compared.
	Err error
}

// AASkipped is a benchmark run that cannot be split.
type AASkipped struct {
	Key table.Key
	// Reason says why, e.g. "1 fork".
	Reason string
}

// AAReport is the outcome of an A/A test (Run with Options.AA).
type AAReport struct {
	Options Options
	// Results holds Repeats entries per splittable run, by key then repeat.
	Results []AAResult
	// Skipped lists runs with fewer than two units at the split level.
	Skipped []AASkipped
}

// AARates are the false-positive counts and rates of an A/A report.
type AARates struct {
	// Benchmarks is the number of runs compared at least once; Comparisons
	// the number of successful comparisons; Failed the failed ones.
	Benchmarks, Comparisons, Failed int
	// CIExcludesOne counts comparisons whose ratio interval excludes 1 and
	// PBelowAlpha those whose U test has p < Alpha.
	CIExcludesOne, PBelowAlpha int
	// CIRate and URate are the two counts over Comparisons (NaN when 0);
	// nominally 1 − Confidence and Alpha.
	CIRate, URate float64
}

// aaSeries estimates the false-positive rate of a measurement setup with A/A
// tests: for every run in series with at least two units at opt.Split, it
// divides the units at random into halves A and B of sizes ⌊n/2⌋ and
// ⌈n/2⌉ and compares B (test) against A (base) exactly as Compare does.
// Because both halves come from one recording, every reported difference
// is a false positive; a sound setup gives an interval excluding 1 in about
// 1 − Confidence of the comparisons and p < Alpha in about Alpha of them.
//
// Split r (1-based) of a run is the r-th permutation drawn from
// stats.NewRand(opt.Seed, key, 0) with key = table.Key.String(); its
// bootstrap draws from stats.NewStream(opt.Seed, key, r). The report is the
// same at any opt.Workers. Runs with a single unit are listed in Skipped.
func aaSeries(series []*table.Series, opt Options) (*AAReport, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	type job struct {
		results []AAResult
		skipped string
	}
	pool := workspacePool()
	jobs, _ := workpool.Map(len(series), opt.Workers, func(i int) (job, error) {
		s := series[i]
		ws := pool.Get().(*stats.Workspace)
		defer pool.Put(ws)
		if opt.Progress != nil {
			defer opt.Progress(len(series))
		}
		units := s.Units(opt.Split)
		if len(units) < 2 {
			return job{skipped: fmt.Sprintf("%d %s", len(units), opt.Split)}, nil
		}
		return job{results: aaRun(s, units, &opt, ws)}, nil
	})
	rep := &AAReport{Options: opt}
	for i, j := range jobs {
		if j.skipped != "" {
			rep.Skipped = append(rep.Skipped, AASkipped{Key: series[i].Key, Reason: j.skipped})
		}
		rep.Results = append(rep.Results, j.results...)
	}
	return rep, nil
}

// aaRun performs the repeats of one run whose units at the split level are
// units.
func aaRun(s *table.Series, units []table.Span, opt *Options, ws *stats.Workspace) []AAResult {
	key := s.Key.String()
	n := len(units)
	starts := make([]int, n)
	for u, sp := range units {
		starts[u] = sp.Start
	}
	unitOf := func(row int) int { return sort.SearchInts(starts, row+1) - 1 }
	weighted := weightedRows(s.Mode, opt.Bootstrap.InvocationSamples)
	split := stats.NewRand(opt.Seed, key, 0)
	inA := make([]bool, n)
	out := make([]AAResult, opt.Repeats)
	for r := range out {
		perm := split.Perm(n)
		clear(inA)
		for _, u := range perm[:n/2] {
			inA[u] = true
		}
		res := AAResult{Key: s.Key, Repeat: r + 1, UnitsA: n / 2, UnitsB: n - n/2}
		var a, b sample
		err := a.add(s, 1, "", opt.DiscardWarmup, weighted, func(_ *table.Series, it table.Span) bool { return inA[unitOf(it.Start)] })
		if err == nil {
			err = b.add(s, 1, "", opt.DiscardWarmup, weighted, func(_ *table.Series, it table.Span) bool { return !inA[unitOf(it.Start)] })
		}
		if err == nil {
			rng := stats.NewStream(opt.Seed, key, uint64(r+1))
			res.Comparison, err = compareSamples(&b, &a, opt, rng, ws)
		}
		res.Err = err
		out[r] = res
	}
	return out
}

// Rates counts the false positives of the report.
func (r *AAReport) Rates() AARates {
	var a AARates
	seen := map[table.Key]bool{}
	for i := range r.Results {
		res := &r.Results[i]
		if res.Err != nil {
			a.Failed++
			continue
		}
		if !seen[res.Key] {
			seen[res.Key] = true
			a.Benchmarks++
		}
		a.Comparisons++
		if res.ExcludesOne() {
			a.CIExcludesOne++
		}
		if res.P < r.Options.Alpha {
			a.PBelowAlpha++
		}
	}
	a.CIRate = float64(a.CIExcludesOne) / float64(a.Comparisons)
	a.URate = float64(a.PBelowAlpha) / float64(a.Comparisons)
	return a
}

// mergeAA combines A/A reports on disjoint sets of benchmark runs (the
// chunks of one input) into the report of their union: each run's splits
// and bootstrap draw from streams of its own key, so only the order needs
// restoring, by key (then repeat) as aaSeries lists them.
func mergeAA(parts []*AAReport) (*AAReport, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("compare: no A/A reports to merge")
	}
	rep := &AAReport{Options: parts[0].Options}
	for _, p := range parts {
		rep.Results = append(rep.Results, p.Results...)
		rep.Skipped = append(rep.Skipped, p.Skipped...)
	}
	sort.SliceStable(rep.Results, func(i, j int) bool {
		a, b := &rep.Results[i], &rep.Results[j]
		if a.Key != b.Key {
			return a.Key.Less(b.Key)
		}
		return a.Repeat < b.Repeat
	})
	sort.SliceStable(rep.Skipped, func(i, j int) bool { return rep.Skipped[i].Key.Less(rep.Skipped[j].Key) })
	return rep, nil
}
