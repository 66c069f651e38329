//go:build unix

package changepoint

import (
	"syscall"
	"time"
)

// processCPUTime is the user+system CPU time of this process; benchmarks
// report it next to wall time because the shared 2-core machine makes
// wall time noisy.
func processCPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
