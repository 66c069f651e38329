package tablefile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/table"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// TestReadFileCorrupt overwrites 6 bytes at offsets across the middle
// third of a valid .arrow and .parquet table file. ReadFile must never
// panic or leak, must name the file in every error, and a read that
// succeeds (the bytes hit a value, not the structure) must give a table
// that passes Check with all rows. In compressed files (Parquet, zstd Arrow)
// most offsets must fail, as damage almost always shows; plain Arrow IPC
// (the default) has no checksums, so damage to value bytes reads as other
// values and only the no-panic, no-leak and valid-table rules apply.
func TestReadFileCorrupt(t *testing.T) {
	for _, tc := range []struct{ ext, codec string }{{".arrow", ""}, {".arrow", "zstd"}, {".parquet", ""}} {
		ext := tc.ext
		t.Run(ext+tc.codec, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			tab := buildSample(t, mem, 3)
			rows := tab.NumRows()
			orig := rowsOf(t, tab)
			path := filepath.Join(t.TempDir(), "t"+ext)
			if err := writeTable(path, tab, WriteOptions{ArrowCompression: tc.codec}); err != nil {
				t.Fatal(err)
			}
			tab.Release()
			good, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			n := len(good)
			tried, failed, intact := 0, 0, 0
			for off := n / 3; off+6 <= 2*n/3; off += 37 {
				bad := append([]byte(nil), good...)
				copy(bad[off:], "ZZZZZZ")
				if err := os.WriteFile(path, bad, 0o644); err != nil {
					t.Fatal(err)
				}
				tried++
				back, err := ReadFile(path, mem)
				_, serr := ScanFileShard(path, memory.NewGoAllocator(), nil, func(arrow.Record) error { return nil })
				if (err == nil) != (serr == nil) || err != nil && serr.Error() != err.Error() {
					t.Errorf("offset %d: ScanFile says %v, ReadFile %v", off, serr, err)
				}
				if err != nil {
					failed++
					if !strings.HasPrefix(err.Error(), path+": ") {
						t.Errorf("offset %d: error %q does not start with the file name", off, err)
					}
					continue
				}
				if back.NumRows() != rows {
					t.Errorf("offset %d: read %d rows of %d without error", off, back.NumRows(), rows)
				}
				if err := back.Check(); err != nil {
					t.Errorf("offset %d: table read without error breaks a rule: %v", off, err)
				}
				if sameRows(orig, rowsOf(t, back)) {
					intact++ // the bytes hit padding or unused metadata
				}
				back.Release()
			}
			// Compressed buffers carry no checksum, so damage inside one can
			// decode to other values; most damage must still be caught.
			if compressed := ext == ".parquet" || tc.codec != ""; compressed && (failed+intact)*4 < tried*3 {
				t.Errorf("only %d of %d corrupted files gave an error (%d more read the original rows)", failed, tried, intact)
			}
		})
	}
}

// TestReadFileCorruptMessage: the case, 6 bytes overwritten inside
// a Parquet file, reads as "t.parquet: corrupt table file: …". (In the
// layout parquetio.Writer writes, the file's exact middle is one of
// the few places where 6 other bytes still decode to valid values, as
// Parquet pages carry no checksum; TestReadFileCorrupt measures the rate
// over all offsets. The overwrite here is a third into the file.)
func TestReadFileCorruptMessage(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tab := buildSample(t, mem, 3)
	path := filepath.Join(t.TempDir(), "t.parquet")
	if err := writeTable(path, tab, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	tab.Release()
	b, _ := os.ReadFile(path)
	copy(b[len(b)/3:], "ZZZZZZ")
	os.WriteFile(path, b, 0o644)
	back, err := ReadFile(path, mem)
	if err == nil {
		back.Release()
	}
	if err == nil || !strings.HasPrefix(err.Error(), path+": corrupt table file: ") {
		t.Errorf("err = %v, want %s: corrupt table file: …", err, path)
	}
}

// rawTable builds a one-record table from rows without Builder.Append's
// checks and level clamping, as a file written by another tool could hold;
// it is built as a version 1 record (plain strings) and converted.
func rawTable(mem memory.Allocator, rows []table.Row) *table.Table {
	rb := array.NewRecordBuilder(mem, schemaV1)
	defer rb.Release()
	for _, r := range rows {
		rb.Field(idxProject).(*array.StringBuilder).Append(r.Project)
		rb.Field(idxVersion).(*array.StringBuilder).Append(r.Version)
		rb.Field(idxBenchmark).(*array.StringBuilder).Append(r.Benchmark)
		rb.Field(idxParams).(*array.StringBuilder).Append(r.Params)
		rb.Field(idxMode).(*array.StringBuilder).Append(r.Mode)
		rb.Field(idxMetric).(*array.StringBuilder).Append(r.Metric)
		rb.Field(idxUnit).(*array.StringBuilder).Append(r.Unit)
		rb.Field(idxValue).(*array.Float64Builder).Append(r.Value)
		rb.Field(idxNsPerOp).(*array.Float64Builder).Append(r.NsPerOp)
		rb.Field(idxCount).(*array.Int64Builder).Append(r.Count)
		rb.Field(idxInstance).(*array.Int32Builder).Append(r.Instance)
		rb.Field(idxTrial).(*array.Int32Builder).Append(r.Trial)
		rb.Field(idxFork).(*array.Int32Builder).Append(r.Fork)
		rb.Field(idxIteration).(*array.Int32Builder).Append(r.Iteration)
		rb.Field(idxSlice).(*array.Int32Builder).Append(r.Slice)
		rb.Field(idxWarmup).(*array.BooleanBuilder).Append(r.Warmup)
		rb.Field(idxStartNs).(*array.Int64Builder).AppendNull()
		rb.Field(idxEndNs).(*array.Int64Builder).AppendNull()
		rb.Field(idxPair).(*array.StringBuilder).Append(r.Pair)
		rb.Field(idxSource).(*array.StringBuilder).Append(r.Source)
		rb.Field(idxLine).(*array.Int64Builder).Append(r.Line)
	}
	return &table.Table{Records: []arrow.Record{canonicalRecord(rb.NewRecord())}}
}

// goodRow is a valid row of run p@v b.X (avgt) at the given iteration.
func goodRow(it int32) table.Row {
	return table.Row{Project: "p", Version: "v", Benchmark: "b.X", Mode: "avgt", Metric: table.Primary, Unit: "ns/op",
		Value: 1, NsPerOp: 1, Count: 1, Instance: 1, Trial: 1, Fork: 1, Iteration: it, Slice: 1, Source: "x.json", Line: int64(10 + it)}
}

// TestCheckRules: each rule of the table, broken in a table file (.arrow,
// .parquet: "t.parquet: row 3: …") and in a CSV table ("t.csv:4: …"),
// gives an error naming the file and the place.
func TestCheckRules(t *testing.T) {
	cases := []struct {
		name string
		edit func(r *table.Row)
		msg  string
	}{
		{"fork 0", func(r *table.Row) { r.Fork = 0 }, "fork 0 (levels are 1-based)"},
		{"slice -3", func(r *table.Row) { r.Slice = -3 }, "slice -3 (levels are 1-based)"},
		{"unknown mode", func(r *table.Row) { r.Mode = "fast" }, `column mode: unknown mode "fast"`},
		{"negative count", func(r *table.Row) { r.Count = -2 }, "column count: -2 is negative"},
		{"long name", func(r *table.Row) { r.Benchmark = strings.Repeat("n", table.MaxStringBytes+1) },
			"column benchmark: value of 65537 bytes is longer than the table's limit of 65536 bytes"},
		{"index far beyond rows", func(r *table.Row) { r.Iteration = 1e9 },
			"iteration 1000000000 is far beyond the 3 rows of p@v b.X (avgt): a run of n rows numbers its levels up to max(65536, 16·n) = 65536"},
	}
	for _, c := range cases {
		for _, ext := range []string{".arrow", ".parquet", ".csv"} {
			t.Run(c.name+ext, func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				rows := []table.Row{goodRow(1), goodRow(2), goodRow(3)}
				c.edit(&rows[2])
				tab := rawTable(mem, rows)
				path := filepath.Join(t.TempDir(), "t"+ext)
				err := writeTable(path, tab, WriteOptions{})
				tab.Release()
				if err != nil {
					t.Fatal(err)
				}
				place := path + ": row 3: "
				if ext == ".csv" {
					place = path + ":4: "
				}
				back, err := ReadFile(path, mem)
				if err == nil {
					back.Release()
				}
				if err == nil || err.Error() != place+c.msg && !strings.HasPrefix(err.Error(), place+c.msg) {
					t.Errorf("err = %.300v\nwant %s%s", err, place, c.msg)
				}
			})
		}
	}
}
