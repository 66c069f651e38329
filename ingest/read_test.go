package ingest_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/table"
)

// allocated runs fn and returns the bytes it allocated on the Go heap.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestReadFilesRejectsFarIndices: a level index far beyond the rows of its
// run (table's maxLevelIndex) is a *ingest.ParseError at its line, found
// without allocating by the index. Before, optimize built grids by such
// indices: fork = iteration = 10⁹ panicked (makeslice), iteration = 10⁸
// took 13.8 GB, a µOpTime it_pos of 10⁶ took gigabytes.
func TestReadFilesRejectsFarIndices(t *testing.T) {
	const uoptimeHeader = "b_name,ir_pos,sr_pos,it_pos,bed_pos,ns_per_op,n,ir_setup,sr_setup,it_setup,bed_setup,m_id\n"
	cases := []struct {
		file, data, msg string
	}{
		{"pa-1e9.csv", paHeader + "\n" +
			"p;c1;com.ex.B.m;;m1;1;1;1;avgt;us/op;1;1.5\n" +
			"p;c1;com.ex.B.m;;m1;1;1;2;avgt;us/op;1;1.6\n" +
			"p;c1;com.ex.B.m;;m1;1;1000000000;1000000000;avgt;us/op;1;1.7\n",
			"fork 1000000000 is far beyond the 3 rows of p@c1 com.ex.B.m (avgt): a run of n rows numbers its levels up to max(65536, 16·n) = 65536"},
		{"pa-1e8.csv", paHeader + "\n" +
			"p;c1;com.ex.B.m;;m1;1;1;1;avgt;us/op;1;1.5\n" +
			"p;c1;com.ex.B.m;;m1;1;1;2;avgt;us/op;1;1.6\n" +
			"p;c1;com.ex.B.m;;m1;1;1;100000000;avgt;us/op;1;1.7\n",
			"iteration 100000000 is far beyond the 3 rows of p@c1 com.ex.B.m (avgt)"},
		{"uoptime-1e6.csv", uoptimeHeader +
			"BenchmarkA,1,1,1,1,100.5,1000,1,1,1000000,1,1\n" +
			"BenchmarkA,1,1,2,1,101.5,1000,1,1,1000000,1,2\n" +
			"BenchmarkA,1,1,1000000,1,101.5,1000,1,1,1000000,1,3\n",
			"iteration 1000000 is far beyond the 3 rows of uoptime-1e6 BenchmarkA (go)"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), c.file)
			if err := os.WriteFile(path, []byte(c.data), 0o644); err != nil {
				t.Fatal(err)
			}
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			var err error
			n := allocated(func() {
				var tab *table.Table
				tab, _, _, err = ingest.ReadFiles([]string{path}, ingest.ReadOptions{Formats: all.Formats(), Allocator: mem})
				if tab != nil {
					tab.Release()
				}
			})
			var pe *ingest.ParseError
			if !errors.As(err, &pe) || pe.File != path || pe.Line != 4 || !strings.HasPrefix(pe.Msg, c.msg) {
				t.Errorf("err = %v\nwant %s:4: %s", err, path, c.msg)
			}
			if n > 16<<20 {
				t.Errorf("reading allocated %d bytes, want < 16 MiB", n)
			}
		})
	}
}

// jmhRecord is one JMH JSON record of an avgt benchmark with 2 forks × 3
// iterations.
func jmhRecordNamed(name string) map[string]any {
	return map[string]any{
		"jmhVersion": "1.37", "benchmark": name, "mode": "avgt", "threads": 1, "forks": 2,
		"measurementIterations": 3, "measurementTime": "1 s",
		"primaryMetric": map[string]any{"score": 2.0, "scoreUnit": "us/op",
			"rawData": [][]float64{{1, 2, 3}, {1.5, 2.5, 2}}},
		"secondaryMetrics": map[string]any{},
	}
}

// TestReadFilesLongNames: benchmark names of 16 KB and 400 KB through the
// public reader path. The 16 KB one is kept and costs memory in proportion
// to the data (it cost 1.1 GB: the builder reserved a whole batch of
// string bytes at the per-row rate); the 400 KB one, longer than
// table.MaxStringBytes, is skipped with its place (it ran out of memory).
func TestReadFilesLongNames(t *testing.T) {
	short := "org.ex.B." + strings.Repeat("s", 16<<10)
	long := "org.ex.L." + strings.Repeat("l", 400<<10)
	js, err := json.Marshal([]any{jmhRecordNamed(short), jmhRecordNamed(long)})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "long.json")
	if err := os.WriteFile(path, js, 0o644); err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var tab *table.Table
	var rep *ingest.Summary
	n := allocated(func() {
		tab, rep, _, err = ingest.ReadFiles([]string{path}, ingest.ReadOptions{Formats: all.Formats(), Allocator: mem})
	})
	if err != nil {
		t.Fatalf("%.300v", err)
	}
	defer tab.Release()
	if limit := uint64(16*len(js) + 8<<20); n > limit {
		t.Errorf("reading %d bytes allocated %d, want at most %d", len(js), n, limit)
	}
	var names []int
	tab.Rows(func(r *table.Row) error { names = append(names, len(r.Benchmark)); return nil })
	if len(names) != 6 || names[0] != len(short) {
		t.Errorf("rows with names of %v bytes, want 6 of %d", names, len(short))
	}
	if got := rep.Count(ingest.KindTooLong); got != 6 {
		t.Errorf("%d rows skipped as too long, want 6", got)
	}
	for _, k := range rep.Kinds() {
		if k.Kind == ingest.KindTooLong && len(k.Examples) > 0 {
			want := fmt.Sprintf("%s:1: $[1]: column benchmark: value of %d bytes is longer than the table's limit of 65536 bytes", path, len(long))
			if got := k.Examples[0].Error(); !strings.Contains(got, want) {
				t.Errorf("example %q, want it to contain %q", got, want)
			}
		}
	}
}
