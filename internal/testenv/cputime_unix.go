//go:build unix

package testenv

import (
	"os"
	"runtime"
	"syscall"
	"time"
)

// CPUSeconds is this process's user + system CPU time so far, in seconds
// (getrusage(RUSAGE_SELF)). Benchmarks report throughput per CPU second
// next to wall time: on a machine shared with other work it measures the
// work where wall time does not.
func CPUSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// MaxRSS is the peak resident set size of a finished child process in
// bytes (its rusage's ru_maxrss: kilobytes on Linux and the BSDs, bytes
// on macOS), 0 where the system does not say.
func MaxRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss)
	}
	return int64(ru.Maxrss) * 1024
}
