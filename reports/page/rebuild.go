package page

import (
	"bytes"
	"os"
	"path/filepath"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
)

// Rebuild writes the page of the trim output folder dir (loadDir) to out, what
// benchtrim report does. When out is the folder's report.html, the page
// and the folder's manifest listing it are written as one set; the page
// replaces no other file of the folder.
func Rebuild(dir, out string) error {
	d, err := loadDir(dir)
	if err != nil {
		return err
	}
	var page bytes.Buffer
	if err := writeData(&page, d); err != nil {
		return err
	}
	var set atomicfile.Set
	defer set.Abort()
	if err := set.WriteFile(out, page.Bytes()); err != nil {
		return err
	}
	if sameFile(out, filepath.Join(dir, "report.html")) {
		m, err := manifestWith(dir, "report.html", page.Bytes())
		if err == nil {
			err = set.WriteFile(filepath.Join(dir, manifestName), m)
		}
		if err != nil {
			return err
		}
	}
	return set.Commit()
}

// sameFile reports whether the paths a and b name one file (b may not
// exist yet: then they are compared as absolute paths).
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	pa, _ := filepath.Abs(a)
	pb, _ := filepath.Abs(b)
	return pa == pb
}

// RebuildInputs are the paths of the files of the trim output folder dir
// (DirFiles with these extra files) that a page rebuilt from it may not
// replace: all but report.html.
func RebuildInputs(dir string, extra ...string) []string {
	var ins []string
	for _, f := range DirFiles(extra...) {
		if f != "report.html" {
			ins = append(ins, filepath.Join(dir, f))
		}
	}
	return ins
}
