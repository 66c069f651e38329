package trim

import (
	"fmt"
	"slices"
	"sort"

	"github.com/benchtrim/benchtrim/analysis/compare"
	"github.com/benchtrim/benchtrim/analysis/duet"
	"github.com/benchtrim/benchtrim/analysis/internal/merge"
	"github.com/benchtrim/benchtrim/analysis/reconfigure"
	"github.com/benchtrim/benchtrim/analysis/steady"
	"github.com/benchtrim/benchtrim/table"
)

// Merge combines reports of Run over disjoint sets of benchmark runs (the
// shards of one run, equal Options but for Select.Shard, or the chunks of
// a spooled input, with Options.AllRuns naming the whole input's runs)
// into the report Run gives on their union:
//
//   - Benchmarks: every part's, in key order; Totals recomputed (totals);
//   - Steady and Reconfigure: steady.Merge and reconfigure.Merge of the
//     parts' (their Select narrowed to the merged PathSteady and PathShort
//     benchmarks, as Run narrows it);
//   - Duet: duet.Merge of the parts' (Select narrowed to the merged
//     PathDuet benchmarks): match ratios and speedups are recomputed over
//     every part's keys, and the plan's verdicts are per key, so they are
//     the parts';
//   - Versions: per (project, base, test) the parts' comparisons merged
//     (compare.Merge); every part compared the same version pairs
//     (projectVersions), so the pairs come in Run's order;
//   - Forks: worstForks of the merged report, each taken from the part that
//     kept it (a part keeps its MaxPlotForks worst, which include every
//     fork of the overall MaxPlotForks worst of that part's benchmarks).
//
// Each benchmark's result depends only on its own rows and on streams
// keyed by the benchmark, so the merged report writes the same bytes as
// the unsplit run (TestMergeEqualsRun). nil parts are skipped; parts with
// other options or a common benchmark run are an error.
func Merge(parts []*Report) (*Report, error) {
	opts, err := merge.Options("trim", parts, func(r *Report) Options { return r.Options },
		func(o *Options) *table.Filter { return &o.Select }, clearRunFields,
		func(o *Options) { o.Progress, o.AllRuns = nil, nil })
	if err != nil {
		return nil, err
	}
	out := &Report{Options: opts}
	var rows [][]Benchmark
	var steadies []*steady.Report
	var replays []*reconfigure.Report
	var duets []*duet.Report
	forks := map[table.Key]ForkSeries{}
	for _, p := range parts {
		if p == nil {
			continue
		}
		rows = append(rows, p.Benchmarks)
		if p.Steady != nil {
			steadies = append(steadies, p.Steady)
		}
		if p.Reconfigure != nil {
			replays = append(replays, p.Reconfigure)
		}
		if p.Duet != nil {
			duets = append(duets, p.Duet)
		}
		for _, f := range p.Forks {
			forks[f.Key] = f
		}
		for _, n := range p.Notes { // every part sees the whole input's versions
			if !slices.Contains(out.Notes, n) {
				out.Notes = append(out.Notes, n)
			}
		}
	}
	if out.Benchmarks, err = merge.Rows(rows, func(b *Benchmark) table.Key { return b.Key }); err != nil {
		return nil, fmt.Errorf("trim: %w", err)
	}
	out.Totals = totals(out.Benchmarks, out.Options.ParallelInstances)
	var long, short, duetKeys []table.Key
	for i := range out.Benchmarks {
		switch b := &out.Benchmarks[i]; b.Path {
		case PathSteady:
			long = append(long, b.Key)
		case PathShort:
			short = append(short, b.Key)
		case PathDuet:
			duetKeys = append(duetKeys, b.Key)
		}
	}
	// Each part narrowed its analyses to its own benchmarks: give the
	// parts' reports the merged selection, as Run would have.
	sel := out.Options.Select
	if out.Steady, err = mergeNarrowed(steadies, only(sel, long), func(r *steady.Report) *table.Filter { return &r.Options.Select }, steady.Merge); err != nil {
		return nil, err
	}
	if out.Reconfigure, err = mergeNarrowed(replays, only(sel, short), func(r *reconfigure.Report) *table.Filter { return &r.Options.Select }, reconfigure.Merge); err != nil {
		return nil, err
	}
	if out.Duet, err = mergeNarrowed(duets, only(sel, duetKeys), func(r *duet.Report) *table.Filter { return &r.Options.Select }, duet.Merge); err != nil {
		return nil, err
	}
	if out.Versions, err = mergeVersions(parts); err != nil {
		return nil, err
	}
	if out.Steady != nil {
		steadyOf := map[table.Key]*steady.BenchmarkResult{}
		for i := range out.Steady.Benchmarks {
			steadyOf[out.Steady.Benchmarks[i].Key] = &out.Steady.Benchmarks[i]
		}
		for _, c := range worstForks(out, steadyOf) {
			k := out.Benchmarks[c.i].Key
			f, ok := forks[k]
			if !ok {
				return nil, fmt.Errorf("trim: no part kept the plotted fork of %s", k)
			}
			out.Forks = append(out.Forks, f)
		}
	}
	return out, nil
}

// mergeNarrowed merges the parts' reports of one analysis (nil when
// there are none) after giving each, on a copy, the selection sel of the
// merged run (selectOf points at a report's Options.Select).
func mergeNarrowed[R any](parts []*R, sel table.Filter, selectOf func(*R) *table.Filter, merge func([]*R) (*R, error)) (*R, error) {
	if len(parts) == 0 {
		return nil, nil
	}
	narrowed := make([]*R, len(parts))
	for i, r := range parts {
		c := *r
		*selectOf(&c) = sel
		narrowed[i] = &c
	}
	out, err := merge(narrowed)
	if err != nil {
		return nil, fmt.Errorf("trim: %w", err)
	}
	return out, nil
}

// clearRunFields clears the options that may differ between the parts of
// one run and do not change a result.
func clearRunFields(o *Options) {
	o.Workers, o.Progress, o.AllRuns = 0, nil, nil
	o.Steady.Workers, o.Steady.Progress = 0, nil
	o.Reconfigure.Workers, o.Reconfigure.Progress = 0, nil
	o.Optimize.Workers, o.Optimize.Progress = 0, nil
	o.Compare.Workers, o.Compare.Progress = 0, nil
	o.Duet.Workers, o.Duet.Progress = 0, nil
}

// mergeVersions merges the parts' comparisons of each (project, base,
// test), in Run's order: projects sorted, then each project's pairs by
// their base version (consecutive versions in lexical order).
func mergeVersions(parts []*Report) ([]VersionComparison, error) {
	type pair struct{ project, base, test string }
	var order []pair
	byPair := map[pair][]*compare.Report{}
	for _, p := range parts {
		if p == nil {
			continue
		}
		for _, vc := range p.Versions {
			k := pair{vc.Project, vc.Base, vc.Test}
			if _, ok := byPair[k]; !ok {
				order = append(order, k)
			}
			byPair[k] = append(byPair[k], vc.Report)
		}
	}
	sort.Slice(order, func(i, j int) bool {
		if order[i].project != order[j].project {
			return order[i].project < order[j].project
		}
		return order[i].base < order[j].base
	})
	var out []VersionComparison
	for _, k := range order {
		r, err := compare.Merge(byPair[k])
		if err != nil {
			return nil, fmt.Errorf("trim: compare %s %s → %s: %w", k.project, k.base, k.test, err)
		}
		out = append(out, VersionComparison{Project: k.project, Base: k.base, Test: k.test, Report: r})
	}
	return out, nil
}
