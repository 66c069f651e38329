package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// LineSniffer is implemented by formats whose first recognisable line may
// come anywhere in a file, after any amount of other text: go test output
// whose first result line follows the tests' own output (a real release
// file's first Benchmark line is line 6,317, past the 64 KiB head). When no
// format's Sniff accepts the head of a longer file, detection reads on a
// line at a time and the first line a LineSniffer accepts picks it.
type LineSniffer interface {
	// SniffLine reports whether line (without its line break; at most
	// the first 64 KiB of a longer line) is one only this format writes.
	SniffLine(line []byte) bool
}

// maxStdinDetect is how much of standard input detection keeps to read it
// again from the start: standard input cannot be rewound, so a format that
// shows itself later than this needs --format.
const maxStdinDetect = 64 << 20

// detectFile picks the format of the file f (named file; br buffers f and
// has not been read from) among formats, reading past the head as far as
// it must: when no format's Sniff accepts the first sniffBytes and the
// file goes on, the lines that follow are offered to the LineSniffers
// (detectLate). It returns the format and a reader of the whole file from
// its first byte (br, or br after rewinding f, or the kept bytes of
// standard input followed by br). A file no format accepts is explained by
// diagnose.
func detectFile(file string, f io.Reader, br *bufio.Reader, formats []Format, diag func(head []byte, r io.Reader, err error) error) (Format, io.Reader, error) {
	head, err := br.Peek(sniffBytes)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	headErr := err
	format, err := detect(file, head, formats)
	if err == nil {
		return format, br, nil
	}
	if headErr != nil || len(head) < sniffBytes || !noneSniffed(err) {
		return nil, nil, diag(head, br, err)
	}
	head = bytes.Clone(head)
	rewind, keep := rewinder(file, f, br)
	late, err2 := detectLate(file, br, formats, keep)
	r, rerr := rewind()
	switch {
	case rerr != nil:
		return nil, nil, fmt.Errorf("%s: reading it again from the start: %w", file, rerr)
	case err2 != nil:
		return nil, nil, err2
	case late != nil:
		return late, r, nil
	}
	return nil, nil, diag(head, r, err)
}

// noneSniffed reports whether err is detect's error for a head no format
// accepted (unrecognised, or blank), not an ambiguity.
func noneSniffed(err error) bool {
	var pe *ParseError
	return errors.As(err, &pe) && !strings.HasPrefix(pe.Msg, "ambiguous")
}

// rewinder returns how to read the file again from its start after
// detectLate consumed br: a regular file is rewound (Seek) and br reset to
// it; anything else (standard input, a pipe) is replayed from the bytes
// detectLate kept (keep collects them, up to maxStdinDetect).
func rewinder(file string, f io.Reader, br *bufio.Reader) (rewind func() (io.Reader, error), keep *bytes.Buffer) {
	if osf, ok := f.(*os.File); ok && file != "-" {
		if fi, err := osf.Stat(); err == nil && fi.Mode().IsRegular() {
			return func() (io.Reader, error) {
				if _, err := osf.Seek(0, io.SeekStart); err != nil {
					return nil, err
				}
				br.Reset(osf)
				return br, nil
			}, nil
		}
	}
	keep = &bytes.Buffer{}
	return func() (io.Reader, error) { return io.MultiReader(bytes.NewReader(keep.Bytes()), br), nil }, keep
}

// detectLate reads br to the first line that a LineSniffer of formats
// accepts and returns that format (nil at the end of the input without
// one). Two formats accepting the same line is an ambiguity naming both
// and the line. When keep is not nil the bytes read are appended to it;
// past maxStdinDetect detection stops with an error asking for --format.
func detectLate(file string, br *bufio.Reader, formats []Format, keep *bytes.Buffer) (Format, error) {
	var sniffers []Format
	for _, f := range formats {
		if _, ok := f.(LineSniffer); ok {
			sniffers = append(sniffers, f)
		}
	}
	if len(sniffers) == 0 {
		return nil, nil
	}
	for n, midLine := 1, false; ; {
		line, err := br.ReadSlice('\n')
		if keep != nil {
			if keep.Len()+len(line) > maxStdinDetect {
				return nil, &ParseError{File: file, Msg: fmt.Sprintf("no format recognised in the first %d MiB of standard input (it cannot be read twice); use --format", maxStdinDetect>>20)}
			}
			keep.Write(line)
		}
		if len(line) > 0 && !midLine {
			var hits []string
			var hit Format
			text := bytes.TrimRight(line, "\r\n")
			for _, f := range sniffers {
				if f.(LineSniffer).SniffLine(text) {
					hits = append(hits, f.Name())
					hit = f
				}
			}
			switch len(hits) {
			case 0:
			case 1:
				return hit, nil
			default:
				return nil, &ParseError{File: file, Line: n, Msg: "ambiguous format, could be " + strings.Join(hits, " or ") + "; use --format"}
			}
		}
		// A line longer than br's buffer comes in pieces: only its first
		// piece is offered, and the line count moves at its end.
		midLine = errors.Is(err, bufio.ErrBufferFull)
		if !midLine {
			n++
		}
		if err != nil && !midLine {
			if errors.Is(err, io.EOF) {
				return nil, nil
			}
			return nil, fmt.Errorf("%s:%d: %w", file, n, err)
		}
	}
}
