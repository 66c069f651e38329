//go:build !unix && !windows

package testenv

import "os"

// CPUSeconds is 0: this system gives no process CPU time.
func CPUSeconds() float64 { return 0 }

// MaxRSS is 0: this system gives no peak memory.
func MaxRSS(*os.ProcessState) int64 { return 0 }
