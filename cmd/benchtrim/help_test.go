package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/synth"
)

// helpSections splits a command's help into its sections ("NAME",
// "USAGE", "EXAMPLES", …) in order, each with its lines.
func helpSections(out string) (names []string, body map[string][]string) {
	body = map[string][]string{}
	cur := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.HasSuffix(l, ":") && l == strings.ToUpper(l) && !strings.HasPrefix(l, " ") {
			cur = strings.TrimSuffix(l, ":")
			names = append(names, cur)
			continue
		}
		body[cur] = append(body[cur], l)
	}
	return names, body
}

// TestHelpExamplesAndFlagGroups: every command's help starts, after NAME
// and USAGE, with two or three examples of real use (a "$ benchtrim CMD"
// line and what it does), then DESCRIPTION and the flags grouped by
// purpose: every flag has a category, and the OPTIONS section lists each
// category once, under its name, in the order of its first flag. Then
// every example runs as printed (globs expanded) where a reader of the
// README runs it: in a directory with the demo's inputs in demo/ and the
// repository's testdata/, the commands in help's order (reconfigure
// writes the dynamic.csv steady reads, trim the folder report reads, and
// so on).
func TestHelpExamplesAndFlagGroups(t *testing.T) {
	var examples [][]string
	for _, cmd := range commands() {
		out, _, err := runCLI(t, cmd.Name, "--help")
		if err != nil {
			t.Fatalf("%s --help: %v", cmd.Name, err)
		}
		names, body := helpSections(out)
		if len(names) < 4 || names[0] != "NAME" || names[1] != "USAGE" || names[2] != "EXAMPLES" || names[len(names)-1] != "OPTIONS" {
			t.Errorf("%s --help: sections %v, want NAME, USAGE, EXAMPLES, …, OPTIONS", cmd.Name, names)
			continue
		}
		var mine [][]string
		ex := body["EXAMPLES"]
		for i, l := range ex {
			if !strings.HasPrefix(l, "   $ ") {
				continue
			}
			words, err := shellWords(strings.TrimPrefix(l, "   $ "))
			if err != nil {
				t.Fatal(err)
			}
			if len(words) < 2 || words[0] != "benchtrim" || words[1] != cmd.Name {
				t.Errorf("%s --help: example %q is not of benchtrim %s", cmd.Name, l, cmd.Name)
			}
			if i+1 >= len(ex) || !strings.HasPrefix(ex[i+1], "      ") || strings.TrimSpace(ex[i+1]) == "" {
				t.Errorf("%s --help: example %q is not followed by what it does", cmd.Name, l)
			}
			mine = append(mine, words)
		}
		if len(mine) < 2 || len(mine) > 3 {
			t.Errorf("%s --help: %d examples, want 2 or 3:\n%s", cmd.Name, len(mine), strings.Join(ex, "\n"))
		}
		examples = append(examples, mine...)

		// Flags by purpose.
		var cats []string
		for _, f := range cmd.Flags {
			cf, ok := f.(cli.CategorizableFlag)
			if !ok || cf.GetCategory() == "" {
				t.Errorf("%s: flag --%s has no category", cmd.Name, f.Names()[0])
				continue
			}
			if c := cf.GetCategory(); len(cats) == 0 || cats[len(cats)-1] != c {
				for _, seen := range cats {
					if seen == c {
						t.Errorf("%s: the flags of category %s are not together (--%s)", cmd.Name, c, f.Names()[0])
					}
				}
				cats = append(cats, c)
			}
		}
		var heads []string
		for _, l := range body["OPTIONS"] {
			if strings.HasPrefix(l, "   ") && !strings.HasPrefix(l, "   -") && !strings.HasPrefix(l, "    ") {
				heads = append(heads, strings.TrimSpace(l))
			}
		}
		if strings.Join(heads, "|") != strings.Join(cats, "|") {
			t.Errorf("%s --help: OPTIONS lists categories %v, want %v", cmd.Name, heads, cats)
		}
	}
	if testing.Short() {
		testenv.Skip(t, "runs every command's examples")
	}
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "demo"), 0o755)
	if _, err := synth.WriteDemoData(filepath.Join(dir, "demo"), 1); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(repoFile("testdata"))
	os.Symlink(abs, filepath.Join(dir, "testdata"))
	t.Chdir(dir)
	// merge's examples combine two shards: steady's example writes the
	// first, and merge's help says how to write the second, which this
	// command does.
	before := map[string][]string{"merge": {"benchtrim", "steady", "--steady-window", "30", "--shard", "1/2", "--partial-out", "s1.partial", "demo/jmh-avgt.json"}}
	if h := help("merge"); !strings.Contains(h, "s0.partial from steady's third\n   example, s1.partial from the same command with --shard 1/2 --partial-out s1.partial") ||
		!strings.Contains(help("steady"), "$ benchtrim steady --steady-window 30 --shard 0/2 --partial-out s0.partial demo/jmh-avgt.json") {
		t.Errorf("merge's help does not say which commands write the partials its examples merge:\n%s", h)
	}
	for _, words := range examples {
		if strings.Join(words, " ") == "benchtrim demo" {
			continue // the README's first command: TestReadmeFirstCommand runs it
		}
		for _, w := range [][]string{before[words[1]], words} {
			if w == nil {
				continue
			}
			var args []string
			for _, a := range w[1:] {
				if m, _ := filepath.Glob(a); strings.ContainsAny(a, "*?[") && len(m) > 0 {
					args = append(args, m...)
					continue
				}
				args = append(args, a)
			}
			var buf bytes.Buffer
			if err := run(append([]string{"benchtrim", "--quiet"}, args...), &buf, &buf); err != nil {
				t.Errorf("$ %s: %v\n%s", strings.Join(w, " "), err, buf.String())
			}
		}
		delete(before, words[1])
	}
}
