package compare

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/table"
)

// TestConfigLinesInTheHeader compares two go test outputs whose cpu: lines
// differ: the header shows the shared goos, goarch, pkg and note lines as
// benchstat prints them above its table, cpu with each side's value, and
// no key format/gobench derives (gomaxprocs, harness time, Unit metadata).
// Merging the halves of the run gives the same configuration.
func TestConfigLinesInTheHeader(t *testing.T) {
	read := func(name, cpu string) *table.Table {
		text := "goos: linux\ngoarch: amd64\npkg: example.com/p\ncpu: " + cpu + "\nnote: quiet machine\n" +
			"Unit ns/op assume=nothing\n"
		for _, v := range []string{"10", "11", "12", "10.5", "11.5"} {
			text += "Benchmark_Parse-8\t1000\t" + v + " ns/op\nBenchmark1KB-8\t1000\t" + v + "0 ns/op\n"
		}
		path := filepath.Join(t.TempDir(), name+".txt")
		if err := os.WriteFile(path, []byte(text+"ok  \texample.com/p\t1.2s\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		tab, _, _, err := ingest.ReadFiles([]string{path}, ingest.ReadOptions{Formats: all.Formats(), Project: "p", Version: name})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(tab.Release)
		return tab
	}
	base, test := read("old", "Intel(R) Core(TM) i5-4570 CPU @ 3.20GHz"), read("new", "Apple M4")
	opt := DefaultOptions
	opt.Base, opt.Test = Side{Label: "old", Table: base}, Side{Label: "new", Table: test}
	rep, err := Run(base, opt)
	if err != nil {
		t.Fatal(err)
	}
	want := []configLine{
		{"goos", []string{"linux"}, []string{"linux"}},
		{"goarch", []string{"amd64"}, []string{"amd64"}},
		{"pkg", []string{"example.com/p"}, []string{"example.com/p"}},
		{"cpu", []string{"Intel(R) Core(TM) i5-4570 CPU @ 3.20GHz"}, []string{"Apple M4"}},
		{"note", []string{"quiet machine"}, []string{"quiet machine"}},
	}
	if !reflect.DeepEqual(rep.metrics[0].Config, want) {
		t.Errorf("config %q, want %q", rep.metrics[0].Config, want)
	}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	const header = "base: old\ntest: new\ngoos: linux\ngoarch: amd64\npkg: example.com/p\n" +
		"cpu: Intel(R) Core(TM) i5-4570 CPU @ 3.20GHz (base), Apple M4 (test)\nnote: quiet machine\n"
	if !strings.Contains(b.String(), header) {
		t.Errorf("text lacks the configuration header %q:\n%s", header, b.String())
	}
	// The shards of a run merge to its configuration, with a value only one
	// shard has.
	var halves []*Report
	for shard := range 2 {
		o := opt
		o.Part = true
		o.Base.Select, o.Test.Select = Selector{Shard: shard, Shards: 2}, Selector{Shard: shard, Shards: 2}
		part, err := Run(base, o)
		if err != nil {
			t.Fatal(err)
		}
		halves = append(halves, part)
	}
	h := halves[1]
	if len(h.metrics) == 0 { // both benchmarks in shard 0
		h = halves[0]
	}
	h.metrics[0].Config = append(h.metrics[0].Config, configLine{"pkg", []string{"example.com/q"}, nil})
	merged, err := Merge(halves)
	if err != nil {
		t.Fatal(err)
	}
	want[2].Base = []string{"example.com/p", "example.com/q"}
	if !reflect.DeepEqual(merged.metrics[0].Config, want) {
		t.Errorf("merged config %q, want %q", merged.metrics[0].Config, want)
	}
	if got := merged.metrics[0].Config[2].text(); got != "pkg: 2 values (base), example.com/p (test)" {
		t.Errorf("pkg line %q", got)
	}
}
