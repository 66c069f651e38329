package tablefile

import (
	"bytes"
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/table"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// fuzzMaxAllocation is maxAllocation in fuzz runs: the seed tables need a
// few KiB, and a damaged length that asks for up to 1 GiB would make the
// Go runtime clear that much reused heap on every such execution.
const fuzzMaxAllocation = 16 << 20

// seedTables are small valid tables for the fuzz corpora: the sample rows
// in batches of 3 with a setup, one row, and no rows.
func seedTables() []*table.Table {
	mem := memory.NewGoAllocator()
	var out []*table.Table
	for _, rows := range [][]table.Row{sampleRows(), sampleRows()[:1], nil} {
		b := table.NewBuilder(mem, 3)
		for _, r := range rows {
			r := r
			if err := b.Append(&r); err != nil {
				panic(err)
			}
		}
		if len(rows) > 1 {
			b.AddSetup(table.Setup{Key: table.Key{Project: "p", Version: "v1", Benchmark: "b.A", Params: "n=1", Mode: "avgt"}, Tool: "jmh", ToolVersion: "1.37", Forks: 2,
				WarmupIterations: 5, WarmupTimeNs: 1e9, Env: map[string]string{"jvm": "/usr/bin/java"}, Source: "f.json:$[0]"})
		}
		out = append(out, b.Finish())
		b.Release()
	}
	return out
}

// addSeeds adds each seed table, written by Stream as ext (".arrow",
// ".parquet"), to f's corpus.
func addSeeds(f *testing.F, ext string) {
	for _, tab := range seedTables() {
		b, _, err := tableBytes(f.TempDir(), tab, ext)
		if err != nil {
			f.Fatal(err)
		}
		tab.Release()
		f.Add(b)
	}
}

// checkRead asserts what a successful read promises: the table passes
// Check, its setups are sorted by key, and every row and series can be
// read (Rows, Collect, Units, WeightedMean) without a panic.
func checkRead(t *testing.T, tab *table.Table) {
	t.Helper()
	if err := tab.Check(); err != nil {
		t.Fatalf("table read without error breaks a rule: %v", err)
	}
	if !sort.SliceIsSorted(tab.Setups, func(i, j int) bool { return tab.Setups[i].Key.Less(tab.Setups[j].Key) }) {
		t.Fatalf("setups not sorted by key")
	}
	var n int64
	tab.Rows(func(r *table.Row) error {
		if r.Instance < 1 || r.Trial < 1 || r.Fork < 1 || r.Iteration < 1 || r.Slice < 1 || r.Count < 0 || (&table.Row{Mode: r.Mode}).Check() != nil {
			t.Fatalf("row %d breaks a rule Check accepted: %+v", n+1, r)
		}
		n++
		return nil
	})
	if n != tab.NumRows() {
		t.Fatalf("Rows visited %d rows of %d", n, tab.NumRows())
	}
	for _, s := range tab.Collect(table.Filter{IncludeWarmup: true}) {
		for _, sp := range s.Units(table.LevelIteration) {
			s.WeightedMean(sp)
			s.TotalCount(sp)
		}
		// The level index rule (table's maxLevelIndex): at most
		// max(2¹⁶, 16·rows) per level.
		limit := max(1<<16, 16*int64(s.Len()))
		for l, m := range s.Sizes() {
			if int64(m) > limit {
				t.Fatalf("%s: %s %d beyond MaxLevelIndex(%d) = %d", s.Key, table.Level(l), m, s.Len(), limit)
			}
		}
	}
}

// fuzzBinary reads data as format f and checks the outcome: an error that
// names the file, or a table that checkRead accepts; nothing leaks.
func fuzzBinary(t *testing.T, data []byte, f fileFormat, name string) {
	maxAllocation = fuzzMaxAllocation
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	tab, err := decodeBinary(bytes.NewReader(data), f, name, mem)
	if err != nil {
		if !strings.HasPrefix(err.Error(), name+": ") {
			t.Fatalf("error %q does not name the file", err)
		}
		mem.AssertSize(t, 0)
		return
	}
	checkRead(t, tab)
	tab.Release()
	mem.AssertSize(t, 0)
}

// FuzzReadArrow feeds arbitrary bytes to the Arrow IPC table reader (what
// ReadFile does for .arrow). It must not panic or leak, must name the file
// in its errors, and a table it returns must satisfy the table's rules.
//
//	go test -run '^$' -fuzz '^FuzzReadArrow$' -fuzztime 60s ./table/
func FuzzReadArrow(f *testing.F) {
	addSeeds(f, ".arrow")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzBinary(t, data, formatArrow, "fuzz.arrow") })
}

// FuzzReadParquet is FuzzReadArrow for the Parquet table reader (.parquet).
//
//	go test -run '^$' -fuzz '^FuzzReadParquet$' -fuzztime 60s ./table/
func FuzzReadParquet(f *testing.F) {
	addSeeds(f, ".parquet")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzBinary(t, data, formatParquet, "fuzz.parquet") })
}

// FuzzReadCSV feeds arbitrary bytes to the CSV table reader and its setups
// sidecar reader (what ReadFile does for .csv and NAME.setups.csv): no
// panic, no leak, errors that name the file, and tables that satisfy the
// table's rules.
//
//	go test -run '^$' -fuzz '^FuzzReadCSV$' -fuzztime 60s ./table/
func FuzzReadCSV(f *testing.F) {
	for _, tab := range seedTables() {
		rows, setups, err := tableBytes(f.TempDir(), tab, ".csv")
		if err != nil {
			f.Fatal(err)
		}
		tab.Release()
		f.Add(rows, setups)
	}
	f.Fuzz(func(t *testing.T, data, setups []byte) {
		maxAllocation = fuzzMaxAllocation
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		tab, err := readCSVGuarded(bytes.NewReader(data), "fuzz.csv", mem)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.csv:") {
				t.Fatalf("error %q does not name the file", err)
			}
			var pe *panicError
			if errors.As(err, &pe) {
				t.Fatalf("ReadCSV panicked (recovered): %v", err)
			}
		} else {
			checkRead(t, tab)
			tab.Release()
		}
		mem.AssertSize(t, 0)
		if _, err := readSetupsCSV(bytes.NewReader(setups), "fuzz.setups.csv"); err != nil && !strings.HasPrefix(err.Error(), "fuzz.setups.csv:") {
			t.Fatalf("error %q does not name the file", err)
		}
	})
}
