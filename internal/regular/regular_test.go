//go:build unix

package regular

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOpen opens a regular file (also through a symbolic link) and refuses
// a FIFO without a writer, /dev/zero, a directory and a link to a FIFO at
// once, naming what they are.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	file, fifo := filepath.Join(dir, "f"), filepath.Join(dir, "fifo")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	linkFile, linkFifo := filepath.Join(dir, "lf"), filepath.Join(dir, "lp")
	os.Symlink(file, linkFile)
	os.Symlink(fifo, linkFifo)
	for _, p := range []string{file, linkFile} {
		f, err := Open(p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		f.Close()
	}
	for p, want := range map[string]string{fifo: "a named pipe (FIFO)", linkFifo: "a named pipe (FIFO)",
		"/dev/zero": "a character device", dir: "a directory"} {
		done := make(chan error, 1)
		go func() {
			_, err := ReadFile(p, 1<<20)
			done <- err
		}()
		select {
		case err := <-done:
			var nr *NotRegularError
			if !errors.As(err, &nr) || !strings.Contains(err.Error(), p+": is "+want+", not a regular file") {
				t.Errorf("%s: error %v, want it to say %s", p, err, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: ReadFile has not returned", p)
		}
	}
	if _, err := ReadFile(file, 0); err == nil || !strings.Contains(err.Error(), "longer than 0 bytes") {
		t.Errorf("limit: %v", err)
	}
}
