package jmh

import (
	"bytes"
	"math"
	"slices"
	"strings"
)

// secondaryMetrics reads the secondaryMetrics object: one metric per member.
func (rd *recordReader) secondaryMetrics() error {
	rec := &rd.rec
	if ok, err := rd.objectOrNull("want an object of metrics"); !ok {
		return err
	}
	return rd.members(nil, nil, func(_ int, name string) error {
		for j := range rec.secondary {
			if rec.secondary[j].key == name {
				rd.skip(kindDupKey, 1, rd.here("duplicate secondary metric %q; the first one is used", name))
				return rd.s.skipValue()
			}
		}
		return rd.parseMetric(rec.addSecondary(name, rd.s.line))
	})
}

// Metric member keys.
const (
	mkUnknown = iota
	mkScoreUnit
	mkRawData
	mkRawDataHistogram
)

var metricKeyNames = []string{"", "scoreUnit", "rawData", "rawDataHistogram"}

// jmhMetricMembers are the members JMH 1.x writes in a metric that Read
// does not use.
var jmhMetricMembers = map[string]bool{"score": true, "scoreError": true, "scoreConfidence": true, "scorePercentiles": true}

func metricKey(b []byte) int {
	switch string(b) {
	case "scoreUnit":
		return mkScoreUnit
	case "rawData":
		return mkRawData
	case "rawDataHistogram":
		return mkRawDataHistogram
	}
	return mkUnknown
}

func (rd *recordReader) parseMetric(m *metric) error {
	s := rd.s
	c, ok := s.skipWS()
	if !ok {
		return s.eofErr("")
	}
	m.line = s.line
	if c != '{' {
		m.invalid = true
		rd.warnType(s.line, "want a metric object")
		return s.skipValue()
	}
	var seen [4]bool
	return rd.members(metricKey, metricKeyNames, func(id int, name string) error {
		if id != mkUnknown && seen[id] {
			rd.skip(kindDupKey, 1, rd.here("duplicate member %q; the first one is used", name))
			return s.skipValue()
		}
		seen[id] = true
		switch id {
		case mkScoreUnit:
			line := s.line
			var isNull, ok bool
			var err error
			m.unit, isNull, ok, err = rd.scalarText()
			m.hasUnit = ok && !isNull
			if err == nil && !ok {
				rd.warnType(line, "want a string")
			}
			return err
		case mkRawData:
			return rd.rawData(m)
		case mkRawDataHistogram:
			return rd.histogram(m)
		}
		if m.stray == "" && !jmhMetricMembers[name] {
			m.stray = name
		}
		return s.skipValue()
	})
}

// readFloat reads a number in a value position: a JSON number, a string
// holding a number or "NaN", "+INF", "-INF", "Infinity"… (how JMH writes
// non-finite doubles), or the bare words NaN and Infinity. Valid JSON of
// another kind (null, booleans, other strings, containers) gives bad =
// badNotNumber; invalid JSON is an error.
func (rd *recordReader) readFloat() (v float64, bad uint8, line int, err error) {
	s := rd.s
	c, ok := s.skipWS()
	if !ok {
		return 0, 0, s.line, s.eofErr("")
	}
	line = s.line
	switch {
	case c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.':
		b := s.numberBytes()
		if v, ok := parseNumber(b); ok {
			return v, badNone, line, nil
		}
		if len(b) == 1 && (b[0] == '-' || b[0] == '+') {
			// A sign before a bare NaN/Infinity (lenient). b aliases the
			// buffer, which ensure may move.
			sign := b[0]
			s.ensure(1)
			if s.pos < s.end && (s.buf[s.pos] == 'I' || s.buf[s.pos] == 'N') {
				w := s.literal()
				if v, ok := parseSpecial(sign, w); ok {
					return v, badNone, line, nil
				}
				return 0, 0, line, s.errf("invalid literal %q", string(sign)+string(w))
			}
			return 0, 0, line, s.errf("invalid number %q", string(sign))
		}
		return 0, 0, line, s.errf("invalid number %q", b)
	case c == '"':
		b, err := s.stringBytes()
		if err != nil {
			return 0, 0, line, err
		}
		if v, ok := parseNumber(bytes.TrimSpace(b)); ok {
			return v, badNone, line, nil
		}
		if v, ok := parseSpecial('+', bytes.TrimSpace(b)); ok {
			return v, badNone, line, nil
		}
		return 0, badNotNumber, line, nil
	case c == 'N' || c == 'I':
		w := s.literal()
		if v, ok := parseSpecial('+', w); ok {
			return v, badNone, line, nil
		}
		return 0, 0, line, s.errf("invalid literal %q", w)
	case c == 'n' || c == 't' || c == 'f':
		w := s.literal()
		switch string(w) {
		case "null", "true", "false":
			return 0, badNotNumber, line, nil
		}
		return 0, 0, line, s.errf("invalid literal %q", w)
	case c == '[' || c == '{':
		return 0, badNotNumber, line, s.skipValue()
	}
	return 0, 0, line, s.unexpected(c, "a number")
}

// parseSpecial parses the non-finite spellings NaN, INF, Inf, Infinity
// (case-insensitive, optionally signed; sign applies when w has none).
func parseSpecial(sign byte, w []byte) (float64, bool) {
	if len(w) > 0 && (w[0] == '+' || w[0] == '-') {
		sign, w = w[0], w[1:]
	}
	switch strings.ToLower(string(w)) {
	case "nan":
		return math.NaN(), true
	case "inf", "infinity":
		if sign == '-' {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	return 0, false
}

// rawData reads forks × iterations of numbers.
func (rd *recordReader) rawData(m *metric) error {
	m.hasRaw = true
	return rd.forkIterations(&m.raw, &m.rawLine, &m.rawRows, func(fork, iter int32) error {
		v, bad, line, err := rd.readFloat()
		if err != nil {
			return err
		}
		rd.rec.addVal(value{v: v, count: 1, line: int64(line), fork: fork, iter: iter, bucket: -1, bad: bad})
		return nil
	})
}

// histogram reads forks × iterations × [value, count] buckets.
func (rd *recordReader) histogram(m *metric) error {
	m.hasHist = true
	return rd.forkIterations(&m.hist, &m.histLine, &m.histRows, rd.histIteration)
}

// forkIterations walks the forks × iterations array shape shared by
// rawData and rawDataHistogram, calling elem for each iteration element
// (1-based fork and iteration) to read it. It records the array's line, the
// span of values appended meanwhile, and each fork row's length; a value
// that is not an array (the whole or a fork row) is recorded as one
// badShape value and skipped.
func (rd *recordReader) forkIterations(dst *span, line *int, rows *[]int32, elem func(fork, iter int32) error) error {
	rec := &rd.rec
	if _, ok := rd.s.skipWS(); !ok {
		return rd.s.eofErr("")
	}
	*line = rd.s.line
	dst.start = len(rec.vals)
	defer func() { dst.end = len(rec.vals) }()
	return rd.arrayOf(func(line int) {
		rec.addVal(value{line: int64(line), bucket: -1, bad: badShape})
	}, func(f int) error {
		fork := int32(f + 1)
		iterations := int32(0)
		err := rd.arrayOf(func(line int) {
			rec.addVal(value{line: int64(line), fork: fork, bucket: -1, bad: badShape})
		}, func(it int) error {
			iterations++
			return elem(fork, int32(it+1))
		})
		*rows = append(*rows, iterations)
		return err
	})
}

// valDoubleLimit is the number of values (40 MB) up to which a record's
// value buffer doubles as it grows.
const valDoubleLimit = 1 << 20

// addVal appends v to r.vals; within capacity by reslicing, so that the
// compiler writes no slice pointer (no GC write barrier per value). Past
// capacity it doubles up to valDoubleLimit values (append grows a large
// slice by a quarter, which copies and discards five times the final
// size), then grows by a quarter, so that a huge record's buffer is at
// most a quarter larger than its values.
func (r *record) addVal(v value) {
	n := len(r.vals)
	if n >= cap(r.vals) {
		add := max(n, 1024)
		if n >= valDoubleLimit {
			add = n / 4
		}
		r.vals = slices.Grow(r.vals, add)
	}
	r.vals = r.vals[:n+1]
	r.vals[n] = v
}

// arrayOf reads one JSON value that should be an array, calling elem with
// the 0-based index of each element (the JSON path index set) to read it.
// A value that is not an array is reported to notArray with its line and
// skipped.
func (rd *recordReader) arrayOf(notArray func(line int), elem func(i int) error) error {
	s := rd.s
	c, ok := s.skipWS()
	if !ok {
		return s.eofErr("")
	}
	if c != '[' {
		notArray(s.line)
		return s.skipValue()
	}
	s.pos++
	s.pushIdx(0)
	for i := 0; ; i++ {
		more, err := s.next(i, ']')
		if err != nil {
			return err
		}
		if !more {
			break
		}
		s.setIdx(i)
		if err := elem(i); err != nil {
			return err
		}
	}
	s.pop()
	return nil
}

// histIteration reads the buckets of one iteration: [value, count] pairs.
func (rd *recordReader) histIteration(fork, iter int32) error {
	s := rd.s
	rec := &rd.rec
	badValue := func(line, b int, bad uint8) {
		rec.addVal(value{line: int64(line), fork: fork, iter: iter, bucket: int32(b), bad: bad})
	}
	return rd.arrayOf(func(line int) { badValue(line, -1, badShape) }, func(b int) error {
		c, ok := s.skipWS()
		if !ok {
			return s.eofErr("")
		}
		if c != '[' {
			badValue(s.line, b, badBucket)
			return s.skipValue()
		}
		if v, n, ok := plainBucket(s); ok {
			rec.addVal(value{v: v, count: n, line: int64(s.line), fork: fork, iter: iter, bucket: int32(b)})
			return nil
		}
		s.pos++
		if d, ok := s.skipWS(); ok && d == ']' {
			s.pos++
			badValue(s.line, b, badBucket)
			return nil
		}
		s.pushIdx(0)
		v, bad, line, err := rd.readFloat()
		if err != nil {
			return err
		}
		count, cbad, err := rd.bucketCount()
		if err != nil {
			return err
		}
		if bad == badNone {
			bad = cbad
		}
		s.pop()
		rec.addVal(value{v: v, count: count, line: int64(line), fork: fork, iter: iter, bucket: int32(b), bad: bad})
		return nil
	})
}

// plainBucket reads the bucket at s.pos ('[') when it is the plain form
// JMH writes, "[ value, count ]" on one line of the buffer with a valid
// number and a count ≥ 1: what the general path (readFloat, bucketCount)
// would read as a good bucket. Otherwise it consumes nothing and ok is
// false, and the general path reads the bucket.
func plainBucket(s *scanner) (v float64, count int64, ok bool) {
	buf := s.buf[:s.end]
	p := s.pos + 1
	blanks := func() {
		for p < len(buf) && (buf[p] == ' ' || buf[p] == '\t') {
			p++
		}
	}
	blanks()
	start := p
	if d, q, fast := plainDecimal(buf, p); fast {
		v, p = d, q
	} else {
		for p < len(buf) && isNumByte[buf[p]] {
			p++
		}
		if p == start || p == len(buf) {
			return 0, 0, false
		}
		v, ok = parseNumber(buf[start:p])
		if !ok {
			return 0, 0, false
		}
	}
	blanks()
	if p == len(buf) || buf[p] != ',' {
		return 0, 0, false
	}
	p++
	blanks()
	start = p
	for p < len(buf) && buf[p]-'0' <= 9 {
		count = count*10 + int64(buf[p]-'0')
		p++
	}
	if p == start || p == len(buf) {
		return 0, 0, false
	}
	ok = true
	if p-start > 18 { // count may have overflowed: parseInt decides
		count, ok = parseInt(buf[start:p])
	}
	if !ok || count < 1 {
		return 0, 0, false
	}
	blanks()
	if p == len(buf) || buf[p] != ']' {
		return 0, 0, false
	}
	s.pos = p + 1
	return v, count, true
}

// plainDecimal parses the number at buf[p:] in one pass when it is one
// parseDecimal takes (decimalAt) followed by a byte that cannot continue a
// number, and returns the position after it. Anything else gives fast =
// false, and the caller reads the number the general way
// (TestPlainDecimal).
func plainDecimal(buf []byte, p int) (v float64, end int, fast bool) {
	v, end, fast = decimalAt(buf, p)
	return v, end, fast && end < len(buf) && !isNumByte[buf[end]]
}

// bucketCount reads ", count ]" after a bucket's value. A bucket with
// fewer or more than two elements, or a count that is not an integer ≥ 1,
// gives a bad code; the bucket is consumed either way.
func (rd *recordReader) bucketCount() (count int64, bad uint8, err error) {
	s := rd.s
	s.setIdx(1)
	more, err := s.next(1, ']')
	if err != nil || !more {
		return 0, badBucket, err
	}
	c, ok := s.skipWS()
	if !ok {
		return 0, 0, s.eofErr("")
	}
	switch {
	case c >= '0' && c <= '9':
		b := s.numberBytes()
		n, ok := parseInt(b)
		if !ok {
			if _, valid := parseNumber(b); !valid {
				return 0, 0, s.errf("invalid number %q", b)
			}
			bad = badCount
		} else if n < 1 {
			bad = badCount
		}
		count = n
	default:
		// Negative, a string, a literal or a container: not a count.
		if _, _, _, err := rd.readFloat(); err != nil {
			return 0, 0, err
		}
		bad = badCount
	}
	for i := 2; ; i++ {
		more, err := s.next(i, ']')
		if err != nil {
			return 0, 0, err
		}
		if !more {
			return count, bad, nil
		}
		s.setIdx(i)
		bad = badBucket
		if err := s.skipValue(); err != nil {
			return 0, 0, err
		}
	}
}
