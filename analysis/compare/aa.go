package compare

import (
	"fmt"
	"sort"

	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/internal/workpool"
	"github.com/benchtrim/benchtrim/table"
)

// aaResult is one A/A comparison: half B (test) against half A (base) of
// one benchmark run under one random split.
type aaResult struct {
	key table.Key
	// repeat numbers the split, from 1.
	repeat int
	// unitsA and unitsB are the numbers of split units (forks, trials or
	// instances) in each half.
	unitsA, unitsB int
	// Row holds the comparison's statistics (its name and runs unset).
	Row
	// err says why this split could not be compared.
	err error
}

// aaSkipped is a benchmark run that cannot be split.
type aaSkipped struct {
	key table.Key
	// reason says why, e.g. "1 fork".
	reason string
}

// aaReport is the outcome of an A/A test (Run with Options.AA).
type aaReport struct {
	options Options
	// results holds Repeats entries per splittable run, by key then repeat.
	results []aaResult
	// skipped lists runs with fewer than two units at the split level.
	skipped []aaSkipped
}

// aaRates are the false-positive counts and rates of an A/A report.
type aaRates struct {
	// benchmarks is the number of runs compared at least once; comparisons
	// the number of successful comparisons; failed the failed ones.
	benchmarks, comparisons, failed int
	// ciExcludesOne counts comparisons whose ratio interval excludes 1 and
	// pBelowAlpha those whose U test has p ≤ Alpha.
	ciExcludesOne, pBelowAlpha int
	// ciRate and uRate are the two counts over comparisons (NaN when 0);
	// nominally 1 − Confidence and Alpha.
	ciRate, uRate float64
}

// aaSeries estimates the false-positive rate of a measurement setup with A/A
// tests: for every run in series with at least two units at opt.Split, it
// divides the units at random into halves A and B of sizes ⌊n/2⌋ and
// ⌈n/2⌉ and compares B (test) against A (base) exactly as Compare does.
// Because both halves come from one recording, every reported difference
// is a false positive; a sound setup gives an interval excluding 1 in about
// 1 − Confidence of the comparisons and p ≤ Alpha in about Alpha of them.
//
// Split r (1-based) of a run is the r-th permutation drawn from
// stats.NewRand(opt.Seed, key, 0) with key = table.Key.String(); its
// bootstrap draws from stats.NewStream(opt.Seed, key, r). The report is the
// same at any opt.Workers. Runs with a single unit are listed in Skipped.
func aaSeries(series []*table.Series, opt Options) (*aaReport, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	type job struct {
		results []aaResult
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
	rep := &aaReport{options: opt}
	for i, j := range jobs {
		if j.skipped != "" {
			rep.skipped = append(rep.skipped, aaSkipped{key: series[i].Key, reason: j.skipped})
		}
		rep.results = append(rep.results, j.results...)
	}
	return rep, nil
}

// aaRun performs the repeats of one run whose units at the split level are
// units.
func aaRun(s *table.Series, units []table.Span, opt *Options, ws *stats.Workspace) []aaResult {
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
	out := make([]aaResult, opt.Repeats)
	for r := range out {
		perm := split.Perm(n)
		clear(inA)
		for _, u := range perm[:n/2] {
			inA[u] = true
		}
		res := aaResult{key: s.Key, repeat: r + 1, unitsA: n / 2, unitsB: n - n/2}
		var a, b sample
		err := a.add(s, 1, "", opt.DiscardWarmup, weighted, func(_ *table.Series, it table.Span) bool { return inA[unitOf(it.Start)] })
		if err == nil {
			err = b.add(s, 1, "", opt.DiscardWarmup, weighted, func(_ *table.Series, it table.Span) bool { return !inA[unitOf(it.Start)] })
		}
		if err == nil {
			rng := stats.NewStream(opt.Seed, key, uint64(r+1))
			res.Row, err = compareSamples(&b, &a, opt, rng, ws)
		}
		res.err = err
		out[r] = res
	}
	return out
}

// rates counts the false positives of the report.
func (r *aaReport) rates() aaRates {
	var a aaRates
	seen := map[table.Key]bool{}
	for i := range r.results {
		res := &r.results[i]
		if res.err != nil {
			a.failed++
			continue
		}
		if !seen[res.key] {
			seen[res.key] = true
			a.benchmarks++
		}
		a.comparisons++
		if res.excludesOne() {
			a.ciExcludesOne++
		}
		if res.P <= r.options.Alpha {
			a.pBelowAlpha++
		}
	}
	a.ciRate = float64(a.ciExcludesOne) / float64(a.comparisons)
	a.uRate = float64(a.pBelowAlpha) / float64(a.comparisons)
	return a
}

// mergeAA combines A/A reports on disjoint sets of benchmark runs (the
// chunks of one input) into the report of their union: each run's splits
// and bootstrap draw from streams of its own key, so only the order needs
// restoring, by key (then repeat) as aaSeries lists them.
func mergeAA(parts []*aaReport) (*aaReport, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("compare: no A/A reports to merge")
	}
	rep := &aaReport{options: parts[0].options}
	for _, p := range parts {
		rep.results = append(rep.results, p.results...)
		rep.skipped = append(rep.skipped, p.skipped...)
	}
	sort.SliceStable(rep.results, func(i, j int) bool {
		a, b := &rep.results[i], &rep.results[j]
		if a.key != b.key {
			return a.key.Less(b.key)
		}
		return a.repeat < b.repeat
	})
	sort.SliceStable(rep.skipped, func(i, j int) bool { return rep.skipped[i].key.Less(rep.skipped[j].key) })
	return rep, nil
}
