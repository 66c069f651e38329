package linecap

import (
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
