package jmh

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/benchtrim/benchtrim/ingest"
)

// scanner is a pull tokenizer for JSON over a reused byte buffer. It tracks
// the current line (1-based) and the JSON path of the value being read as a
// stack of path elements; the path string is only built for error messages.
//
// Byte slices returned by scanner methods alias the buffer (or a scratch
// buffer) and are valid only until the next scanner call.
type scanner struct {
	r     io.Reader
	file  string
	buf   []byte
	pos   int // next unread byte
	end   int // end of valid data in buf
	eof   bool
	ioErr error
	line  int
	total int64 // bytes read so far

	path    []pathElem
	scratch []byte // decoded strings with escapes
	skip    []byte // closers of containers being skipped
}

// pathElem is one step of a JSON path: an object member (idx < 0) or an
// array element.
type pathElem struct {
	key string
	idx int
}

const (
	initialBufSize = 256 << 10
	// maxTokenBytes bounds a single token (string or number): a longer one
	// is reported as bad input instead of growing the buffer without limit.
	maxTokenBytes = 64 << 20
)

func newScanner(r io.Reader, file string, buf []byte) *scanner {
	if cap(buf) < initialBufSize {
		buf = make([]byte, initialBufSize)
	}
	return &scanner{r: r, file: file, buf: buf[:cap(buf)], line: 1, path: make([]pathElem, 0, 16)}
}

// more reads more input into the buffer, keeping buf[keep:end] (keep ≤ pos).
// It returns how far the kept bytes moved toward the start (subtract it from
// any index the caller holds) and whether new bytes arrived.
func (s *scanner) more(keep int) (shift int, ok bool) {
	if s.eof {
		return 0, false
	}
	if keep > 0 {
		copy(s.buf, s.buf[keep:s.end])
		s.end -= keep
		s.pos -= keep
		shift = keep
	}
	if s.end == len(s.buf) {
		if len(s.buf) >= maxTokenBytes {
			s.eof = true
			s.ioErr = errTokenTooLong
			return shift, false
		}
		nb := make([]byte, 2*len(s.buf))
		copy(nb, s.buf[:s.end])
		s.buf = nb
	}
	for tries := 0; ; tries++ {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		s.total += int64(n)
		if err != nil {
			s.eof = true
			if !errors.Is(err, io.EOF) {
				s.ioErr = err
			}
			return shift, n > 0
		}
		if n > 0 {
			return shift, true
		}
		if tries > 100 {
			s.eof = true
			s.ioErr = io.ErrNoProgress
			return shift, false
		}
	}
}

// ensure reads until at least n bytes from pos are buffered or the input ends.
func (s *scanner) ensure(n int) {
	for s.end-s.pos < n {
		if _, ok := s.more(s.pos); !ok {
			return
		}
	}
}

var errTokenTooLong = errors.New("token longer than 64 MiB")

// skipWS advances past JSON white space and returns the next byte without
// consuming it; ok is false at the end of the input. Any byte other than
// space, tab, CR and LF ends the white space (control characters are left
// for the caller to reject).
func (s *scanner) skipWS() (c byte, ok bool) {
	for {
		buf := s.buf[:s.end]
		p := s.pos
		for p < len(buf) {
			c = buf[p]
			if c > ' ' {
				s.pos = p
				return c, true
			}
			switch c {
			case '\n':
				s.line++
				// Indentation follows: its spaces go eight at a time.
				for p += 1; p+8 <= len(buf) && binary.LittleEndian.Uint64(buf[p:]) == eightSpaces; p += 8 {
				}
				continue
			case ' ', '\t', '\r':
			default:
				s.pos = p
				return c, true
			}
			p++
		}
		s.pos = p
		if _, ok := s.more(s.pos); !ok {
			return 0, false
		}
	}
}

// eightSpaces is eight ' ' bytes read as one little-endian word.
const eightSpaces = 0x2020202020202020

// isNumByte marks the bytes a JSON number (or its lenient forms) can hold.
var isNumByte = func() (t [256]bool) {
	for _, c := range []byte("0123456789+-.eE") {
		t[c] = true
	}
	return t
}()

// numberBytes returns the run of number bytes at pos and consumes it.
func (s *scanner) numberBytes() []byte {
	start := s.pos
	p := start
	for {
		buf := s.buf[:s.end]
		for p < len(buf) && isNumByte[buf[p]] {
			p++
		}
		if p < len(buf) {
			break
		}
		s.pos = p
		shift, ok := s.more(start)
		start -= shift
		p -= shift
		if !ok {
			break
		}
	}
	s.pos = p
	return s.buf[start:p]
}

// bytesString views b as a string without copying. The result must not
// outlive b's contents; strconv's parsers do not retain their argument.
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// parseNumber parses the bytes of a JSON number. It is lenient: it accepts
// everything strconv.ParseFloat accepts made of digits, signs, '.' and
// exponents (a leading '+', leading zeros, "1." and ".5" included).
func parseNumber(b []byte) (float64, bool) {
	if v, ok := parseDecimal(b); ok {
		return v, true
	}
	v, err := strconv.ParseFloat(bytesString(b), 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return v, true // ±Inf or 0 for out-of-range magnitudes
		}
		return 0, false
	}
	return v, true
}

// parseDecimal parses b when it is a plain decimal, -?[0-9]+(\.[0-9]+)?,
// with at most 19 digits m (the decimal point dropped) and at most 22 of
// them after the point, to the float64 nearest m / 10^k, as
// strconv.ParseFloat does. Below 2^53, m and 10^k are exactly
// representable and one IEEE division rounds their quotient correctly
// (Clinger's fast path, W. D. Clinger, "How to read floating point numbers
// accurately", PLDI 1990; strconv's atof64exact); above it (a value such
// as 16.016000000000002, which JMH prints for a histogram's bucket) m
// goes to eiselLemire. Anything else (exponents, more digits, the rare
// products eiselLemire cannot round) is left to strconv: ok is false.
func parseDecimal(b []byte) (v float64, ok bool) {
	v, end, ok := decimalAt(b, 0)
	return v, ok && end == len(b)
}

// decimalAt parses the plain decimal -?[0-9]+(\.[0-9]+)? at buf[p:] as
// parseDecimal does and returns where it ends; ok is false when there is
// none there or it has more than 19 digits or more than 22 after the point
// (whatever follows it is the caller's to judge).
func decimalAt(buf []byte, p int) (v float64, end int, ok bool) {
	neg := p < len(buf) && buf[p] == '-'
	if neg {
		p++
	}
	var m uint64
	start := p
	for p < len(buf) && buf[p]-'0' <= 9 {
		m = m*10 + uint64(buf[p]-'0')
		p++
	}
	digits, frac := p-start, 0
	if digits == 0 {
		return 0, p, false
	}
	if p < len(buf) && buf[p] == '.' {
		p++
		fs := p
		// Eight digits at a time while they last (JMH's fractions run to
		// 15), then one at a time.
		for p+8 <= len(buf) {
			w := binary.LittleEndian.Uint64(buf[p:])
			if !eightDigits(w) {
				break
			}
			m = m*100_000_000 + parseEightDigits(w)
			p += 8
		}
		for p < len(buf) && buf[p]-'0' <= 9 {
			m = m*10 + uint64(buf[p]-'0')
			p++
		}
		frac = p - fs
		digits += frac
		if frac == 0 {
			return 0, p, false
		}
	}
	// 19 digits cannot overflow m; 2^53 and 10^22 bound exactness.
	if digits > 19 || frac > 22 {
		return 0, p, false
	}
	if m >= 1<<53 {
		v, ok = eiselLemire(m, frac, neg)
		return v, p, ok
	}
	v = float64(m) / exactPow10[frac]
	if neg {
		v = -v
	}
	return v, p, true
}

// eightDigits reports whether the eight bytes of w (little-endian) are
// all ASCII digits: adding 6 to a byte in '0'..'9' keeps its high nibble
// 3, to anything else of high nibble 3 carries it to 4 (D. Lemire,
// "Number parsing at a gigabyte per second", 2021, and fast_float's
// is_made_of_eight_digits_fast).
func eightDigits(w uint64) bool {
	return (w&0xF0F0F0F0F0F0F0F0)|((w+0x0606060606060606)&0xF0F0F0F0F0F0F0F0)>>4 == 0x3333333333333333
}

// parseEightDigits is the number the eight ASCII digits of w spell, the
// first byte (lowest) most significant: pairs, then quadruples, then the
// two halves are combined by one multiply-add each (the same source,
// parse_eight_digits_unrolled).
func parseEightDigits(w uint64) uint64 {
	w -= 0x3030303030303030
	w = w*10 + w>>8 // each 16-bit lane: 10·d0 + d1 in its low byte
	w = (w&0x000000FF000000FF)*(100+1000000<<32)>>32 + (w>>16&0x000000FF000000FF)*(1+10000<<32)>>32
	return w & 0xFFFFFFFF
}

// exactPow10 holds the powers of ten a float64 represents exactly.
var exactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseInt parses the bytes of a JSON number that must be a non-negative or
// negative integer (Java long), accepting an integral float spelling (12.0,
// 1.2E3) as well.
func parseInt(b []byte) (int64, bool) {
	if len(b) > 0 && len(b) <= 18 {
		var n int64
		i := 0
		neg := b[0] == '-'
		if neg {
			i = 1
		}
		if i < len(b) {
			for ; i < len(b); i++ {
				c := b[i]
				if c < '0' || c > '9' {
					break
				}
				n = n*10 + int64(c-'0')
			}
			if i == len(b) {
				if neg {
					n = -n
				}
				return n, true
			}
		}
	}
	if n, err := strconv.ParseInt(bytesString(b), 10, 64); err == nil {
		return n, true // 19 digits: exactly, not through a float64
	}
	v, ok := parseNumber(b)
	if !ok || v != float64(int64(v)) || v >= 1<<63 || v < -(1<<63) {
		return 0, false
	}
	return int64(v), true
}

// stringBytes reads the JSON string at pos (which holds '"') and returns its
// decoded bytes, which alias the buffer or s.scratch.
func (s *scanner) stringBytes() ([]byte, error) {
	s.pos++ // opening quote
	start := s.pos
	p := start
	for {
		buf := s.buf[:s.end]
		for ; p < len(buf); p++ {
			c := buf[p]
			if c == '"' {
				s.pos = p + 1
				return buf[start:p], nil
			}
			if c == '\\' || c < 0x20 {
				s.pos = p
				return s.stringSlow(start)
			}
		}
		s.pos = p
		shift, ok := s.more(start)
		start -= shift
		p -= shift
		if !ok {
			return nil, s.eofErr("inside a string")
		}
	}
}

// stringSlow decodes a string with escapes; buf[start:pos] holds the part
// already scanned (no escapes in it).
func (s *scanner) stringSlow(start int) ([]byte, error) {
	out := append(s.scratch[:0], s.buf[start:s.pos]...)
	defer func() { s.scratch = out[:0] }()
	for {
		if s.pos >= s.end {
			if _, ok := s.more(s.pos); !ok {
				return nil, s.eofErr("inside a string")
			}
			continue
		}
		c := s.buf[s.pos]
		switch {
		case c == '"':
			s.pos++
			return out, nil
		case c < 0x20:
			if c == '\n' || c == '\r' {
				return nil, s.errf("raw line break inside a string; JMH ≤ 1.21 writes @Param values containing \" \\ , [ ] { } unescaped, which breaks the JSON")
			}
			return nil, s.errf("raw control character 0x%02x inside a string", c)
		case c != '\\':
			out = append(out, c)
			s.pos++
			continue
		}
		// Escape: make sure the escape and up to 12 bytes (\uXXXX\uXXXX) are buffered.
		s.ensure(12)
		if s.pos+1 >= s.end {
			return nil, s.eofErr("inside a string escape")
		}
		e := s.buf[s.pos+1]
		s.pos += 2
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := s.hex4()
			if !ok {
				return nil, s.errf("invalid \\u escape in a string")
			}
			if utf16IsHighSurrogate(r) && s.pos+6 <= s.end && s.buf[s.pos] == '\\' && s.buf[s.pos+1] == 'u' {
				s.pos += 2
				lo, ok := s.hex4()
				if !ok {
					return nil, s.errf("invalid \\u escape in a string")
				}
				if lo >= 0xDC00 && lo <= 0xDFFF {
					r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
				} else {
					out = utf8.AppendRune(out, utf8.RuneError)
					r = lo
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			return nil, s.errf("invalid escape \\%c in a string", e)
		}
	}
}

func utf16IsHighSurrogate(r rune) bool { return r >= 0xD800 && r <= 0xDBFF }

func (s *scanner) hex4() (rune, bool) {
	if s.pos+4 > s.end {
		return 0, false
	}
	var r rune
	for _, c := range s.buf[s.pos : s.pos+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	s.pos += 4
	return r, true
}

// str reads a JSON string and returns it as a Go string, bytes as written
// (invalid UTF-8 included: the reader cleans and reports it where the
// string is stored, see ingest.Names).
func (s *scanner) str() (string, error) {
	b, err := s.stringBytes()
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// literal consumes the bare word at pos (true, false, null, NaN, Infinity…)
// and returns it.
func (s *scanner) literal() []byte {
	start := s.pos
	p := start
	isWord := func(c byte) bool {
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'
	}
	for {
		for p < s.end && isWord(s.buf[p]) && p-start < 64 {
			p++
		}
		if p < s.end || p-start >= 64 {
			break
		}
		s.pos = p
		shift, ok := s.more(start)
		start -= shift
		p -= shift
		if !ok {
			break
		}
	}
	s.pos = p
	return s.buf[start:p]
}

// expect consumes byte want after white space.
func (s *scanner) expect(want byte) error {
	c, ok := s.skipWS()
	if !ok {
		return s.eofErr("")
	}
	if c != want {
		return s.unexpected(c, "'"+string(want)+"'")
	}
	s.pos++
	return nil
}

// next reports whether the container being read (closed by closer) has
// another element. Before the first element (i == 0) it consumes the closer
// of an empty container; after an element it consumes ',' or the closer.
func (s *scanner) next(i int, closer byte) (bool, error) {
	c, ok := s.skipWS()
	if !ok {
		return false, s.eofErr("")
	}
	if c == closer {
		s.pos++
		return false, nil
	}
	if i == 0 {
		return true, nil
	}
	if c == ',' {
		s.pos++
		return true, nil
	}
	return false, s.unexpected(c, "',' or '"+string(closer)+"'")
}

// key reads an object member name and the ':' after it is NOT consumed;
// the returned bytes are valid until the next scanner call.
func (s *scanner) key() ([]byte, error) {
	c, ok := s.skipWS()
	if !ok {
		return nil, s.eofErr("")
	}
	if c != '"' {
		return nil, s.unexpected(c, "a member name in double quotes")
	}
	return s.stringBytes()
}

// skipValue consumes one JSON value of any kind, checking its syntax. It is
// iterative, so deeply nested input cannot exhaust the goroutine stack.
func (s *scanner) skipValue() error {
	stack := s.skip[:0]
	defer func() { s.skip = stack[:0] }()
	for {
		c, ok := s.skipWS()
		if !ok {
			return s.eofErr("")
		}
		switch {
		case c == '{' || c == '[':
			s.pos++
			closer := byte(']')
			if c == '{' {
				closer = '}'
			}
			d, ok := s.skipWS()
			if !ok {
				return s.eofErr("")
			}
			if d == closer {
				s.pos++
				break
			}
			stack = append(stack, closer)
			if closer == '}' {
				if err := s.skipMemberName(); err != nil {
					return err
				}
			}
			continue
		case c == '"':
			if _, err := s.stringBytes(); err != nil {
				return err
			}
		case c == '-' || c == '+' || c >= '0' && c <= '9':
			b := s.numberBytes()
			if _, ok := parseNumber(b); !ok {
				// A sign before a bare NaN/Infinity (lenient, as in readFloat).
				// b aliases the buffer, which ensure may move: decide first.
				lone := len(b) == 1 && (b[0] == '-' || b[0] == '+')
				text := string(b)
				s.ensure(1)
				if !lone || s.pos >= s.end || (s.buf[s.pos] != 'I' && s.buf[s.pos] != 'N') {
					return s.errf("invalid number %q", text)
				}
				switch w := s.literal(); string(w) {
				case "NaN", "Infinity":
				default:
					return s.errf("invalid literal %q", w)
				}
			}
		case c == 't' || c == 'f' || c == 'n' || c == 'N' || c == 'I':
			w := s.literal()
			switch string(w) {
			case "true", "false", "null", "NaN", "Infinity":
			default:
				return s.errf("invalid literal %q", w)
			}
		default:
			return s.unexpected(c, "a value")
		}
		// A value is complete: close containers until one has another element.
		for {
			if len(stack) == 0 {
				return nil
			}
			closer := stack[len(stack)-1]
			d, ok := s.skipWS()
			if !ok {
				return s.eofErr("")
			}
			if d == closer {
				s.pos++
				stack = stack[:len(stack)-1]
				continue
			}
			if d != ',' {
				return s.unexpected(d, "',' or '"+string(closer)+"'")
			}
			s.pos++
			if closer == '}' {
				if err := s.skipMemberName(); err != nil {
					return err
				}
			}
			break
		}
	}
}

func (s *scanner) skipMemberName() error {
	if _, err := s.key(); err != nil {
		return err
	}
	return s.expect(':')
}

// push and pop maintain the JSON path of the value being read.
func (s *scanner) pushKey(k string) { s.path = append(s.path, pathElem{key: k, idx: -1}) }
func (s *scanner) pushIdx(i int)    { s.path = append(s.path, pathElem{idx: i}) }
func (s *scanner) pop()             { s.path = s.path[:len(s.path)-1] }
func (s *scanner) setIdx(i int)     { s.path[len(s.path)-1].idx = i }

// pathString formats the current JSON path, e.g. $[3].primaryMetric.rawData[0][2].
func (s *scanner) pathString() string { return formatPath(s.path) }

func formatPath(path []pathElem) string {
	var b strings.Builder
	b.WriteByte('$')
	for _, e := range path {
		if e.idx >= 0 {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(e.idx))
			b.WriteByte(']')
		} else {
			appendKey(&b, e.key)
		}
	}
	return b.String()
}

// appendKey writes .name for identifier-like names and ["name"] otherwise
// (JSONPath bracket notation, e.g. ["·gc.alloc.rate"]).
func appendKey(b *strings.Builder, k string) {
	ident := k != ""
	for i := 0; i < len(k) && ident; i++ {
		c := k[i]
		ident = c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9'
	}
	if ident {
		b.WriteByte('.')
		b.WriteString(k)
		return
	}
	b.WriteByte('[')
	b.WriteString(strconv.Quote(k))
	b.WriteByte(']')
}

// errf returns a ParseError at the current line and path, or the wrapped I/O
// error when reading failed.
func (s *scanner) errf(format string, args ...any) error {
	if s.ioErr != nil {
		return s.readErr()
	}
	return &ingest.ParseError{File: s.file, Line: s.line, Path: s.pathString(), Msg: fmt.Sprintf(format, args...)}
}

func (s *scanner) readErr() error {
	if errors.Is(s.ioErr, errTokenTooLong) {
		return &ingest.ParseError{File: s.file, Line: s.line, Path: s.pathString(), Msg: s.ioErr.Error()}
	}
	return fmt.Errorf("jmh: reading %s: %w", s.file, s.ioErr)
}

// eofErr reports input that ended in the middle of the document.
func (s *scanner) eofErr(where string) error {
	if s.ioErr != nil {
		return s.readErr()
	}
	msg := "unexpected end of file"
	if where != "" {
		msg += " " + where
	}
	return &ingest.ParseError{File: s.file, Line: s.line, Path: s.pathString(), Msg: msg + " (truncated file?)"}
}

// conflictMarkers are the line prefixes git writes into a file with an
// unresolved merge conflict.
var conflictMarkers = [][]byte{[]byte("<<<<<<<"), []byte("======="), []byte(">>>>>>>"), []byte("|||||||")}

// unexpected reports byte c where want was expected, recognising git
// conflict markers.
func (s *scanner) unexpected(c byte, want string) error {
	if c == '<' || c == '=' || c == '>' || c == '|' {
		s.ensure(80)
		rest := s.buf[s.pos:s.end]
		for _, m := range conflictMarkers {
			if bytes.HasPrefix(rest, m) {
				line := rest
				if i := bytes.IndexAny(line, "\r\n"); i >= 0 {
					line = line[:i]
				}
				if len(line) > 60 {
					line = line[:60]
				}
				return s.errf("git merge conflict marker %q: the file was committed with an unresolved merge conflict; resolve it (keep one side) and ingest again", line)
			}
		}
	}
	return s.errf("unexpected %s, want %s", describeByte(c), want)
}

func describeByte(c byte) string {
	switch {
	case c == '"':
		return "string"
	case c >= 0x21 && c < 0x7f:
		return "'" + string(c) + "'"
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

// eiselLemire returns the float64 nearest m / 10^k (negated when neg) for
// m > 0 and 0 ≤ k ≤ 22, by the Eisel–Lemire algorithm (D. Lemire, "Number
// parsing at a gigabyte per second", Software: Practice and Experience
// 51(8), 2021; as N. Tao describes it in "The Eisel-Lemire ParseNumberF64
// Algorithm", 2020, which strconv.ParseFloat follows): m, shifted so that
// its top bit is set, times the 128-bit truncation of 10^-k scaled into
// [2^127, 2^128) gives the quotient's leading bits; the top 54 of them,
// rounded half to even, are the mantissa. ok is false when the truncated
// bits could change the rounding (the product lies too near a halfway
// point): the caller then asks strconv.
func eiselLemire(m uint64, k int, neg bool) (v float64, ok bool) {
	pow := invPow10[k]
	// 10^-k = pow · 2^(e2 − 127) with e2 = 1 + ⌊−k·log2 10⌋; a float64 of
	// mantissa bits M and biased exponent E is M · 2^(E − 1023 − 52).
	e2 := 1 + floorLog2Pow10(-k)
	clz := bits.LeadingZeros64(m)
	m <<= uint(clz)
	exp := uint64(e2+63+1023) - uint64(clz)
	hi, lo := bits.Mul64(m, pow[0])
	if hi&0x1FF == 0x1FF && lo+m < m {
		// The low 9 bits (those shifted out below) are all ones and lo
		// may carry into them: take pow's low word into the product.
		yHi, yLo := bits.Mul64(m, pow[1])
		mHi, mLo := hi, lo+yHi
		if mLo < lo {
			mHi++
		}
		if mHi&0x1FF == 0x1FF && mLo+1 == 0 && yLo+m < m {
			return 0, false
		}
		hi, lo = mHi, mLo
	}
	msb := hi >> 63
	mant := hi >> (msb + 9) // 54 bits
	exp -= 1 ^ msb
	if lo == 0 && hi&0x1FF == 0 && mant&3 == 1 {
		return 0, false // exactly halfway as far as the 128 bits tell
	}
	mant += mant & 1
	mant >>= 1
	if mant>>53 > 0 {
		mant >>= 1
		exp++
	}
	if exp-1 >= 0x7FF-1 {
		return 0, false // subnormal or infinite: not for m / 10^k ≥ 2^53 / 10^22
	}
	b := exp<<52 | mant&(1<<52-1)
	if neg {
		b |= 1 << 63
	}
	return math.Float64frombits(b), true
}

// floorLog2Pow10 is ⌊e · log2 10⌋ for |e| ≤ 1000: 108853 / 2^15 is log2 10
// to within 2^-17 (strconv's mulLog2_10).
func floorLog2Pow10(e int) int {
	return (e * 108853) >> 15
}

// invPow10[k] is 10^-k scaled by a power of two into [2^127, 2^128) and
// truncated, as {high word, low word}; TestInvPow10 recomputes it with
// math/big.
var invPow10 = [23][2]uint64{
	{0x8000000000000000, 0x0000000000000000},
	{0xcccccccccccccccc, 0xcccccccccccccccc},
	{0xa3d70a3d70a3d70a, 0x3d70a3d70a3d70a3},
	{0x83126e978d4fdf3b, 0x645a1cac083126e9},
	{0xd1b71758e219652b, 0xd3c36113404ea4a8},
	{0xa7c5ac471b478423, 0x0fcf80dc33721d53},
	{0x8637bd05af6c69b5, 0xa63f9a49c2c1b10f},
	{0xd6bf94d5e57a42bc, 0x3d32907604691b4c},
	{0xabcc77118461cefc, 0xfdc20d2b36ba7c3d},
	{0x89705f4136b4a597, 0x31680a88f8953030},
	{0xdbe6fecebdedd5be, 0xb573440e5a884d1b},
	{0xafebff0bcb24aafe, 0xf78f69a51539d748},
	{0x8cbccc096f5088cb, 0xf93f87b7442e45d3},
	{0xe12e13424bb40e13, 0x2865a5f206b06fb9},
	{0xb424dc35095cd80f, 0x538484c19ef38c94},
	{0x901d7cf73ab0acd9, 0x0f9d37014bf60a10},
	{0xe69594bec44de15b, 0x4c2ebe687989a9b3},
	{0xb877aa3236a4b449, 0x09befeb9fad487c2},
	{0x9392ee8e921d5d07, 0x3aff322e62439fcf},
	{0xec1e4a7db69561a5, 0x2b31e9e3d06c32e5},
	{0xbce5086492111aea, 0x88f4bb1ca6bcf584},
	{0x971da05074da7bee, 0xd3f6fc16ebca5e03},
	{0xf1c90080baf72cb1, 0x5324c68b12dd6338},
}
