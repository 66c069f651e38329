package duet

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/table"
)

// TestTestdataMatchesShared checks that the copies in testdata are the
// files of ../shared they were copied from (skipped visibly without it).
func TestTestdataMatchesShared(t *testing.T) {
	for dir, shared := range map[string][]string{
		"fixtures": {"data", "duet", "fixtures"},
		"expected": {"reference", "duet", "fixtures-expected"},
	} {
		src := testenv.Shared(t, shared...)
		entries, err := os.ReadDir(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			want, err := os.ReadFile(filepath.Join(src, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join("testdata", dir, e.Name()))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("testdata/%s/%s differs from %s (%v)", dir, e.Name(), filepath.Join(src, e.Name()), err)
			}
		}
	}
}

// TestFromTable checks the table mapping: run = fork − 1, iteration =
// table iteration − iteration_offset, environment per instance, and the
// dropped rows (other modes, excluded benchmarks, unlabelled instances,
// missing timestamps, bad pairs) counted.
func TestFromTable(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	b := table.NewBuilder(mem, 0)
	defer b.Release()
	add := func(bench, mode, pair string, inst, fork, it int32, hasTime bool) {
		t.Helper()
		r := table.Row{Project: "dacapo", Benchmark: bench, Mode: mode, Unit: "ns", Value: 5, NsPerOp: 5, Count: 1,
			Instance: inst, Trial: 1, Fork: fork, Iteration: it, Slice: 1, Pair: pair,
			StartNs: int64(100 * it), EndNs: int64(100*it + 5), HasTime: hasTime}
		if err := b.Append(&r); err != nil {
			t.Fatal(err)
		}
	}
	add("avrora", "duet", "B", 1, 2, 3, true)
	add("avrora", "duet", "A", 1, 2, 3, true)
	add("avrora", "duet", "A", 2, 1, 1, true) // instance 2 has no environment
	add("avrora", "duet", "A", 1, 1, 1, false)
	add("avrora", "duet", "", 1, 1, 1, true)
	add("jython", "duet", "A", 1, 1, 1, true)
	add("avrora", "avgt", "", 1, 1, 1, true)
	for _, s := range []table.Setup{
		{Key: table.Key{Project: "dacapo", Benchmark: "avrora", Mode: "duet"},
			Env: map[string]string{"iteration_offset": "0", "instance.1.environment": "bare-metal"}},
		{Key: table.Key{Project: "dacapo", Benchmark: "jython", Mode: "duet"},
			Env: map[string]string{"iteration_offset": "0", "instance.1.environment": "bare-metal"}},
	} {
		if err := b.AddSetup(s); err != nil {
			t.Fatal(err)
		}
	}
	tb := b.Finish()
	defer tb.Release()
	ld, err := fromTable(tb, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(ld.groups) != 1 || len(ld.groups[0].records) != 2 {
		t.Fatalf("groups %+v", ld.groups)
	}
	g := ld.groups[0]
	if g.key != (Key{Suite: "dacapo", Benchmark: "avrora", Type: TypeDuet, Env: "bare-metal"}) {
		t.Errorf("key %+v", g.key)
	}
	if r := g.records[0]; r.Pair != 'A' || r.Run != 1 || r.Iteration != 3 || r.Instance != 1 || r.StartNs != 300 || r.TimeNs != 5 {
		t.Errorf("first record %+v", r)
	}
	if ld.OtherModes != 1 || ld.Excluded != 1 || ld.Unlabelled != 1 || ld.NoTime != 1 || ld.BadPair != 1 || len(ld.warnings) != 5 {
		t.Errorf("counts %+v", ld)
	}
	opt := DefaultOptions()
	opt.KeepUnlabelled = true
	ld, err = fromTable(tb, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(ld.groups) != 2 || ld.groups[0].key.Env != "" {
		t.Errorf("with unlabelled instances: %+v", ld.groups)
	}
}

// TestRunNoDuetRows: a table without duet rows is an error naming why.
func TestRunNoDuetRows(t *testing.T) {
	b := table.NewBuilder(memory.DefaultAllocator, 0)
	defer b.Release()
	r := table.Row{Project: "p", Benchmark: "b", Mode: "avgt", Unit: "ns/op", Value: 1, NsPerOp: 1, Count: 1}
	if err := b.Append(&r); err != nil {
		t.Fatal(err)
	}
	tb := b.Finish()
	defer tb.Release()
	_, err := Run(tb, DefaultOptions())
	if err == nil || !strings.Contains(err.Error(), "no duet rows") || !strings.Contains(err.Error(), "not seqn, syncduet or duet") {
		t.Errorf("error %v", err)
	}
}
