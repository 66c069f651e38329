package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/synth"
)

var update = flag.Bool("update", false, "rewrite the outputs shown in README.md and docs/*.md from what the commands print")

// An example is one "$ benchtrim ARGS" line of a fenced block in README.md
// or docs/*.md with the output shown under it (up to the next "$ " line or
// the end of the block). A last output line "..." shows only a prefix of
// the output.
type example struct {
	file      string
	line      int // 1-based line of the "$ " line
	args      []string
	want      []string
	truncated bool
	// outStart and outEnd delimit the shown output lines (0-based, end
	// exclusive) in the file's lines, for -update.
	outStart, outEnd int
}

// docFiles are the files whose examples TestDocExamples runs.
func docFiles(t *testing.T) []string {
	files := []string{repoFile("README.md")}
	more, err := filepath.Glob(repoFile("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	sub, _ := filepath.Glob(repoFile("docs", "*", "*.md"))
	return append(append(files, more...), sub...)
}

// parseExamples finds the examples of one Markdown file.
func parseExamples(file string, lines []string) ([]*example, error) {
	var out []*example
	var cur *example
	inBlock := false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			if inBlock && cur != nil {
				cur.outEnd = i
			}
			inBlock, cur = !inBlock, nil
			continue
		}
		if !inBlock {
			continue
		}
		if strings.HasPrefix(l, "$ ") {
			if cur != nil {
				cur.outEnd = i
			}
			cmd := strings.TrimPrefix(l, "$ ")
			start := i
			for strings.HasSuffix(cmd, "\\") && i+1 < len(lines) {
				i++
				cmd = strings.TrimSuffix(cmd, "\\") + " " + strings.TrimSpace(lines[i])
			}
			cur = nil
			words, err := shellWords(cmd)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", file, start+1, err)
			}
			if len(words) == 0 || words[0] != "benchtrim" {
				continue
			}
			cur = &example{file: file, line: start + 1, args: words, outStart: i + 1, outEnd: i + 1}
			out = append(out, cur)
			continue
		}
		if cur != nil {
			cur.want = append(cur.want, l)
		}
	}
	for _, e := range out {
		if n := len(e.want); n > 0 && strings.TrimSpace(e.want[n-1]) == "..." {
			e.truncated, e.want = true, e.want[:n-1]
		}
	}
	return out, nil
}

// shellWords splits a command line as a shell would for the examples:
// words separated by blanks, '…' and "…" quoting, no expansions but globs
// (done later).
func shellWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("unterminated quote in %q", s)
			}
			w.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '#' && !inWord:
			i = len(s)
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// TestDocExamples runs every "$ benchtrim …" example of README.md and
// docs/, in order, in a scratch directory that has the repository's
// testdata/, the inputs of `benchtrim demo --dir demo` in demo/, and the
// shared data beside it (../shared), and compares what it prints (stdout
// and stderr, and the error as main prints it) with the output shown.
// Examples that read ../shared are skipped visibly when it is absent.
// go test ./cmd/benchtrim -run TestDocExamples -update rewrites the shown
// outputs.
func TestDocExamples(t *testing.T) {
	work := t.TempDir()
	cwd := filepath.Join(work, "benchtrim")
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(repoFile("testdata"))
	os.Symlink(abs, filepath.Join(cwd, "testdata"))
	// demo/ holds the inputs `benchtrim demo --dir demo` generates (seed 1).
	os.Mkdir(filepath.Join(cwd, "demo"), 0o755)
	if _, err := synth.WriteDemoData(filepath.Join(cwd, "demo"), 1); err != nil {
		t.Fatal(err)
	}
	shared, haveShared := testenv.SharedPath()
	if haveShared {
		os.Symlink(shared, filepath.Join(work, "shared"))
	}
	wd, _ := os.Getwd()
	t.Cleanup(func() { os.Chdir(wd) })
	total := 0
	for _, file := range docFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		exs, err := parseExamples(file, lines)
		if err != nil {
			t.Fatal(err)
		}
		changed := false
		// Rewrite from the last example up, so earlier line numbers hold.
		outs := make([][]string, len(exs))
		for i, e := range exs {
			name := fmt.Sprintf("%s:%d", filepath.Base(file), e.line)
			needsShared := strings.Contains(strings.Join(e.args, " "), "../shared")
			if needsShared && !haveShared {
				t.Run(name, func(t *testing.T) { testenv.Skip(t, "example reads ../shared, which is absent") })
				continue
			}
			total++
			os.Chdir(cwd)
			got := runExample(t, e)
			os.Chdir(wd)
			outs[i] = got
			shown := got
			if e.truncated && len(shown) > len(e.want) {
				shown = shown[:len(e.want)]
			}
			if strings.Join(shown, "\n") != strings.Join(e.want, "\n") || e.truncated && len(e.want) == 0 {
				if *update {
					changed = true
					continue
				}
				t.Errorf("%s: $ %s\nprints:\n%s\nthe docs show:\n%s\n(go test ./cmd/benchtrim -run TestDocExamples -update rewrites the docs)",
					name, strings.Join(e.args, " "), strings.Join(shown, "\n"), strings.Join(e.want, "\n"))
			}
		}
		if changed {
			for i := len(exs) - 1; i >= 0; i-- {
				e := exs[i]
				if outs[i] == nil {
					continue
				}
				shown := outs[i]
				if e.truncated {
					n := len(e.want)
					if n == 0 {
						n = 15 // a new "..." example shows its first lines
					}
					if len(shown) > n {
						shown = append(append([]string(nil), shown[:n]...), "...")
					}
				}
				lines = append(lines[:e.outStart], append(append([]string(nil), shown...), lines[e.outEnd:]...)...)
			}
			if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("rewrote the examples' output in %s", file)
		}
	}
	if total == 0 {
		t.Error("no $ benchtrim examples found in README.md and docs/")
	}
	checkIgnored(t, cwd)
}

// checkIgnored fails for every file or folder in dir (where the examples
// ran, as a reader runs them in the repository root) that the repository's
// .gitignore does not ignore: the examples' outputs must not show up in
// git status.
func checkIgnored(t *testing.T, dir string) {
	t.Helper()
	data, err := os.ReadFile(repoFile(".gitignore"))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() == "testdata" {
			continue
		}
		if !ignoredAtRoot(string(data), e.Name(), e.IsDir()) {
			t.Errorf("the examples write %s in the repository root, which .gitignore does not ignore", e.Name())
		}
	}
}

// ignoredAtRoot reports whether a .gitignore's patterns (the simple forms:
// NAME, /NAME, NAME/, globs) ignore the entry name at the repository root.
func ignoredAtRoot(gitignore, name string, isDir bool) bool {
	ignored := false
	for _, p := range strings.Split(gitignore, "\n") {
		p = strings.TrimSpace(p)
		if p == "" || strings.HasPrefix(p, "#") {
			continue
		}
		negate := strings.HasPrefix(p, "!")
		p = strings.TrimPrefix(p, "!")
		if strings.HasSuffix(p, "/") {
			if !isDir {
				continue
			}
			p = strings.TrimSuffix(p, "/")
		}
		p = strings.TrimPrefix(p, "/")
		if ok, _ := filepath.Match(p, name); ok {
			ignored = !negate
		}
	}
	return ignored
}

// TestReadmeFirstCommand does what a reader of README.md does on a fresh
// checkout: the first command of its first block (go run ./cmd/benchtrim
// demo, run here in-process in an empty directory), then a README example
// that reads demo/, which must print what the README shows.
func TestReadmeFirstCommand(t *testing.T) {
	if testing.Short() {
		testenv.Skip(t, "runs the whole demo (about 10 s of CPU)")
	}
	data, err := os.ReadFile(repoFile("README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var cmds []string
	for i, inBlock := 0, false; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if strings.HasPrefix(l, "```") {
			if inBlock {
				break
			}
			inBlock = true
			continue
		}
		if inBlock && l != "" {
			cmd, _, _ := strings.Cut(l, "#")
			cmds = append(cmds, strings.TrimSpace(cmd))
		}
	}
	if len(cmds) != 2 || cmds[1] != "go test ./..." {
		t.Fatalf("README.md starts with %q; want two commands, the demo and go test ./...", cmds)
	}
	const goRun = "go run ./cmd/benchtrim "
	if !strings.HasPrefix(cmds[0], goRun) {
		t.Fatalf("README.md's first command is %q; want %s…", cmds[0], goRun)
	}
	words, err := shellWords(strings.TrimPrefix(cmds[0], goRun))
	if err != nil {
		t.Fatal(err)
	}
	exs, err := parseExamples("README.md", lines)
	if err != nil {
		t.Fatal(err)
	}
	var ex *example
	for _, e := range exs {
		if e.args[1] == "export" && strings.HasPrefix(e.args[len(e.args)-1], "demo/") {
			ex = e
		}
	}
	if ex == nil {
		t.Fatal("README.md has no export example reading demo/")
	}

	dir := t.TempDir()
	wd, _ := os.Getwd()
	t.Cleanup(func() { os.Chdir(wd) })
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(append([]string{"benchtrim"}, words...), &out, &out); err != nil {
		t.Fatalf("$ %s: %v\n%s", cmds[0], err, out.String())
	}
	got := runExample(t, ex)
	if strings.Join(got, "\n") != strings.Join(ex.want, "\n") {
		t.Errorf("after $ %s, README.md:%d: $ %s\nprints:\n%s\nthe README shows:\n%s",
			cmds[0], ex.line, strings.Join(ex.args, " "), strings.Join(got, "\n"), strings.Join(ex.want, "\n"))
	}
	os.Chdir(wd)
	checkIgnored(t, dir)
}

// runExample runs one example's command line in the working directory
// (globs expanded) and returns its output lines as a person would see
// them: stdout and stderr in order, then the error as main prints it.
func runExample(t *testing.T, e *example) []string {
	t.Helper()
	var args []string
	for _, a := range e.args[1:] {
		if strings.ContainsAny(a, "*?[") {
			if m, _ := filepath.Glob(a); len(m) > 0 {
				args = append(args, m...)
				continue
			}
		}
		args = append(args, a)
	}
	var buf bytes.Buffer
	err := run(append([]string{"benchtrim"}, args...), &buf, &buf)
	exitCode(err, &buf)
	out := strings.TrimRight(buf.String(), "\n")
	if out == "" {
		return []string{}
	}
	return strings.Split(out, "\n")
}
