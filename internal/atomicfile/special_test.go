//go:build unix

package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchtrim/benchtrim/internal/testenv"
)

// specialFiles makes, in dir, the destinations issue 47 found replaced:
// a FIFO, a character device (the device numbers of /dev/null, made with
// mknod, when running as root: never the real /dev/null) and symbolic
// links to them.
func specialFiles(t *testing.T, dir string) map[string]fs.FileMode {
	t.Helper()
	out := map[string]fs.FileMode{}
	fifo := filepath.Join(dir, "fifo.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	out[fifo] = fs.ModeNamedPipe
	link := filepath.Join(dir, "to-fifo.csv")
	os.Symlink("fifo.csv", link)
	out[link] = fs.ModeNamedPipe
	if os.Geteuid() == 0 {
		dev := filepath.Join(dir, "null.csv")
		if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, int(1<<8|3)); err != nil {
			t.Fatal(err)
		}
		out[dev] = fs.ModeDevice | fs.ModeCharDevice
	} else {
		testenv.Skip(t, "not root: no character device of its own (mknod); FIFOs only")
	}
	return out
}

// TestWriteRefusesSpecialFiles checks that Write and a Set refuse every
// destination that exists and is not a regular file, at once (a FIFO
// without a reader would block an open for writing) and leaving it what
// it was (issue 47, class 2: such files became regular files).
func TestWriteRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	special := specialFiles(t, dir)
	for path, mode := range special {
		done := make(chan [2]error, 1)
		go func() {
			werr := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err })
			var s Set
			_, serr := s.Path(path)
			s.Abort()
			done <- [2]error{werr, serr}
		}()
		var errs [2]error
		select {
		case errs = <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Write has not returned", path)
		}
		for _, err := range errs {
			var de *DestinationError
			if !errors.As(err, &de) || !strings.Contains(err.Error(), "not a regular file; refusing to replace it") {
				t.Errorf("%s: error %v, want a DestinationError", path, err)
			}
		}
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Type() != mode {
			t.Errorf("%s: now %v (%v), want it still %v", path, fi.Mode(), err, mode)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != len(special) {
		t.Errorf("temporary files left: %v", entries)
	}
}

// TestWriteThroughLinks checks that a symbolic link to a regular file stays
// a link and its target gets the bytes, that a link to nothing is refused,
// and that "-", /dev/stdout and links to /proc/self/fd/1 or /dev/stdout
// get the bytes in place (Stdout), the link left as it was.
func TestWriteThroughLinks(t *testing.T) {
	dir := t.TempDir()
	target, link := filepath.Join(dir, "target.csv"), filepath.Join(dir, "link.csv")
	os.WriteFile(target, []byte("old"), 0o644)
	os.Symlink("target.csv", link)
	if err := writeFile(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(target); string(got) != "new" {
		t.Errorf("target holds %q, want new", got)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("link.csv is no longer a link (%v)", err)
	}
	dangling := filepath.Join(dir, "dangling.csv")
	os.Symlink("missing.csv", dangling)
	if err := writeFile(dangling, []byte("x")); err == nil || !strings.Contains(err.Error(), "which does not exist") {
		t.Errorf("dangling link: error %v", err)
	}

	var out bytes.Buffer
	defer func(w io.Writer) { Stdout = w }(Stdout)
	Stdout = &out
	fd1, devStdout := filepath.Join(dir, "fd1.csv"), filepath.Join(dir, "stdout.csv")
	os.Symlink("/proc/self/fd/1", fd1)
	os.Symlink("/dev/stdout", devStdout)
	for _, p := range []string{"-", "/dev/stdout", fd1, devStdout} {
		out.Reset()
		if err := writeFile(p, []byte("a,b\n")); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		var s Set
		tmp, err := s.Path(p)
		if err == nil {
			err = os.WriteFile(tmp, []byte("c\n"), 0o644)
		}
		if err == nil {
			err = s.Commit()
		}
		if err != nil || out.String() != "a,b\nc\n" {
			t.Errorf("%s: stdout got %q (%v), want the bytes of both writes", p, out.String(), err)
		}
	}
	for _, p := range []string{fd1, devStdout} {
		if fi, err := os.Lstat(p); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link (%v)", p, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 5 {
		t.Errorf("files left: %v", entries)
	}
}
