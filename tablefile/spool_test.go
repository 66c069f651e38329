package tablefile

import (
	"fmt"
	"reflect"
	"sort"
	"testing"

	"github.com/benchtrim/benchtrim/table"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// spoolTable builds a table of 6 benchmarks × 2 versions whose rows are
// interleaved (every other row another benchmark) and spread over records
// of 7 rows, the worst layout for a spool; b.2 also has a secondary metric.
func spoolTable(t *testing.T, mem memory.Allocator) *table.Table {
	t.Helper()
	b := table.NewBuilder(mem, 7)
	defer b.Release()
	for it := int32(1); it <= 5; it++ {
		for _, v := range []string{"v1", "v2"} {
			for i := 0; i < 6; i++ {
				r := goodRow(it)
				r.Version, r.Benchmark = v, fmt.Sprintf("b.%d", i)
				r.NsPerOp = float64(100*i + int(it))
				if err := b.Append(&r); err != nil {
					t.Fatal(err)
				}
				if i == 2 {
					r.Metric, r.Unit, r.Value = "gc.alloc.rate", "MB/sec", 3
					if err := b.Append(&r); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	for i := 0; i < 6; i++ {
		b.AddSetup(table.Setup{Key: table.Key{Project: "p", Version: "v1", Benchmark: fmt.Sprintf("b.%d", i), Mode: "avgt"}, Forks: 1, Source: "x.json"})
	}
	return b.Finish()
}

// TestSpoolChunks: the chunks partition the groups (both versions of a
// benchmark together), hold at most maxRows rows unless one group is
// larger, give back every row exactly once, and each run's Series equals
// the one collected from the whole table, its input position (First)
// included.
func TestSpoolChunks(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	whole := spoolTable(t, mem)
	defer whole.Release()
	sp, err := NewSpool(t.TempDir(), mem)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range whole.Records {
		if err := sp.Add(rec); err != nil {
			t.Fatal(err)
		}
	}
	if sp.rows != whole.NumRows() {
		t.Fatalf("spool rows %d, table %d", sp.rows, whole.NumRows())
	}
	if got := len(sp.Runs()); got != 12 {
		t.Errorf("Runs: %d, want 12", got)
	}
	full := map[table.Key]*table.Series{}
	for _, s := range whole.Collect(table.Filter{}) {
		full[s.Key] = s
	}
	// The rows go v1 b.0 … b.5 (b.2 with a second row of another metric),
	// then v2: v1's b.i first at row i, or i+1 after b.2; v2's 7 rows on.
	for _, s := range full {
		i := int64(s.Benchmark[2] - '0')
		want := i
		if i > 2 {
			want++
		}
		if s.Version == "v2" {
			want += 7
		}
		if s.First != want {
			t.Errorf("%s: first row at %d, want %d", s.Key, s.First, want)
		}
	}
	if s := whole.Collect(table.Filter{Metric: "gc.alloc.rate"}); len(s) != 2 || s[0].First != 3 || s[1].First != 10 {
		t.Errorf("gc.alloc.rate runs first at %v, want rows 3 and 10", s)
	}
	for _, maxRows := range []int64{1, 25, 45, 1000} {
		chunks := sp.Chunks(maxRows, nil)
		var rows []string
		seen := map[string]int{}
		for ci, ch := range chunks {
			sub, err := sp.Read(ch, whole.Setups)
			if err != nil {
				t.Fatal(err)
			}
			if len(ch) > 1 && sub.NumRows() > maxRows {
				t.Errorf("maxRows %d: chunk %d holds %d rows", maxRows, ci, sub.NumRows())
			}
			for _, s := range sub.Collect(table.Filter{}) {
				g := groupOf(s.Key).String()
				if c, ok := seen[g]; ok && c != ci {
					t.Errorf("maxRows %d: group %s in chunks %d and %d", maxRows, g, c, ci)
				}
				seen[g] = ci
				if !reflect.DeepEqual(s.NsPerOp, full[s.Key].NsPerOp) || !reflect.DeepEqual(s.Setup, full[s.Key].Setup) {
					t.Errorf("maxRows %d: %s differs from the whole table's series", maxRows, s.Key)
				}
				if s.First != full[s.Key].First {
					t.Errorf("maxRows %d: %s first at %d in its chunk, %d in the whole table", maxRows, s.Key, s.First, full[s.Key].First)
				}
			}
			sub.Rows(func(r *table.Row) error { rows = append(rows, fmt.Sprint(*r)); return nil })
			sub.Release()
		}
		var want []string
		whole.Rows(func(r *table.Row) error { want = append(want, fmt.Sprint(*r)); return nil })
		sort.Strings(rows)
		sort.Strings(want)
		if !reflect.DeepEqual(rows, want) {
			t.Errorf("maxRows %d: %d rows back, want the table's %d", maxRows, len(rows), len(want))
		}
		wantChunks := map[int64]int{1: 6, 25: 4, 45: 2, 1000: 1}[maxRows]
		if len(chunks) != wantChunks {
			t.Errorf("maxRows %d: %d chunks, want %d", maxRows, len(chunks), wantChunks)
		}
	}
	// keep drops groups none of whose runs it accepts.
	f := table.Filter{Shard: 1, Shards: 3}
	kept := 0
	for _, ch := range sp.Chunks(1, f.Matches) {
		kept += len(ch)
	}
	want := 0
	for i := 0; i < 6; i++ {
		if (table.Key{Project: "p", Benchmark: fmt.Sprintf("b.%d", i), Mode: "avgt"}).Shard(3) == 1 {
			want++
		}
	}
	if kept != want {
		t.Errorf("shard 1/3 keeps %d groups, want %d", kept, want)
	}
	if err := sp.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestMetricRows: the slices hold exactly the rows of the metric, in
// order, for records that mix metrics.
func TestMetricRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	whole := spoolTable(t, mem)
	defer whole.Release()
	for _, tc := range []struct {
		metric string
		want   int64
	}{{"", 60}, {"gc.alloc.rate", 10}, {"nope", 0}} {
		var got int64
		for _, rec := range whole.Records {
			for _, s := range MetricRows(rec, tc.metric, nil) {
				sub := &table.Table{Records: []arrow.Record{s}}
				sub.Rows(func(r *table.Row) error {
					m := tc.metric
					if m == "" {
						m = table.Primary
					}
					if r.Metric != m {
						t.Errorf("metric %q: a row of %q", tc.metric, r.Metric)
					}
					return nil
				})
				got += s.NumRows()
				c, err := Compact(s, mem)
				if err != nil {
					t.Fatal(err)
				}
				if !sameRows(rowsOf(t, sub), rowsOf(t, &table.Table{Records: []arrow.Record{c}})) {
					t.Errorf("metric %q: Compact changed the rows", tc.metric)
				}
				want, seen := 0, map[string]bool{}
				sub.Rows(func(r *table.Row) error {
					if !seen[r.Benchmark] {
						seen[r.Benchmark] = true
						want += len(r.Benchmark)
					}
					return nil
				})
				dict := c.Column(idxBenchmark).(*array.Dictionary).Dictionary().(*array.String)
				if n := len(dict.ValueBytes()); n != want {
					t.Errorf("metric %q: compacted benchmark dictionary holds %d bytes, its rows' distinct values %d", tc.metric, n, want)
				}
				c.Release()
				s.Release()
			}
		}
		if got != tc.want {
			t.Errorf("metric %q: %d rows, want %d", tc.metric, got, tc.want)
		}
	}
}

// TestMetricRowsOfRuns: with a run predicate, the slices hold exactly the
// rows of the metric whose run it keeps (here one shard of three), in
// order, and each shard's rows add up to the metric's.
func TestMetricRowsOfRuns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	whole := spoolTable(t, mem)
	defer whole.Release()
	var want [3][]table.Row
	whole.Rows(func(r *table.Row) error {
		if r.Metric == table.Primary {
			k := table.Key{Project: r.Project, Version: r.Version, Benchmark: r.Benchmark, Params: r.Params, Mode: r.Mode}
			want[k.Shard(3)] = append(want[k.Shard(3)], *r)
		}
		return nil
	})
	total := 0
	for shard := range 3 {
		var got []table.Row
		for _, rec := range whole.Records {
			for _, s := range MetricRows(rec, "", func(k table.Key) bool { return k.Shard(3) == shard }) {
				got = append(got, rowsOf(t, &table.Table{Records: []arrow.Record{s}})...)
				s.Release()
			}
		}
		if !sameRows(got, want[shard]) {
			t.Errorf("shard %d/3: %d rows, want the %d rows of its runs in order", shard, len(got), len(want[shard]))
		}
		total += len(got)
	}
	if total != 60 || len(want[0]) == 0 || len(want[0]) == 60 {
		t.Errorf("shards hold %d rows in all (%d in shard 0), want 60 split among them", total, len(want[0]))
	}
}

// TestJointChunks: two spools grouped by name (one holding project "p",
// the other the same benchmarks relabelled "q" plus one of its own) are
// chunked together: every name in exactly one chunk on both sides, at
// most maxRows rows per chunk in all unless one name alone is larger,
// every row given back once.
func TestJointChunks(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	whole := spoolTable(t, mem)
	defer whole.Release()
	other := func() *table.Table {
		b := table.NewBuilder(mem, 7)
		defer b.Release()
		for it := int32(1); it <= 4; it++ {
			for i := 0; i < 7; i++ {
				r := goodRow(it)
				r.Project, r.Benchmark = "q", fmt.Sprintf("b.%d", i)
				if err := b.Append(&r); err != nil {
					t.Fatal(err)
				}
			}
		}
		return b.Finish()
	}()
	defer other.Release()
	var spools []*Spool
	for _, tab := range []*table.Table{whole, other} {
		sp, err := NewSpool(t.TempDir(), mem)
		if err != nil {
			t.Fatal(err)
		}
		defer sp.Close()
		sp.GroupBy(NameGroupOf)
		for _, rec := range tab.Records {
			if err := sp.Add(rec); err != nil {
				t.Fatal(err)
			}
		}
		spools = append(spools, sp)
	}
	for _, maxRows := range []int64{1, 30, 70, 1000} {
		chunks := JointChunks(maxRows, spools...)
		seen := map[string]int{}
		var total int64
		for ci, ch := range chunks {
			var rows int64
			names := map[string]bool{}
			for i, sp := range spools {
				sub, err := sp.Read(ch[i], nil)
				if err != nil {
					t.Fatal(err)
				}
				rows += sub.NumRows()
				for _, s := range sub.Collect(table.Filter{IncludeWarmup: true}) {
					names[NameGroupOf(s.Key).String()] = true
				}
				sub.Release()
			}
			for n := range names {
				if c, ok := seen[n]; ok {
					t.Errorf("maxRows %d: %s in chunks %d and %d", maxRows, n, c, ci)
				}
				seen[n] = ci
			}
			if len(names) > 1 && rows > maxRows {
				t.Errorf("maxRows %d: chunk %d holds %d rows of %d names", maxRows, ci, rows, len(names))
			}
			total += rows
		}
		if total != whole.NumRows()+other.NumRows() || len(seen) != 7 {
			t.Errorf("maxRows %d: %d rows of %d names in the chunks, want %d of 7", maxRows, total, len(seen), whole.NumRows()+other.NumRows())
		}
		if maxRows == 1 && len(chunks) != 7 || maxRows == 1000 && len(chunks) != 1 {
			t.Errorf("maxRows %d: %d chunks", maxRows, len(chunks))
		}
	}
}
