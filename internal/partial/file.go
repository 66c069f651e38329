// Package partial is the file format of a shard's report (--partial-out): a
// header naming the command, the shard, its inputs (size and SHA-256) and
// read flags, then the analyzer's report, gob-encoded; benchtrim merge
// reads them back (Open, Decode) and refuses parts of other inputs.
package partial

import (
	"bufio"
	"crypto/sha256"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/internal/regular"
)

// A partial file holds the whole report of one part of a split run
// (benchtrim CMD --shard K/N --partial-out FILE) for benchtrim merge: the
// line fileMagic, then a gob stream of a Header and the command's report.
const (
	// fileMagic is the file's first line.
	fileMagic = "benchtrim partial\n"
	// formatVersion is the version of the layout Write writes; Open refuses
	// others (the reports' types change between versions of benchtrim).
	formatVersion = 2
)

// Header says what a partial file holds.
type Header struct {
	// Command is the benchtrim command whose report follows (optimize,
	// reconfigure, steady, duet, trim).
	Command string
	// Format is formatVersion; Benchtrim the build that wrote the file
	// (cliapp's buildVersion).
	Format    int
	Benchtrim string
	// Shard and Shards are the part's --shard K/N (0 and 1 without --shard).
	Shard, Shards int
	// Empty: the shard held no benchmark run; the report holds only the
	// options.
	Empty bool
	// PlotMax > 0: the report keeps plot data (iteration values, CROPS
	// curves) for its first PlotMax benchmark runs only (steady); merge
	// plots at most that many.
	PlotMax int
	// Inputs fingerprint the input files the part read, in the order
	// given; ReadFlags are the options that decide how they were read
	// (--format, --project, --version) by name. Merge refuses parts that
	// differ in either (SameInputs).
	Inputs    []Input
	ReadFlags map[string]string
}

// Input is the fingerprint of one input a part read: its content's
// SHA-256 and size, and its name as given (which may differ between
// machines).
type Input struct {
	// Name is the path as given, "-" for standard input.
	Name   string
	Size   int64
	SHA256 [sha256.Size]byte
}

// HashFile returns the fingerprint of the file path.
func HashFile(path string) (Input, error) {
	f, err := os.Open(path)
	if err != nil {
		return Input{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return Input{}, fmt.Errorf("%s: %w", path, err)
	}
	in := Input{Name: path, Size: n}
	h.Sum(in.SHA256[:0])
	return in, nil
}

// short is the input's name, size and the start of its hash.
func (in Input) short() string {
	return fmt.Sprintf("%s (%d bytes, sha256 %x…)", in.Name, in.Size, in.SHA256[:6])
}

// SameInputs checks that the parts a and b read the same inputs (by
// content, in the same order) with the same read options; the error
// names both files and the input or option that differs.
func SameInputs(a, b *File) error {
	ha, hb := a.Header, b.Header
	names := map[string]bool{}
	for k := range ha.ReadFlags {
		names[k] = true
	}
	for k := range hb.ReadFlags {
		names[k] = true
	}
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if va, vb := ha.ReadFlags[k], hb.ReadFlags[k]; va != vb {
			given := func(v string) string {
				if v == "" {
					return "without " + k
				}
				return fmt.Sprintf("with %s %q", k, v)
			}
			return fmt.Errorf("%s was run %s, %s %s: the parts of one run read their inputs with the same options", a.Path, given(va), b.Path, given(vb))
		}
	}
	if len(ha.Inputs) != len(hb.Inputs) {
		return fmt.Errorf("%s read %d inputs, %s %d: the parts of one run read the same input files", a.Path, len(ha.Inputs), b.Path, len(hb.Inputs))
	}
	for i, ia := range ha.Inputs {
		if ib := hb.Inputs[i]; ia.Size != ib.Size || ia.SHA256 != ib.SHA256 {
			return fmt.Errorf("%s read input %d %s, %s read %s: the content differs; the parts of one run read the same input files",
				a.Path, i+1, ia.short(), b.Path, ib.short())
		}
	}
	return nil
}

// Write writes the partial file path atomically: fileMagic, h (with Format
// set to formatVersion) and report, gob-encoded.
func Write(path string, h Header, report any) error {
	h.Format = formatVersion
	return atomicfile.Write(path, func(w io.Writer) error {
		if _, err := io.WriteString(w, fileMagic); err != nil {
			return err
		}
		enc := gob.NewEncoder(w)
		if err := enc.Encode(h); err != nil {
			return fmt.Errorf("header: %w", err)
		}
		if err := enc.Encode(report); err != nil {
			return fmt.Errorf("%s report: %w", h.Command, err)
		}
		return nil
	})
}

// File is a partial file opened by Open: its header read, its report
// not yet.
type File struct {
	Path   string
	Header Header
	f      *os.File
	dec    *gob.Decoder
}

// Open opens the partial file path and reads its header. A file that does
// not start with fileMagic, a header that does not decode and a format other
// than formatVersion are errors naming the file and the place; so is a
// path that is not a regular file (regular.Open).
func Open(path string) (*File, error) {
	f, err := regular.Open(path) // a FIFO or /dev/zero is refused, not read
	if err != nil {
		return nil, err
	}
	pf := &File{Path: path, f: f}
	br := bufio.NewReaderSize(f, 1<<20)
	magic := make([]byte, len(fileMagic))
	if n, err := io.ReadFull(br, magic); err != nil || string(magic) != fileMagic {
		f.Close()
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return nil, fmt.Errorf("%s:1: not a benchtrim partial file (starts with %q, want %q; write one with CMD --shard K/N --partial-out FILE)", path, magic[:n], fileMagic)
	}
	pf.dec = gob.NewDecoder(br)
	if err := pf.decode(&pf.Header); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: header: %w", path, err)
	}
	if h := pf.Header; h.Format != formatVersion {
		f.Close()
		return nil, fmt.Errorf("%s: header: format version %d (written by benchtrim %s), this build reads %d: run the shards and the merge with one build",
			path, h.Format, h.Benchtrim, formatVersion)
	}
	return pf, nil
}

// Decode reads the file's report into report (a pointer to the report
// type of Header.Command); a report that does not decode is an error
// naming the file.
func (f *File) Decode(report any) error {
	if err := f.decode(report); err != nil {
		return fmt.Errorf("%s: %s report: %w", f.Path, f.Header.Command, err)
	}
	return nil
}

// decode is dec.Decode with a decoder panic turned into an error: the
// bytes may have been damaged since they were written.
func (f *File) decode(v any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("damaged data: %v", r)
		}
	}()
	if err := f.dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return io.ErrUnexpectedEOF
		}
		return err
	}
	return nil
}

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }
