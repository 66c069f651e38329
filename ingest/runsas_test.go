package ingest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/table"
)

// TestRunsAsInstances reads two µOpTime files of one version (instances 1–2
// each) and a go test file twice under one label: with RunsInstances the
// later file's instances of a run follow the earlier one's (3–4; 2), rows
// otherwise unchanged and no pooled-run warning, in ReadFiles and in
// Stream alike; by default they pool, with the warning.
func TestRunsAsInstances(t *testing.T) {
	a := filepath.Join("..", "testdata", "uoptime", "small.csv")
	b := filepath.Join("..", "testdata", "uoptime", "small_ragged.csv")
	g := filepath.Join("..", "testdata", "gobench", "small.txt")
	opt := ingest.ReadOptions{Formats: all.Formats(), Project: "p", Version: "v2"}
	pooled, rep, _, err := ingest.ReadFiles([]string{a, b}, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer pooled.Release()
	if rep.Count(ingest.KindPooledRuns) == 0 {
		t.Fatalf("pooled by default: no %q warning", ingest.KindPooledRuns)
	}
	opt.RunsAs = ingest.RunsInstances
	tab, rep, _, err := ingest.ReadFiles([]string{a, b}, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Release()
	if !rep.Empty() && rep.Count(ingest.KindPooledRuns) != 0 {
		t.Errorf("instances: pooled-run warning %v", rep.Kinds())
	}
	want := ingesttest.Rows(t, pooled)
	largest := map[string]int32{} // of each benchmark in a
	for _, r := range want {
		if r.Source == a {
			largest[r.Benchmark] = max(largest[r.Benchmark], r.Instance)
		}
	}
	for i := range want {
		if want[i].Source == b {
			if largest[want[i].Benchmark] != 2 {
				t.Fatalf("%s: %d instances in %s, want 2", want[i].Benchmark, largest[want[i].Benchmark], a)
			}
			want[i].Instance += 2
		}
	}
	if d := ingesttest.DiffRows(want, ingesttest.Rows(t, tab)); d != "" {
		t.Errorf("instances: %s", d)
	}
	var streamed []table.Row
	st, err := ingest.Stream([]string{a, b}, opt, func(rec arrow.Record) error {
		one := &table.Table{Records: []arrow.Record{rec}}
		streamed = append(streamed, ingesttest.Rows(t, one)...)
		return nil
	})
	if err != nil || st.Report.Count(ingest.KindPooledRuns) != 0 {
		t.Fatalf("stream: %v, %v", err, st.Report.Kinds())
	}
	if d := ingesttest.DiffRows(want, streamed); d != "" {
		t.Errorf("stream: %s", d)
	}

	// A go test file (one instance) given twice under one label, as two
	// days' runs of one release would be: instances 1 and 2.
	two, rep, _, err := ingest.ReadFiles([]string{g, "-"}, ingest.ReadOptions{Formats: all.Formats(), Project: "p", Version: "v1",
		RunsAs: ingest.RunsInstances, Stdin: openFile(t, g)})
	if err != nil {
		t.Fatal(err)
	}
	defer two.Release()
	count := map[string]int{}
	for _, r := range ingesttest.Rows(t, two) {
		count[fmt.Sprintf("%s instance %d", r.Source, r.Instance)]++
	}
	if wantCount := map[string]int{g + " instance 1": 48, "- instance 2": 48}; !reflect.DeepEqual(count, wantCount) || !rep.Empty() {
		t.Errorf("rows by file and instance %v, want %v; report %v", count, wantCount, rep.Kinds())
	}
	if _, _, _, err := ingest.ReadFiles([]string{g}, ingest.ReadOptions{Formats: all.Formats(), RunsAs: "forks"}); err == nil {
		t.Error("RunsAs forks: no error")
	}
}

// openFile opens path for the test's duration.
func openFile(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
