package gobench

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
)

// TestReorderedParamsOneRun: names whose key=value parts come in another
// order are one benchmark run, numbered as one (iterations 1 and 2), on the
// path for one package and one GOMAXPROCS suffix and on the general one
// (two packages).
func TestReorderedParamsOneRun(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"one package", "pkg: x\nBenchmarkA/x=1/y=2-8\t100\t5 ns/op\nBenchmarkA/y=2/x=1-8\t100\t6 ns/op\nBenchmarkB-8\t100\t7 ns/op\n",
			[]string{"BenchmarkA[x=1,y=2]#1=5", "BenchmarkA[x=1,y=2]#2=6", "BenchmarkB[]#1=7"}},
		{"two packages", "pkg: x\nBenchmarkA/x=1/y=2-8\t100\t5 ns/op\nBenchmarkA/y=2/x=1-8\t100\t6 ns/op\npkg: y\nBenchmarkB-8\t100\t7 ns/op\n",
			[]string{"BenchmarkA[x=1,y=2]#1=5", "BenchmarkA[x=1,y=2]#2=6", "BenchmarkB[]#1=7"}},
		{"two GOMAXPROCS", "pkg: x\nBenchmarkA/x=1/y=2-8\t100\t5 ns/op\nBenchmarkA/y=2/x=1-8\t100\t6 ns/op\nBenchmarkB-4\t100\t7 ns/op\n",
			[]string{"BenchmarkA[x=1,y=2]#1=5", "BenchmarkA[x=1,y=2]#2=6", "BenchmarkB[]#1=7"}},
	} {
		tab, rep, err := ingesttest.Read(t, Format(), strings.NewReader(c.text), ingest.Source{File: "x.txt"})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got []string
		for _, r := range ingesttest.Rows(t, tab) {
			got = append(got, fmt.Sprintf("%s[%s]#%d=%v", r.Benchmark, r.Params, r.Iteration, r.Value))
		}
		if !reflect.DeepEqual(got, c.want) || len(tab.Setups) != 2 {
			t.Errorf("%s: rows %v and %d setups, want %v and 2\n%s", c.name, got, len(tab.Setups), c.want, ingesttest.ReportText(rep))
		}
	}
}
