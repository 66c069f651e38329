// Package testenv finds the data that real-data tests need outside the
// repository (../shared beside the checkout) and makes a skip visible.
//
// go test prints nothing but "ok" for a passing package unless -v is given,
// so a t.Skip for missing data would go unseen. Skip therefore also writes
// one line to the go command's own standard output (through
// /proc/PARENT/fd/1, when the parent process is the go command), so
// `go test ./...` shows which tests did not run and why. Every skip in the
// repository's tests goes through Skip (TestSkipsAreVisible checks it).
//
// A result go test takes from its cache ("ok … (cached)") replays no such
// line: `go test -count=1` runs the tests again (CI does).
//
// Benchmarks take the process's CPU time (CPUSeconds) and a child
// process's peak memory (MaxRSS) from here, so that the test files build
// on every system (getrusage on Unix, GetProcessTimes on Windows).
package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// root is the repository root: the nearest parent of the working
// directory holding go.mod.
func root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}

// SharedPath returns the path of ../shared/PARTS beside the repository
// root and whether it exists. BENCHTRIM_SHARED overrides the location of
// ../shared.
func SharedPath(parts ...string) (string, bool) {
	base := os.Getenv("BENCHTRIM_SHARED")
	if base == "" {
		r, err := root()
		if err != nil {
			return "", false
		}
		base = filepath.Join(filepath.Dir(r), "shared")
	}
	p := filepath.Join(append([]string{base}, parts...)...)
	_, err := os.Stat(p)
	return p, err == nil
}

// Shared returns ../shared/PARTS, or skips t visibly (see Skip) when it is
// absent.
func Shared(t testing.TB, parts ...string) string {
	t.Helper()
	p, ok := SharedPath(parts...)
	if !ok {
		Skip(t, "real-data test: %s is absent", filepath.Join(append([]string{"../shared"}, parts...)...))
	}
	return p
}

var parentOut struct {
	once sync.Once
	f    *os.File
}

// Skip skips t with the message and also prints "SKIP pkg TestName: message"
// where go test shows it without -v: on the go command's standard output.
func Skip(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if !testing.Verbose() {
		if f := goCommandStdout(); f != nil {
			pkg := "."
			if r, err := root(); err == nil {
				if wd, err := os.Getwd(); err == nil {
					if rel, err := filepath.Rel(r, wd); err == nil {
						pkg = rel
					}
				}
			}
			fmt.Fprintf(f, "SKIP %s %s: %s\n", pkg, t.Name(), msg)
		}
	}
	t.Skip(msg)
}

// goCommandStdout opens the parent's standard output when the parent is
// the go command (as under go test) and that output is a pipe or a
// terminal, else its standard error when that is one, else returns nil.
func goCommandStdout() *os.File {
	parentOut.once.Do(func() {
		ppid := os.Getppid()
		comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", ppid))
		if err != nil || strings.TrimSpace(string(comm)) != "go" {
			return
		}
		for _, fd := range []int{1, 2} {
			f, err := os.OpenFile(fmt.Sprintf("/proc/%d/fd/%d", ppid, fd), os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				continue
			}
			// Into a regular file (go test > log) the go command writes at
			// its own offset and would overwrite these lines; use only
			// pipes and terminals (go test | tee log, as CI does).
			if st, err := f.Stat(); err != nil || st.Mode().IsRegular() {
				f.Close()
				continue
			}
			parentOut.f = f
			return
		}
	})
	return parentOut.f
}

// PeakHeap samples the heap's objects (runtime/metrics
// /memory/classes/heap/objects:bytes, live and not yet swept) every
// interval until the returned function is called, which returns the
// largest value seen: the peak memory of what a benchmark runs.
func PeakHeap(every time.Duration) (stop func() uint64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak.Load()
	}
}
