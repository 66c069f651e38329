// Package atomicfile writes output files atomically: the content goes to a
// temporary file in the destination's directory, is synced, and is renamed
// over the destination only when writing succeeded. Readers therefore see
// either the old file or the complete new one, never a partial write.
//
// Temporary files are removed when the write fails, when the writer panics,
// and, once RemoveOnSignal has been called, when the process is interrupted
// (SIGINT, SIGTERM) while a write is under way.
package atomicfile

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
)

// live holds the temporary files and folders being written (true for a
// folder), so a signal handler can remove them. A Set's Commit holds the
// lock while it renames, so an interrupt waits for the set to be in place.
var live struct {
	sync.Mutex
	files map[string]bool
}

func track(name string) { trackKind(name, false) }

func trackKind(name string, dir bool) {
	live.Lock()
	if live.files == nil {
		live.files = map[string]bool{}
	}
	live.files[name] = dir
	live.Unlock()
}

func untrack(name string) {
	live.Lock()
	delete(live.files, name)
	live.Unlock()
}

// removeTemporary removes every temporary file of a write under way. A
// program calls it before it exits abnormally.
func removeTemporary() {
	live.Lock()
	defer live.Unlock()
	for name, dir := range live.files {
		if dir {
			os.RemoveAll(name)
		} else {
			os.Remove(name)
		}
		delete(live.files, name)
	}
}

// RemoveOnSignal installs a handler that, on SIGINT or SIGTERM, removes
// the temporary files of writes under way and exits with status 128+signal
// (130 for SIGINT, 143 for SIGTERM), as a shell reports a killed command.
// The destinations keep their previous content; a Set being committed is
// put in place first, so every set is the old one or the new one. It
// returns a function that uninstalls the handler.
func RemoveOnSignal() (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			removeTemporary()
			code := 130
			if s == syscall.SIGTERM {
				code = 143
			}
			fmt.Fprintf(os.Stderr, "benchtrim: interrupted (%v); outputs not yet in place were removed, none is half-written\n", s)
			os.Exit(code)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}

// Write creates path atomically with the bytes that write produces.
// If write returns an error or panics, the temporary file is removed and
// path is left untouched (a panic is then passed on). The writer write
// gets is a FileWriter.
//
// path is replaced only when it is absent or a regular file; through a
// symbolic link, the file it points to is replaced and the link stays
// (Destination). Any other file (a device, a FIFO) is refused before
// write runs, except the process's own streams (Stream: "-",
// /dev/stdout), which get the complete bytes in place once write
// succeeded.
func Write(path string, write func(w io.Writer) error) (err error) {
	if n := Stream(path); n != 0 {
		tmp, err := os.CreateTemp("", "benchtrim-out-*"+filepath.Ext(path))
		if err != nil {
			return fmt.Errorf("create scratch file for %s: %w", path, err)
		}
		tmp.Close()
		track(tmp.Name())
		defer func() {
			os.Remove(tmp.Name())
			untrack(tmp.Name())
		}()
		if err := Write(tmp.Name(), write); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		return copyToStream(tmp.Name(), n, path)
	}
	dest, err := Destination(path)
	if err != nil {
		return err
	}
	dir, base := filepath.Split(dest)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("create temporary file for %s: %w", path, err)
	}
	track(tmp.Name())
	renamed := false
	defer func() {
		if !renamed {
			tmp.Close()
			os.Remove(tmp.Name())
		}
		untrack(tmp.Name())
	}()
	bw, finish := SparseWriter(tmp)
	if err = write(bw); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = finish(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	if err = os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("chmod %s: %w", path, err)
	}
	if err = stillDestination(path, dest); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), dest); err != nil {
		return fmt.Errorf("rename to %s: %w", path, err)
	}
	renamed = true
	return nil
}

// fileWriter buffers small writes; a write of DirectBytes or more (an
// Arrow column's buffer, a Parquet page) goes to the file straight from
// the caller's slice, after what is buffered, instead of being copied
// through the buffer as bufio.Writer does with anything shorter than its
// free space. Such a write of zeros only (an Arrow column of one repeated
// code, or of nulls) becomes a hole in the file (sparseFile).
type fileWriter struct {
	*bufio.Writer
	f *sparseFile
}

// DirectBytes is the length from which a write of zeros only becomes a
// hole in the file (see fileWriter).
const DirectBytes = 64 << 10

func (w *fileWriter) Write(p []byte) (int, error) {
	if len(p) < DirectBytes {
		return w.Writer.Write(p)
	}
	if err := w.Flush(); err != nil {
		return 0, err
	}
	if AllZero(p) {
		w.f.hole += int64(len(p))
		return len(p), nil
	}
	return w.f.Write(p)
}

// FileWriter is the writer of Write and SparseWriter. Besides writing bytes,
// it writes n zero bytes as a hole (Skip).
type FileWriter interface {
	io.Writer
	Skip(n int64) error
	// ReadAt and WriteAt read and write the file at offset off, after
	// what is buffered; they leave the offset of Write as it is. ReadAt
	// reads bytes past the end of the file (a hole not yet extended
	// over) as zeros.
	ReadAt(p []byte, off int64) (int, error)
	WriteAt(p []byte, off int64) (int, error)
}

// ReadAt reads len(p) bytes at offset off (see FileWriter).
func (w *fileWriter) ReadAt(p []byte, off int64) (int, error) {
	if err := w.Flush(); err != nil {
		return 0, err
	}
	n, err := w.f.f.ReadAt(p, off)
	if err == io.EOF {
		clear(p[n:])
		n, err = len(p), nil
	}
	return n, err
}

// WriteAt writes p at offset off (see FileWriter).
func (w *fileWriter) WriteAt(p []byte, off int64) (int, error) {
	if err := w.Flush(); err != nil {
		return 0, err
	}
	return w.f.f.WriteAt(p, off)
}

// Skip writes n zero bytes as a hole.
func (w *fileWriter) Skip(n int64) error {
	if err := w.Flush(); err != nil {
		return err
	}
	w.f.hole += n
	return nil
}

// sparseFile writes to f, skipping hole bytes (zeros, not yet written)
// before the next write: the file system stores no blocks for them, and
// the kernel copies nothing, while the file reads the same bytes (cp
// --sparse and tar -S write zeros so). finish extends the file over a
// trailing hole.
type sparseFile struct {
	f    *os.File
	hole int64
}

func (s *sparseFile) Write(p []byte) (int, error) {
	if err := s.skipHole(); err != nil {
		return 0, err
	}
	return s.f.Write(p)
}

// skipHole moves f's offset over the hole before the next write.
func (s *sparseFile) skipHole() error {
	if s.hole > 0 {
		if _, err := s.f.Seek(s.hole, io.SeekCurrent); err != nil {
			return err
		}
		s.hole = 0
	}
	return nil
}

func (s *sparseFile) finish() error {
	if s.hole == 0 {
		return nil
	}
	end, err := s.f.Seek(s.hole, io.SeekCurrent)
	if err != nil {
		return err
	}
	s.hole = 0
	return s.f.Truncate(end)
}

// AllZero reports whether p holds only zero bytes, comparing it with a
// page of zeros a page at a time (memequal, vectorised).
func AllZero(p []byte) bool {
	for len(p) > len(zeroPage) {
		if !bytes.Equal(p[:len(zeroPage)], zeroPage[:]) {
			return false
		}
		p = p[len(zeroPage):]
	}
	return bytes.Equal(p, zeroPage[:len(p)])
}

var zeroPage [4096]byte

// SparseWriter returns a writer to f that buffers small writes and
// leaves large writes of zeros as holes, as Write's writer does (a
// scratch file written this way takes that much less disk and page
// cache), and finish, which writes out what is buffered and extends f
// over a trailing hole: call it before reading f back.
func SparseWriter(f *os.File) (w FileWriter, finish func() error) {
	sf := &sparseFile{f: f}
	fw := &fileWriter{bufio.NewWriterSize(sf, 1<<20), sf}
	return fw, func() error {
		if err := fw.Flush(); err != nil {
			return err
		}
		return sf.finish()
	}
}

// writeFile is like os.WriteFile but atomic.
func writeFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Scratch creates a temporary file next to path for data a writer keeps
// aside until it writes path (a spool). The file is removed by remove, and
// like the temporary files of Write when the process is interrupted once
// RemoveOnSignal has been called.
func Scratch(path string) (f *os.File, remove func(), err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	if Stream(path) != 0 {
		dir, base = os.TempDir(), "benchtrim-out"
	} else if dest, err := Destination(path); err == nil {
		dir, base = filepath.Split(dest)
		if dir == "" {
			dir = "."
		}
	}
	f, err = os.CreateTemp(dir, "."+base+".spool-*")
	if err != nil {
		return nil, nil, fmt.Errorf("create scratch file for %s: %w", path, err)
	}
	track(f.Name())
	return f, func() {
		f.Close()
		os.Remove(f.Name())
		untrack(f.Name())
	}, nil
}
