package compare

import (
	"reflect"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/table"
)

func TestFullName(t *testing.T) {
	for _, tc := range []struct {
		n    Name
		want string
	}{
		{Name{"BenchmarkSort", "n=16", "go"}, "BenchmarkSort/n=16"},
		{Name{"BenchmarkSort", table.CanonicalParams(map[string]string{"n": "16", "alg": "quick"}), "go"}, "BenchmarkSort/alg=quick/n=16"},
		{Name{"org.ex.Sort.quick", table.CanonicalParams(map[string]string{"v": "a,b=c"}), "avgt"}, "org.ex.Sort.quick/v=a,b=c"},
		{Name{"BenchmarkX", "", "go"}, "BenchmarkX"},
	} {
		if got := fullName(tc.n); got != tc.want {
			t.Errorf("FullName(%v) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestFilter(t *testing.T) {
	names := []Name{
		{"BenchmarkSort", "n=16", "go"},
		{"BenchmarkSort", "n=1024", "go"},
		{"BenchmarkSearch", "n=16", "go"},
		{"org.ex.Sort.quick", "size=100", "avgt"},
		{"org.ex.Sort.merge", "size=100", "sample"},
	}
	for _, tc := range []struct {
		expr string
		want []int
	}{
		{"", []int{0, 1, 2, 3, 4}},
		{"Sort/n=16", []int{0}},           // the full name, as go test prints it
		{"BenchmarkSort/n=16$", []int{0}}, // with the Benchmark prefix
		{"^Sort", []int{0, 1}},            // ^ matches after "Benchmark", as benchstat's .name
		{"name:Search", []int{2}},
		{".name:^org", []int{3, 4}},
		{"n:16", []int{0, 2}},
		{"n:/^1/", []int{0, 1, 2}},
		{"-n:16", []int{1, 3, 4}},
		{"Sort -n:1024", []int{0, 3, 4}},
		{"mode:avgt", []int{3}},
		{"size:100 merge", []int{4}},
		{"(?i)QUICK", []int{3}},
		{"nothing", nil},
	} {
		f, err := ParseFilter(tc.expr)
		if err != nil {
			t.Fatalf("%q: %v", tc.expr, err)
		}
		var got []int
		for i, n := range names {
			if f.Match(n) {
				got = append(got, i)
			}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("filter %q keeps %v, want %v", tc.expr, got, tc.want)
		}
	}
	for _, bad := range []string{"([", "name:([", "n:/([/"} {
		if _, err := ParseFilter(bad); err == nil || !strings.Contains(err.Error(), "filter") {
			t.Errorf("ParseFilter(%q) = %v, want an error", bad, err)
		}
	}
	var none *Filter
	if !none.Match(names[0]) || len(none.Select([]*table.Series{handSeries("A", "v1", []float64{1})})) != 1 {
		t.Error("a nil filter must keep everything")
	}
}
