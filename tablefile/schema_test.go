package tablefile

import (
	"fmt"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/benchtrim/benchtrim/table"
)

// TestColumnIndices ties this package's column indices to table.Schema:
// each index names the column of that name and type kind, and the string
// columns are exactly the dictionary-encoded ones.
func TestColumnIndices(t *testing.T) {
	want := map[int]string{idxProject: "project", idxVersion: "version", idxBenchmark: "benchmark", idxParams: "params",
		idxMode: "mode", idxMetric: "metric", idxUnit: "unit", idxValue: "value", idxNsPerOp: "ns_per_op", idxCount: "count",
		idxInstance: "instance", idxTrial: "trial", idxFork: "fork", idxIteration: "iteration", idxSlice: "slice",
		idxWarmup: "warmup", idxStartNs: "start_ns", idxEndNs: "end_ns", idxPair: "pair", idxSource: "source", idxLine: "line"}
	fields := table.Schema().Fields()
	if len(fields) != numColumns || len(want) != numColumns {
		t.Fatalf("schema has %d columns, numColumns %d, %d indices", len(fields), numColumns, len(want))
	}
	for i, name := range want {
		if fields[i].Name != name {
			t.Errorf("index %d: column %q, want %q", i, fields[i].Name, name)
		}
	}
	var dict []int
	for i, f := range fields {
		if _, ok := f.Type.(*arrow.DictionaryType); ok {
			dict = append(dict, i)
		}
	}
	if fmt.Sprint(dict) != fmt.Sprint(stringColumns[:]) {
		t.Errorf("dictionary columns %v, stringColumns %v", dict, stringColumns)
	}
	for _, i := range []int{idxStartNs, idxEndNs} {
		if !fields[i].Nullable {
			t.Errorf("column %s is not nullable", fields[i].Name)
		}
	}
}

// TestShardOfHash: the shard of a key's hash, as row group ranges are
// read, is table.Key.Shard's for every key and split.
func TestShardOfHash(t *testing.T) {
	for i := 0; i < 2000; i++ {
		k := table.Key{Project: fmt.Sprint("p", i%3), Version: fmt.Sprint(i % 7), Benchmark: fmt.Sprint("b.", i), Params: fmt.Sprint("n=", i%5), Mode: "avgt"}
		for _, n := range []int{2, 3, 7, 64} {
			if got, want := shardOfHash(k.Hash(), n), k.Shard(n); got != want {
				t.Fatalf("%s of %d: shardOfHash %d, Key.Shard %d", k, n, got, want)
			}
		}
	}
}
