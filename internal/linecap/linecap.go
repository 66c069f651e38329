// Package linecap bounds the lines a text reader is given, so that a
// reader that holds a line (or a CSV record) whole, as encoding/csv does,
// never holds more than a set number of bytes of it: a 1 GiB line in a
// CSV file is an error naming the line, not a fatal out-of-memory.
//
// encoding/csv has no such bound, and bufio.Scanner's applies to its own
// tokens only; Reader sits between the file and either.
package linecap

import (
	"bytes"
	"fmt"
	"io"
	"math"
)

// The bounds: maxLine is the longest line a benchtrim reader takes (16
// MiB, as format/gobench; a canonical table's row holds at most nine
// strings of table.MaxStringBytes), maxRecord the longest CSV record,
// whose quoted fields may hold line breaks (64 MiB). Variables only so
// that fuzz tests can lower them (SetLimits).
var (
	maxLine   int64 = 16 << 20
	maxRecord int64 = 64 << 20
)

// SetLimits sets the bounds of the readers NewCSVReader makes from now on
// and returns a function that restores them: for tests, so that fuzzing
// meets lines too long without writing 16 MiB each time.
func SetLimits(line, record int64) (restore func()) {
	l, r := maxLine, maxRecord
	maxLine, maxRecord = line, record
	return func() { maxLine, maxRecord = l, r }
}

// TooLongError is a line, or a CSV record starting at a line, longer than
// the bound.
type TooLongError struct {
	// Line is the 1-based number of the line that is too long, or on
	// which the record starts.
	Line   int64
	Max    int64
	Record bool
}

func (e *TooLongError) Error() string {
	if e.Record {
		return fmt.Sprintf("the record starting on line %d is longer than %d bytes (a quote left open?)", e.Line, e.Max)
	}
	return fmt.Sprintf("line %d is longer than %d bytes", e.Line, e.Max)
}

// Reader passes on the bytes of r until a line is longer than maxLine
// bytes (its line break not counted) or, when csv is set, a CSV record
// (lines joined while a double quote is open, RFC 4180) is longer than
// maxRecord; then Read returns a *TooLongError, before the bytes that
// pass the bound.
type Reader struct {
	r                  io.Reader
	maxLine, maxRecord int64
	csv                bool

	line       int64 // number of the current line, 1-based
	lineBytes  int64 // bytes of the current line so far
	recordLine int64 // line the current record starts on
	recBytes   int64 // bytes of the current record so far
	quoted     bool  // a double quote of the current record is open
	err        error
}

// NewCSVReader bounds the lines of r to 16 MiB and its CSV records to 64
// MiB.
func NewCSVReader(r io.Reader) *Reader {
	return &Reader{r: r, maxLine: maxLine, maxRecord: maxRecord, csv: true, line: 1, recordLine: 1}
}

// Read reads from r what passes the bounds (io.Reader).
func (l *Reader) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	if k := l.scan(p[:n]); k < n {
		return k, l.err
	}
	return n, err
}

// scan follows the lines and records of b and returns how many of its
// bytes pass the bounds (len(b) when all do, l.err set otherwise).
func (l *Reader) scan(b []byte) int {
	done := 0
	for len(b) > 0 {
		seg := b
		i := bytes.IndexByte(b, '\n')
		if i >= 0 {
			seg = b[:i]
		}
		// The bound passed at the earlier byte is named (the record's when
		// both are passed at one byte), however the input was split into
		// reads.
		lineRoom, recRoom := l.maxLine-l.lineBytes, int64(math.MaxInt64)
		if l.csv {
			recRoom = l.maxRecord - l.recBytes
		}
		if n := int64(len(seg)); n > min(lineRoom, recRoom) {
			if l.csv && recRoom <= lineRoom {
				l.err = &TooLongError{Line: l.recordLine, Max: l.maxRecord, Record: true}
			} else {
				l.err = &TooLongError{Line: l.line, Max: l.maxLine}
			}
			return done
		}
		if l.csv && bytes.Count(seg, []byte{'"'})%2 == 1 {
			l.quoted = !l.quoted
		}
		l.lineBytes += int64(len(seg))
		l.recBytes += int64(len(seg))
		if i < 0 {
			return done + len(b)
		}
		done += i + 1
		b = b[i+1:]
		l.line++
		l.lineBytes = 0
		if !l.quoted {
			l.recBytes, l.recordLine = 0, l.line
		}
	}
	return done
}
