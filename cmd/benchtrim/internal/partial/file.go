// Package partial is the file format of a shard's report (--partial-out): a
// header naming the command, the shard, its inputs (size and SHA-256) and
// read flags, then the analyzer's report, gob-encoded; benchtrim merge
// reads them back (Open, Decode) and refuses parts of other inputs.
package partial

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/internal/regular"
)

// A partial file holds the whole report of one part of a split run
// (benchtrim CMD --shard K/N --partial-out FILE) for benchtrim merge: the
// line fileMagic, a checksum line "sha256 HEX LENGTH" (the SHA-256 of the
// payload and its length in bytes, zero-padded to a fixed width), then the
// payload: a gob stream of a Header and the command's report. Open checks
// the length and the checksum before it decodes anything, so a damaged
// file (one flipped bit) is refused, and the Header's numbers before any
// use (MaxShards).
const (
	// fileMagic is the file's first line.
	fileMagic = "benchtrim partial\n"
	// formatVersion is the version of the layout Write writes; Open refuses
	// others (the reports' types change between versions of benchtrim).
	// Version 3 added the checksum line; version 4 writes a setup's Env
	// as sorted pairs (table.Setup.GobEncode), so that a part's bytes do
	// not depend on map order; version 5 holds compare's one Report type
	// (Rows, Unmatched) in trim's reports, whose fields a version 4 file
	// names otherwise (gob would drop them unseen).
	formatVersion = 5
	// MaxShards is the largest N of --shard K/N: a job array larger than
	// Slurm's largest (4 M) is not a run of benchtrim; merge keeps a slot
	// per shard.
	MaxShards = 1 << 20
)

// sumLine formats the checksum line of a payload of n bytes with SHA-256
// sum; every such line is sumLineLen bytes long.
func sumLine(sum []byte, n int64) string {
	return fmt.Sprintf("sha256 %x %020d\n", sum, n)
}

var sumLineLen = len(sumLine(make([]byte, sha256.Size), 0))

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
	// (--format, --project, --version) by name, in that order (a list,
	// not a map, so that a part's bytes do not depend on map order).
	// Merge refuses parts that differ in either (SameInputs).
	Inputs    []Input
	ReadFlags []ReadFlag
}

// ReadFlag is one read option of a part: its flag name and value.
type ReadFlag struct{ Name, Value string }

// readFlag is the value of the read option name in flags ("" when absent).
func readFlag(flags []ReadFlag, name string) string {
	for _, f := range flags {
		if f.Name == name {
			return f.Value
		}
	}
	return ""
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
	for _, f := range ha.ReadFlags {
		names[f.Name] = true
	}
	for _, f := range hb.ReadFlags {
		names[f.Name] = true
	}
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if va, vb := readFlag(ha.ReadFlags, k), readFlag(hb.ReadFlags, k); va != vb {
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

// Write writes the partial file path atomically: fileMagic, the checksum
// line, and h (with Format set to formatVersion) and report, gob-encoded.
func Write(path string, h Header, report any) error {
	h.Format = formatVersion
	return atomicfile.Write(path, func(w io.Writer) error {
		fw, ok := w.(atomicfile.FileWriter)
		if !ok {
			return errors.New("partial: the writer cannot write at an offset")
		}
		if _, err := io.WriteString(w, fileMagic+sumLine(make([]byte, sha256.Size), 0)); err != nil {
			return err
		}
		sum := sha256.New()
		cw := &countWriter{w: io.MultiWriter(w, sum)}
		enc := gob.NewEncoder(cw)
		if err := enc.Encode(h); err != nil {
			return fmt.Errorf("header: %w", err)
		}
		if err := enc.Encode(report); err != nil {
			return fmt.Errorf("%s report: %w", h.Command, err)
		}
		_, err := fw.WriteAt([]byte(sumLine(sum.Sum(nil), cw.n)), int64(len(fileMagic)))
		return err
	})
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// File is a partial file opened by Open: its header read, its report
// not yet.
type File struct {
	Path   string
	Header Header
	f      *os.File
	dec    *gob.Decoder
}

// Open opens the partial file path and reads its header. A path that is
// not a regular file (regular.Open), a file that does not start with
// fileMagic and its checksum line, a payload whose length or SHA-256
// differs from that line, or whose gob messages claim more bytes than the
// file holds, a header that does not decode, a format other than
// formatVersion and a header whose numbers are out of range (Shards above
// MaxShards, a Shard outside 0 … Shards−1, a negative PlotMax) are errors
// naming the file and the place, found before anything is sized by them.
func Open(path string) (*File, error) {
	f, err := regular.Open(path) // a FIFO or /dev/zero is refused, not read
	if err != nil {
		return nil, err
	}
	pf, err := open(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	return pf, nil
}

func open(f *os.File, path string) (*File, error) {
	head := make([]byte, len(fileMagic)+sumLineLen)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if magic := head[:min(n, len(fileMagic))]; string(magic) != fileMagic {
		return nil, fmt.Errorf("%s:1: not a benchtrim partial file (starts with %q, want %q; write one with CMD --shard K/N --partial-out FILE)", path, magic, fileMagic)
	}
	line := string(head[len(fileMagic):n])
	var sum []byte
	var length int64
	if f := strings.Fields(line); len(f) == 3 && f[0] == "sha256" && len(line) == sumLineLen && line[sumLineLen-1] == '\n' {
		sum, err = hex.DecodeString(f[1])
		if err == nil {
			length, err = strconv.ParseInt(f[2], 10, 64)
		}
	}
	if sum == nil || len(sum) != sha256.Size || err != nil || sumLine(sum, length) != line { // one spelling: lower-case hex
		return nil, fmt.Errorf("%s:2: no checksum line (want \"sha256 HEX LENGTH\"; a partial of an older benchtrim, or damaged): run the shards and the merge with one build", path)
	}
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if got := fi.Size() - int64(len(head)); got != length {
		return nil, fmt.Errorf("%s: %d bytes follow the checksum line, which says %d: the file was cut short or added to since it was written", path, got, length)
	}
	h := sha256.New()
	frames := &gobFrames{left: length}
	if _, err := io.Copy(io.MultiWriter(h, frames), f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if got := h.Sum(nil); !bytes.Equal(got, sum) {
		return nil, fmt.Errorf("%s: checksum mismatch (sha256 %x…, the file says %x…): the file was damaged since it was written; write it again", path, got[:6], sum[:6])
	}
	if err := frames.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if _, err := f.Seek(int64(len(head)), io.SeekStart); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	pf := &File{Path: path, f: f, dec: gob.NewDecoder(bufio.NewReaderSize(f, int(min(length, 1<<20))))}
	if err := pf.decode(&pf.Header); err != nil {
		return nil, fmt.Errorf("%s: header: %w", path, err)
	}
	hd := pf.Header
	switch {
	case hd.Format != formatVersion:
		return nil, fmt.Errorf("%s: header: format version %d (written by benchtrim %s), this build reads %d: run the shards and the merge with one build",
			path, hd.Format, hd.Benchtrim, formatVersion)
	case hd.Shards < 1 || hd.Shards > MaxShards || hd.Shard < 0 || hd.Shard >= hd.Shards:
		return nil, fmt.Errorf("%s: header: shard %d/%d is not a shard (want 0 ≤ K < N ≤ %d)", path, hd.Shard, hd.Shards, MaxShards)
	case hd.PlotMax < 0:
		return nil, fmt.Errorf("%s: header: plot-max %d is negative", path, hd.PlotMax)
	}
	return pf, nil
}

// gobFrames follows the framing of a gob stream written to it (each
// message is its length as a gob unsigned integer, then that many bytes)
// and remembers the first message that claims more bytes than are left,
// which gob's decoder would allocate before it reads them.
type gobFrames struct {
	left int64 // bytes of the stream not yet seen
	skip int64 // bytes of the current message still to come
	// The length being read: have of its bytes so far (the first says how
	// many, want, follow), value accumulated.
	have, want int
	value      uint64
	err        error
}

func (g *gobFrames) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 && g.err == nil {
		if g.skip > 0 {
			k := min(g.skip, int64(len(p)))
			g.skip -= k
			g.left -= k
			p = p[k:]
			continue
		}
		b := p[0]
		p = p[1:]
		g.left--
		switch {
		case g.have == 0 && b < 0x80:
			g.value = uint64(b)
		case g.have == 0:
			g.want = int(-int8(b))
			if g.want < 1 || g.want > 8 {
				g.err = fmt.Errorf("damaged data: a gob message length of %d bytes", g.want)
			}
			g.have, g.value = 1, 0
			continue
		default: // a byte of a length of g.want bytes; g.have counts the first
			g.value = g.value<<8 | uint64(b)
			if g.have++; g.have <= g.want {
				continue
			}
		}
		g.have, g.want = 0, 0
		if g.value == 0 || g.value > uint64(g.left) {
			g.err = fmt.Errorf("damaged data: a gob message of %d bytes where %d are left", g.value, g.left)
		}
		g.skip = int64(g.value)
	}
	return n, nil
}

// check reports a framing error, or a stream that ends inside a message.
func (g *gobFrames) check() error {
	if g.err == nil && (g.skip > 0 || g.have > 0) {
		return errors.New("damaged data: the last gob message is cut short")
	}
	return g.err
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
