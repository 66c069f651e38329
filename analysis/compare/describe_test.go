package compare

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/table"
)

// TestDescribe summarises one set: the mean and its interval come from the
// same bootstrap as a side of Compare, the median and CV from the
// iteration means (numpy: median([10,11,12,11,12,10]) = 11, CV with the
// population SD: np.std(x)/np.mean(x) = 0.8164966/11 = 0.07422696).
func TestDescribe(t *testing.T) {
	set := runSet{Label: "old.json", Series: []*table.Series{
		handSeries("org.ex.Bench.alpha", "v1", []float64{10, 11, 12}, []float64{11, 12, 10}),
		handSeries("org.ex.Bench.beta", "v1", []float64{100, 101, 99}, []float64{100, 102, 98}),
		handSeries("org.ex.Bench.empty", "v1"),
	}}
	opt := testOptions(500)
	rep, err := describeSet(set, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.benchmarks) != 3 || !errors.Is(rep.benchmarks[2].err, errNoIterations) {
		t.Fatalf("%d benchmarks (%+v), want 3, the empty one failing", len(rep.benchmarks), rep.benchmarks)
	}
	a := rep.benchmarks[0]
	if a.err != nil || a.iterations != 6 || a.median != 11 || math.Abs(a.cv-0.07422696) > 1e-8 || a.mean.Estimate != 11 ||
		!(a.mean.Lower < 11 && a.mean.Upper > 11) || a.topUnits() != 2 {
		t.Errorf("alpha: iterations %d median %v CV %v mean %+v top units %d", a.iterations, a.median, a.cv, a.mean, a.topUnits())
	}
	// Compare's base side of the same data has the same interval.
	cmp, err := compareSets(set, runSet{Label: "same", Series: set.Series[:1]}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := resultFor(t, cmp, "org.ex.Bench.alpha", "").Base.Mean; got.Estimate != a.mean.Estimate {
		t.Errorf("Compare's base mean %v, Describe's %v", got, a.mean)
	}
	var b strings.Builder
	if err := (setReports{rep}).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	first := strings.SplitN(out, "\n", 2)[0]
	if !strings.HasPrefix(first, "old.json: 3 benchmarks; 99 % CI of the mean ±") || !strings.HasSuffix(first, "(alpha); 1 not described") {
		t.Errorf("first line %q", first)
	}
	for _, want := range []string{"benchmarks: org.ex.Bench.…", "time/op", "median", "CV", "alpha  ", "11ns ±", "7.4%", "2 forks", "not described (1):\n  empty: no iterations"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	checkWidth(t, out)
}

// TestTextWithinWidth compares benchmarks with names far longer than a
// line and 40 unmatched ones: every line fits width, a long name is
// printed whole on lines of its own (broken after a '.' where it is wider
// than a line) with its row's cells on the next line, and each unmatched
// list names listNames benchmarks and counts the rest.
func TestTextWithinWidth(t *testing.T) {
	long := "org.example.service.internal." + strings.Repeat("VeryLongBenchmarkClassName", 4) + ".method"
	base := []*table.Series{handSeries(long, "v1", []float64{10, 11, 12}, []float64{11, 12, 10})}
	test := []*table.Series{handSeries(long, "v2", []float64{10, 11, 12}, []float64{11, 12, 10})}
	base[0].Params = table.CanonicalParams(map[string]string{"size": "10000"})
	test[0].Params = base[0].Params
	for i := 0; i < 40; i++ {
		base = append(base, handSeries(fmt.Sprintf("org.example.Only%02dInBase", i), "v1", []float64{1, 2}))
		test = append(test, handSeries(fmt.Sprintf("org.example.Only%02dInTest", i), "v2", []float64{1, 2}))
	}
	rep, err := compareSets(runSet{Label: "old", Series: base}, runSet{Label: "new", Series: test}, testOptions(200))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := reportOf(rep).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	checkWidth(t, out)
	lines := strings.Split(out, "\n")
	i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "service.internal.") })
	name := ""
	if i >= 0 {
		name = lines[i]
		for i++; i < len(lines) && strings.HasPrefix(lines[i], "  ") && lines[i][2] != ' '; i++ {
			name += lines[i][2:]
		}
	}
	if name != strings.TrimPrefix(long, "org.example.")+"/size=10000" || i >= len(lines) || !strings.HasPrefix(lines[i], "     ") || !strings.Contains(lines[i], "6+6") {
		t.Errorf("long name not printed whole on lines of its own (%q):\n%s", name, out)
	}
	if strings.Contains(out, "…") && strings.Contains(out, "shortened") {
		t.Errorf("a name was shortened:\n%s", out)
	}
	unwrapped := strings.ReplaceAll(out, "\n  ", " ")
	for _, want := range []string{
		"only in base (40, not compared): Only00InBase, Only01InBase, Only02InBase, Only03InBase, Only04InBase … and 35 more",
		"only in test (40, not compared): Only00InTest,",
	} {
		if !strings.Contains(unwrapped, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
}
