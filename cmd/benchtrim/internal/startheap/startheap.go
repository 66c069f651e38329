// Package startheap lets a short-lived process skip the garbage
// collections of its first megabytes of heap.
//
// The Go runtime starts with a heap goal of 4 MB and, with GOGC=100,
// collects each time the heap doubles from what was live: a command that
// builds a 100 MB table collects about ten times on the way (4, 8, 16, …
// MB), each time marking what it has built so far and waking the other
// threads. The Go compiler skips these collections the same way
// (cmd/compile/internal/base/startheap.go, "AdjustStartingHeap"; Go issue
// 56546): it raises GOGC until the heap first reaches a size, then puts
// GOGC back.
package startheap

import (
	"os"
	"runtime"
	"runtime/debug"
)

// Goal is the heap size up to which benchtrim does not collect: ingesting
// a 35 MB JMH file to Arrow IPC then collects twice instead of 10 times,
// for about a quarter less CPU in the same peak memory (about 100 MB);
// with 128 MB the peak grows to 145 MB (docs/development.md).
const Goal = 64 << 20

// Set turns the collector off until the heap reaches goal bytes: it sets
// GOGC off with a soft memory limit of goal (runtime/debug.SetMemoryLimit),
// so the first collection runs when the process's Go memory nears goal,
// and as that collection ends it puts both settings back (GOGC as it was,
// no memory limit), after which the heap grows as usual: to twice what is
// live. A process whose heap stays under goal never collects; its peak
// memory is then what it allocated in all, at most about goal.
//
// Set does nothing when the environment sets GOGC or GOMEMLIMIT: the user
// chose. It reports whether it changed the settings.
func Set(goal int64) bool {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" || goal <= 0 {
		return false
	}
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(goal)
	afterNextGC(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
	return true
}

// afterNextGC calls fn once, in the finalizer goroutine, after the next
// collection has marked the heap: the finalizer of an object that nothing
// reaches runs once a collection has found it unreachable (the Go
// compiler's forEachGC does the same).
func afterNextGC(fn func()) {
	type sentinel [32]byte // big enough to stay out of the tiny allocator
	runtime.SetFinalizer(new(sentinel), func(*sentinel) { fn() })
}
