package ingest

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Summary kinds of the name checks every reader shares. Both are warnings:
// the row is kept under the cleaned name. Each distinct name is counted
// once per file.
const (
	KindInvalidUTF8Name = "invalid UTF-8 in a name (replaced by U+FFFD)"
	KindControlName     = "control character in a name (escaped as \\n, \\t, \\xNN or \\uNNNN)"
	kindBidiName        = "bidi control in a name (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C; escaped as \\uNNNN)"
)

// CleanName makes s safe for the canonical table's text columns (project,
// version, benchmark, params, metric, unit) and for the line-oriented
// formats written from them: every invalid UTF-8 sequence becomes U+FFFD
// (as strings.ToValidUTF8 does) and every control character (C0, DEL and
// C1, including line breaks and tabs) and every bidi control (Unicode's
// Bidi_Control: the embeddings, overrides and isolates U+202A–U+202E and
// U+2066–U+2069, the marks U+200E, U+200F and U+061C, which make one name
// display as another) is written as its Go escape: \n, \r, \t, \xNN below
// U+0080, \uNNNN above. badUTF8 and control tell what was changed (control
// includes bidi controls); a clean s is returned as it is, without
// allocating.
func CleanName(s string) (clean string, badUTF8, control bool) {
	j := 0
	for j < len(s) && s[j] >= 0x20 && s[j] < 0x7f {
		j++
	}
	if j == len(s) {
		return s, false, false
	}
	var b []byte
	from := 0     // start of the part of s not yet copied to b
	lastBad := -1 // end of the last invalid sequence replaced
	for j < len(s) {
		r, n := utf8.DecodeRuneInString(s[j:])
		invalid := r == utf8.RuneError && n == 1
		if !invalid && !unicode.IsControl(r) && !isBidi(r) {
			j += n
			continue
		}
		if b == nil {
			b = make([]byte, 0, len(s)+8)
		}
		b = append(b, s[from:j]...)
		if invalid {
			badUTF8 = true
			// A run of invalid bytes becomes one U+FFFD, as in strings.ToValidUTF8.
			if lastBad != j {
				b = append(b, "\uFFFD"...)
			}
			lastBad = j + 1
		} else {
			control = true
			b = appendEscape(b, r)
		}
		j += n
		from = j
	}
	if b == nil {
		return s, false, false
	}
	return string(append(b, s[from:]...)), badUTF8, control
}

// isBidi reports whether r is a bidi control (Unicode's Bidi_Control).
func isBidi(r rune) bool { return unicode.Is(unicode.Bidi_Control, r) }

// appendEscape appends the Go escape of control character r.
func appendEscape(b []byte, r rune) []byte {
	switch r {
	case '\n':
		return append(b, `\n`...)
	case '\r':
		return append(b, `\r`...)
	case '\t':
		return append(b, `\t`...)
	}
	if r < utf8.RuneSelf {
		return fmt.Appendf(b, `\x%02x`, r)
	}
	return fmt.Appendf(b, `\u%04x`, r)
}

// Names cleans the names one read takes from a file (CleanName) and warns
// in Rep about each distinct name it had to change, once, at the place of
// its first occurrence. The zero value with Rep set is ready to use.
type Names struct {
	Rep  *Summary
	seen map[string]string
}

// Clean returns CleanName(s). The first time a changed s is seen, it warns
// under KindInvalidUTF8Name and/or KindControlName with at's place and a
// message naming the field (what: "benchmark", "param value", …) and the
// stored name.
func (n *Names) Clean(s, what string, at ParseError) string {
	c, bad, ctl := CleanName(s)
	if !bad && !ctl {
		return s
	}
	if n.seen == nil {
		n.seen = map[string]string{}
	}
	if _, ok := n.seen[s]; ok {
		return c
	}
	n.seen[s] = c
	stored := strconv.Quote(c)
	if bad {
		e := at
		e.Msg = fmt.Sprintf("%s %q is not valid UTF-8; stored as %s", what, s, stored)
		n.Rep.Warn(KindInvalidUTF8Name, &e)
	}
	if ctl && strings.ContainsFunc(s, unicode.IsControl) {
		e := at
		e.Msg = fmt.Sprintf("%s %q holds control characters; stored as %s", what, s, stored)
		n.Rep.Warn(KindControlName, &e)
	}
	if ctl && strings.ContainsFunc(s, isBidi) {
		e := at
		e.Msg = fmt.Sprintf("%s %q holds bidi controls, which change how names display; stored as %s", what, s, stored)
		n.Rep.Warn(kindBidiName, &e)
	}
	return c
}

// Mode returns the canonical spelling of a benchmark mode: JMH's short
// labels thrpt, avgt, sample and ss (its long names Throughput,
// AverageTime, SampleTime and SingleShotTime are mapped to them, as JMH's
// -bm option accepts both) and go for Go benchmarks. ok is false for
// anything else.
func Mode(s string) (canonical string, ok bool) {
	switch s {
	case "thrpt", "avgt", "sample", "ss", "go":
		return s, true
	case "Throughput":
		return "thrpt", true
	case "AverageTime":
		return "avgt", true
	case "SampleTime":
		return "sample", true
	case "SingleShotTime":
		return "ss", true
	}
	return "", false
}

// conflictMarker finds the first line of head that starts a git merge
// conflict ("<<<<<<< " and a branch name, as git writes into a file with an
// unresolved merge) and returns its 1-based line number and text; line is
// 0 when there is none.
func conflictMarker(head []byte) (line int, text string) {
	for n := 1; len(head) > 0; n++ {
		l := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			l, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		l = bytes.TrimRight(l, "\r")
		if rest, ok := bytes.CutPrefix(l, []byte("<<<<<<<")); ok && (len(rest) == 0 || rest[0] == ' ') {
			if len(l) > 60 {
				l = l[:60]
			}
			return n, string(l)
		}
	}
	return 0, ""
}
