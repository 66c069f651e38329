package duet

import (
	"bytes"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestSweepVersusAllPairs compares the two enumerations on generated async
// duet runs whose B iterations are 0.3, 1 or 2.5 times as long as A's: the
// sweep finds a subset of all pairs, and every pair it misses is of the
// documented kind (SPEC §4.2): one of its iterations overlaps two or more
// iterations of the other pair. The synthetic example of SPEC §4.2 is
// checked exactly.
func TestSweepVersusAllPairs(t *testing.T) {
	// SPEC §4.2: A = [0,10], [11,20]; B = [1,4], [5,9.5], [10.5,19].
	a := []Record{{Pair: 'A', StartNs: 0, EndNs: 100, TimeNs: 100}, {Pair: 'A', Iteration: 1, StartNs: 110, EndNs: 200, TimeNs: 90}}
	b := []Record{{Pair: 'B', StartNs: 10, EndNs: 40, TimeNs: 30}, {Pair: 'B', Iteration: 1, StartNs: 50, EndNs: 95, TimeNs: 45},
		{Pair: 'B', Iteration: 2, StartNs: 105, EndNs: 190, TimeNs: 85}}
	pairs := func(ov []Overlap) [][2]int {
		var out [][2]int
		for _, o := range ov {
			out = append(out, [2]int{o.A, o.B})
		}
		return out
	}
	if got := pairs(sweepOverlaps(a, b)); !slices.Equal(got, [][2]int{{0, 0}, {1, 2}}) {
		t.Errorf("sweep %v, want (A0,B0) (A1,B2)", got)
	}
	if got := pairs(allPairsOverlaps(a, b)); !slices.Equal(got, [][2]int{{0, 0}, {0, 1}, {1, 2}}) {
		t.Errorf("all pairs %v, want (A0,B0) (A0,B1) (A1,B2)", got)
	}

	gs := genGroups(genConfig{Benchmarks: 6, Runs: 10, Iterations: 30, Types: []string{TypeDuet}, Env: "gen",
		BScale: []float64{1, 0.3, 2.5}, NoiseCV: 0.05, Seed: 4})
	var total, missed, missed04 int
	for _, g := range gs {
		for _, r := range runs(g.records) {
			sweep, all := sweepOverlaps(r.A, r.B), allPairsOverlaps(r.A, r.B)
			total += len(all)
			for _, o := range sweep {
				if !slices.ContainsFunc(all, func(x Overlap) bool { return x == o }) {
					t.Fatalf("%s run %d: sweep pair %+v not among all pairs", g.key, r.Run, o)
				}
			}
			for _, o := range all {
				if slices.ContainsFunc(sweep, func(x Overlap) bool { return x == o }) {
					continue
				}
				missed++
				if o.Rate > 0.4 {
					missed04++
				}
				spansA := countOverlapping(r.B, r.A[o.A])
				spansB := countOverlapping(r.A, r.B[o.B])
				if spansA < 2 && spansB < 2 {
					t.Errorf("%s run %d: missed (A%d, B%d), but neither spans two iterations", g.key, r.Run, o.A, o.B)
				}
			}
		}
	}
	t.Logf("all pairs %d, missed by the sweep %d (%d with rate > 0.4)", total, missed, missed04)
	// docs/duet.md (D2) quotes these counts.
	if total != 2718 || missed != 808 || missed04 != 14 {
		t.Errorf("counts changed: all %d, missed %d, %d above 0.4 (docs/duet.md says 2718, 808, 14)", total, missed, missed04)
	}
}

// countOverlapping counts the records of other that overlap x.
func countOverlapping(other []Record, x Record) int {
	n := 0
	for _, o := range other {
		if min(o.EndNs, x.EndNs)-max(o.StartNs, x.StartNs) > 0 {
			n++
		}
	}
	return n
}

// outputs renders every frame as CSV and the text summary.
func outputs(t *testing.T, res *Report) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, name := range tableNames {
		f, err := res.Frame(name)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("# " + name + "\n")
		if err := f.WriteCSV(&b); err != nil {
			t.Fatal(err)
		}
	}
	if err := res.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func smallOptions() Options {
	opt := DefaultOptions()
	opt.Resamples = 999
	opt.Slowdowns = []float64{0, 0.01, 0.02, 0.05, 0.1}
	opt.OverlapRatios = []float64{0.2, 0.4, 0.6}
	return opt
}

// TestDeterministic: the same groups and seed give the same bytes for 1
// and 4 workers and GOMAXPROCS 1 and 2; another seed changes the CIs.
func TestDeterministic(t *testing.T) {
	gs := genGroups(genConfig{Benchmarks: 4, Runs: 8, Iterations: 20, Types: types, Env: "gen", NoiseCV: 0.03, Seed: 2})
	run := func(workers, procs int, seed uint64) []byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		opt := smallOptions()
		opt.Workers, opt.Seed = workers, seed
		res, err := analyze(gs, opt)
		if err != nil {
			t.Fatal(err)
		}
		return outputs(t, res)
	}
	one := run(1, 1, 7)
	if four := run(4, 2, 7); !bytes.Equal(one, four) {
		t.Errorf("1 and 4 workers differ:\n%s\n---\n%s", one, four)
	}
	if other := run(2, 2, 8); bytes.Equal(one, other) {
		t.Error("seeds 7 and 8 give the same output")
	}
}

// TestAAAndAB runs the analysis on generated A/A data (every type should
// mostly call A and B equal, and every emulated slowdown of 10 % should be
// detected) and on A/B data with B 5 % slower (the verdict is "A faster"
// by about 1/1.05 − 1 = −4.8 %).
func TestAAAndAB(t *testing.T) {
	cfg := genConfig{Benchmarks: 6, Runs: 12, Iterations: 20, Types: types, Env: "gen", NoiseCV: 0.02, Seed: 3}
	aa, err := analyze(genGroups(cfg), smallOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range aa.Match {
		if m.Slowdown == 0 && m.CIRatio < 0.6 {
			t.Errorf("A/A %s %s: CI match ratio %v at s = 0", m.Env, m.Type, m.CIRatio)
		}
		if m.Slowdown == 0.1 && (m.MatchCI != 0 || m.MatchU != 0) {
			t.Errorf("%s %s: a 10%% slowdown not detected everywhere: %+v", m.Env, m.Type, m)
		}
	}
	for _, b := range aa.Benchmarks {
		if !(b.MDSCI <= 0.1) || !(b.MDSU <= 0.1) {
			t.Errorf("%s: MDS CI %v, U %v, want ≤ 0.1", b.Key, b.MDSCI, b.MDSU)
		}
		if b.Type == TypeDuet && b.Pairs < b.Runs {
			t.Errorf("%s: %d pairs in %d runs", b.Key, b.Pairs, b.Runs)
		}
	}
	var text bytes.Buffer
	if err := aa.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(text.String(), "\n") {
		if n := len([]rune(line)); n > 100 {
			t.Errorf("line of %d columns: %q", n, line)
		}
	}
	t.Logf("A/A summary:\n%s", text.String())

	cfg.Slower = 0.05
	ab, err := analyze(genGroups(cfg), smallOptions())
	if err != nil {
		t.Fatal(err)
	}
	text.Reset()
	if err := ab.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "largest changes") || !strings.Contains(text.String(), ": A faster by 4.") {
		t.Errorf("A/B summary without the changes:\n%s", text.String())
	}
	for _, line := range strings.Split(text.String(), "\n") {
		if n := len([]rune(line)); n > 100 {
			t.Errorf("line of %d columns: %q", n, line)
		}
	}
	t.Logf("A/B summary:\n%s", text.String())
	for _, b := range ab.Benchmarks {
		if b.Verdict != VerdictAFaster {
			t.Errorf("%s: verdict %q, want %q (CI %+v)", b.Key, b.Verdict, VerdictAFaster, b.CI)
		}
		if want := 1/1.05 - 1; math.Abs(b.Relative-want) > 0.01 || !(b.RelLower <= b.Relative && b.Relative <= b.RelUpper) {
			t.Errorf("%s: relative %v [%v, %v], want about %v", b.Key, b.Relative, b.RelLower, b.RelUpper, want)
		}
	}
}

// TestOptionsValidate: the defaults are valid and bad values are errors.
func TestOptionsValidate(t *testing.T) {
	if err := DefaultOptions().Validate(); err != nil {
		t.Fatal(err)
	}
	o := DefaultOptions()
	if len(o.Slowdowns) != 16 || o.Slowdowns[15] != 0.15 || len(o.OverlapRatios) != 9 || o.OverlapRatios[2] != 0.3 {
		t.Errorf("grids %v %v", o.Slowdowns, o.OverlapRatios)
	}
	for name, mod := range map[string]func(*Options){
		"m=0":         func(o *Options) { o.MinOverlap = 0 },
		"m=1":         func(o *Options) { o.MinOverlap = 1 },
		"ratio":       func(o *Options) { o.OverlapRatios = []float64{1.5} },
		"descending":  func(o *Options) { o.Slowdowns = []float64{0.1, 0.05} },
		"negative s":  func(o *Options) { o.Slowdowns = []float64{-0.1} },
		"warmup":      func(o *Options) { o.Warmup = "first" },
		"enumeration": func(o *Options) { o.Enumeration = "greedy" },
		"speedup":     func(o *Options) { o.Speedup = "ratio" },
		"resamples":   func(o *Options) { o.Resamples = 0 },
		"confidence":  func(o *Options) { o.Confidence = 1 },
		"alpha":       func(o *Options) { o.Alpha = 0 },
		"workers":     func(o *Options) { o.Workers = -1 },
	} {
		o := DefaultOptions()
		mod(&o)
		if o.Validate() == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestWritePlots writes the plots of a small generated analysis.
func TestWritePlots(t *testing.T) {
	gs := genGroups(genConfig{Benchmarks: 2, Runs: 6, Iterations: 12, Types: types, Env: "gen", NoiseCV: 0.03, Seed: 5})
	res, err := analyze(gs, smallOptions())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	n, err := res.WritePlots(dir, "svg", 1)
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if n != 4 || len(names) != 4+1 || names[0] != "index.csv" { // and their index
		t.Errorf("%d plots: %v", n, names)
	}
}
