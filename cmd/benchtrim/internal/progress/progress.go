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
	start   time.Time
	last    time.Time
	enabled bool
}

// enabled reports whether progress should be shown on w.
func enabled(w io.Writer, quiet bool) bool {
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
	return &Bar{w: w, label: label, total: int64(total), start: time.Now(), enabled: enabled(w, quiet)}
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
		fmt.Fprintf(b.w, "\r%s\033[K", line(b.label, d, b.total, now.Sub(b.start)))
	}
}

// Tick records one finished item of total (which may become known only
// once the work has started): the shape of the analyzers' Progress
// callbacks.
func (b *Bar) Tick(total int) {
	b.mu.Lock()
	b.total = int64(total)
	b.mu.Unlock()
	b.Add(1)
}

// Done ends the line.
func (b *Bar) Done() {
	if b.enabled {
		fmt.Fprintf(b.w, "\r%s: %d/%d done in %s\033[K\n", b.label, b.done.Load(), b.total, round(time.Since(b.start)))
	}
}

// line is the progress line after done of total items took elapsed:
// "label: done/total (P %), R/s, ETA D", where the rate is done/elapsed and
// the ETA (total − done)/rate. Rate and ETA are left out until an item is
// done.
func line(label string, done, total int64, elapsed time.Duration) string {
	s := fmt.Sprintf("%s: %d/%d", label, done, total)
	if total > 0 {
		s += fmt.Sprintf(" (%d %%)", 100*done/total)
	}
	if done <= 0 || elapsed <= 0 {
		return s
	}
	rate := float64(done) / elapsed.Seconds()
	switch {
	case rate >= 10:
		s += fmt.Sprintf(", %.0f/s", rate)
	case rate >= 1:
		s += fmt.Sprintf(", %.1f/s", rate)
	default:
		s += fmt.Sprintf(", %.1f s each", 1/rate)
	}
	if done < total {
		eta := time.Duration(float64(total-done) / rate * float64(time.Second))
		s += ", ETA " + round(eta).String()
	}
	return s
}

// round shortens a duration for people: whole seconds from 10 s on.
func round(d time.Duration) time.Duration {
	if d >= 10*time.Second {
		return d.Round(time.Second)
	}
	return d.Round(100 * time.Millisecond)
}
