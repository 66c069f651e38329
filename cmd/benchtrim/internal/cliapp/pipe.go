package cliapp

import (
	"errors"
	"io"
	"sync/atomic"
	"syscall"
)

// closedStdout is the process's standard output for the commands: once
// its reader has gone (benchtrim trim --out-dir D | head -1), a write fails
// with EPIPE, and from then on closedStdout takes every write without
// writing it. A closed standard output so ends the printing, not the work:
// the command still writes its output files and exits as it would have.
// (Main ignores SIGPIPE, which would otherwise end the process at that
// write.)
type closedStdout struct {
	w      io.Writer
	closed atomic.Bool
}

func (s *closedStdout) Write(b []byte) (int, error) {
	if s.closed.Load() {
		return len(b), nil
	}
	n, err := s.w.Write(b)
	if err != nil && errors.Is(err, syscall.EPIPE) {
		s.closed.Store(true)
		return len(b), nil
	}
	return n, err
}
