package ingest

import (
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/table"
)

// DirFormat is a Format whose tool writes a directory of files per
// recording (duetbench's output directory: one result file per run and
// pair plus an artifacts/ folder). ReadFiles hands such a directory to the
// DirFormat whose SniffDir accepts it (or to the one --format names).
type DirFormat interface {
	Format
	// SniffDir reports whether dir looks like this format's output
	// directory. It reads only names (and at most a few small files).
	SniffDir(dir string) bool
	// ReadDir reads the directory dir as Read reads a file: rows and
	// setups go to dst, skipped and suspicious items to rep with their
	// file:line (or file:$.path) inside dir, and a *ParseError is returned
	// when the directory cannot be read on.
	ReadDir(dir string, src Source, dst *table.Builder, rep *Summary) error
}

// Instances numbers named instances (a reader's identity of one machine
// or one invocation, e.g. the artifacts of a duetbench run) in order of
// first appearance across all files of one ReadFiles call, so that files
// read together number one environment alike and different environments
// apart. The zero value is ready to use; it is safe for concurrent use.
type Instances struct {
	mu  sync.Mutex
	ids map[string]int32
	n   int32
}

// ID returns the number of the instance called name (1, 2, … in order of
// first appearance) and whether name was new.
func (in *Instances) ID(name string) (id int32, isNew bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if id, ok := in.ids[name]; ok {
		return id, false
	}
	if in.ids == nil {
		in.ids = map[string]int32{}
	}
	in.n++
	in.ids[name] = in.n
	return in.n, true
}

// readDirectory reads the directory path with the DirFormat --format names
// or, without --format, the one whose SniffDir accepts it.
func readDirectory(path string, opt ReadOptions, mem memory.Allocator, rep *Summary, sink func(arrow.Record) error) (*table.Table, string, error) {
	var df DirFormat
	if opt.Format != "" {
		f, err := formatByName(opt.Format, opt.Formats)
		if err != nil {
			return nil, "", err
		}
		d, ok := f.(DirFormat)
		if !ok {
			return nil, "", &ParseError{File: path, Msg: fmt.Sprintf("is a directory; format %s reads files (give the result files)", f.Name())}
		}
		df = d
	} else {
		var names []string
		for _, f := range opt.Formats {
			d, ok := f.(DirFormat)
			if !ok {
				continue
			}
			names = append(names, f.Name())
			if d.SniffDir(path) {
				df = d
				break
			}
		}
		if df == nil {
			what := "no format reads directories"
			if len(names) > 0 {
				what = "not an output directory of " + strings.Join(names, " or ") + " (docs/formats)"
			}
			return nil, "", &ParseError{File: path, Msg: "is a directory, " + what + "; give the result files"}
		}
	}
	t, err := build(path, opt, mem, sink, func(b *table.Builder) error { return df.ReadDir(path, opt.source(path), b, rep) })
	return t, df.Name(), err
}

// isDir reports whether path names a directory.
func isDir(path string) bool {
	if path == "-" {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
