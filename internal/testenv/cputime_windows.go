package testenv

import (
	"os"
	"syscall"
	"time"
)

// CPUSeconds is this process's user + system CPU time so far, in seconds
// (GetProcessTimes).
func CPUSeconds() float64 {
	h, err := syscall.GetCurrentProcess()
	if err != nil {
		return 0
	}
	var created, exited, kernel, user syscall.Filetime
	if err := syscall.GetProcessTimes(h, &created, &exited, &kernel, &user); err != nil {
		return 0
	}
	ticks := func(f syscall.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) } // 100 ns
	return time.Duration((ticks(kernel) + ticks(user)) * 100).Seconds()
}

// MaxRSS is 0: the process state does not give the peak memory here.
func MaxRSS(*os.ProcessState) int64 { return 0 }
