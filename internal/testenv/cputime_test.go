package testenv

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"
)

// TestCPUSeconds: 50 ms of work on this goroutine count as at least 40 ms
// of CPU time (user + system), and a child process's peak memory is that
// of a running Go program (more than 1 MB), on the systems that tell.
func TestCPUSeconds(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" || runtime.GOOS == "plan9" {
		Skip(t, "%s gives no process CPU time", runtime.GOOS)
	}
	c0 := CPUSeconds()
	x := 1.0
	for start := time.Now(); CPUSeconds()-c0 < 0.05 && time.Since(start) < 5*time.Second; {
		for i := 0; i < 100000; i++ {
			x = x*1.0000001 + 1e-9
		}
	}
	if d := CPUSeconds() - c0; d < 0.04 || d > 5 {
		t.Errorf("CPU time went from %v to +%v s over a busy loop, want about 0.05 s", c0, d)
	}
	if x == 0 {
		t.Log(x)
	}
	if runtime.GOOS == "windows" {
		return // MaxRSS is not known there
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if rss := MaxRSS(cmd.ProcessState); rss < 1<<20 || rss > 1<<34 {
		t.Errorf("a child test binary's peak RSS is %d bytes, want between 1 MB and 16 GB", rss)
	}
}
