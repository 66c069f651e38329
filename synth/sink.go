package synth

import (
	"io"
	"strconv"
)

// sink accumulates output in a byte slice and hands it to the underlying
// writer in chunks of about flushSize bytes; the first write error sticks.
type sink struct {
	w   io.Writer
	b   []byte
	n   int64
	err error
}

const flushSize = 256 << 10

func newSink(w io.Writer) *sink { return &sink{w: w, b: make([]byte, 0, flushSize+4096)} }

// maybeFlush writes the buffer when it has grown past flushSize.
func (s *sink) maybeFlush() {
	if len(s.b) >= flushSize {
		s.flush()
	}
}

// flush writes the buffer out and returns the sticky error.
func (s *sink) flush() error {
	if s.err == nil && len(s.b) > 0 {
		var m int
		m, s.err = s.w.Write(s.b)
		s.n += int64(m)
	}
	s.b = s.b[:0]
	return s.err
}

const spaces = "                                                                "

func (s *sink) indent(n int) { s.b = append(s.b, spaces[:n]...) }

func (s *sink) str(x string) { s.b = append(s.b, x...) }

func (s *sink) int(x int64) { s.b = strconv.AppendInt(s.b, x, 10) }

// key writes `<indent>"name" : `.
func (s *sink) key(ind int, name string) {
	s.indent(ind)
	s.b = appendJSONString(s.b, name)
	s.b = append(s.b, " : "...)
}
