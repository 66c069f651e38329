package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/benchtrim/benchtrim/internal/regular"
)

// Set writes the outputs of one command all or nothing: each file is
// written to a temporary sibling (Write, Path) and each folder filled as a
// temporary sibling folder (Dir); Commit renames them all into place, and
// only once every one was written. Until then the destinations keep their
// content; Abort, a failure or an interrupt (RemoveOnSignal) removes the
// temporary files and folders, and an interrupt during Commit waits for
// it, so a reader sees the old set or the new one.
//
// The zero Set is ready to use; a Set is not safe for concurrent use.
type Set struct {
	staged []staged
	done   bool
}

type staged struct {
	tmp, dest string
	// stream > 0: dest names the process's stream (Stream), which gets
	// tmp's bytes in place, after every rename.
	stream int
	dir    bool
	// replace: the folder dest is replaced as a whole (its old files
	// go); otherwise its files are moved into dest, the others kept.
	replace bool
}

// Fault, when set (by tests), is called at two points of a set's life:
// after each output is staged (event "stage", with its destination) and
// before Commit renames anything (event "commit", dest ""). An error fails
// the set there, as a failing writer would; a Fault that waits lets a test
// interrupt the process at that point.
var Fault func(event, dest string) error

func (s *Set) add(st staged) error {
	s.staged = append(s.staged, st)
	if Fault != nil {
		return Fault("stage", st.dest)
	}
	return nil
}

// Path reserves a temporary file beside dest, with dest's extension (so
// writers that choose the format by extension write it), for the caller
// to write by any means; Commit renames it to dest. As with Write, dest
// must be absent or a regular file (through a symbolic link, its target
// is replaced), or one of the process's streams (Stream), which gets the
// file's bytes at Commit.
func (s *Set) Path(dest string) (string, error) {
	return s.PathExt(dest, filepath.Ext(dest))
}

// PathExt is Path with the temporary file's extension ext (the format of
// an output whose name has none, such as "-").
func (s *Set) PathExt(dest, ext string) (string, error) {
	if s.done {
		return "", errors.New("atomicfile: Set used after Commit or Abort")
	}
	st := staged{dest: dest, stream: Stream(dest)}
	dir, base := os.TempDir(), "benchtrim-out"
	if st.stream == 0 {
		real, err := Destination(dest)
		if err != nil {
			return "", err
		}
		st.dest = real
		if dir, base = filepath.Split(real); dir == "" {
			dir = "."
		}
		base = strings.TrimSuffix(base, filepath.Ext(base))
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*"+ext)
	if err != nil {
		return "", fmt.Errorf("create temporary file for %s: %w", dest, err)
	}
	f.Close()
	track(f.Name())
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return "", fmt.Errorf("chmod %s: %w", f.Name(), err)
	}
	st.tmp = f.Name()
	return f.Name(), s.add(st)
}

// Write stages dest with the bytes write produces (see Write).
func (s *Set) Write(dest string, write func(w io.Writer) error) error {
	tmp, err := s.Path(dest)
	if err != nil {
		return err
	}
	if err := Write(tmp, write); err != nil {
		return fmt.Errorf("%s: %w", dest, err)
	}
	return nil
}

// WriteFile stages dest with data.
func (s *Set) WriteFile(dest string, data []byte) error {
	return s.Write(dest, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Dir creates a temporary folder beside the folder dest (beside its
// target when dest is a symbolic link) for the caller to fill. Commit
// puts it in place: with replace, as the whole of dest (an existing dest
// is swapped with it in one step where the system can, and its old
// content removed); without, by moving its files into dest, whose other
// files stay.
func (s *Set) Dir(dest string, replace bool) (string, error) {
	if s.done {
		return "", errors.New("atomicfile: Set used after Commit or Abort")
	}
	if real, err := filepath.EvalSymlinks(dest); err == nil {
		dest = real
	}
	dest = filepath.Clean(dest)
	if fi, err := os.Lstat(dest); err == nil && !fi.IsDir() {
		return "", fmt.Errorf("%s: is %s, not a folder; refusing to replace it", dest, regular.Describe(fi.Mode()))
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".tmp-*")
	if err != nil {
		return "", fmt.Errorf("create temporary folder for %s: %w", dest, err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("chmod %s: %w", tmp, err)
	}
	trackKind(tmp, true)
	return tmp, s.add(staged{tmp: tmp, dest: dest, dir: true, replace: replace})
}

// Abort removes what the set staged; the destinations are untouched. It
// does nothing after Commit.
func (s *Set) Abort() {
	if s.done {
		return
	}
	s.done = true
	live.Lock()
	defer live.Unlock()
	for _, st := range s.staged {
		if _, ok := live.files[st.tmp]; ok {
			os.RemoveAll(st.tmp)
			delete(live.files, st.tmp)
		}
	}
}

// Commit puts every staged output in place, in the order staged. The
// renames within one folder cannot fail for want of space; should one
// fail, the error names the outputs already replaced and the rest is
// removed.
func (s *Set) Commit() error {
	if s.done {
		return errors.New("atomicfile: Set committed twice or after Abort")
	}
	if Fault != nil {
		if err := Fault("commit", ""); err != nil {
			s.Abort()
			return err
		}
	}
	live.Lock()
	defer live.Unlock()
	s.done = true
	for i, st := range s.staged {
		if _, ok := live.files[st.tmp]; !ok {
			// Removed by an interrupt before the commit began.
			return fmt.Errorf("%s: the temporary output was removed", st.dest)
		}
		var err error
		switch {
		case st.stream > 0:
			continue // after the renames
		case !st.dir:
			if err = stillDestination(st.dest, st.dest); err == nil {
				err = os.Rename(st.tmp, st.dest)
			}
		case st.replace:
			err = replaceDir(st.tmp, st.dest)
		default:
			err = mergeDir(st.tmp, st.dest)
		}
		if err != nil {
			for _, r := range s.staged[i:] {
				os.RemoveAll(r.tmp)
				delete(live.files, r.tmp)
			}
			var done []string
			for _, d := range s.staged[:i] {
				done = append(done, d.dest)
			}
			if len(done) > 0 {
				return fmt.Errorf("put %s in place: %w (already in place: %s)", st.dest, err, strings.Join(done, ", "))
			}
			return fmt.Errorf("put %s in place: %w", st.dest, err)
		}
		delete(live.files, st.tmp)
	}
	for _, st := range s.staged {
		if st.stream > 0 {
			err := copyToStream(st.tmp, st.stream, st.dest)
			os.Remove(st.tmp)
			delete(live.files, st.tmp)
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// replaceDir puts the folder tmp in place of dest: a plain rename when
// dest does not exist, else an exchange of the two (one step, Linux) or,
// where the system has none, dest renamed aside and tmp renamed in; the
// old content is removed.
func replaceDir(tmp, dest string) error {
	if _, err := os.Lstat(dest); os.IsNotExist(err) {
		return os.Rename(tmp, dest)
	}
	if err := exchange(tmp, dest); err == nil {
		return os.RemoveAll(tmp) // now the old folder
	}
	old := tmp + ".old"
	if err := os.Rename(dest, old); err != nil {
		return err
	}
	if err := os.Rename(tmp, dest); err != nil {
		os.Rename(old, dest)
		return err
	}
	return os.RemoveAll(old)
}

// mergeDir moves the files of the folder tmp into dest (created by a
// rename when missing) and removes tmp.
func mergeDir(tmp, dest string) error {
	if _, err := os.Lstat(dest); os.IsNotExist(err) {
		return os.Rename(tmp, dest)
	}
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.Rename(filepath.Join(tmp, e.Name()), filepath.Join(dest, e.Name())); err != nil {
			return err
		}
	}
	return os.Remove(tmp)
}
