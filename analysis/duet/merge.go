package duet

import (
	"fmt"
	"slices"

	"github.com/benchtrim/benchtrim/analysis/internal/merge"
	"github.com/benchtrim/benchtrim/table"
)

// Merge combines reports of Run over disjoint sets of benchmark runs (the
// shards of one run, equal Options but for Select.Shard, or runs over
// disjoint sub-tables) into the report Run gives on their union:
//
//   - Benchmarks, Overlaps and MDS: every part's, in key order (the rows
//     of one key keep their order);
//   - Dropped: the parts' sums, and Warnings from them (Dropped.warnings);
//   - Match and Speedups: recomputed from the merged rows (summarize, as
//     analyze computes them): the A/A match ratios pool keys of every
//     part, and a speedup pairs a seqn key with a duet key that may come
//     from another part.
//
// Every key's results depend on its own records and on the stream
// (Seed, key), so the merged report writes the bytes the unsplit run
// writes. nil parts, and parts without benchmarks (a shard whose runs hold
// no duet row, or a Report holding only Options for an empty shard),
// contribute their options and dropped rows. The merged Options are the
// first part's with the shard and Progress cleared; parts whose options
// differ otherwise, or that hold the same benchmark-env key (the rows of
// one key split between parts, as by benchmark params, which a key does
// not hold), are an error; so is a merged report without any key (Run's
// error for a table without duet rows).
func Merge(parts []*Report) (*Report, error) {
	opts, err := merge.Options("duet", parts, func(r *Report) Options { return r.Options }, selectOf, clearRunFields,
		func(o *Options) { o.Progress = nil })
	if err != nil {
		return nil, err
	}
	out := &Report{Options: opts}
	owner := map[Key]int{}
	for i, p := range parts {
		if p == nil {
			continue
		}
		for _, b := range p.Benchmarks {
			if o, ok := owner[b.Key]; ok {
				return nil, fmt.Errorf("duet: key %s is in parts %d and %d: the parts of a merge must hold disjoint benchmark-env keys", b.Key, o+1, i+1)
			}
			owner[b.Key] = i
		}
		out.Benchmarks = append(out.Benchmarks, p.Benchmarks...)
		out.Overlaps = append(out.Overlaps, p.Overlaps...)
		out.MDS = append(out.MDS, p.MDS...)
		out.Dropped.add(p.Dropped)
	}
	slices.SortStableFunc(out.Benchmarks, func(a, b Benchmark) int { return a.Key.compare(b.Key) })
	slices.SortStableFunc(out.Overlaps, func(a, b OverlapRow) int { return a.Key.compare(b.Key) })
	slices.SortStableFunc(out.MDS, func(a, b MDSRow) int { return a.Key.compare(b.Key) })
	out.Warnings = out.Dropped.warnings()
	if len(out.Benchmarks) == 0 {
		return nil, noDuetRows(out.Dropped, out.Warnings)
	}
	out.summarize()
	return out, nil
}

func selectOf(o *Options) *table.Filter { return &o.Select }

// clearRunFields clears the options that may differ between the parts of
// one run and do not change a result.
func clearRunFields(o *Options) { o.Workers, o.Progress = 0, nil }
