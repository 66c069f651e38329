package tablefile

import (
	"fmt"
	"math"
	"math/big"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/table"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// TestShardOfIsAHashRange: Key.Shard is ⌊h·n / 2⁶⁴⌋ of the key hash, so
// shard K of N is the hash range from ⌈K·2⁶⁴/N⌉ on, and the shards of
// keys sorted by hash never decrease.
func TestShardOfIsAHashRange(t *testing.T) {
	two64 := new(big.Int).Lsh(big.NewInt(1), 64)
	for _, n := range []int{1, 2, 3, 7, 1000} {
		if got := shardOfHash(0, n); got != 0 {
			t.Errorf("n=%d: hash 0 in shard %d", n, got)
		}
		if got := shardOfHash(math.MaxUint64, n); got != n-1 {
			t.Errorf("n=%d: hash 2⁶⁴−1 in shard %d, want %d", n, got, n-1)
		}
		for k := 1; k < n && k < 50; k++ {
			// The first hash of shard k is ⌈k·2⁶⁴/n⌉.
			b := new(big.Int).Mul(big.NewInt(int64(k)), two64)
			b.Add(b, big.NewInt(int64(n-1)))
			b.Div(b, big.NewInt(int64(n)))
			first := b.Uint64()
			if got := shardOfHash(first, n); got != k {
				t.Errorf("n=%d: hash %#x (⌈%d·2⁶⁴/%d⌉) in shard %d, want %d", n, first, k, n, got, k)
			}
			if got := shardOfHash(first-1, n); got != k-1 {
				t.Errorf("n=%d: hash %#x in shard %d, want %d", n, first-1, got, k-1)
			}
		}
	}
	var hs []uint64
	for i := 0; i < 500; i++ {
		k := table.Key{Project: "p", Benchmark: fmt.Sprintf("B%d", i), Mode: "avgt"}
		h := k.Hash()
		want := new(big.Int).Mul(new(big.Int).SetUint64(h), big.NewInt(7))
		want.Div(want, two64)
		if got := k.Shard(7); int64(got) != want.Int64() {
			t.Errorf("%s: shard %d of 7, want ⌊h·7/2⁶⁴⌋ = %d", k, got, want.Int64())
		}
		hs = append(hs, h)
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i] < hs[j] })
	for i := 1; i < len(hs); i++ {
		if shardOfHash(hs[i], 7) < shardOfHash(hs[i-1], 7) {
			t.Fatalf("shard of hash %#x below that of %#x", hs[i], hs[i-1])
		}
	}
}

// byShardTable is a table of 400 benchmarks × 2 versions × 30 iterations
// (24,000 primary rows) plus a gc.alloc.rate row per iteration of every
// tenth benchmark, added version by version and iteration by iteration
// so that every record mixes benchmarks.
func byShardTable(t *testing.T, mem memory.Allocator) *table.Table {
	t.Helper()
	b := table.NewBuilder(mem, 1000)
	defer b.Release()
	for _, v := range []string{"v1", "v2"} {
		for it := int32(1); it <= 30; it++ {
			for i := 0; i < 400; i++ {
				r := goodRow(it)
				r.Version, r.Benchmark = v, fmt.Sprintf("B%03d", i)
				r.NsPerOp = float64(1000*i) + float64(it)
				if err := b.Append(&r); err != nil {
					t.Fatal(err)
				}
				if i%10 == 0 {
					r.Metric, r.Unit, r.Value = "gc.alloc.rate", "MB/sec", float64(i)
					if err := b.Append(&r); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	b.AddSetup(table.Setup{Key: table.Key{Project: "p", Version: "v1", Benchmark: "B007", Params: "", Mode: "avgt"}, Forks: 1, Source: "x.json"})
	return b.Finish()
}

// rowStrings is every row of tab formatted, sorted.
func rowStrings(t *testing.T, tab *table.Table) []string {
	var out []string
	for _, r := range rowsOf(t, tab) {
		out = append(out, fmt.Sprintf("%+v", r))
	}
	sort.Strings(out)
	return out
}

// TestByShardReadsItsPart: a Parquet table written by shard holds the
// table's rows and setups, in row groups ordered by key hash within each
// batch, and reads back whole as before; a sharded scan (ScanFileShard)
// of shard K of N reads every row of its shard, at most the shard's rows
// plus a row group at each of its two edges per batch (the fraction of
// the rows each shard reads is logged), and names every primary run of
// the file. It runs with the input in one batch and in batches of 5,000
// rows.
func TestByShardReadsItsPart(t *testing.T) {
	whole := byShardTable(t, memory.DefaultAllocator)
	defer whole.Release()
	for _, batch := range []int64{byShardBatchRows, 5000} {
		t.Run(fmt.Sprintf("batch=%d", batch), func(t *testing.T) {
			defer func(b int64) { byShardBatchRows = b }(byShardBatchRows)
			byShardBatchRows = batch
			checkByShard(t, whole)
		})
	}
	if err := writeTable(filepath.Join(t.TempDir(), "t.arrow"), whole, WriteOptions{ByShard: true}); err == nil || !strings.Contains(err.Error(), "t.arrow: a table is written by shard only as Parquet") {
		t.Errorf("by shard to .arrow: %v", err)
	}
}

// checkByShard writes whole by shard in batches of byShardBatchRows rows
// and checks what TestByShardReadsItsPart says.
func checkByShard(t *testing.T, whole *table.Table) {
	path := filepath.Join(t.TempDir(), "t.parquet")
	if err := writeTable(path, whole, WriteOptions{ByShard: true}); err != nil {
		t.Fatal(err)
	}
	back, err := ReadFile(path, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Release()
	want := rowStrings(t, whole)
	if got := rowStrings(t, back); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("read back %d rows, not the %d written", len(got), len(want))
	}
	if len(back.Setups) != 1 || back.Setups[0].Key.Benchmark != "B007" {
		t.Errorf("setups %v", back.Setups)
	}
	total := int64(len(want))
	// Every batch but the last holds byShardBatchRows rows or more, and
	// its row groups at most byShardRowGroupRows(its rows) rows, at most
	// byShardRowGroupRows(total).
	batches := (total + byShardBatchRows - 1) / byShardBatchRows
	limit := byShardRowGroupRows(total)
	allRuns := whole.Runs()
	for _, n := range []int{2, 3, 7} {
		var readSum int64
		for k := 0; k < n; k++ {
			part := &ShardPart{Shard: k, Shards: n}
			sub := &table.Table{}
			_, err := ScanFileShard(path, memory.NewGoAllocator(), part, func(rec arrow.Record) error {
				part.Note(rec)
				rec.Retain()
				sub.Records = append(sub.Records, rec)
				return nil
			})
			if err != nil {
				t.Fatalf("shard %d/%d: %v", k, n, err)
			}
			f := table.Filter{Shard: k, Shards: n, IncludeWarmup: true}
			var inShard, wantShard int
			for _, s := range sub.Collect(f) {
				inShard += s.Len()
			}
			for _, s := range whole.Collect(f) {
				wantShard += s.Len()
			}
			if inShard != wantShard {
				t.Errorf("shard %d/%d: read %d of its primary rows, want %d", k, n, inShard, wantShard)
			}
			if part.Rows != total {
				t.Errorf("shard %d/%d: Rows %d, want %d", k, n, part.Rows, total)
			}
			// The shard's rows (of every metric), and a row group at
			// each of its edges.
			var shardRows int64
			for _, r := range rowsOf(t, whole) {
				if (table.Key{Project: r.Project, Version: r.Version, Benchmark: r.Benchmark, Params: r.Params, Mode: r.Mode}).Shard(n) == k {
					shardRows++
				}
			}
			bound := shardRows + 2*limit*batches
			t.Logf("shard %d/%d read %d of %d rows (%.3f; bound %d)", k, n, part.RowsRead, total, float64(part.RowsRead)/float64(total), bound)
			if part.RowsRead > bound || part.RowsRead != sub.NumRows() {
				t.Errorf("shard %d/%d: read %d rows (RowsRead %d) of %d, want at most %d", k, n, sub.NumRows(), part.RowsRead, total, bound)
			}
			if runs := part.Runs(); fmt.Sprint(runs) != fmt.Sprint(allRuns) {
				t.Errorf("shard %d/%d: Runs lists %d runs, want the file's %d", k, n, len(runs), len(allRuns))
			}
			readSum += part.RowsRead
			sub.Release()
		}
		if batches == 1 && readSum >= 2*total {
			t.Errorf("N=%d: the shards read %d rows in all, of %d", n, readSum, total)
		}
	}
}

// TestShardMetadataChecked: a row-group hash metadata that does not fit
// the file, or rows outside their row group's recorded range, are errors
// saying to ingest the file again, never a wrong shard.
func TestShardMetadataChecked(t *testing.T) {
	for _, tc := range []struct{ value, msg string }{
		{`[["0","1"]]`, "1 ranges for 2 row groups"},
		{`[["0","1"],["x","2"]]`, "row group 2: range"},
		{`[["2","1"],["3","4"]]`, "row group 1: range"},
		{`{}`, "benchtrim.row_group_hashes metadata"},
	} {
		if _, err := decodeHashRanges(tc.value, 2); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v, want %q", tc.value, err, tc.msg)
		}
	}
	rs, err := decodeHashRanges(encodeHashRanges([]hashRange{{1, 2}, {3, math.MaxUint64}}), 2)
	if err != nil || len(rs) != 2 || rs[1] != (hashRange{3, math.MaxUint64}) {
		t.Errorf("round trip: %v, %v", rs, err)
	}
	whole := byShardTable(t, memory.DefaultAllocator)
	defer whole.Release()
	h := table.Key{Project: "p", Benchmark: "B000", Mode: "avgt"}.Hash()
	part := &ShardPart{Shard: 0, Shards: 2, ranges: []hashRange{{h, h}}, counts: []int64{whole.NumRows()}}
	err = part.checkRows(whole.Records[0])
	if err == nil || !strings.Contains(err.Error(), "ingest it again") {
		t.Errorf("rows outside the range: %v", err)
	}
}
