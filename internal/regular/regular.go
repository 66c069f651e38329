// Package regular opens files for reading only when they are regular
// files, so that a named pipe (FIFO), a device such as /dev/zero, a socket
// or a directory given where a file of benchtrim's own is expected (a
// partial, a manifest, a file a manifest lists) is refused at once instead
// of blocking for ever or reading without end.
package regular

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// NotRegularError is the error for a path that exists and is not a
// regular file (once symbolic links are followed).
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s: is %s, not a regular file", e.Path, Describe(e.Mode))
}

// Describe names the kind of file of mode: "a directory", "a named pipe
// (FIFO)", "a character device", "a block device", "a socket", "a
// symbolic link", "a regular file" or "an irregular file".
func Describe(mode fs.FileMode) string {
	switch {
	case mode.IsRegular():
		return "a regular file"
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a block device"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "an irregular file"
}

// Open opens path for reading when it is a regular file (symbolic links
// followed), else returns a *NotRegularError. It looks before it opens
// and looks again at what it opened, without blocking (O_NONBLOCK where
// the system has it), so a FIFO put in the file's place meanwhile is
// refused too.
func Open(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, err
	}
	if fi, err = f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err != nil {
			return nil, err
		}
		return nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	return f, nil
}

// ReadFile is os.ReadFile for a regular file only (Open), reading at most
// limit bytes: a longer file is an error naming its size.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: longer than %d bytes", path, limit)
	}
	return data, nil
}
