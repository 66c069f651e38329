// Package progress prints a one-line progress counter on stderr for long
// analyses. It prints only when the stream is a terminal, the user did not
// ask for --quiet, and the CI environment variable is unset; otherwise every
// method is a no-op, so callers never need to check.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Bar counts finished work items of a known total.
type Bar struct {
	w       io.Writer
	label   string
	total   int64
	done    atomic.Int64
	mu      sync.Mutex
	last    time.Time
	enabled bool
}

// Enabled reports whether progress should be shown on w.
func Enabled(w io.Writer, quiet bool) bool {
	if quiet || os.Getenv("CI") != "" {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// New starts a bar for total items; it prints only when Enabled(w, quiet).
func New(w io.Writer, quiet bool, label string, total int) *Bar {
	return &Bar{w: w, label: label, total: int64(total), enabled: Enabled(w, quiet)}
}

// Add records n finished items. It is safe for concurrent use and redraws
// at most ten times a second.
func (b *Bar) Add(n int) {
	d := b.done.Add(int64(n))
	if !b.enabled {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if now := time.Now(); now.Sub(b.last) >= 100*time.Millisecond || d == b.total {
		b.last = now
		fmt.Fprintf(b.w, "\r%s: %d/%d", b.label, d, b.total)
	}
}

// Done ends the line.
func (b *Bar) Done() {
	if b.enabled {
		fmt.Fprintf(b.w, "\r%s: %d/%d done\n", b.label, b.done.Load(), b.total)
	}
}
