package page

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadManifest reads manifests: a good one, and lines that are not a
// manifest's (over 64 KiB, a NUL in a name, a name with a path, twice the
// same name, a bad hash): each bad one is an error naming the manifest and
// its line (issue 47, class 8: a line over 64 KiB ended the manifest
// silently, and the error then blamed another file; a NUL was accepted).
func TestReadManifest(t *testing.T) {
	sum := strings.Repeat("ab", 32)
	good := sum + "  plan.csv\n" + sum + "  steady-forks.csv\n"
	for _, c := range []struct {
		name, text, want string
	}{
		{"good", good, ""},
		{"no final line break", strings.TrimSuffix(good, "\n"), ""},
		{"empty", "", ""},
		{"line over 64 KiB", sum + "  plan.csv\n" + sum + "  " + strings.Repeat("x", 70_000) + "\n" + sum + "  steady-forks.csv\n",
			"manifest.sha256:2: a line of 70066 bytes, longer than a SHA-256 manifest's"},
		{"NUL in a name", sum + "  plan.csv\x00.evil\n", `manifest.sha256:1: file name "plan.csv\x00.evil" holds a NUL`},
		{"path", sum + "  ../plan.csv\n", "manifest.sha256:1: not a line of a SHA-256 manifest"},
		{"dot dot", sum + "  ..\n", "manifest.sha256:1: not a line of a SHA-256 manifest"},
		{"twice", good + sum + "  plan.csv\n", "manifest.sha256:3: plan.csv is listed twice"},
		{"bad hash", "zz" + sum[2:] + "  plan.csv\n", "manifest.sha256:1: not a line of a SHA-256 manifest"},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, manifestName), []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		sums, err := readManifest(dir)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want == "" && c.text != "" && len(sums) != 2:
			t.Errorf("%s: %d names, want 2", c.name, len(sums))
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), filepath.Join(dir, c.want))):
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// FuzzManifest gives readManifest any bytes as a folder's manifest: no
// panic, an error naming the manifest, or names that are plain file names
// of the folder (no NUL, no separator, not . or ..) with 64-digit hashes.
//
//	go test -run '^$' -fuzz '^FuzzManifest$' -fuzztime 60s -fuzzminimizetime 100x ./reports/page/
func FuzzManifest(f *testing.F) {
	sum := strings.Repeat("0f", 32)
	f.Add([]byte(sum + "  plan.csv\n" + sum + "  report.html\n"))
	f.Add([]byte(sum + "  plan.csv\x00\n"))
	f.Add([]byte(sum + " *plan.csv\n"))
	f.Add([]byte("\n\n"))
	dir := f.TempDir()
	path := filepath.Join(dir, manifestName)
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		sums, err := readManifest(dir)
		if err != nil {
			if !strings.HasPrefix(err.Error(), path+":") {
				t.Fatalf("error %q does not name the manifest", err)
			}
			return
		}
		for name, s := range sums {
			if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "\x00/\\\n") || len(s) != 64 {
				t.Fatalf("accepted %q → %q", name, s)
			}
		}
	})
}
