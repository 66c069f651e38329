package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/internal/testenv"
)

// treeOf is every file under dir (path relative to dir → content) and the
// names of temporary files and folders (".NAME.tmp-…") left anywhere.
func treeOf(t *testing.T, dir string) (files map[string]string, temps []string) {
	t.Helper()
	files = map[string]string{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.Contains(e.Name(), ".tmp-") {
			temps = append(temps, p)
		}
		if e.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, temps
}

// sameTree reports the first difference between two trees, "" if none.
func sameTree(a, b map[string]string) string {
	var names []string
	for n := range a {
		names = append(names, n)
	}
	for n := range b {
		if _, ok := a[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		x, okx := a[n]
		y, oky := b[n]
		switch {
		case !okx:
			return n + " appeared"
		case !oky:
			return n + " vanished"
		case x != y:
			return n + " changed"
		}
	}
	return ""
}

// trimSetArgs is a trim run writing a set of four outputs into dir: the
// plan, the commands, the report and the --out-dir folder (outDirFiles:
// the tables that apply to a generated JMH suite recorded with -wi 0, the
// commands, the annotations, the page and the manifest).
func trimSetArgs(t *testing.T, dir string) (in string, args func(seed int) []string) {
	t.Helper()
	in = filepath.Join(t.TempDir(), "proj-v1.json")
	if _, _, err := runCLI(t, "generate", "--benchmarks", "2", "--forks", "2", "--iterations", "60", "-o", in); err != nil {
		t.Fatal(err)
	}
	return in, func(seed int) []string {
		return []string{"--quiet", "--seed", strconv.Itoa(seed), "trim", "--steady-window", "30", "--resamples", "100",
			"-o", filepath.Join(dir, "plan.csv"), "--commands-out", filepath.Join(dir, "run.sh"), "--report", filepath.Join(dir, "r.html"),
			"--out-dir", filepath.Join(dir, "out"), in}
	}
}

// outDirFiles counts trimSetArgs' --out-dir files: plan, steady-forks,
// fork-series, fork-segments, distributions, considered and series tables
// (no duet, CROPS, reconfiguration or version tables apply), commands.sh,
// annotations.java, report.html and the manifest.
const outDirFiles = 11

// TestTrimOutputSetAllOrNothing: trim's outputs (-o, --commands-out,
// --report, --out-dir) are one set. A fault at each output, or before the
// commit, leaves the previous run's set byte for byte and no temporary
// file; the next run replaces all of it. benchtrim report refuses a folder
// whose manifest is missing or whose files do not match it.
func TestTrimOutputSetAllOrNothing(t *testing.T) {
	defer func() { atomicfile.Fault = nil }()
	dir := t.TempDir()
	_, args := trimSetArgs(t, dir)
	if _, stderr, err := runCLI(t, args(1)...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	old, temps := treeOf(t, dir)
	if len(old) != 3+outDirFiles || len(temps) > 0 {
		t.Fatalf("first run wrote %d files (want %d), temporary %v", len(old), 3+outDirFiles, temps)
	}
	for k := 1; k <= 5; k++ {
		n := 0
		atomicfile.Fault = func(event, dest string) error {
			if n++; n == k {
				return fmt.Errorf("injected fault at %s %s", event, dest)
			}
			return nil
		}
		stdout, _, err := runCLI(t, args(2)...)
		if err == nil || !strings.Contains(err.Error(), "injected fault") {
			t.Errorf("fault %d: err = %v", k, err)
		}
		if strings.Contains(stdout, "wrote") {
			t.Errorf("fault %d: says it wrote files:\n%s", k, stdout)
		}
		now, temps := treeOf(t, dir)
		if d := sameTree(old, now); d != "" || len(temps) > 0 {
			t.Errorf("fault %d: %s; temporary files %v", k, d, temps)
		}
	}
	atomicfile.Fault = nil
	if _, _, err := runCLI(t, "report", filepath.Join(dir, "out")); err != nil {
		t.Errorf("report of the old set: %v", err)
	}
	stdout, _, err := runCLI(t, args(2)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"\nwrote " + filepath.Join(dir, "plan.csv") + "\nwrote " + filepath.Join(dir, "run.sh") + "\nwrote " + filepath.Join(dir, "r.html") +
		"\nwrote " + filepath.Join(dir, "out") + " (plan, frames, commands, annotations, report.html)\n"} {
		if !strings.HasSuffix(stdout, w) {
			t.Errorf("stdout ends %q, want %q", stdout[max(0, len(stdout)-300):], w)
		}
	}
	now, _ := treeOf(t, dir)
	for _, f := range []string{"plan.csv", "r.html", "out/plan.csv", "out/report.html", "out/manifest.sha256"} {
		if now[f] == old[f] {
			t.Errorf("%s: the run with another seed did not replace it", f)
		}
	}
	// Folders that are not a complete set.
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		name string
		harm func()
		want string
	}{
		{"no manifest", func() { os.Remove(filepath.Join(out, "manifest.sha256")) },
			out + ": no manifest.sha256: not a complete benchtrim trim --out-dir folder (written by an older build, or interrupted); run trim --out-dir " + out + " again"},
		{"missing file", func() { os.Remove(filepath.Join(out, "steady-forks.csv")) },
			out + ": steady-forks.csv is missing (manifest.sha256 lists it): the folder is not a complete set"},
		{"half-written file", func() {
			b, _ := os.ReadFile(filepath.Join(out, "plan.csv"))
			os.WriteFile(filepath.Join(out, "plan.csv"), b[:len(b)/2], 0o644)
		}, out + ": plan.csv does not match manifest.sha256 (sha256 "},
		{"bad manifest", func() { os.WriteFile(filepath.Join(out, "manifest.sha256"), []byte("plan.csv\n"), 0o644) },
			filepath.Join(out, "manifest.sha256") + `:1: not a line of a SHA-256 manifest (HASH  NAME): "plan.csv"`},
	} {
		if _, _, err := runCLI(t, args(2)...); err != nil {
			t.Fatal(err)
		}
		tc.harm()
		before, _ := treeOf(t, out)
		_, _, err := runCLI(t, "report", out)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: report err = %v, want %q", tc.name, err, tc.want)
		}
		if after, _ := treeOf(t, out); sameTree(before, after) != "" {
			t.Errorf("%s: the refused report changed the folder", tc.name)
		}
	}
	// Rebuilding the page in the folder keeps the manifest true.
	if _, _, err := runCLI(t, args(2)...); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(out, "report.html"))
	if _, _, err := runCLI(t, "report", out); err != nil {
		t.Fatalf("report after report.html was removed: %v", err)
	}
	if err := exec.Command("sha256sum", "--version").Run(); err == nil {
		cmd := exec.Command("sha256sum", "-c", "--quiet", "manifest.sha256")
		cmd.Dir = out
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("sha256sum -c manifest.sha256: %v\n%s", err, b)
		}
	}
}

// TestTrimOutputSetInterrupted runs this test binary as a child that runs
// trim writing a set (TestTrimOutputSetAllOrNothing's) and stops at a
// point of it (after the first output is staged, after the folder is
// staged, with every file written before the commit); SIGINT then ends it
// with status 130 and the previous set stays, byte for byte, without a
// temporary file, and benchtrim report accepts the folder.
func TestTrimOutputSetInterrupted(t *testing.T) {
	if a := os.Getenv("BENCHTRIM_SET_CHILD_ARGS"); a != "" {
		stop := os.Getenv("BENCHTRIM_SET_CHILD_STOP")
		n := 0
		atomicfile.Fault = func(event, dest string) error {
			n++
			if strconv.Itoa(n) == stop {
				// Written aside and renamed, so that the parent, which
				// polls for the mark, never reads it empty.
				mark := os.Getenv("BENCHTRIM_SET_CHILD_MARK")
				os.WriteFile(mark+".tmp", []byte(event+" "+dest), 0o644)
				os.Rename(mark+".tmp", mark)
				time.Sleep(time.Minute)
			}
			return nil
		}
		atomicfile.RemoveOnSignal()
		err := run(append([]string{"benchtrim"}, strings.Split(a, "\x1f")...), os.Stdout, os.Stderr)
		os.Exit(exitCode(err, os.Stderr))
	}
	if testing.Short() {
		testenv.Skip(t, "skipping the child processes in -short mode")
	}
	dir := t.TempDir()
	_, args := trimSetArgs(t, dir)
	if _, stderr, err := runCLI(t, args(1)...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	old, _ := treeOf(t, dir)
	for _, stop := range []struct {
		n    int
		want string
	}{{1, "stage " + filepath.Join(dir, "plan.csv")}, {4, "stage " + filepath.Join(dir, "out")}, {5, "commit "}} {
		mark := filepath.Join(t.TempDir(), "mark")
		cmd := exec.Command(os.Args[0], "-test.run", "^TestTrimOutputSetInterrupted$")
		cmd.Env = append(os.Environ(), "BENCHTRIM_SET_CHILD_ARGS="+strings.Join(args(2), "\x1f"),
			"BENCHTRIM_SET_CHILD_STOP="+strconv.Itoa(stop.n), "BENCHTRIM_SET_CHILD_MARK="+mark)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(60 * time.Second)
		var at []byte
		for {
			var err error
			if at, err = os.ReadFile(mark); err == nil {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatalf("stop %d: the child never got there\n%s", stop.n, stderr.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
		if !strings.HasPrefix(string(at), stop.want) {
			t.Errorf("stop %d: the child stopped at %q, want %q", stop.n, at, stop.want)
		}
		if stop.n == 5 {
			// Every file of the new set is written, none in place.
			_, temps := treeOf(t, dir)
			if len(temps) != 4 {
				t.Errorf("before the commit: temporary outputs %v, want 4 (3 files, 1 folder)", temps)
			}
		}
		cmd.Process.Signal(syscall.SIGINT)
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Errorf("stop %d: child ended with %v, want exit status 130\n%s", stop.n, err, stderr.String())
		}
		if !strings.Contains(stderr.String(), "benchtrim: interrupted (interrupt); outputs not yet in place were removed, none is half-written") {
			t.Errorf("stop %d: stderr %q", stop.n, stderr.String())
		}
		now, temps := treeOf(t, dir)
		if d := sameTree(old, now); d != "" || len(temps) > 0 {
			t.Errorf("stop %d: %s; temporary files %v", stop.n, d, temps)
		}
		if _, _, err := runCLI(t, "report", filepath.Join(dir, "out"), "-o", filepath.Join(t.TempDir(), "p.html")); err != nil {
			t.Errorf("stop %d: report of the folder: %v", stop.n, err)
		}
	}
}
