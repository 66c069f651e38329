package compare

import (
	"bytes"
	"encoding/gob"
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
		{Name{Benchmark: "BenchmarkSort", Params: "n=16", Mode: "go"}, "BenchmarkSort/n=16"},
		{Name{Benchmark: "BenchmarkSort", Params: table.CanonicalParams(map[string]string{"n": "16", "alg": "quick"}), Mode: "go"}, "BenchmarkSort/alg=quick/n=16"},
		{Name{Benchmark: "org.ex.Sort.quick", Params: table.CanonicalParams(map[string]string{"v": "a,b=c"}), Mode: "avgt"}, "org.ex.Sort.quick/v=a,b=c"},
		{Name{Benchmark: "BenchmarkX", Params: "", Mode: "go"}, "BenchmarkX"},
	} {
		if got := fullName(tc.n); got != tc.want {
			t.Errorf("FullName(%v) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestFilter(t *testing.T) {
	names := []Name{
		{Benchmark: "BenchmarkSort", Params: "n=16", Mode: "go"},
		{Benchmark: "BenchmarkSort", Params: "n=1024", Mode: "go"},
		{Benchmark: "BenchmarkSearch", Params: "n=16", Mode: "go"},
		{Benchmark: "org.ex.Sort.quick", Params: "size=100", Mode: "avgt"},
		{Benchmark: "org.ex.Sort.merge", Params: "size=100", Mode: "sample"},
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
			if f.match(n) {
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
	if !none.match(names[0]) || len(none.selectSeries([]*table.Series{handSeries("A", "v1", []float64{1})})) != 1 {
		t.Error("a nil filter must keep everything")
	}
}

// TestFilterGob: a Filter written by encoding/gob (in a --partial-out
// report's options) reads back as the same expression and selects the
// same benchmarks; a nil *Filter stays nil.
func TestFilterGob(t *testing.T) {
	type opts struct {
		Filter *Filter
		N      int
	}
	f, err := ParseFilter("-name:^Sort mode:go n:/^1/")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []opts{{f, 1}, {nil, 2}} {
		var b bytes.Buffer
		if err := gob.NewEncoder(&b).Encode(in); err != nil {
			t.Fatal(err)
		}
		var out opts
		if err := gob.NewDecoder(&b).Decode(&out); err != nil {
			t.Fatal(err)
		}
		if (in.Filter == nil) != (out.Filter == nil) || out.N != in.N {
			t.Fatalf("%v: read back %+v", in, out)
		}
		if in.Filter == nil {
			continue
		}
		if out.Filter.String() != in.Filter.String() {
			t.Errorf("expression %q, want %q", out.Filter.String(), in.Filter.String())
		}
		for _, n := range []Name{{Benchmark: "BenchmarkSort", Params: "n=16", Mode: "go"}, {Benchmark: "BenchmarkMap", Params: "n=16", Mode: "go"}, {Benchmark: "BenchmarkMap", Params: "n=2", Mode: "go"}, {Benchmark: "BenchmarkMap", Params: "n=16", Mode: "avgt"}} {
			if got, want := out.Filter.match(n), in.Filter.match(n); got != want {
				t.Errorf("%v: read-back filter matches %v, the original %v", n, got, want)
			}
		}
	}
	if !f.match(Name{Benchmark: "BenchmarkMap", Params: "n=16", Mode: "go"}) || f.match(Name{Benchmark: "BenchmarkSort", Params: "n=16", Mode: "go"}) {
		t.Error("the filter should keep Map/n=16 and drop Sort")
	}
}
