package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// hostileNamesInput writes a go test -bench file whose benchmark names
// hold bidi controls (an override that makes "BenchmarkParse\u202eesraP"
// display as "BenchmarkParseParse"), right-to-left letters and 20,000
// characters, besides plain ones; it returns the path and the names.
func hostileNamesInput(t *testing.T, dir string) (string, []string) {
	t.Helper()
	names := []string{
		"BenchmarkParse\u202eesraP",
		"BenchmarkIso\u2066\u05e9\u05dc\u05d5\u05dd\u2069Mark\u200f\u061c",
		"BenchmarkRtl\u05e9\u05dc\u05d5\u05dd",
		"BenchmarkLong" + strings.Repeat("x", 20000),
		"BenchmarkPlain",
	}
	rng := rand.New(rand.NewPCG(7, 0))
	var b strings.Builder
	b.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/hostile\n")
	for i, n := range names {
		for k := 0; k < 10; k++ {
			fmt.Fprintf(&b, "%s-8\t1000000\t%.1f ns/op\n", n, float64(100*(i+1))*(1+0.01*rng.NormFloat64()))
		}
	}
	p := filepath.Join(dir, "hostile.txt")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p, names
}

// TestReportIsolatesNames: ingest warns about bidi controls in names, and
// trim's HTML report isolates every name (<bdi>), shows bidi controls as
// escapes (no raw one on the page), and lets a 20,000-character name wrap
// (overflow-wrap:anywhere on cells and names; commands are not nowrap).
func TestReportIsolatesNames(t *testing.T) {
	dir := t.TempDir()
	in, names := hostileNamesInput(t, dir)
	stdout, _, err := runCLI(t, "ingest", "-o", filepath.Join(dir, "t.csv"), in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "warning 2: bidi control in a name") ||
		!strings.Contains(stdout, in+`:4: benchmark "BenchmarkParse\u202eesraP-8" holds bidi controls, which change how names display; stored as "BenchmarkParse\\u202eesraP-8"`) {
		t.Errorf("ingest does not warn about the bidi controls:\n%.2000s", stdout)
	}
	// A canonical table holding raw bidi controls (tables are read as
	// they are): the page shows them as escapes all the same.
	table, err := os.ReadFile(filepath.Join(dir, "t.csv"))
	if err != nil {
		t.Fatal(err)
	}
	raw := filepath.Join(dir, "raw.csv")
	if err := os.WriteFile(raw, []byte(strings.ReplaceAll(string(table), `\u202e`, "\u202e")), 0o644); err != nil {
		t.Fatal(err)
	}
	setups, err := os.ReadFile(filepath.Join(dir, "t.setups.csv"))
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "raw.setups.csv"), []byte(strings.ReplaceAll(string(setups), `\u202e`, "\u202e")), 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	var h string
	for _, input := range []string{in, raw} {
		page := filepath.Join(dir, filepath.Base(input)+".html")
		if _, stderr, err := runCLI(t, "--quiet", "trim", "--resamples", "200", "--report", page, input); err != nil {
			t.Fatalf("%v\n%.2000s", err, stderr)
		}
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		h = string(b)
		if i := strings.IndexFunc(h, func(r rune) bool { return unicode.Is(unicode.Bidi_Control, r) }); i >= 0 {
			t.Errorf("%s: the page holds a bidi control at byte %d: %.80q", page, i, h[i:])
		}
		if !strings.Contains(h, `<bdi>BenchmarkParse\u202eesraP</bdi>`) {
			t.Errorf("%s: no <bdi> holding BenchmarkParse\\u202eesraP", page)
		}
	}
	// The plan table: each benchmark's name (bidi controls escaped, as
	// ingest stored them) is a <bdi>.
	for _, n := range names {
		shown := strings.NewReplacer("\u202e", `\u202e`, "\u2066", `\u2066`, "\u2069", `\u2069`, "\u200f", `\u200f`, "\u061c", `\u061c`).Replace(n)
		if !strings.Contains(h, "<td title=") || !regexp.MustCompile(`<td title="[^"]*"><bdi>`+regexp.QuoteMeta(shown)+`</bdi>`).MatchString(h) {
			t.Errorf("the plan has no <bdi> cell for %.60q", shown)
		}
	}
	for _, rule := range []string{"th,td{border:1px solid #dadce0;padding:3px 6px;text-align:left;vertical-align:top;overflow-wrap:break-word}", "div.wide{overflow-x:auto}",
		"bdi{overflow-wrap:anywhere;word-break:break-word}", "code{font-size:11px;white-space:pre-wrap;overflow-wrap:anywhere}"} {
		if !strings.Contains(h, rule) {
			t.Errorf("the page's CSS lacks %s", rule)
		}
	}
	if strings.Contains(h, "code{font-size:11px;white-space:nowrap") {
		t.Error("commands (which hold the names) do not wrap")
	}
}
