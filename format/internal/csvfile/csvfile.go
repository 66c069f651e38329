// Package csvfile holds what the CSV readers (format/pa, format/uoptime,
// format/duet) share: a Reader that reads a result file's header, then its
// records one at a time (Scan, Record, Err, as golang.org/x/perf/benchfmt's
// Reader reads results), and the helpers their headers and fields need.
package csvfile

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/linecap"
)

// Reader reads a CSV result file: NewReader reads its header (Head, on
// line HeadLine), Scan each record after it. A record encoding/csv cannot
// parse is skipped and counted in the Summary under the kind Malformed,
// with its place and the lines it spans (a quote left open swallows the
// lines up to where csv gave up; csv resumes after the bad record); any
// other read error ends the scan (Err), naming the file.
type Reader struct {
	// File names the input in messages ("<input>" when the source has no
	// name).
	File string
	// Head is the header's fields and HeadLine its line.
	Head     []string
	HeadLine int

	cr        *csv.Reader
	rep       *ingest.Summary
	malformed string
	rec       []string
	line      int64
	rows      int
	err       error
}

// NewReader reads the header of the CSV file r (named file, its fields
// separated by comma): an empty input is a *ingest.ParseError "empty file:
// no header line", a header encoding/csv cannot parse one at its line, and
// another read error is returned wrapped. Records are reused from one Scan
// to the next, and may have any number of fields.
func NewReader(r io.Reader, file string, comma rune, rep *ingest.Summary, malformed string) (*Reader, error) {
	if file == "" {
		file = "<input>"
	}
	cr := csv.NewReader(linecap.NewCSVReader(r))
	cr.Comma = comma
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if err == io.EOF {
		return nil, &ingest.ParseError{File: file, Msg: "empty file: no header line"}
	}
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, &ingest.ParseError{File: file, Line: pe.Line, Msg: "header: " + pe.Err.Error()}
		}
		if tl := tooLong(file, err); tl != nil {
			return nil, tl
		}
		return nil, fmt.Errorf("%s: reading header: %w", file, err)
	}
	line, _ := cr.FieldPos(0)
	// The next Read reuses the record: the header keeps a copy.
	return &Reader{File: file, Head: append([]string(nil), head...), HeadLine: line, cr: cr, rep: rep, malformed: malformed}, nil
}

// Scan reads the next well-formed record, counting malformed ones.
func (r *Reader) Scan() bool {
	for r.err == nil {
		rec, err := r.cr.Read()
		if err == io.EOF {
			return false
		}
		r.rows++
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				r.err = fmt.Errorf("%s: reading: %w", r.File, err)
				if tl := tooLong(r.File, err); tl != nil {
					r.err = tl
				}
				return false
			}
			n := pe.Line - pe.StartLine + 1
			r.rep.Skip(r.malformed, n, &ingest.ParseError{File: r.File, Line: pe.StartLine,
				Msg: fmt.Sprintf("%v (line %d, column %d); %d line(s) skipped", pe.Err, pe.Line, pe.Column, n)})
			continue
		}
		line, _ := r.cr.FieldPos(0)
		r.rec, r.line = rec, int64(line)
		return true
	}
	return false
}

// tooLong is the *ingest.ParseError of a line or record longer than
// linecap's bounds (nil for another error): reading cannot go on.
func tooLong(file string, err error) error {
	var tl *linecap.TooLongError
	if !errors.As(err, &tl) {
		return nil
	}
	msg := fmt.Sprintf("line longer than %d bytes; a result file's lines are far shorter (a damaged file?)", tl.Max)
	if tl.Record {
		msg = fmt.Sprintf("record longer than %d bytes (a quote left open?)", tl.Max)
	}
	return &ingest.ParseError{File: file, Line: int(tl.Line), Msg: msg}
}

// Record is the record Scan read (valid until the next Scan) and the line
// it starts on.
func (r *Reader) Record() ([]string, int64) { return r.rec, r.line }

// Err is the read error that ended Scan; nil at the end of the file.
func (r *Reader) Err() error { return r.err }

// WarnIfEmpty warns under kind when the file has a header but no records
// (malformed ones count as records).
func (r *Reader) WarnIfEmpty(kind string) {
	if r.rows == 0 {
		r.rep.Warn(kind, &ingest.ParseError{File: r.File, Line: r.HeadLine, Msg: "header but no data rows"})
	}
}

// Names returns the header's column names as readers match them (lower
// case, without surrounding white space or the first field's byte order
// mark) and the index of each name's first field.
func Names(head []string) (names []string, index map[string]int) {
	names = make([]string, len(head))
	index = make(map[string]int, len(head))
	for i, h := range head {
		if i == 0 {
			h = strings.TrimPrefix(h, "\ufeff")
		}
		h = strings.ToLower(strings.TrimSpace(h))
		names[i] = h
		if _, dup := index[h]; !dup {
			index[h] = i
		}
	}
	return names, index
}

// OtherDelimiter names the delimiter a header of one field was written
// with instead of comma (',', ';', tab or '|', as "';'" or "tab") when
// splitting it on that delimiter gives two or more of known; "" otherwise.
func OtherDelimiter(head []string, comma rune, known ...string) string {
	if len(head) != 1 {
		return ""
	}
	for _, d := range []struct {
		sep  rune
		name string
	}{{',', "','"}, {';', "';'"}, {'\t', "tab"}, {'|', "'|'"}} {
		if d.sep == comma {
			continue
		}
		found := 0
		for _, p := range strings.Split(strings.ToLower(head[0]), string(d.sep)) {
			p = strings.TrimSpace(strings.TrimPrefix(p, "\ufeff"))
			for _, k := range known {
				if p == k {
					found++
					break
				}
			}
		}
		if found >= 2 {
			return d.name
		}
	}
	return ""
}

// FirstLine is head's first line without a byte order mark or line break.
func FirstLine(head []byte) []byte {
	head = bytes.TrimPrefix(head, []byte("\ufeff"))
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	return bytes.TrimRight(head, "\r")
}

// TrimSpace is strings.TrimSpace with a fast path for the usual untrimmed
// field.
func TrimSpace(s string) string {
	if s == "" || s[0] > ' ' && s[len(s)-1] > ' ' {
		return s
	}
	return strings.TrimSpace(s)
}

// ParseInt parses a decimal integer that fits in bitSize bits, also
// accepting an integral float spelling ("5.0", "1e3": pandas writes an
// integer column that way when it had a missing value).
func ParseInt(s string, bitSize int) (int64, error) {
	v, err := strconv.ParseInt(s, 10, bitSize)
	if err == nil {
		return v, nil
	}
	f, ferr := strconv.ParseFloat(s, 64)
	if ferr != nil || math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) {
		return 0, fmt.Errorf("%q is not an integer", s)
	}
	limit := math.Ldexp(1, bitSize-1)
	if f >= limit || f < -limit {
		return 0, fmt.Errorf("%q is out of range", s)
	}
	return int64(f), nil
}
