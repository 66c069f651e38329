package linecap

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestReader passes lines and CSV records within the bounds through
// unchanged and stops at the first line, or record, past them, naming its
// line; a quoted field's line breaks join lines into one record.
func TestReader(t *testing.T) {
	for _, c := range []struct {
		name, in        string
		maxLine, maxRec int64
		csv             bool
		wantLine        int64
		wantRecord      bool
	}{
		{"fits", "ab\ncd\n", 2, 0, false, 0, false},
		{"no final break", "ab\ncd", 2, 0, false, 0, false},
		{"second line", "ab\ncde\nf\n", 2, 0, false, 2, false},
		{"last line, unterminated", "ab\ncd\nefg", 2, 0, false, 3, false},
		{"record within", "a,\"b\nc\"\nd\n", 10, 10, true, 0, false},
		{"record over", "x\na,\"bbbb\ncccc\ndddd\"\ne\n", 10, 10, true, 2, true},
		{"escaped quotes", "a,\"b\"\"c\"\nd,e\n", 10, 9, true, 0, false},
	} {
		r := &Reader{r: strings.NewReader(c.in), maxLine: c.maxLine, maxRecord: c.maxRec, csv: c.csv, line: 1, recordLine: 1}
		if !c.csv {
			r.maxRecord = 0
		}
		got, err := io.ReadAll(iotest(r))
		var tl *TooLongError
		switch {
		case c.wantLine == 0 && (err != nil || string(got) != c.in):
			t.Errorf("%s: %q, %v; want the input back", c.name, got, err)
		case c.wantLine != 0 && (!errors.As(err, &tl) || tl.Line != c.wantLine || tl.Record != c.wantRecord):
			t.Errorf("%s: error %v, want line %d (record %v)", c.name, err, c.wantLine, c.wantRecord)
		case c.wantLine != 0 && !strings.HasPrefix(c.in, string(got)):
			t.Errorf("%s: passed %q, not a prefix of the input", c.name, got)
		}
	}
}

// iotest reads r a byte at a time, so lines and records cross reads.
func iotest(r io.Reader) io.Reader { return &oneByte{r} }

type oneByte struct{ r io.Reader }

func (o *oneByte) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1]
	}
	return o.r.Read(p)
}

// FuzzReader reads arbitrary bytes through a Reader with small bounds (in
// reads of arbitrary sizes) and checks it against the rule read directly:
// everything passes when no line, nor record (quotes counted), is longer
// than its bound; otherwise the first such one is the error, with its
// line, and only bytes before it passed.
//
//	go test -run '^$' -fuzz '^FuzzReader$' -fuzztime 60s -fuzzminimizetime 100x ./internal/linecap/
func FuzzReader(f *testing.F) {
	f.Add([]byte("a,b\nc,\"d\ne\"\n"), uint8(3), uint8(6), uint8(2))
	f.Add([]byte("\"\"\"\n\"x\n"), uint8(1), uint8(2), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, maxL, maxR, chunk uint8) {
		ml, mr := int64(maxL%64)+1, int64(maxR)+1
		r := &Reader{r: &chunks{data, int(chunk%7) + 1}, maxLine: ml, maxRecord: mr, csv: true, line: 1, recordLine: 1}
		got, err := io.ReadAll(r)
		// The rule, a byte at a time: the first byte past a line's ml bytes
		// or a record's mr (lines joined while an odd number of quotes is
		// open), the record's when both are passed there.
		wantLine, record := int64(0), false
		line, lineBytes, recBytes, recLine, quoted := int64(1), int64(0), int64(0), int64(1), false
		for _, b := range data {
			if b == '\n' {
				line++
				lineBytes = 0
				if !quoted {
					recBytes, recLine = 0, line
				}
				continue
			}
			if b == '"' {
				quoted = !quoted
			}
			lineBytes++
			recBytes++
			if recBytes > mr {
				wantLine, record = recLine, true
				break
			}
			if lineBytes > ml {
				wantLine = line
				break
			}
		}
		var tl *TooLongError
		switch {
		case wantLine == 0 && (err != nil || !bytes.Equal(got, data)):
			t.Fatalf("within bounds: %q, %v", got, err)
		case wantLine != 0 && (!errors.As(err, &tl) || tl.Line != wantLine || tl.Record != record):
			t.Fatalf("error %v, want line %d (record %v)", err, wantLine, record)
		case !bytes.HasPrefix(data, got):
			t.Fatalf("passed %q, not a prefix", got)
		}
	})
}

// chunks reads data n bytes at a time.
type chunks struct {
	data []byte
	n    int
}

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.data)
	c.data = c.data[k:]
	return k, nil
}
