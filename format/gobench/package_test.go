package gobench

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/table"
)

// TestJSONPackageWithoutPkgLines reads go test -json output of two
// packages with a benchmark of one name each and no pkg: line: the
// events' Package keeps them apart (two runs, the package joining the
// name as for pkg: lines) and names the package in the setups; one package
// alone keeps the plain name (issue 47, class 6: the two packages' results
// were merged into one run).
func TestJSONPackageWithoutPkgLines(t *testing.T) {
	event := func(pkg, out string) string {
		return fmt.Sprintf(`{"Action":"output","Package":%q,"Output":%q}`+"\n", pkg, out)
	}
	two := event("example.com/a", "goos: linux\n") + event("example.com/a", "BenchmarkGet-8\t100\t10 ns/op\n") +
		event("example.com/b", "BenchmarkGet-8\t100\t20 ns/op\n") + event("example.com/a", "BenchmarkGet-8\t100\t12 ns/op\n")
	one := event("example.com/a", "BenchmarkGet-8\t100\t10 ns/op\n") + event("example.com/a", "BenchmarkGet-8\t100\t12 ns/op\n")
	for _, c := range []struct {
		name, text string
		want       []string
		pkgs       map[string]string // benchmark → its setup's pkg
	}{
		{"two packages", two, []string{"example.com/a.BenchmarkGet#1=10", "example.com/b.BenchmarkGet#1=20", "example.com/a.BenchmarkGet#2=12"},
			map[string]string{"example.com/a.BenchmarkGet": "example.com/a", "example.com/b.BenchmarkGet": "example.com/b"}},
		{"one package", one, []string{"BenchmarkGet#1=10", "BenchmarkGet#2=12"}, map[string]string{"BenchmarkGet": "example.com/a"}},
	} {
		tab, rep, err := ingesttest.Read(t, Format(), strings.NewReader(c.text), ingest.Source{File: "x.json"})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got []string
		for _, r := range ingesttest.Rows(t, tab) {
			got = append(got, fmt.Sprintf("%s#%d=%v", r.Benchmark, r.Iteration, r.Value))
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: rows %v, want %v\n%s", c.name, got, c.want, ingesttest.ReportText(rep))
		}
		for bench, pkg := range c.pkgs {
			if s := tab.Setup(table.Key{Benchmark: bench, Mode: "go"}); s == nil || s.Env["pkg"] != pkg {
				t.Errorf("%s: setup of %s %+v, want pkg %s", c.name, bench, s, pkg)
			}
		}
	}
}
