package partial

import (
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/table"
)

type testOptions struct {
	Select   table.Filter
	Seed     uint64
	Workers  int
	Progress func(int)
}

type testReport struct{ Options testOptions }

// TestOptions: nil parts are left out, the merged options are the first
// part's with the shard and the reset fields cleared, and parts run with
// other options (beyond the shard and the fields norm clears), or no part
// at all, are errors naming the analyzer.
func TestOptions(t *testing.T) {
	opts := func(r *testReport) testOptions { return r.Options }
	sel := func(o *testOptions) *table.Filter { return &o.Select }
	norm := func(o *testOptions) { o.Workers, o.Progress = 0, nil }
	reset := func(o *testOptions) { o.Progress = nil }
	tick := func(int) {}
	part := func(shard, workers int, seed uint64) *testReport {
		return &testReport{testOptions{Select: table.Filter{Shard: shard, Shards: 3}, Seed: seed, Workers: workers, Progress: tick}}
	}
	got, err := Options("x", []*testReport{nil, part(1, 2, 7), nil, part(2, 4, 7)}, opts, sel, norm, reset)
	if err != nil {
		t.Fatal(err)
	}
	if got.Select.Shards != 0 || got.Select.Shard != 0 || got.Seed != 7 || got.Workers != 2 || got.Progress != nil {
		t.Errorf("merged options = %+v, want the first part's unsharded, without Progress", got)
	}
	if _, err := Options("x", []*testReport{part(0, 1, 7), part(1, 1, 8)}, opts, sel, norm, reset); err == nil ||
		err.Error() != "x: part 2 was run with other options than part 1" {
		t.Errorf("other seed: err = %v", err)
	}
	if _, err := Options("x", []*testReport{nil, nil}, opts, sel, norm, reset); err == nil || !strings.Contains(err.Error(), "x: no report to merge") {
		t.Errorf("no part: err = %v", err)
	}
}
