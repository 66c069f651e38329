package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckDistinct(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a", "r.json")
	os.MkdirAll(filepath.Dir(a), 0o755)
	os.WriteFile(a, []byte(`[{"x":1}]`), 0o644)
	b := filepath.Join(dir, "b.json")
	os.WriteFile(b, []byte(`[{"x":2}]`), 0o644) // same size, other content
	c := filepath.Join(dir, "c.json")
	os.WriteFile(c, []byte(`[{"x":1}]`), 0o644) // a copy of a
	link := filepath.Join(dir, "link.json")
	os.Symlink(a, link)
	dotdot := filepath.Join(dir, "a", "..", "a", "r.json")
	for _, tc := range []struct {
		paths []string
		want  string
	}{
		{[]string{a, b}, ""},
		{[]string{a, b, "-", filepath.Join(dir, "missing.json")}, ""},
		{[]string{a, dotdot}, "r.json: same file as " + a},
		{[]string{a, link}, "link.json: same file as " + a},
		{[]string{a, b, c}, "c.json: same content as " + a},
		{[]string{filepath.Join(dir, "a"), filepath.Join(dir, "a", "..", "a")}, "same directory as " + filepath.Join(dir, "a")},
		{[]string{filepath.Join(dir, "a"), a, dir}, ""},
	} {
		err := checkDistinct(tc.paths)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%v: err %v, want %q", tc.paths, err, tc.want)
		}
	}
}
