package table

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// sampleRows covers every column, non-finite values, a histogram iteration,
// rows out of level order, timestamps and pair labels.
func sampleRows() []Row {
	return []Row{
		{Project: "p", Version: "v1", Benchmark: "b.A", Params: "n=1", Mode: "avgt", Unit: "us/op", Value: 1.5, NsPerOp: 1500, Count: 1, Fork: 2, Iteration: 1, Source: "f.json:$[0]", Line: 40},
		{Project: "p", Version: "v1", Benchmark: "b.A", Params: "n=1", Mode: "avgt", Unit: "us/op", Value: 1.25, NsPerOp: 1250, Count: 1, Fork: 1, Iteration: 2, Source: "f.json:$[0]", Line: 38},
		{Project: "p", Version: "v1", Benchmark: "b.A", Params: "n=1", Mode: "avgt", Unit: "us/op", Value: math.Inf(1), NsPerOp: math.Inf(1), Count: 1, Fork: 1, Iteration: 1, Source: "f.json:$[0]", Line: 37},
		{Project: "p", Version: "v1", Benchmark: "b.A", Params: "n=1", Mode: "avgt", Metric: "gc.alloc.rate", Unit: "MB/sec", Value: 12, NsPerOp: math.NaN(), Count: 1, Fork: 1, Iteration: 1},
		{Project: "p", Version: "v1", Benchmark: "b.S", Mode: "sample", Unit: "ms/op", Value: 0.017824, NsPerOp: 17824, Count: 12, Iteration: 1, Warmup: false, StartNs: 10, EndNs: 20, HasTime: true, Pair: "A"},
		{Project: "p", Version: "v1", Benchmark: "b.S", Mode: "sample", Unit: "ms/op", Value: 0.017856, NsPerOp: 17856, Count: 3, Iteration: 1, StartNs: 10, EndNs: 20, HasTime: true, Pair: "A"},
		{Project: "p", Version: "v1", Benchmark: "b.S", Mode: "sample", Unit: "ms/op", Value: 0.02, NsPerOp: 20000, Count: 1, Iteration: 2, Pair: "B", Warmup: true},
	}
}

func buildSample(t *testing.T, mem memory.Allocator, batch int) *Table {
	t.Helper()
	b := NewBuilder(mem, batch)
	defer b.Release()
	for _, r := range sampleRows() {
		r := r
		b.Append(&r)
	}
	if err := b.AddSetup(Setup{Key: Key{"p", "v1", "b.A", "n=1", "avgt"}, Tool: "jmh", ToolVersion: "1.37", Forks: 2, WarmupIterations: 5, WarmupTimeNs: 1e9, Env: map[string]string{"jvm": "/usr/bin/java"}, Source: "f.json:$[0]"}); err != nil {
		t.Fatal(err)
	}
	if err := b.AddSetup(Setup{Key: Key{"p", "v1", "b.A", "n=1", "avgt"}, MeasurementIterations: 2, Source: "f.json:$[0]"}); err != nil {
		t.Fatalf("compatible setup rejected: %v", err)
	}
	if err := b.AddSetup(Setup{Key: Key{"p", "v1", "b.A", "n=1", "avgt"}, Forks: 3, Source: "g.json:$[4]"}); err == nil || !strings.Contains(err.Error(), "forks 2 vs 3") {
		t.Errorf("conflicting setup: err = %v, want mixed setups forks 2 vs 3", err)
	}
	// A go test name whose key=value part moved into params keeps its
	// printed form; another printed name for the same key conflicts.
	if err := b.AddSetup(Setup{Key: Key{"p", "v1", "b.S", "", "sample"}, Name: "b.S/n=2/x,y", Tool: "go", Source: "g.txt:3"}); err != nil {
		t.Fatal(err)
	}
	if err := b.AddSetup(Setup{Key: Key{"p", "v1", "b.S", "", "sample"}, Name: "b.S/x,y/n=2", Source: "g.txt:9"}); err == nil || !strings.Contains(err.Error(), "name b.S/n=2/x,y vs b.S/x,y/n=2") {
		t.Errorf("conflicting name: err = %v, want mixed setups name … vs …", err)
	}
	return b.Finish()
}

func TestCollectGroupsAndSorts(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tab := buildSample(t, mem, 2)
	defer tab.Release()
	series := tab.Collect(Filter{})
	if len(series) != 2 {
		t.Fatalf("got %d series, want 2", len(series))
	}
	a := series[0]
	if a.Benchmark != "b.A" || a.Len() != 3 || a.Setup == nil || a.Setup.Forks != 2 {
		t.Fatalf("series A = %+v", a)
	}
	if got := a.Levels[LevelFork]; !reflect.DeepEqual(got, []int32{1, 1, 2}) {
		t.Errorf("forks = %v, want sorted [1 1 2]", got)
	}
	if got := a.Levels[LevelIteration]; !reflect.DeepEqual(got, []int32{1, 2, 1}) {
		t.Errorf("iterations = %v, want [1 2 1]", got)
	}
	if got := a.NsPerOp[1:]; !reflect.DeepEqual(got, []float64{1250, 1500}) {
		t.Errorf("ns/op = %v", got)
	}
	if spans := a.Units(LevelFork); !reflect.DeepEqual(spans, []Span{{0, 2}, {2, 3}}) {
		t.Errorf("fork spans = %v", spans)
	}
	s := series[1]
	if s.Len() != 2 { // the warmup row is dropped
		t.Fatalf("sample series has %d rows, want 2 (warmup dropped)", s.Len())
	}
	if m := s.WeightedMean(Span{0, 2}); math.Abs(m-(17824*12+17856*3)/15.0) > 1e-9 {
		t.Errorf("weighted mean = %v", m)
	}
	if s.TotalCount(Span{0, 2}) != 15 || s.StartNs[0] != 10 || s.Pair[1] != "A" {
		t.Errorf("count/time/pair wrong: %+v", s)
	}
	all := tab.Collect(Filter{IncludeWarmup: true, Metric: Primary})
	if all[1].Len() != 3 || !all[1].Warmup[2] || all[1].StartNs[2] != math.MinInt64 {
		t.Errorf("with warmup: %+v", all[1])
	}
	gc := tab.Collect(Filter{Metric: "gc.alloc.rate"})
	if len(gc) != 1 || gc[0].Value[0] != 12 {
		t.Errorf("secondary metric series = %+v", gc)
	}
}

func TestCanonicalParams(t *testing.T) {
	p := map[string]string{"sql": "SELECT a, b", "n": "10", "uri": "x=y%z"}
	s := CanonicalParams(p)
	if want := "n=10,sql=SELECT a%2C b,uri=x%3Dy%25z"; s != want {
		t.Errorf("CanonicalParams = %q, want %q", s, want)
	}
	back, err := ParseParams(s)
	if err != nil || !reflect.DeepEqual(back, p) {
		t.Errorf("ParseParams = %v, %v", back, err)
	}
	if CanonicalParams(nil) != "" {
		t.Error("empty params not empty")
	}
	if _, err := ParseParams("novalue"); err == nil {
		t.Error("ParseParams accepted a pair without =")
	}
}

// TestEachSeries checks that EachSeries hands over every series Collect
// returns, once each, complete, with no spare capacity (Collect counts
// the rows of every key before it allocates them).
func TestEachSeries(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tab := buildSample(t, mem, 2)
	defer tab.Release()
	for _, f := range []Filter{{}, {IncludeWarmup: true}, {Metric: "gc.alloc.rate"}} {
		want := tab.Collect(f)
		seen := map[Key]*Series{}
		tab.EachSeries(f, func(s *Series) {
			if seen[s.Key] != nil {
				t.Errorf("%+v: %v handed over twice", f, s.Key)
			}
			seen[s.Key] = s
			if cap(s.NsPerOp) != s.Len() || cap(s.Levels[LevelFork]) != s.Len() || s.StartNs != nil && cap(s.StartNs) != s.Len() {
				t.Errorf("%+v: %v: capacity %d for %d rows", f, s.Key, cap(s.NsPerOp), s.Len())
			}
		})
		if len(seen) != len(want) {
			t.Fatalf("%+v: EachSeries gave %d series, Collect %d", f, len(seen), len(want))
		}
		for _, w := range want {
			// %#v prints NaN (secondary metrics have no ns/op) as NaN on
			// both sides, where DeepEqual would call them different.
			if got, want := fmt.Sprintf("%#v", *seen[w.Key]), fmt.Sprintf("%#v", *w); got != want {
				t.Errorf("%+v: %v differs:\n%s\n%s", f, w.Key, got, want)
			}
		}
	}
}

// TestStretchEnd holds stretchEnd to its definition, row by row: the end
// of the rows from i on whose key, levels (and metric, when asked) are
// row i's. The rows come in stretches of random lengths in which one
// random column changes, so that every column ends some stretch, at every
// position within a stretch.
func TestStretchEnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	b := NewBuilder(memory.DefaultAllocator, 1<<12)
	defer b.Release()
	r := Row{Project: "p", Version: "v", Benchmark: "b", Mode: "avgt", Unit: "ns/op", Count: 1,
		Instance: 1, Trial: 1, Fork: 1, Iteration: 1, Slice: 1}
	for len(b.records) == 0 {
		for n := 1 + rng.IntN(40); n > 0; n-- {
			if err := b.Append(&r); err != nil {
				t.Fatal(err)
			}
		}
		switch rng.IntN(11) {
		case 0:
			r.Iteration++
		case 1:
			r.Fork++
		case 2:
			r.Instance++
		case 3:
			r.Trial++
		case 4:
			r.Slice++
		case 5:
			r.Benchmark += "x"
		case 6:
			r.Params += "k=v"
		case 7:
			r.Version += "w"
		case 8:
			r.Project += "q"
		case 9:
			r.Mode = map[string]string{"avgt": "sample", "sample": "avgt"}[r.Mode]
		case 10:
			r.Metric += "m"
		}
	}
	rec := b.records[0]
	c := columnsOf(rec)
	n := int(rec.NumRows())
	same := func(i, j int, metric bool) bool {
		return c.sameKey(i, j) && c.sameLevels(i, j) && (!metric || c.metric.idx[i] == c.metric.idx[j])
	}
	ends := 0
	for _, metric := range []bool{false, true} {
		for i := 0; i < n; i++ {
			want := i + 1
			for want < n && same(i, want, metric) {
				want++
			}
			if got := c.stretchEnd(i, n, metric); got != want {
				t.Fatalf("stretchEnd(%d, %d, %v) = %d, want %d", i, n, metric, got, want)
			}
			if want < n {
				ends++
			}
		}
	}
	if ends < n {
		t.Fatalf("only %d of %d rows end before the record does", ends, 2*n)
	}
}
