package merge

import (
	"math"
	"regexp"
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
		err.Error() != "x: part 2 was run with other options than part 1: Seed is 8 in part 2, 7 in part 1" {
		t.Errorf("other seed: err = %v", err)
	}
	if _, err := Options("x", []*testReport{nil, nil}, opts, sel, norm, reset); err == nil || !strings.Contains(err.Error(), "x: no report to merge") {
		t.Errorf("no part: err = %v", err)
	}
}

// TestOptionsNamesTheDifference: the error names the first option that
// differs, with both values, also inside nested structs, slices and the
// selection (a regular expression by its source), and counts parts from
// the first one present.
func TestOptionsNamesTheDifference(t *testing.T) {
	type inner struct {
		Resamples int
		Metrics   []string
		Level     float64
	}
	type nested struct {
		Select   table.Filter
		Boot     inner
		Label    string
		Progress func(int)
	}
	type rep struct{ Options nested }
	opts := func(r *rep) nested { return r.Options }
	sel := func(o *nested) *table.Filter { return &o.Select }
	norm := func(o *nested) { o.Progress = nil }
	base := func() *rep {
		return &rep{nested{Select: table.Filter{Shards: 2}, Boot: inner{Resamples: 300, Metrics: []string{"rmad"}, Level: math.NaN()}, Label: "a", Progress: func(int) {}}}
	}
	for _, tc := range []struct {
		name   string
		change func(*nested)
		want   string
	}{
		{"same", func(o *nested) { o.Select.Shard = 1; o.Progress = nil }, ""},
		{"int", func(o *nested) { o.Boot.Resamples = 200 }, "x: part 3 was run with other options than part 2: Boot.Resamples is 200 in part 3, 300 in part 2"},
		{"slice length", func(o *nested) { o.Boot.Metrics = []string{"rmad", "cv"} }, "Boot.Metrics is [rmad cv] in part 3, [rmad] in part 2"},
		{"slice element", func(o *nested) { o.Boot.Metrics = []string{"cv"} }, `Boot.Metrics[0] is "cv" in part 3, "rmad" in part 2`},
		{"float", func(o *nested) { o.Boot.Level = 0.99 }, "Boot.Level is 0.99 in part 3, NaN in part 2"},
		{"string", func(o *nested) { o.Label = "b" }, `Label is "b" in part 3, "a" in part 2`},
		{"regexp", func(o *nested) { o.Select.Benchmark = regexp.MustCompile("Json") }, `Select.Benchmark is "Json" in part 3, none in part 2`},
		{"version", func(o *nested) { o.Select.Version = "v2" }, `Select.Version is "v2" in part 3, "" in part 2`},
	} {
		other := base()
		tc.change(&other.Options)
		_, err := Options("x", []*rep{nil, base(), other}, opts, sel, norm, norm)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.HasSuffix(err.Error(), tc.want)):
			t.Errorf("%s: err = %v, want it to end in %q", tc.name, err, tc.want)
		}
	}
	// Regular expressions of the same source are one selection.
	a, b := base(), base()
	a.Options.Select.Benchmark, b.Options.Select.Benchmark = regexp.MustCompile("J.*"), regexp.MustCompile("J.*")
	if _, err := Options("x", []*rep{a, b}, opts, sel, norm, norm); err != nil {
		t.Errorf("equal regular expressions: %v", err)
	}
}
