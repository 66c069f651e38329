package cliapp

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"
)

// linkedVersion is the version a packager or a build without VCS
// information (CI builds with -buildvcs=false) sets at link time:
//
//	go build -ldflags "-X github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp.linkedVersion=$(git describe --always --dirty)" ./cmd/benchtrim
var linkedVersion string

// describeBuild names a build for --version and benchtrim version, from
// the first of: the link-time version (linkedVersion); the module version
// of go install …@v1.2.3 or of a build in a clone (a pseudo-version such
// as v0.0.0-20261201214012-8b4d15975e13 names the commit); the commit go
// build recorded (vcs.revision, vcs.time, vcs.modified); else the commit
// the source checkout the binary was built from is at now (checkout; read
// at run time, so it is said to be that), and that the build recorded
// none, on the lines that follow. The Go version follows the version.
func describeBuild(bi *debug.BuildInfo, ok bool, linked string, checkout func() (dir, commit string)) string {
	if !ok {
		return "unknown (no build information)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, when string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	short := func(c string) string { return c[:min(12, len(c))] }
	switch {
	case linked != "":
		v = linked
	case v != "(devel)":
		if modified && !strings.Contains(v, "+dirty") {
			v += " (modified)"
		}
	case rev != "":
		v = "commit " + short(rev)
		if when != "" {
			v += " of " + when
		}
		if modified {
			v += " (modified)"
		}
	default:
		note := "\n  the build recorded no commit (go run, -buildvcs=false, or not built in a git clone)"
		if dir, commit := checkout(); commit != "" {
			note += ";\n  its source checkout " + dir + " is at commit " + short(commit) + " now"
		}
		return v + " " + bi.GoVersion + note
	}
	return v + " " + bi.GoVersion
}

// sourceCheckout is the directory of the git checkout this binary's
// sources were compiled from and the commit its HEAD names now ("" when
// the sources are not on this machine, were built with -trimpath, or are
// not in a git checkout). It reads .git itself (a directory, or a
// worktree's "gitdir:" file), without running git.
func sourceCheckout() (dir, commit string) {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return "", ""
	}
	for dir = filepath.Dir(file); ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir, gitHead(filepath.Join(dir, ".git"))
		}
		if parent := filepath.Dir(dir); parent == dir {
			return "", ""
		}
	}
}

// gitHead is the commit HEAD names in the git directory at dotGit (a
// directory, or a file "gitdir: PATH" of a linked worktree, whose refs live
// in the directory its commondir file names), following one symbolic ref
// through refs/ and packed-refs; "" when it cannot be read.
func gitHead(dotGit string) string {
	gitDir := dotGit
	if b, err := os.ReadFile(dotGit); err == nil {
		p, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
		if !ok {
			return ""
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(dotGit), p)
		}
		gitDir = p
	}
	common := gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		if c := strings.TrimSpace(string(b)); filepath.IsAbs(c) {
			common = c
		} else {
			common = filepath.Join(gitDir, c)
		}
	}
	head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return ""
	}
	ref, symbolic := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: ")
	if !symbolic {
		return hexCommit(ref)
	}
	for _, d := range []string{gitDir, common} {
		if b, err := os.ReadFile(filepath.Join(d, filepath.FromSlash(ref))); err == nil {
			return hexCommit(strings.TrimSpace(string(b)))
		}
	}
	f, err := os.Open(filepath.Join(common, "packed-refs"))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if hash, name, ok := strings.Cut(sc.Text(), " "); ok && name == ref {
			return hexCommit(hash)
		}
	}
	return ""
}

// hexCommit is s when it is a full SHA-1 or SHA-256 commit id, else "".
func hexCommit(s string) string {
	if len(s) != 40 && len(s) != 64 || strings.Trim(s, "0123456789abcdef") != "" {
		return ""
	}
	return s
}

// versionCommand is benchtrim version: what --version prints.
func versionCommand() *cli.Command {
	return &cli.Command{Name: "version", Usage: "print the version and exit (as --version)", Action: func(c *cli.Context) error {
		cli.ShowVersion(c)
		return nil
	}}
}
