package chunk

import (
	"math"
	"testing"

	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile"
)

// testTable is two benchmarks of one version, each with rows primary
// rows and rows of metric "gc.count", in records of 10 rows.
func testTable(t *testing.T, rows int) *table.Table {
	t.Helper()
	b := table.NewBuilder(nil, 10)
	for _, name := range []string{"b.A", "b.B"} {
		k := table.Key{Project: "p", Version: "v1", Benchmark: name, Mode: "avgt"}
		for _, metric := range []string{table.Primary, "gc.count"} {
			for i := 0; i < rows; i++ {
				r := table.Row{Project: k.Project, Version: k.Version, Benchmark: k.Benchmark, Mode: k.Mode, Metric: metric, Unit: "ns/op",
					Value: float64(100 + i), NsPerOp: float64(100 + i), Count: 1, Instance: 1, Trial: 1, Fork: 1, Iteration: int32(i + 1), Slice: 1}
				if err := b.Append(&r); err != nil {
					t.Fatal(err)
				}
			}
		}
		b.AddSetup(table.Setup{Key: k, Tool: "jmh", Forks: 1, MeasurementIterations: rows})
	}
	tab := b.Finish()
	b.Release()
	t.Cleanup(tab.Release)
	return tab
}

func addAll(t *testing.T, in *input, tab *table.Table) {
	t.Helper()
	for _, rec := range tab.Records {
		if err := in.Add(rec); err != nil {
			t.Fatal(err)
		}
	}
}

// TestInputHolds: under the bound every row stays in memory, in a table
// of the input's records; with Select only the primary metric's rows.
func TestInputHolds(t *testing.T) {
	tab := testTable(t, 25)
	in := newInput(inputOptions{MaxRows: math.MaxInt64})
	defer in.Close()
	addAll(t, in, tab)
	if in.Spool() != nil || in.Rows() != 100 {
		t.Fatalf("spool %v, %d rows; want held, 100", in.Spool(), in.Rows())
	}
	got := in.Table(tab.Setups)
	defer got.Release()
	if got.NumRows() != 100 || len(got.Records) != len(tab.Records) {
		t.Errorf("table of %d rows in %d records, want 100 in %d", got.NumRows(), len(got.Records), len(tab.Records))
	}

	sel := newInput(inputOptions{MaxRows: 1000, Select: true})
	defer sel.Close()
	addAll(t, sel, tab)
	prim := sel.Table(tab.Setups)
	defer prim.Release()
	if prim.NumRows() != 50 {
		t.Errorf("Select: %d rows, want the 50 primary ones", prim.NumRows())
	}
	if m := prim.Metrics(); len(m) != 1 || m[0] != table.Primary {
		t.Errorf("Select: metrics %v, want only %s", m, table.Primary)
	}
}

// TestInputSpills: past the bound all rows, the held ones first, go to
// the spool, one chunk per benchmark; a group over the bound is refused.
func TestInputSpills(t *testing.T) {
	tab := testTable(t, 25)
	in := newInput(inputOptions{MaxRows: 50})
	defer in.Close()
	addAll(t, in, tab)
	sp := in.Spool()
	if sp == nil || in.Rows() != 100 {
		t.Fatalf("spool %v; want one (Rows %d, want 100)", sp, in.Rows())
	}
	ch := sp.Chunks(50, nil)
	if len(ch) != 2 {
		t.Errorf("%d chunks of 50 rows, want 2 (one benchmark each)", len(ch))
	}
	var spooled int64
	for _, c := range ch {
		sub, err := sp.Read(c, tab.Setups)
		if err != nil {
			t.Fatal(err)
		}
		spooled += sub.NumRows()
		sub.Release()
	}
	if spooled != 100 {
		t.Errorf("the spool's chunks hold %d rows, want all 100", spooled)
	}

	small := newInput(inputOptions{MaxRows: 40})
	defer small.Close()
	var err error
	for _, rec := range tab.Records {
		if err = small.Add(rec); err != nil {
			break
		}
	}
	if _, ok := err.(*tablefile.GroupTooLargeError); !ok {
		t.Errorf("groups of 50 rows, bound 40: error %v, want a *tablefile.GroupTooLargeError", err)
	}
}
