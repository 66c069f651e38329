package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTrimVersionsInFileOrder: trim compares versions in the order of
// its files, as compare does (issue 45: they were sorted by name, so
// `trim old new` reported new → old): given proj-b.txt then proj-a.txt,
// proj-v1.9.0.txt then proj-v1.10.0.txt are compared v1.9.0 → v1.10.0
// (by name, 1.10.0 sorted first), and given the other way round they are
// compared so, with a note that their versions order them otherwise.
func TestTrimVersionsInFileOrder(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, scale float64) string {
		var b strings.Builder
		b.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/p\n")
		for i := 0; i < 20; i++ {
			fmt.Fprintf(&b, "BenchmarkSum-8 \t 1000000\t %.1f ns/op\n", scale*(100+float64(i%7)))
			fmt.Fprintf(&b, "BenchmarkMul-8 \t 1000000\t %.1f ns/op\n", 200+float64(i%5))
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// Lexical order would put v1.10.0 first; the files' order is kept.
	first, second := write("proj-v1.9.0.txt", 1), write("proj-v1.10.0.txt", 2)
	out, stderr, err := runCLI(t, "trim", first, second)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(out, "compare proj v1.9.0 → v1.10.0: 1 slower, 0 faster, 1 without change") || strings.Contains(out+stderr, "versions compared in") {
		t.Errorf("trim proj-v1.9.0.txt proj-v1.10.0.txt does not compare v1.9.0 → v1.10.0 with Sum slower, without a note:\n%s\n%s", out, stderr)
	}
	// Files against their versions' order: kept, with a note.
	out, stderr, err = runCLI(t, "trim", second, first)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(out, "compare proj v1.10.0 → v1.9.0: 0 slower, 1 faster, 1 without change") {
		t.Errorf("trim proj-v1.10.0.txt proj-v1.9.0.txt does not compare v1.10.0 → v1.9.0 with Sum faster:\n%s", out)
	}
	if !strings.Contains(out+stderr, "proj: versions compared in the order of the files, v1.10.0, v1.9.0; by their names they would be v1.9.0, v1.10.0") {
		t.Errorf("no note on the file order against the versions' order:\n%s", stderr)
	}
}
