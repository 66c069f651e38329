package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

func TestWriteReplacesOnlyOnSuccess(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := writeFile(path, []byte("first")); err != nil {
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
	if err := writeFile(path, []byte("second")); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(path)
	if string(got) != "second" {
		t.Errorf("file holds %q, want %q", got, "second")
	}
}

func TestWriteRemovesTemporaryOnPanic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := writeFile(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			if r := recover(); r != "writer bug" {
				t.Errorf("recovered %v, want the writer's panic passed on", r)
			}
		}()
		Write(path, func(w io.Writer) error {
			io.WriteString(w, "partial")
			panic("writer bug")
		})
	}()
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("after a panic the directory holds %d entries, want only out.txt", len(entries))
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("after a panic the file holds %q, want %q", got, "old")
	}
}

// TestSignalRemovesTemporary runs this test binary as a child that starts a
// write, blocks in it, and is sent SIGTERM (then SIGINT): the child exits
// with 143 (130), the temporary file is gone and the old file is intact.
func TestSignalRemovesTemporary(t *testing.T) {
	if dir := os.Getenv("ATOMICFILE_CHILD_DIR"); dir != "" {
		RemoveOnSignal()
		Write(filepath.Join(dir, "out.txt"), func(w io.Writer) error {
			io.WriteString(w, "partial")
			os.WriteFile(filepath.Join(dir, "started"), nil, 0o644)
			select {} // wait for the signal
		})
		return
	}
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGINT, 130}} {
		dir := t.TempDir()
		if err := writeFile(filepath.Join(dir, "out.txt"), []byte("old")); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(os.Args[0], "-test.run", "^TestSignalRemovesTemporary$")
		cmd.Env = append(os.Environ(), "ATOMICFILE_CHILD_DIR="+dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitFile(t, filepath.Join(dir, "started"), cmd)
		cmd.Process.Signal(tc.sig)
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != tc.code {
			t.Errorf("%v: child ended with %v, want exit status %d", tc.sig, err, tc.code)
		}
		entries, _ := os.ReadDir(dir)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if len(names) != 2 { // out.txt and started
			t.Errorf("%v: directory holds %v, want only out.txt and started", tc.sig, names)
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "out.txt")); string(got) != "old" {
			t.Errorf("%v: out.txt holds %q, want %q", tc.sig, got, "old")
		}
	}
}

// TestWriteMixedSizes: small writes (buffered), large ones (written
// straight to the file) and large ones of zeros (holes, one of them at the
// end, one with a nonzero last byte) land in the order they were made.
func TestWriteMixedSizes(t *testing.T) {
	for _, last := range []int{7, DirectBytes} {
		testWriteSizes(t, []int{3, DirectBytes, 10, -(1 << 20), 1 << 20, -DirectBytes, -(3*DirectBytes + 5), DirectBytes - 1,
			2 * DirectBytes, 1, -(DirectBytes + 1), 5 << 20, -last})
	}
}

// testWriteSizes writes buffers of the sizes ns, each of one byte value,
// zeros for a negative size, and checks the file.
func testWriteSizes(t *testing.T, ns []int) {
	path := filepath.Join(t.TempDir(), "out")
	var want []byte
	err := Write(path, func(w io.Writer) error {
		for i, n := range ns {
			c := byte('a' + i)
			if n < 0 {
				n, c = -n, 0
			}
			p := bytes.Repeat([]byte{c}, n)
			if i == len(ns)-3 && c == 0 {
				p[n-1] = 'z' // zeros but for the last byte: written
			}
			want = append(want, p...)
			if k, err := w.Write(p); k != n || err != nil {
				return fmt.Errorf("write %d bytes: %d, %v", n, k, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("the file holds %d bytes, not the %d written in order", len(got), len(want))
	}
}
