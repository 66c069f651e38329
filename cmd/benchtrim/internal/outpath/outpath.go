// Package outpath checks a command's output paths before any work is done:
// the extension names a format the output can be written in, the directory
// exists and is writable, no output is also an input (compared as files, so
// links and paths like ./a/../a are caught), no two outputs are the same
// file, and every output that exists is a regular file (a device, a FIFO
// or a socket is refused, as atomicfile would refuse to replace it),
// except the process's own streams ("-", /dev/stdout: atomicfile.Stream),
// which are written in place; a data output without an extension there
// is CSV. A command that fails the check writes nothing.
package outpath

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
)

// Kind is what an output holds, which decides the extensions it accepts.
type Kind int

const (
	// Data is a typed data table: .csv, .arrow (.ipc, .feather) or
	// .parquet (.pq).
	Data Kind = iota
	// Report is a table for people or machines: .md, .tex, .html and the
	// Data extensions.
	Report
	// CSV is a CSV file only.
	CSV
	// Text is any file (scripts, JSON, plots): the extension is not checked.
	Text
	// Dir is a directory that is created when missing.
	Dir
)

var extensions = map[Kind][]string{
	Data:   {".csv", ".arrow", ".ipc", ".feather", ".parquet", ".pq"},
	Report: {".csv", ".arrow", ".ipc", ".feather", ".parquet", ".pq", ".md", ".markdown", ".tex", ".html", ".htm"},
	CSV:    {".csv"},
}

// Output is one output of a command.
type Output struct {
	// Flag names the option that gave the path, for messages ("-o",
	// "--summary-out").
	Flag string
	// Path is the file or directory to write; "" means the output is off.
	Path string
	Kind Kind
	// Also are further files written beside Path (a CSV table's setups
	// sidecar), or for a Dir the files it will hold; they get the same
	// checks. A Dir with Also is replaced as a whole: an existing one may
	// hold no other file.
	Also []string
	// Holds, for a Dir whose file names are known only after the work
	// (plots named by benchmark), tells the names of the files it may
	// write: an input in the directory with such a name is refused, and
	// the folder, replaced as a whole, may hold no file of another name.
	Holds func(name string) bool
}

// Check validates outs against each other and against inputs. Inputs that
// do not exist are ignored here (reading reports them).
func Check(outs []Output, inputs []string) error {
	type named struct {
		name string
		id   fileID
	}
	var ins, seen []named
	for _, in := range inputs {
		if in != "-" {
			ins = append(ins, named{in, identify(in)})
		}
	}
	for _, o := range outs {
		if o.Path == "" {
			continue
		}
		if err := checkOne(o); err != nil {
			return err
		}
		if o.Kind == Dir && o.Holds != nil {
			if in := heldInput(o, inputs); in != "" {
				return fmt.Errorf("%s %s: would hold files like the input %s; refusing to overwrite an input", o.Flag, o.Path, in)
			}
		}
		for _, p := range append([]string{o.Path}, o.Also...) {
			id := identify(p)
			// A file in an output directory is named with the directory.
			what := o.Flag + " " + p + ":"
			if o.Kind == Dir && p != o.Path {
				what = o.Flag + " " + o.Path + ": " + p
			}
			for _, in := range ins {
				if id.same(in.id) {
					return fmt.Errorf("%s is the input %s; refusing to overwrite an input", what, in.name)
				}
			}
			for _, s := range seen {
				if id.same(s.id) {
					return fmt.Errorf("%s is also the output of %s", what, s.name)
				}
			}
			seen = append(seen, named{o.Flag, id})
		}
		if o.Kind == Dir {
			if err := onlyOwnFiles(o); err != nil {
				return err
			}
		}
	}
	return nil
}

// heldInput returns the first input that lies in the directory o (as
// given, or once symbolic links are resolved) under a name o.Holds
// accepts, "" when there is none.
func heldInput(o Output, inputs []string) string {
	dir := identify(o.Path)
	if dir.info == nil {
		return "" // not there yet: it holds nothing
	}
	for _, in := range inputs {
		if in == "-" {
			continue
		}
		paths := []string{in}
		if real, err := filepath.EvalSymlinks(in); err == nil && real != in {
			paths = append(paths, real)
		}
		for _, p := range paths {
			if o.Holds(filepath.Base(p)) && identify(filepath.Dir(p)).same(dir) {
				return in
			}
		}
	}
	return ""
}

func checkOne(o Output) error {
	if o.Kind == Dir {
		fi, err := os.Stat(o.Path)
		switch {
		case err == nil && !fi.IsDir():
			return fmt.Errorf("%s %s: exists and is not a directory", o.Flag, o.Path)
		case err == nil:
			return writable(o.Flag, o.Path)
		case !os.IsNotExist(err):
			return fmt.Errorf("%s %s: %w", o.Flag, o.Path, err)
		}
		// Created later; its parent must be usable.
		return checkDir(o.Flag, o.Path, filepath.Dir(filepath.Clean(o.Path)))
	}
	if exts := extensions[o.Kind]; exts != nil && !(atomicfile.Stream(o.Path) != 0 && filepath.Ext(o.Path) == "") {
		ext := strings.ToLower(filepath.Ext(o.Path))
		ok := false
		for _, e := range exts {
			ok = ok || e == ext
		}
		if !ok {
			return fmt.Errorf("%s %s: unsupported extension %q (want %s)", o.Flag, o.Path, filepath.Ext(o.Path), describe(exts))
		}
	}
	for _, p := range append([]string{o.Path}, o.Also...) {
		if atomicfile.Stream(p) != 0 {
			if len(o.Also) > 0 {
				return fmt.Errorf("%s %s: this output writes %s beside it, which a stream cannot hold; give a file name", o.Flag, o.Path, strings.Join(o.Also, ", "))
			}
			continue // written in place
		}
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return fmt.Errorf("%s %s: is a directory", o.Flag, p)
		}
		dest, err := atomicfile.Destination(p)
		if err != nil {
			return fmt.Errorf("%s %w", o.Flag, err)
		}
		if err := checkDir(o.Flag, p, filepath.Dir(dest)); err != nil {
			return err
		}
	}
	return nil
}

// onlyOwnFiles checks that an existing directory o whose files are named
// (Also) or known by their names (Holds: a plot folder), a folder written
// and replaced as a whole, holds no other file, which the replacement
// would remove.
func onlyOwnFiles(o Output) error {
	if fi, err := os.Stat(o.Path); len(o.Also) == 0 && o.Holds == nil || err != nil || !fi.IsDir() {
		return nil
	}
	own := map[string]bool{}
	for _, p := range o.Also {
		own[filepath.Base(p)] = true
	}
	entries, err := os.ReadDir(o.Path)
	if err != nil {
		return fmt.Errorf("%s %s: %w", o.Flag, o.Path, err)
	}
	var other []string
	for _, e := range entries {
		if !own[e.Name()] && !(o.Holds != nil && e.Type().IsRegular() && o.Holds(e.Name())) {
			other = append(other, e.Name())
		}
	}
	if len(other) == 0 {
		return nil
	}
	list := strings.Join(other, ", ")
	if len(other) > 3 {
		list = strings.Join(other[:3], ", ") + fmt.Sprintf(" … and %d more", len(other)-3)
	}
	return fmt.Errorf("%s %s: holds files this output does not write (%s), which replacing the folder would remove: give a new or empty folder, or one this output wrote", o.Flag, o.Path, list)
}

// describe lists extensions as ".csv, .arrow or .parquet" without aliases.
func describe(exts []string) string {
	alias := map[string]bool{".ipc": true, ".feather": true, ".pq": true, ".markdown": true, ".htm": true}
	var main []string
	for _, e := range exts {
		if !alias[e] {
			main = append(main, e)
		}
	}
	if len(main) == 1 {
		return main[0]
	}
	return strings.Join(main[:len(main)-1], ", ") + " or " + main[len(main)-1]
}

func checkDir(flag, path, dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return fmt.Errorf("%s %s: directory %s does not exist", flag, path, dir)
		}
		return fmt.Errorf("%s %s: %w", flag, path, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s %s: %s is not a directory", flag, path, dir)
	}
	return writable(flag, dir)
}

// writable checks that a file can be created in dir (as the atomic writer
// will: a temporary file beside the destination).
func writable(flag, dir string) error {
	f, err := os.CreateTemp(dir, ".benchtrim-check-*")
	if err != nil {
		return fmt.Errorf("%s: cannot write in %s: %w", flag, dir, err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// fileID identifies a file: by device and inode when it exists, else by its
// absolute path with the directory's links resolved.
type fileID struct {
	info os.FileInfo
	abs  string
}

func identify(p string) fileID {
	var id fileID
	if n := atomicfile.Stream(p); n != 0 {
		id.abs = fmt.Sprintf("stream %d", n) // one stream, whatever it is named
		return id
	}
	if fi, err := os.Stat(p); err == nil {
		id.info = fi
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		abs = p
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(dir, filepath.Base(abs))
	}
	id.abs = abs
	return id
}

func (a fileID) same(b fileID) bool {
	if a.info != nil && b.info != nil {
		return os.SameFile(a.info, b.info)
	}
	return a.abs == b.abs
}

// Inputs returns the files a list of input paths reads: the paths and, for
// CSV tables, their setups sidecars (so no output replaces those either).
func Inputs(paths []string, sidecar func(string) string) []string {
	out := append([]string(nil), paths...)
	for _, p := range paths {
		if strings.EqualFold(filepath.Ext(p), ".csv") && sidecar != nil {
			if s := sidecar(p); s != p {
				if _, err := os.Stat(s); err == nil {
					out = append(out, s)
				}
			}
		}
	}
	return out
}
