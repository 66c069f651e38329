package optimize

import (
	"fmt"
	"slices"

	"github.com/benchtrim/benchtrim/analysis/internal/merge"
	"github.com/benchtrim/benchtrim/table"
)

// Merge combines reports of Run over disjoint sets of benchmark runs (the
// shards of one run, equal Options but for Select.Shard, or runs over the
// chunks of an input with Options.AllRuns naming the whole input's runs)
// into the report Run gives on their union:
//
//   - Results, Skipped and Ragged: every part's, in key order (results of
//     one benchmark run keep their metric order);
//   - Excluded and NonFiniteRows: the parts' sums; Warnings recomputed from
//     the merged results (seriesWarnings, as optimize computes them);
//   - Versions: the parts' Later runs in key order, and Versions, Pairs,
//     Totals, Changes and Notes recomputed from them and the merged
//     results (prepare and finish, as compareVersions computes them).
//     Every part saw the versions of the whole input (Present), so they
//     compare the same version pairs; parts that saw other versions are
//     an error.
//
// Every result is a function of its own benchmark run and of streams
// keyed by (seed, benchmark), and every version of a benchmark is in the
// same part (table.Key.Shard), so the merged report writes the bytes the
// unsplit run writes. nil parts, and parts without any benchmark run (a
// Report holding only Options, as for an empty shard), contribute nothing
// but their options. The merged Options are the first part's with the
// shard, AllRuns and Progress cleared; parts whose options differ
// otherwise, or that share a benchmark run, are an error; so is a merged
// report without any result (NoResult's error, as Run gives).
func Merge(parts []*Report) (*Report, error) {
	opts, err := merge.Options("optimize", parts, func(r *Report) Options { return r.Options }, selectOf, clearRunFields,
		func(o *Options) { o.AllRuns, o.Progress = nil, nil })
	if err != nil {
		return nil, err
	}
	out := &Report{Options: opts}
	var results [][]Result
	var skipped [][]Skipped
	var ragged [][]RaggedSeries
	var later [][]LaterRun
	var present map[string][]string
	presentFrom, versionless := 0, 0
	for i, p := range parts {
		if p == nil {
			continue
		}
		results = append(results, p.Results)
		skipped = append(skipped, p.Skipped)
		ragged = append(ragged, p.Ragged)
		out.Excluded += p.Excluded
		out.NonFiniteRows += p.NonFiniteRows
		if len(p.Results) == 0 && len(p.Skipped) == 0 {
			continue // an empty part: its Versions say nothing
		}
		switch {
		case p.Versions == nil:
			versionless = i + 1
		case present == nil:
			present, presentFrom = p.Versions.Present, i+1
			later = append(later, p.Versions.Later)
		case !equalPresent(present, p.Versions.Present):
			return nil, fmt.Errorf("optimize: parts %d and %d saw other versions of the input (%v, %v): each part must be run with the whole input's runs (Options.AllRuns)",
				presentFrom, i+1, present, p.Versions.Present)
		default:
			later = append(later, p.Versions.Later)
		}
	}
	if present != nil && versionless > 0 {
		return nil, fmt.Errorf("optimize: part %d compared no versions, part %d did: the parts come from different inputs", versionless, presentFrom)
	}
	key := func(r *Result) table.Key { return r.Key }
	if out.Results, err = merge.Rows(results, key); err != nil {
		return nil, fmt.Errorf("optimize: %w", err)
	}
	if out.Skipped, err = merge.Rows(skipped, func(s *Skipped) table.Key { return s.Key }); err != nil {
		return nil, fmt.Errorf("optimize: %w", err)
	}
	withResult := make(map[table.Key]bool, len(out.Results))
	for i := range out.Results {
		withResult[out.Results[i].Key] = true
	}
	for _, s := range out.Skipped {
		if withResult[s.Key] {
			return nil, fmt.Errorf("optimize: benchmark run %s is skipped in one part and has results in another: the parts of a merge must hold disjoint benchmark runs", s.Key)
		}
	}
	if out.Ragged, err = merge.Rows(ragged, func(r *RaggedSeries) table.Key { return r.Key }); err != nil {
		return nil, fmt.Errorf("optimize: %w", err)
	}
	out.Warnings = seriesWarnings(out.Results, &out.Options)
	if present != nil {
		vr := &VersionReport{Present: present}
		if vr.Later, err = merge.Rows(later, func(l *LaterRun) table.Key { return l.Key }); err != nil {
			return nil, fmt.Errorf("optimize: %w", err)
		}
		projects, baseOf, err := vr.prepare(out.Results, out.Options.Versions)
		if err != nil {
			return nil, err
		}
		vr.finish(projects, baseOf, &out.Options, out.Options.Versions)
		out.Versions = vr
	}
	if len(out.Results) == 0 {
		return nil, out.NoResult()
	}
	return out, nil
}

func selectOf(o *Options) *table.Filter { return &o.Select }

// clearRunFields clears the options that may differ between the parts of
// one run and do not change a result.
func clearRunFields(o *Options) { o.Workers, o.Progress, o.AllRuns = 0, nil, nil }

// equalPresent reports whether two Present maps list the same versions.
func equalPresent(a, b map[string][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for p, vs := range a {
		if !slices.Equal(vs, b[p]) {
			return false
		}
	}
	return true
}
