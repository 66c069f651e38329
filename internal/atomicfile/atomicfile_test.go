package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplacesOnlyOnSuccess(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := WriteFile(path, []byte("first")); err != nil {
		t.Fatal(err)
	}
	failure := errors.New("boom")
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, "partial")
		return failure
	})
	if !errors.Is(err, failure) {
		t.Fatalf("Write error = %v, want wrapped %v", err, failure)
	}
	got, _ := os.ReadFile(path)
	if string(got) != "first" {
		t.Errorf("after failed write file holds %q, want %q", got, "first")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	if err := WriteFile(path, []byte("second")); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(path)
	if string(got) != "second" {
		t.Errorf("file holds %q, want %q", got, "second")
	}
}
