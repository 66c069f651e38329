package cliapp

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// TestDescribeBuild names each kind of build: a link-time version, a
// module version (go install …@v1.2.3, or a clone's pseudo-version), the
// commit go build recorded, and without any (-buildvcs=false, as CI
// builds) the commit of the source checkout, said to be that.
func TestDescribeBuild(t *testing.T) {
	const rev = "8b4d15975e1364a3700d9e45d3c02580989a4dfc"
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: "2026-12-01T21:40:12Z"}, {Key: "vcs.modified", Value: "true"}}
	checkout := func() (string, string) { return "/src/benchtrim", rev }
	none := func() (string, string) { return "", "" }
	for _, tc := range []struct {
		name     string
		version  string
		settings []debug.BuildSetting
		linked   string
		checkout func() (string, string)
		want     string
	}{
		{"linked", "(devel)", vcs, "v0.4.0-12-g8b4d159", checkout, "v0.4.0-12-g8b4d159 go1.26.8"},
		{"go install", "v1.2.3", nil, "", checkout, "v1.2.3 go1.26.8"},
		{"clone", "v0.0.0-20261201214012-8b4d15975e13+dirty", vcs, "", checkout, "v0.0.0-20261201214012-8b4d15975e13+dirty go1.26.8"},
		{"vcs only", "(devel)", vcs, "", checkout, "commit 8b4d15975e13 of 2026-12-01T21:40:12Z (modified) go1.26.8"},
		{"no vcs, checkout", "(devel)", nil, "", checkout, "(devel) go1.26.8\n  the build recorded no commit (go run, -buildvcs=false, or not built in a git clone);\n" +
			"  its source checkout /src/benchtrim is at commit 8b4d15975e13 now"},
		{"nothing", "", nil, "", none, "(devel) go1.26.8\n  the build recorded no commit (go run, -buildvcs=false, or not built in a git clone)"},
	} {
		bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/benchtrim/benchtrim", Version: tc.version}, Settings: tc.settings}
		if got := describeBuild(bi, true, tc.linked, tc.checkout); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
	if got := describeBuild(nil, false, "", none); !strings.HasPrefix(got, "unknown") {
		t.Errorf("no build info: %q", got)
	}
}

// TestGitHead reads HEAD as git does in a clone (a loose ref, a packed
// ref, a detached HEAD) and in a linked worktree (.git a "gitdir:" file,
// refs in the commondir), and the real checkout's HEAD where git can tell.
func TestGitHead(t *testing.T) {
	const a, b, c = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222", "3333333333333333333333333333333333333333"
	dir := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("clone/.git/HEAD", "ref: refs/heads/main\n")
	write("clone/.git/refs/heads/main", a+"\n")
	write("clone/.git/packed-refs", "# pack-refs with: peeled fully-peeled sorted\n"+b+" refs/heads/old\n")
	write("clone/.git/worktrees/wt/HEAD", "ref: refs/heads/old\n")
	write("clone/.git/worktrees/wt/commondir", "../..\n")
	write("wt/.git", "gitdir: "+filepath.Join(dir, "clone", ".git", "worktrees", "wt")+"\n")
	write("detached/.git/HEAD", c+"\n")
	for _, tc := range []struct{ dotGit, want string }{
		{"clone/.git", a}, {"wt/.git", b}, {"detached/.git", c}, {"missing/.git", ""},
	} {
		if got := gitHead(filepath.Join(dir, filepath.FromSlash(tc.dotGit))); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.dotGit, got, tc.want)
		}
	}
	src, commit := sourceCheckout()
	out, err := exec.Command("git", "-C", src, "rev-parse", "HEAD").Output()
	if src == "" || err != nil {
		t.Logf("no git checkout to compare with (%q, %v)", src, err)
		return
	}
	if want := strings.TrimSpace(string(out)); commit != want {
		t.Errorf("sourceCheckout: %s at %q, git says %q", src, commit, want)
	}
}
