package progress

import (
	"testing"
	"time"
)

func TestLine(t *testing.T) {
	for _, tc := range []struct {
		done, total int64
		elapsed     time.Duration
		want        string
	}{
		{0, 40, 0, "optimize: 0/40 (0 %)"},
		{10, 40, 5 * time.Second, "optimize: 10/40 (25 %), 2.0/s, ETA 15s"},
		{300, 1000, 10 * time.Second, "optimize: 300/1000 (30 %), 30/s, ETA 23s"},
		{1, 4, 20 * time.Second, "optimize: 1/4 (25 %), 20.0 s each, ETA 1m0s"},
		{4, 4, 2 * time.Second, "optimize: 4/4 (100 %), 2.0/s"},
	} {
		if got := line("optimize", tc.done, tc.total, tc.elapsed); got != tc.want {
			t.Errorf("Line(%d, %d, %v) = %q, want %q", tc.done, tc.total, tc.elapsed, got, tc.want)
		}
	}
}
