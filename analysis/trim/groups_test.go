package trim

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/analysis/optimize"
	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/table"
)

// TestBoxesAreExact: on seeded random sets of names (of 1 to 3 levels
// from small alphabets, so that rectangles are likely), the boxes cover
// every name once and hold no other, and the -bench patterns match
// exactly the names, of all the leaves a package with them could have,
// under go test's reading of a pattern (benchMatches).
func TestBoxesAreExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 5))
	values := [][]string{{"BenchmarkSum", "BenchmarkSumAll", "BenchmarkHash"}, {"n=10", "n=100", "n=1000", "sha256", "a+b", "p|q"}, {"fast", "slow", "size=64", "(x)", "[y]"}}
	for trial := 0; trial < 300; trial++ {
		all := map[string][]string{}
		for n := 1 + rng.IntN(20); n > 0; n-- {
			depth := 1 + rng.IntN(3)
			name := make([]string, depth)
			for l := range name {
				name[l] = values[l][rng.IntN(len(values[l]))]
			}
			all[strings.Join(name, "/")] = name
		}
		// A name is a leaf: drop names that are a prefix of another.
		var names [][]string
		for k, n := range all {
			leaf := true
			for o := range all {
				leaf = leaf && !strings.HasPrefix(o, k+"/")
			}
			if leaf {
				names = append(names, n)
			}
		}
		sort.Slice(names, func(i, j int) bool { return lessNames(names[i], names[j]) })
		want := map[string]bool{}
		for _, n := range names {
			want[strings.Join(n, "/")] = true
		}
		got := map[string]int{}
		bs := boxes(names)
		for _, b := range bs {
			for _, n := range b.names() {
				got[strings.Join(n, "/")]++
			}
		}
		for k, c := range got {
			if !want[k] || c != 1 {
				t.Fatalf("names %q: boxes %q hold %s %d times", names, bs, k, c)
			}
		}
		if len(got) != len(want) || len(bs) > len(names) {
			t.Fatalf("names %q: boxes %q", names, bs)
		}
		for _, max := range []int{1 << 20, 40} {
			pats := goPatterns(bs, max)
			for name := range universe(values) {
				// A package's benchmarks are a tree's leaves: no name
				// there extends one of the group's or is extended by one.
				related := false
				for w := range want {
					related = related || strings.HasPrefix(w, name+"/") || strings.HasPrefix(name, w+"/")
				}
				if related {
					continue
				}
				n := 0
				for _, p := range pats {
					if benchMatches(t, p, strings.Split(name, "/")) {
						n++
					}
				}
				if leaf := want[name]; (n == 1) != leaf || n > 1 {
					t.Fatalf("names %q, patterns %q: %s matched by %d, want %v", names, pats, name, n, leaf)
				}
			}
		}
	}
	// The example merges into one box per level set.
	bs := boxes([][]string{{"BenchmarkSum", "n=10", "fast"}, {"BenchmarkSum", "n=10", "slow"}, {"BenchmarkSum", "n=1000", "fast"}, {"BenchmarkSum", "n=1000", "slow"}, {"BenchmarkSum", "n=100", "slow"}})
	if got, want := goPatterns(bs, 1<<20), []string{`^BenchmarkSum$/^(n=10|n=1000)$/^(fast|slow)$|^BenchmarkSum$/^n=100$/^slow$`}; !reflect.DeepEqual(got, want) {
		t.Errorf("pattern %q, want %q", got, want)
	}
}

// names lists b's cross product.
func (b box) names() [][]string {
	out := [][]string{nil}
	for _, vs := range b {
		var next [][]string
		for _, n := range out {
			for _, v := range vs {
				next = append(next, append(append([]string{}, n...), v))
			}
		}
		out = next
	}
	return out
}

// universe is every name of 1 to 3 levels from values.
func universe(values [][]string) map[string]bool {
	out := map[string]bool{}
	var walk func(prefix string, l int)
	walk = func(prefix string, l int) {
		if l == len(values) {
			return
		}
		for _, v := range values[l] {
			n := v
			if prefix != "" {
				n = prefix + "/" + v
			}
			out[n] = true
			walk(n, l+1)
		}
	}
	walk("", 0)
	return out
}

// benchMatches is whether go test -bench pattern runs the leaf benchmark
// name (its levels), as the testing package documents it (go help
// testflag, Go 1.18 and later): the pattern splits at '|' and '/' outside
// brackets and parentheses ('\' escapes the next byte) into alternatives
// of one regexp per level; a leaf runs when an alternative's regexps
// match its levels, the alternative having no more levels than the name
// (a shorter one runs every sub-benchmark below it).
func benchMatches(t *testing.T, pattern string, name []string) bool {
	var alts [][]string
	var cur []string
	depthB, depthP, start := 0, 0, 0
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; {
		case c == '\\':
			i++
		case c == '[':
			depthB++
		case c == ']' && depthB > 0:
			depthB--
		case c == '(' && depthB == 0:
			depthP++
		case c == ')' && depthB == 0:
			depthP--
		case (c == '/' || c == '|') && depthB == 0 && depthP == 0:
			cur = append(cur, pattern[start:i])
			start = i + 1
			if c == '|' {
				alts, cur = append(alts, cur), nil
			}
		}
	}
	alts = append(alts, append(cur, pattern[start:]))
	for _, alt := range alts {
		if len(alt) > len(name) {
			continue
		}
		ok := true
		for l, p := range alt {
			re, err := regexp.Compile(p)
			if err != nil {
				t.Fatalf("pattern %q level %q: %v", pattern, p, err)
			}
			ok = ok && re.MatchString(name[l])
		}
		if ok {
			return true
		}
	}
	return false
}

// TestGoPatternLongGroups: a group whose pattern would be too long for
// one argument runs as several commands, each a part of the boxes.
func TestGoPatternLongGroups(t *testing.T) {
	var names [][]string
	for i := 0; i < 50; i++ {
		names = append(names, []string{fmt.Sprintf("BenchmarkX%02d", i), fmt.Sprintf("k=%d", i)})
	}
	pats := goPatterns(boxes(names), 200)
	if len(pats) < 5 {
		t.Fatalf("%d patterns for 50 boxes of ~25 bytes under 200 bytes", len(pats))
	}
	n := 0
	for _, p := range pats {
		if len(p) > 200 {
			t.Errorf("pattern of %d bytes: %q", len(p), p)
		}
		n += strings.Count(p, "|") + 1
	}
	if n != 50 {
		t.Errorf("%d alternatives, want 50", n)
	}
}

// TestCommandStartups: two Go benchmarks of a package recorded in one
// go test process and trimmed to different -count values run in two
// commands; the suite's times count one start-up recorded, two planned
// (twice each for 2 repeats) and one for the fixed minimum; an older
// version's runs are in the times but not in the script.
func TestCommandStartups(t *testing.T) {
	goCmd := func(name string, count, repeat int) optimize.Command {
		return optimize.Command{Tool: "go", Args: []string{"go", "test", "-run", "^$", "-bench", "^" + name + "$", "-count", strconv.Itoa(count), "-benchtime", "1s", "p"},
			Select: [2]int{5, 6}, Name: []string{name}, Repeat: repeat, Instances: 1}
	}
	bench := func(version, name string, rec, after int) Benchmark {
		return Benchmark{Key: table.Key{Project: "p", Version: version, Benchmark: name, Mode: "go"}, Tool: "go",
			RecordedCommand: goCmd(name, 10, 1), Command: goCmd(name, after, 2), CommandStartupNs: 5e8,
			Recorded: Config{TimeNs: int64(rec) * 1e9}, Recommended: Config{TimeNs: int64(after) * 2e9}}
	}
	bs := []Benchmark{bench("v1", "BenchmarkA", 10, 4), bench("v1", "BenchmarkB", 10, 5), bench("v2", "BenchmarkA", 10, 4), bench("v2", "BenchmarkB", 10, 4)}
	tot := totals(bs, false)
	if tot.StartupBeforeNs != 2*5e8 || tot.CommandRunsBefore != 2 || tot.StartupAfterNs != (2+1)*2*5e8 || tot.CommandRunsAfter != 6 || tot.StartupMinimumNs != 2*5e8 {
		t.Errorf("start-ups %d (%d runs) → %d (%d runs), minimum %d", tot.StartupBeforeNs, tot.CommandRunsBefore, tot.StartupAfterNs, tot.CommandRunsAfter, tot.StartupMinimumNs)
	}
	if tot.TimeBeforeNs != 40e9+2*5e8 || tot.TimeAfterNs != (8+10+8+8)*1e9+6*5e8 {
		t.Errorf("times %d → %d", tot.TimeBeforeNs, tot.TimeAfterNs)
	}
	r := &Report{Benchmarks: bs, Totals: tot, Versions: []VersionComparison{{Project: "p", Base: "v1", Test: "v2"}}}
	var b strings.Builder
	if err := r.WriteCommands(&b); err != nil {
		t.Fatal(err)
	}
	want := "for run in 1 2; do go test -run '^$' -bench '^(BenchmarkA|BenchmarkB)$' -count 4 -benchtime 1s p; done\n"
	if s := b.String(); !strings.Contains(s, want) || strings.Count(s, "go test -run") != 1 || strings.Contains(s, "v1 ") ||
		!strings.Contains(s, "# These commands (each project's last version): 17 s, of which 1 s the start of 2 go test processes.") {
		t.Errorf("script:\n%s\nwant the v2 runs in one command %q", s, want)
	}
}

// TestRealJMHCommands: trim's commands for real JMH files repeat what
// the files recorded: 101jmh's 12 threads, its two heap flags and -prof
// gc (its ·gc.* metrics); weightedlottery's -prof gc without the
// IntelliJ agent of its jvmArgs (a note says so); countsquares' params.
func TestRealJMHCommands(t *testing.T) {
	dir := testenv.Shared(t, "data", "jmh")
	for _, tc := range []struct {
		file string
		want []string
		not  string
	}{
		{"101jmh_avgt_gcprof-dot-prefix_12threads_jmh1.23.json", []string{" -bm avgt -t 12 -jvmArgs -Xmx6144m -jvmArgs -Xms6144m -prof gc\n"}, "idea_rt"},
		{"weightedlottery_avgt_gcchurn_missing-fork_jmh1.21.json", []string{" -t 1 -jvmArgs -Dfile.encoding=UTF-8 -prof gc\n", "# note: IntelliJ's launcher agent of the recording left out of -jvmArgs\n"}, "idea_rt"},
		{"countsquares_avgt_gcprof_params_ragged-gctime_jmh1.37.json", []string{"-p dist=GRID -p n=1024 -f ", " -jvmArgs -Duser.variant -prof gc\n"}, "BenchtrimParams"},
	} {
		tab := readFiles(t, filepath.Join(dir, tc.file))
		opt := fastOptions()
		opt.Splits = 0
		rep, err := Run(tab, opt)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := rep.WriteCommands(&b); err != nil {
			t.Fatal(err)
		}
		s := b.String()
		n := strings.Count(s, "\njava -jar benchmarks.jar ")
		if n != len(rep.Benchmarks) {
			t.Errorf("%s: %d commands for %d benchmark runs", tc.file, n, len(rep.Benchmarks))
		}
		for _, w := range tc.want {
			if c := strings.Count(s, w); c == 0 || (w[len(w)-1] == '\n' && w[0] != '#' && c != n) {
				t.Errorf("%s: %d of %d commands have %q:\n%s", tc.file, c, n, w, s)
			}
		}
		if strings.Contains(s, tc.not) {
			t.Errorf("%s: the script holds %q", tc.file, tc.not)
		}
	}
}
