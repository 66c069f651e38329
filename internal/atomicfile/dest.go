package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/benchtrim/benchtrim/internal/regular"
)

// Stdout and Stderr are where outputs that name the process's own streams
// go (Stream): os.Stdout and os.Stderr unless a caller that runs the
// command line with other writers (its tests) sets them.
var (
	Stdout io.Writer = os.Stdout
	Stderr io.Writer = os.Stderr
)

// streamNames are the paths that name standard output (1) or standard
// error (2) of the process itself.
var streamNames = map[string]int{
	"-": 1, "/dev/stdout": 1, "/dev/fd/1": 1, "/proc/self/fd/1": 1,
	"/dev/stderr": 2, "/dev/fd/2": 2, "/proc/self/fd/2": 2,
}

// Stream reports which of the process's streams path names: 1 for "-",
// /dev/stdout, /dev/fd/1 or /proc/self/fd/1, 2 for the same names of
// standard error, also through symbolic links to them; 0 for any other
// path. Such an output is written in place, as a shell's redirection
// does, never renamed over: Write and Set write it to a scratch file and
// copy that to Stdout or Stderr once it is complete.
func Stream(path string) int {
	p := path
	for range maxLinks {
		if n, ok := streamNames[filepath.Clean(p)]; ok && (p != "-" || p == path) {
			return n
		}
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return 0
		}
		if p, err = readLink(p); err != nil {
			return 0
		}
	}
	return 0
}

// maxLinks bounds the symbolic links followed, as the kernel does (40).
const maxLinks = 40

func readLink(p string) (string, error) {
	target, err := os.Readlink(p)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(p), target)
	}
	return target, nil
}

// streamWriter returns the writer of stream n (Stream).
func streamWriter(n int) io.Writer {
	if n == 2 {
		return Stderr
	}
	return Stdout
}

// DestinationError is the error for an output path that exists and is
// not a regular file (a device such as /dev/null, a FIFO, a socket, a
// directory): writing it atomically would replace it with a regular file.
type DestinationError struct {
	Path   string // as given
	Target string // the file it names, once symbolic links are followed
	Mode   fs.FileMode
}

func (e *DestinationError) Error() string {
	via := ""
	if e.Target != e.Path {
		via = " (a symbolic link to " + e.Target + ")"
	}
	return fmt.Sprintf("%s%s: is %s, not a regular file; refusing to replace it (write to a file, or to - for standard output)",
		e.Path, via, regular.Describe(e.Mode))
}

// Destination returns the file an output path names: path itself when it
// does not exist or is a regular file, the target of a symbolic link (of
// a chain of them) that is a regular file, so that the link stays and the
// file it points to is replaced. A path that exists and is not a regular
// file, or a link to one, is a *DestinationError; a link to nothing is an
// error too (write to the file itself). It does not know streams: check
// Stream first.
func Destination(path string) (string, error) {
	p := path
	for range maxLinks {
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist) && p != path:
			return "", fmt.Errorf("%s: is a symbolic link to %s, which does not exist; give the file itself", path, p)
		case errors.Is(err, fs.ErrNotExist):
			return p, nil
		case err != nil:
			return "", err
		case fi.Mode().IsRegular():
			return p, nil
		case fi.Mode()&fs.ModeSymlink == 0:
			return "", &DestinationError{Path: path, Target: p, Mode: fi.Mode()}
		}
		if p, err = readLink(p); err != nil {
			return "", err
		}
	}
	return "", fmt.Errorf("%s: more than %d symbolic links", path, maxLinks)
}

// stillDestination checks, just before a rename over dest, that path
// still names dest and that dest is still absent or a regular file.
func stillDestination(path, dest string) error {
	again, err := Destination(path)
	if err != nil {
		return err
	}
	if again != dest {
		return fmt.Errorf("%s: now names %s, not %s: changed while it was written", path, again, dest)
	}
	return nil
}

// copyToStream copies the complete scratch file tmp to stream n.
func copyToStream(tmp string, n int, dest string) error {
	f, err := os.Open(tmp)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := io.Copy(streamWriter(n), f); err != nil {
		return fmt.Errorf("write %s: %w", dest, err)
	}
	return nil
}
