package reconfigure

import (
	"fmt"

	"github.com/benchtrim/benchtrim/analysis/internal/merge"
	"github.com/benchtrim/benchtrim/table"
)

// Merge combines reports of Run over disjoint sets of benchmark runs (the
// shards of one run, equal Options but for Select.Shard, or runs over the
// chunks of a spooled input) into the report Run gives on their union: the
// per-benchmark results in key order and the summary recomputed from them
// (summaryRows, as Run does). nil parts (shards without a benchmark) are
// skipped. The merged Options are the first part's with the shard cleared
// and no Progress; parts whose options differ otherwise, or that share a
// benchmark run, are an error.
func Merge(parts []*Report) (*Report, error) {
	opts, err := merge.Options("reconfigure", parts, func(r *Report) Options { return r.Options },
		func(o *Options) *table.Filter { return &o.Select },
		func(o *Options) { o.Workers, o.Progress = 0, nil },
		func(o *Options) { o.Progress = nil })
	if err != nil {
		return nil, err
	}
	out := &Report{Options: opts}
	var rows [][]Result
	for _, p := range parts {
		if p != nil {
			rows = append(rows, p.Results)
		}
	}
	if out.Results, err = merge.Rows(rows, func(r *Result) table.Key { return r.Key }); err != nil {
		return nil, fmt.Errorf("reconfigure: %w", err)
	}
	out.Summary = summaryRows(out.Results, out.Options.Criteria)
	return out, nil
}
