package tablefile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/benchtrim/benchtrim/table"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// TestStreamSetups checks that every format written by Stream reads back
// with its setups and rows, and that Stream leaves no scratch file.
// (Parquet files with the setups in the stored Arrow schema, as earlier
// versions wrote them, are TestFilesOfEarlierVersionsRead's and
// TestReadParquetOfOtherWriters'.)
func TestStreamSetups(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := table.NewBuilder(mem, 3)
	defer b.Release()
	for i := int32(1); i <= 7; i++ {
		if err := b.Append(&table.Row{Project: "p", Version: "v1", Benchmark: "B", Mode: "avgt", Unit: "ns/op", Value: float64(i), NsPerOp: float64(i), Count: 1, Iteration: i, Source: "f.json:$[0]"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.AddSetup(table.Setup{Key: table.Key{Project: "p", Version: "v1", Benchmark: "B", Params: "", Mode: "avgt"}, Tool: "jmh", Forks: 1, Source: "f.json"}); err != nil {
		t.Fatal(err)
	}
	want := b.Finish()
	defer want.Release()
	dir := t.TempDir()
	var paths []string
	for _, ext := range []string{"parquet", "arrow", "csv"} {
		p := filepath.Join(dir, "t."+ext)
		if err := writeTable(p, want, WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	for _, p := range paths {
		got, err := ReadFile(p, mem)
		if err != nil {
			t.Fatal(err)
		}
		if got.NumRows() != 7 || !reflect.DeepEqual(got.Setups, want.Setups) {
			t.Errorf("%s: %d rows, setups %+v; want 7 rows, %+v", filepath.Base(p), got.NumRows(), got.Setups, want.Setups)
		}
		got.Release()
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 4 { // t.parquet, t.arrow, t.csv, t.setups.csv: no scratch file left
		t.Errorf("%d files in the directory, want 4", len(entries))
	}
}

// TestFilesOfEarlierVersionsRead: table files written by benchtrim at
// commit a5975f2 (before Stream: Parquet through pqarrow with the setups
// in the stored Arrow schema; `benchtrim ingest -o
// testdata/written-by-a5975f2/small_sample.EXT testdata/jmh/small_sample.json`)
// read back, and hold what the same table written today holds.
func TestFilesOfEarlierVersionsRead(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := filepath.Join("testdata", "written-by-a5975f2")
	old, err := ReadFile(filepath.Join(dir, "small_sample.parquet"), mem)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Release()
	if old.NumRows() == 0 || len(old.Setups) == 0 {
		t.Fatalf("old Parquet file: %d rows, %d setups", old.NumRows(), len(old.Setups))
	}
	again := filepath.Join(t.TempDir(), "again.parquet")
	if err := writeTable(again, old, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "small_sample.arrow"), again} {
		got, err := ReadFile(p, mem)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Setups, old.Setups) {
			t.Errorf("%s: setups differ from the old Parquet file's", p)
		}
		var a, b []table.Row
		old.Rows(func(r *table.Row) error { a = append(a, *r); return nil })
		got.Rows(func(r *table.Row) error { b = append(b, *r); return nil })
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: rows differ from the old Parquet file's", p)
		}
		got.Release()
	}
}

// TestStreamArrowSpill checks that an .arrow file whose records outgrow
// arrowHoldBytes (moved to the scratch file) is byte for byte the file
// written from records held in memory (directIPC off), uncompressed and
// compressed (rawSpool, which reads them back), and that no
// scratch file is left: with small records, and with records large
// enough (2¹⁵ rows) that their constant code columns and null timestamps
// are holes in the scratch file. Some rows are warmup rows, some have
// timestamps, so that the records have validity and boolean bitmaps.
func TestStreamArrowSpill(t *testing.T) {
	for _, tc := range []struct {
		name        string
		batch, rows int
		holds       []int64
	}{
		{"small", 4, 23, []int64{0, 300}}, // all spilled; some held first
		{"large", 1 << 15, 1 << 15 * 5 / 2, []int64{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			b := table.NewBuilder(mem, tc.batch)
			defer b.Release()
			appendSpillRows(t, b, tc.rows)
			tb := b.Finish()
			defer tb.Release()
			dir := t.TempDir()
			for _, codec := range []string{"", "zstd"} {
				opt := WriteOptions{ArrowCompression: codec}
				held := writeHolding(t, tb, filepath.Join(dir, "held.arrow"), 1<<30, opt)
				for _, hold := range tc.holds {
					if spilled := writeHolding(t, tb, filepath.Join(dir, "spilled.arrow"), hold, opt); !bytes.Equal(held, spilled) {
						t.Errorf("compression %q, hold %d: the spilled file differs from the held one (%d and %d bytes)", codec, hold, len(spilled), len(held))
					}
				}
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 2 {
				t.Errorf("%d files in the folder, want held.arrow and spilled.arrow", len(entries))
			}
		})
	}
}

// appendSpillRows appends rows 1 … n to b: three benchmarks, values and
// lines that are not zero, warmup rows and, on every seventh row,
// timestamps (so that the records have validity and boolean bitmaps).
func appendSpillRows(t *testing.T, b *table.Builder, n int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		r := table.Row{Project: "p", Version: "v1", Benchmark: []string{"A", "B", "C"}[i%3], Mode: "avgt", Unit: "ns/op",
			Value: float64(i) / 7, NsPerOp: float64(i), Count: 1, Iteration: int32(1 + i%50), Source: "f.json:$[0]",
			Warmup: i%50 < 5, Line: int64(i)}
		if i%7 == 0 {
			r.StartNs, r.EndNs, r.HasTime = int64(i)*1000, int64(i)*1000+500, true
		}
		if err := b.Append(&r); err != nil {
			t.Fatal(err)
		}
	}
}

// writeHolding writes tb to the .arrow file path with options opt,
// arrowHoldBytes set to hold and directIPC off, and returns the file's
// bytes.
func writeHolding(t *testing.T, tb *table.Table, path string, hold int64, opt WriteOptions) []byte {
	t.Helper()
	defer func(old int64, direct bool) { arrowHoldBytes, useDirectIPC = old, direct }(arrowHoldBytes, useDirectIPC)
	arrowHoldBytes, useDirectIPC = hold, false
	if err := writeTable(path, tb, opt); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestSetupsJSON: Stream's setup-at-a-time encoding of the footer is
// json.Marshal's, for nil, empty, small and sampled (≥ 1024) slices.
func TestSetupsJSON(t *testing.T) {
	for _, n := range []int{-1, 0, 1, 5, 1023, 1024, 5000} {
		var s []table.Setup
		if n >= 0 {
			s = make([]table.Setup, n)
		}
		for i := range s {
			s[i] = table.Setup{Key: table.Key{Benchmark: fmt.Sprint("b<&>", i)}, Forks: i % 3, Env: map[string]string{"x": fmt.Sprint(i)}}
		}
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		got, err := setupsJSON(s)
		if err != nil || string(got) != string(want) {
			t.Fatalf("%d setups: %.80q, %v; want %.80q", n, got, err, want)
		}
	}
}
