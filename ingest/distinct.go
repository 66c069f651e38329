package ingest

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
)

// checkDistinct returns an error when two of paths name the same file or
// directory (also through links or paths like ./a/../a) or two files with the same
// content: reading both would pool one recording twice, as if it had
// twice the forks. Contents are hashed (SHA-256) only for files of equal
// size, so distinct inputs cost one stat each. "-" (standard input) is
// skipped; missing files are left for the reader to report.
func checkDistinct(paths []string) error {
	type file struct {
		path string
		info os.FileInfo
		sum  *[sha256.Size]byte
	}
	var files []*file
	for _, p := range paths {
		if p == "-" {
			continue
		}
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() && !fi.IsDir() {
			continue
		}
		f := &file{path: p, info: fi}
		for _, g := range files {
			if os.SameFile(g.info, fi) {
				what := "file"
				if fi.IsDir() {
					what = "directory"
				}
				return fmt.Errorf("%s: same %s as %s, given twice; its runs would be counted twice", p, what, g.path)
			}
			if fi.IsDir() || g.info.IsDir() || g.info.Size() != fi.Size() {
				continue
			}
			for _, h := range []*file{g, f} {
				if h.sum == nil {
					sum, err := hashFile(h.path)
					if err != nil {
						return err
					}
					h.sum = &sum
				}
			}
			if *g.sum == *f.sum {
				return fmt.Errorf("%s: same content as %s (a copy?); its runs would be counted twice", p, g.path)
			}
		}
		files = append(files, f)
	}
	return nil
}

func hashFile(path string) ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	fh, err := os.Open(path)
	if err != nil {
		return sum, err
	}
	defer fh.Close()
	h := sha256.New()
	if _, err := io.Copy(h, fh); err != nil {
		return sum, fmt.Errorf("%s: %w", path, err)
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}
