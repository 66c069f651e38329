package optimize

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile/tabletest"
)

// mergeTable is a generated table with everything Merge recombines:
// project "p" in three versions (a +20 % change in v1.1.0, a benchmark
// missing in v1.1.0, one not in the base version, a ragged run, a run with
// NaN rows, one without a setup), a duet series optimize skips, and
// project "q" in one version.
func mergeTable(t *testing.T) *table.Table {
	t.Helper()
	b := table.NewBuilder(memory.NewGoAllocator(), 0)
	defer b.Release()
	for _, v := range []string{"v1.0.0", "v1.1.0", "v1.2.0"} {
		var factors map[string]float64
		if v != "v1.0.0" {
			factors = map[string]float64{"BenchmarkGenBa": 1.2}
		}
		for i, s := range goSuite("p", v, 30, 7, factors) {
			switch {
			case i == 3 && v == "v1.1.0":
				continue // missing in v1.1.0
			case i == 4 && v == "v1.0.0":
				continue // not in the base version
			case i == 5:
				s.drop = func(ix [table.NumLevels]int32) bool { return ix[0] == 2 && ix[3] == 4 }
			case i == 6:
				s.nan = func(ix [table.NumLevels]int32) bool { return ix[1] == 3 && ix[4] == 5 }
			case i == 7:
				s.noSetup = true
			}
			addSpec(t, b, s)
		}
	}
	for _, s := range goSuite("q", "", 12, 8, nil) {
		addSpec(t, b, s)
	}
	row := table.Row{Project: "p", Version: "v1.0.0", Benchmark: "BenchmarkDuet", Mode: "duet", Unit: "ns/op", Count: 1,
		Trial: 1, Fork: 1, Slice: 1, Pair: "A"}
	for it := int32(1); it <= 6; it++ {
		row.Instance, row.Iteration = 1, it
		row.Value, row.NsPerOp = 100+float64(it), 100+float64(it)
		if err := b.Append(&row); err != nil {
			t.Fatal(err)
		}
	}
	tab := b.Finish()
	t.Cleanup(tab.Release)
	return tab
}

// mergeOptions are fast options with three metrics (one bootstrapped).
func mergeOptions() Options {
	o := fastOptions()
	o.Metrics = []Metric{CV, RMAD, RCIWMedian}
	o.Bootstrap = estimate.BootstrapOptions{Resamples: 200, Confidence: 0.99}
	return o
}

// outputs is every byte an optimize report writes: text, details, script
// and every frame as CSV.
func outputs(t *testing.T, r *Report) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, w := range map[string]func(io.Writer) error{"text": r.WriteText, "details": r.WriteDetails, "script": r.WriteScript} {
		var b bytes.Buffer
		if err := w(&b); err != nil {
			t.Fatal(err)
		}
		out[name] = b.String()
	}
	for _, name := range []string{FrameResults, FrameSummary, FrameVersions} {
		f, err := r.Frame(name)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := f.WriteCSV(&b); err != nil {
			t.Fatal(err)
		}
		out[name] = b.String()
	}
	return out
}

// sameOutputs reports the first differing line of each output.
func sameOutputs(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	for name, w := range want {
		g := got[name]
		if g == w {
			continue
		}
		gl, wl := strings.Split(g, "\n"), strings.Split(w, "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Errorf("%s: %s differs from the unsplit run's at line %d:\n got %q\nwant %q", what, name, i+1, gl[i], wl[i])
				break
			}
		}
		if len(gl) != len(wl) {
			t.Errorf("%s: %s has %d lines, the unsplit run's %d", what, name, len(gl), len(wl))
		}
	}
}

// TestMergeEqualsRun: Merge of the shards of a run (N = 1, 3, 7, 60), and of
// runs over chunks of the table with AllRuns set, writes every output
// byte for byte as the unsplit run does; empty shards count as nil parts
// or as reports holding only their options.
func TestMergeEqualsRun(t *testing.T) {
	tab := mergeTable(t)
	opt := mergeOptions()
	whole, err := Run(tab, opt)
	if err != nil {
		t.Fatal(err)
	}
	vr := whole.Versions
	if vr == nil || len(whole.Skipped) != 1 || len(whole.Ragged) != 6 || whole.NonFiniteRows != 45 || len(whole.Warnings) != 4 {
		t.Fatalf("the table should exercise every part: versions %v, %d skipped, %d ragged, %d non-finite rows, warnings %q",
			vr != nil, len(whole.Skipped), len(whole.Ragged), whole.NonFiniteRows, whole.Warnings)
	}
	notes := strings.Join(vr.Notes, "\n")
	for _, want := range []string{"p@v1.1.0 BenchmarkGenEa (go): not in base version v1.0.0", "p BenchmarkGenDa: missing in v1.1.0"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q lack %q", vr.Notes, want)
		}
	}
	want := outputs(t, whole)
	// N = 60 > 43 benchmark groups leaves shards empty.
	for _, n := range []int{1, 3, 7, 60} {
		var parts []*Report
		empty := 0
		for k := 0; k < n; k++ {
			o := opt
			o.Select.Shard, o.Select.Shards = k, n
			r, err := Run(tab, o)
			var es *table.EmptyShardError
			switch {
			case errors.As(err, &es):
				empty++
				if empty%2 == 0 {
					r = &Report{Options: o}
				}
			case err != nil:
				t.Fatalf("shard %d/%d: %v", k, n, err)
			}
			parts = append(parts, r)
		}
		if n == 60 && empty < 17 {
			t.Errorf("%d of 60 shards empty, want at least 17", empty)
		}
		merged, err := Merge(parts)
		if err != nil {
			t.Fatal(err)
		}
		sameOutputs(t, fmt.Sprintf("%d shards", n), outputs(t, merged), want)
		if merged.Options.Select.Shards != 0 || merged.Options.Progress != nil {
			t.Errorf("%d shards: merged options keep the shard: %+v", n, merged.Options.Select)
		}
	}

	// Chunks of the input, each run on its own with the whole's runs.
	sp, chunks := tabletest.Spooled(t, tab, 4)
	parts := tabletest.RunChunks(t, sp, chunks, tab, func(sub *table.Table, all []table.Key) (*Report, error) {
		o := opt
		o.AllRuns = all
		return Run(sub, o)
	})
	merged, err := Merge(parts)
	if err != nil {
		t.Fatal(err)
	}
	sameOutputs(t, fmt.Sprintf("%d chunks", len(chunks)), outputs(t, merged), want)

	if _, err := Merge([]*Report{parts[0], parts[0]}); err == nil || !strings.Contains(err.Error(), "disjoint") {
		t.Errorf("a part given twice: err = %v, want a disjointness error", err)
	}
	other := *parts[1]
	other.Options.Threshold = 0.02
	if _, err := Merge([]*Report{parts[0], &other}); err == nil || !strings.Contains(err.Error(), "other options") {
		t.Errorf("parts with other options: err = %v", err)
	}
	// A chunk run without the whole input's runs sees fewer versions.
	sub, err := sp.Read(chunks[1], tab.Setups)
	if err != nil {
		t.Fatal(err)
	}
	alone, err := Run(sub, opt)
	sub.Release()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Merge([]*Report{parts[0], alone}); err == nil || !strings.Contains(err.Error(), "other versions") && !strings.Contains(err.Error(), "compared no versions") {
		t.Errorf("a part run without AllRuns: err = %v", err)
	}
	if _, err := Merge([]*Report{nil, {Options: opt}}); err == nil || !strings.Contains(err.Error(), "no benchmark run to optimise") {
		t.Errorf("only empty parts: err = %v", err)
	}
}

// TestRunOnAnAllSkippedShard: a shard whose benchmark runs are all skipped
// returns its report (its Skipped count in the merge), the whole run fails.
func TestRunOnAnAllSkippedShard(t *testing.T) {
	b := table.NewBuilder(memory.NewGoAllocator(), 0)
	defer b.Release()
	row := table.Row{Project: "p", Benchmark: "BenchmarkDuet", Mode: "duet", Unit: "ns/op", Count: 1, Instance: 1, Trial: 1, Fork: 1, Slice: 1, Pair: "A"}
	for it := int32(1); it <= 4; it++ {
		row.Iteration, row.Value, row.NsPerOp = it, 10, 10
		if err := b.Append(&row); err != nil {
			t.Fatal(err)
		}
	}
	tab := b.Finish()
	defer tab.Release()
	opt := mergeOptions()
	if _, err := Run(tab, opt); err == nil || !strings.Contains(err.Error(), "all 1 benchmark runs were skipped") {
		t.Errorf("whole run: err = %v", err)
	}
	opt.Select.Shard, opt.Select.Shards = table.Key{Project: "p", Benchmark: "BenchmarkDuet", Mode: "duet"}.Shard(3), 3
	part, err := Run(tab, opt)
	if err != nil || len(part.Skipped) != 1 || len(part.Results) != 0 {
		t.Fatalf("shard: %v, %+v", err, part)
	}
	if _, err := Merge([]*Report{part}); err == nil || !strings.Contains(err.Error(), "all 1 benchmark runs were skipped") {
		t.Errorf("merge: err = %v", err)
	}
}
