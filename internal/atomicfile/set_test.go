package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// tree is the files under dir, path relative to dir → content.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = string(b)
		return nil
	})
	return out
}

func show(m map[string]string) string {
	var keys []string
	for k, v := range m {
		keys = append(keys, k+"="+v)
	}
	sort.Strings(keys)
	return strings.Join(keys, " ")
}

// oldSet writes the set a previous run left: two files, a folder replaced
// as a whole and a plots folder with a file of the user's.
func oldSet(t *testing.T, dir string) {
	t.Helper()
	for p, v := range map[string]string{"plan.csv": "old plan", "report.html": "old report",
		"out/plan.csv": "old out plan", "out/stale.csv": "old stale", "plots/a.svg": "old a", "plots/mine.txt": "user's"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, p), []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// stage stages the new set into s: plan.csv, report.html, the folder out
// (replaced) and the plots (merged).
func stage(s *Set, dir string) error {
	if err := s.WriteFile(filepath.Join(dir, "plan.csv"), []byte("new plan")); err != nil {
		return err
	}
	p, err := s.Path(filepath.Join(dir, "report.html"))
	if err != nil {
		return err
	}
	if !strings.HasSuffix(p, ".html") || filepath.Dir(p) != dir {
		return fmt.Errorf("Path = %s, want a sibling with the extension .html", p)
	}
	if err := writeFile(p, []byte("new report")); err != nil {
		return err
	}
	out, err := s.Dir(filepath.Join(dir, "out"), true)
	if err != nil {
		return err
	}
	if err := writeFile(filepath.Join(out, "plan.csv"), []byte("new out plan")); err != nil {
		return err
	}
	plots, err := s.Dir(filepath.Join(dir, "plots"), false)
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(plots, "a.svg"), []byte("new a"))
}

var newSet = map[string]string{"plan.csv": "new plan", "report.html": "new report", "out/plan.csv": "new out plan",
	"plots/a.svg": "new a", "plots/mine.txt": "user's"}

var oldSetFiles = map[string]string{"plan.csv": "old plan", "report.html": "old report", "out/plan.csv": "old out plan",
	"out/stale.csv": "old stale", "plots/a.svg": "old a", "plots/mine.txt": "user's"}

// TestSetAllOrNothing: a set fails at each of its four outputs in turn
// and before its commit (Fault) and leaves the old set and no temporary
// file; the
// committed set replaces the files, swaps the folder out whole (its stale
// file goes) and moves the plots in beside the user's file; new folders
// are renamed into place.
func TestSetAllOrNothing(t *testing.T) {
	defer func() { Fault = nil }()
	for fail := 1; fail <= 5; fail++ {
		dir := t.TempDir()
		oldSet(t, dir)
		n := 0
		boom := errors.New("boom")
		Fault = func(string, string) error {
			if n++; n == fail {
				return boom
			}
			return nil
		}
		var s Set
		err := stage(&s, dir)
		if fail == 5 && err == nil {
			err = s.Commit()
		}
		if !errors.Is(err, boom) {
			t.Fatalf("fault at output %d: stage = %v", fail, err)
		}
		s.Abort()
		if got := show(tree(t, dir)); got != show(oldSetFiles) {
			t.Errorf("fault at output %d: %s, want the old set %s", fail, got, show(oldSetFiles))
		}
	}
	Fault = nil
	dir := t.TempDir()
	oldSet(t, dir)
	var s Set
	if err := stage(&s, dir); err != nil {
		t.Fatal(err)
	}
	if got := show(tree(t, dir)); !strings.Contains(got, "plan.csv=old plan") {
		t.Errorf("before Commit: %s", got)
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := show(tree(t, dir)); got != show(newSet) {
		t.Errorf("committed: %s, want %s", got, show(newSet))
	}
	if err := s.Commit(); err == nil {
		t.Error("a second Commit succeeded")
	}
	if fi, err := os.Stat(filepath.Join(dir, "report.html")); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("report.html: %v, %v; want mode 0644", fi, err)
	}
	fresh := t.TempDir()
	var s2 Set
	if err := stage(&s2, fresh); err != nil {
		t.Fatal(err)
	}
	if err := s2.Commit(); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"plan.csv": "new plan", "report.html": "new report", "out/plan.csv": "new out plan", "plots/a.svg": "new a"}
	if got := show(tree(t, fresh)); got != show(want) {
		t.Errorf("into a fresh folder: %s, want %s", got, show(want))
	}
}

// TestSetSignal runs this test binary as a child that stages a set and
// waits before committing it; on SIGINT it exits 130 and leaves the old
// set, without a temporary file or folder.
func TestSetSignal(t *testing.T) {
	if dir := os.Getenv("ATOMICFILE_SET_CHILD_DIR"); dir != "" {
		RemoveOnSignal()
		var s Set
		if err := stage(&s, dir); err != nil {
			os.Exit(3)
		}
		os.WriteFile(filepath.Join(os.Getenv("ATOMICFILE_SET_MARK"), "staged"), nil, 0o644)
		time.Sleep(time.Minute)
		s.Commit()
		return
	}
	dir, mark := t.TempDir(), t.TempDir()
	oldSet(t, dir)
	cmd := exec.Command(os.Args[0], "-test.run", "^TestSetSignal$")
	cmd.Env = append(os.Environ(), "ATOMICFILE_SET_CHILD_DIR="+dir, "ATOMICFILE_SET_MARK="+mark)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFile(t, filepath.Join(mark, "staged"), cmd)
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Errorf("child ended with %v, want exit status 130", err)
	}
	if got := show(tree(t, dir)); got != show(oldSetFiles) {
		t.Errorf("after SIGINT: %s, want the old set %s", got, show(oldSetFiles))
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 4 {
		t.Errorf("temporary entries left: %v", entries)
	}
}

// waitFile waits until the child cmd creates path; it kills the child and
// fails after 30 s.
func waitFile(t *testing.T, path string, cmd *exec.Cmd) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the child never wrote %s", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
