package duet

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/table"
)

// TestArtifactsThatAreNotText: an lscpu of 1 MiB of NUL bytes, a meminfo
// of invalid UTF-8, a uname of 100 KiB and a date that is no output of
// date(1) were read as "nothing suspicious". Each is now a warning naming
// the file; the non-text ones are stored as "" and the rows are all read.
func TestArtifactsThatAreNotText(t *testing.T) {
	dir := writeInvocation(t, t.TempDir(), "cirrus04", "not a date at all")
	art := filepath.Join(dir, "artifacts")
	write(t, filepath.Join(art, "lscpu"), strings.Repeat("\x00", 1<<20))
	write(t, filepath.Join(art, "meminfo"), "MemTotal: \xff\xfe 1 kB\n")
	write(t, filepath.Join(art, "uname"), strings.Repeat("Linux ", 100<<10/6+1))

	tab, rep := readDir(t, dir, 0)
	if n := tab.NumRows(); n != 12 {
		t.Errorf("%d rows, want 12", n)
	}
	want := strings.Join([]string{
		filepath.Join(art, "lscpu") + ": NUL byte at offset 0: not the output of lscpu, stored as \"\"",
		filepath.Join(art, "meminfo") + ": invalid UTF-8: not the output of meminfo, stored as \"\"",
		filepath.Join(art, "uname") + ": 102402 bytes (more than 65536): not the output of uname, stored as \"\"",
	}, "\n")
	if got := ingesttest.Examples(rep, kindBadArtifact); rep.Count(kindBadArtifact) != 3 || !sameLines(got, want) {
		t.Errorf("%d bad artifacts:\n%s\nwant\n%s", rep.Count(kindBadArtifact), got, want)
	}
	wantDate := filepath.Join(art, "date") + `: date "not a date at all": not an output of date(1)`
	if got := ingesttest.Examples(rep, kindBadDate); got != wantDate {
		t.Errorf("date: %q, want %q", got, wantDate)
	}
	env := tab.Setups[0].Env
	for k, v := range map[string]string{"instance.1.lscpu": "", "instance.1.meminfo": "", "instance.1.uname": "",
		"instance.1.date": "not a date at all", "instance.1.hostname": "cirrus04"} {
		if env[k] != v {
			t.Errorf("%s = %q, want %q", k, env[k], v)
		}
	}
}

// readDir reads the duetbench directory dir with ReadDir into a table of
// batches of batch rows (0: the default) from a checked allocator; the
// table is released, and the allocator checked for leaks, when t ends.
func readDir(t *testing.T, dir string, batch int) (*table.Table, *ingest.Summary) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	b := table.NewBuilder(mem, batch)
	defer b.Release()
	rep := &ingest.Summary{}
	if err := (format{}).ReadDir(dir, ingest.Source{}, b, rep); err != nil {
		t.Fatal(err)
	}
	tab := b.Finish()
	t.Cleanup(func() {
		tab.Release()
		mem.AssertSize(t, 0)
	})
	return tab, rep
}

// sameLines reports whether a and b hold the same lines in any order.
func sameLines(a, b string) bool {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	if len(x) != len(y) {
		return false
	}
	seen := map[string]int{}
	for _, l := range x {
		seen[l]++
	}
	for _, l := range y {
		if seen[l]--; seen[l] < 0 {
			return false
		}
	}
	return true
}
