package steady

import (
	"fmt"

	"github.com/benchtrim/benchtrim/analysis/internal/merge"
	"github.com/benchtrim/benchtrim/table"
)

// Merge combines reports of Run over disjoint sets of benchmark runs (the
// shards of one run, equal Options but for Select.Shard, or runs over the
// chunks of a spooled input) into the report Run gives on their union: the
// per-benchmark results in key order. A steady report holds nothing but
// per-benchmark results (its tables and summaries are computed from them
// when written), so the merged report writes the same bytes as the
// unsplit run. nil parts (shards without a benchmark) are skipped. The
// merged Options are the first part's with the shard cleared and no
// Progress; parts whose options differ otherwise, or that share a
// benchmark run, are an error.
func Merge(parts []*Report) (*Report, error) {
	opts, err := merge.Options("steady", parts, func(r *Report) Options { return r.Options }, selectOf, clearRunFields,
		func(o *Options) { o.Progress = nil })
	if err != nil {
		return nil, err
	}
	out := &Report{Options: opts}
	var rows [][]BenchmarkResult
	for _, p := range parts {
		if p != nil {
			rows = append(rows, p.Benchmarks)
		}
	}
	out.Benchmarks, err = merge.Rows(rows, func(b *BenchmarkResult) table.Key { return b.Key })
	if err != nil {
		return nil, fmt.Errorf("steady: %w", err)
	}
	return out, nil
}

func selectOf(o *Options) *table.Filter { return &o.Select }

// clearRunFields clears the options that may differ between the parts of
// one run and do not change a result.
func clearRunFields(o *Options) { o.Workers, o.Progress = 0, nil }
