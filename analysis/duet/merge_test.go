package duet

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/format/duet"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/table"
)

// mergeTable is synth's duet preset with nine benchmarks (every
// type, A/A and A/B) read by format/duet, plus rows Run drops: a JMH
// series (other mode), the excluded benchmark "dummy" and a row whose
// pair is "C".
func mergeTable(t *testing.T) *table.Table {
	t.Helper()
	cfg := synth.DefaultDuetConfig()
	cfg.Runs, cfg.Iterations = 4, 16
	for i := 0; i < 5; i++ {
		cfg.Benchmarks = append(cfg.Benchmarks, synth.DuetBenchmark{Suite: "renaissance", Name: fmt.Sprintf("gen%d", i),
			MeanNs: 0.4e9, Slowdown: 0.03 * float64(i%2), WarmupIterations: 4, WarmupFactor: 2})
	}
	data, err := synth.GenerateDuet(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var csv bytes.Buffer
	if err := data.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	b := table.NewBuilder(memory.NewGoAllocator(), 0)
	defer b.Release()
	var rep ingest.Summary
	if err := (duet.Format()).Read(bytes.NewReader(csv.Bytes()), ingest.Source{File: "gen.csv"}, b, &rep); err != nil {
		t.Fatal(err)
	}
	add := func(r table.Row) {
		t.Helper()
		if err := b.Append(&r); err != nil {
			t.Fatal(err)
		}
	}
	for it := int32(1); it <= 3; it++ {
		add(table.Row{Project: "jmh", Benchmark: "Other", Mode: "avgt", Unit: "ns/op", Value: 5, NsPerOp: 5, Count: 1,
			Instance: 1, Trial: 1, Fork: 1, Iteration: it, Slice: 1})
		add(table.Row{Project: "renaissance", Benchmark: "dummy", Mode: "duet", Unit: "ns", Value: 5, NsPerOp: 5, Count: 1,
			Instance: 1, Trial: 1, Fork: 1, Iteration: it, Slice: 1, Pair: "A", StartNs: int64(it) * 10, EndNs: int64(it)*10 + 5, HasTime: true})
	}
	add(table.Row{Project: "renaissance", Benchmark: "odd", Mode: "seqn", Unit: "ns", Value: 5, NsPerOp: 5, Count: 1,
		Instance: 1, Trial: 1, Fork: 1, Iteration: 1, Slice: 1, Pair: "C", StartNs: 10, EndNs: 15, HasTime: true})
	tab := b.Finish()
	t.Cleanup(tab.Release)
	return tab
}

// mergeOptions are the defaults with fewer resamples and slowdowns.
func mergeOptions() Options {
	o := DefaultOptions()
	o.Resamples = 999
	o.Slowdowns = []float64{0, 0.02, 0.05, 0.1}
	o.Workers = 2
	return o
}

// reportBytes is every byte a duet report writes: the text and every frame as CSV.
func reportBytes(t *testing.T, r *Report) map[string]string {
	t.Helper()
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{"text": b.String()}
	for _, name := range tableNames {
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

// TestMergeEqualsRun: Merge of the shards of a run (N = 1, 3, 7, 40)
// writes the text and every frame byte for byte as the unsplit run does,
// though seqn and duet keys of one benchmark (speedups) and the keys of
// one environment and type (match ratios) fall into different shards;
// empty shards count as nil parts or as reports holding only options.
func TestMergeEqualsRun(t *testing.T) {
	tab := mergeTable(t)
	opt := mergeOptions()
	whole, err := Run(tab, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(whole.Benchmarks) != 27 || len(whole.Speedups) != 9 || len(whole.Match) == 0 || len(whole.Warnings) != 3 {
		t.Fatalf("%d keys, %d speedups, %d match rows, warnings %q: want 27 keys, 9 speedups, match rows, 3 warnings",
			len(whole.Benchmarks), len(whole.Speedups), len(whole.Match), whole.Warnings)
	}
	if d := whole.Dropped; d != (Dropped{OtherModes: 3, Excluded: 3, BadPair: 1}) {
		t.Errorf("dropped %+v, want 3 other-mode, 3 excluded and 1 bad-pair rows", d)
	}
	want := reportBytes(t, whole)
	for _, n := range []int{1, 3, 7, 40} {
		var parts []*Report
		empty, benchless := 0, 0
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
			case len(r.Benchmarks) == 0:
				benchless++
			}
			parts = append(parts, r)
		}
		if n == 40 && (empty == 0 || benchless == 0) {
			t.Errorf("40 shards: %d empty, %d without duet keys; want some of each", empty, benchless)
		}
		merged, err := Merge(parts)
		if err != nil {
			t.Fatal(err)
		}
		got := reportBytes(t, merged)
		for name, w := range want {
			if got[name] != w {
				t.Errorf("%d shards: %s differs from the unsplit run's:\n%s\nwant\n%s", n, name, got[name], w)
			}
		}
	}

	a, b := opt, opt
	a.Select.Shard, a.Select.Shards = 0, 2
	b.Select.Shard, b.Select.Shards = 1, 2
	pa, err := Run(tab, a)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Merge([]*Report{pa, pa}); err == nil || !strings.Contains(err.Error(), "disjoint") {
		t.Errorf("a part given twice: err = %v, want a disjointness error", err)
	}
	b.Alpha = 0.01
	pb, err := Run(tab, b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Merge([]*Report{pa, pb}); err == nil || !strings.Contains(err.Error(), "other options") {
		t.Errorf("parts with other options: err = %v", err)
	}
	if _, err := Merge([]*Report{nil, {Options: a}}); err == nil || !strings.Contains(err.Error(), "no duet rows") {
		t.Errorf("only empty parts: err = %v", err)
	}
}
