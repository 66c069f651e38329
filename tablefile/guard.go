package tablefile

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/benchtrim/benchtrim/table"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// guardedRead runs read, a decoder of untrusted bytes, with a panic turned
// into an error, and checks what it returns with validateRecord. On error
// it releases the table read so far and hands back to mem every buffer the
// decoder allocated and did not free (a decoder that panics leaves them
// behind), so a corrupt file leaks nothing.
func guardedRead(mem memory.Allocator, read func(memory.Allocator) (*table.Table, error)) (*table.Table, error) {
	ta := &trackingAllocator{mem: mem, live: map[*byte][]byte{}}
	t, err := func() (t *table.Table, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = &panicError{r}
			}
		}()
		// t is assigned only when read returns, so after a panic in read
		// it is nil; a panic in validation leaves it set for the release.
		t, err = read(ta)
		if err != nil {
			return t, err
		}
		for _, rec := range t.Records {
			if err := validateRecord(rec); err != nil {
				return t, err
			}
		}
		return t, nil
	}()
	if err != nil {
		if t != nil {
			t.Release()
		}
		ta.freeAll()
		return nil, err
	}
	ta.untrack()
	return t, nil
}

// maxAllocation bounds one allocation while decoding (1 GiB). No buffer of
// a table this package writes comes near it: a record holds
// DefaultBatchRows rows, so a string column's data would need 16 KiB per
// row. A larger request comes from a damaged length in the file; refusing
// it keeps the decoder from asking the Go runtime for more memory than the
// machine has (a fatal error, not a panic). Fuzz tests lower it so that
// executions stay fast.
var maxAllocation = 1 << 30

// panicError is a panic of a decoder, recovered.
type panicError struct{ v any }

func (e *panicError) Error() string { return fmt.Sprint(e.v) }

// trackingAllocator allocates from mem and, until untrack, remembers the
// buffers that are live so that freeAll can return them. It panics (for
// guardedRead to recover) on a request above maxAllocation.
type trackingAllocator struct {
	mem  memory.Allocator
	mu   sync.Mutex
	live map[*byte][]byte // nil after untrack
}

func (a *trackingAllocator) Allocate(size int) []byte {
	checkAllocation(size)
	b := a.mem.Allocate(size)
	a.track(nil, b)
	return b
}

func (a *trackingAllocator) Reallocate(size int, b []byte) []byte {
	checkAllocation(size)
	nb := a.mem.Reallocate(size, b)
	a.track(b, nb)
	return nb
}

func (a *trackingAllocator) Free(b []byte) {
	a.track(b, nil)
	a.mem.Free(b)
}

func checkAllocation(size int) {
	if size < 0 || size > maxAllocation {
		panic(fmt.Sprintf("a buffer of %d bytes is asked for (a damaged length?)", size))
	}
}

// track forgets old and remembers b (either may be nil).
func (a *trackingAllocator) track(old, b []byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.live == nil {
		return
	}
	if cap(old) > 0 {
		delete(a.live, unsafe.SliceData(old))
	}
	if cap(b) > 0 {
		a.live[unsafe.SliceData(b)] = b
	}
}

// freeAll frees every live buffer.
func (a *trackingAllocator) freeAll() {
	a.mu.Lock()
	live := a.live
	a.live = nil
	a.mu.Unlock()
	for _, b := range live {
		a.mem.Free(b)
	}
}

// untrack stops tracking: the buffers now belong to a table.
func (a *trackingAllocator) untrack() {
	a.mu.Lock()
	a.live = nil
	a.mu.Unlock()
}

// guardedScan runs scan, a decoder of untrusted bytes that hands its
// records on as it goes, with a panic turned into an error. Unlike
// guardedRead it frees nothing on error: records already handed on may be
// in use, so what the decoder left behind goes to the garbage collector.
func guardedScan(mem memory.Allocator, scan func(memory.Allocator) error) (ok bool, err error) {
	ta := &trackingAllocator{mem: mem}
	defer func() {
		if r := recover(); r != nil {
			err = &panicError{r}
		}
	}()
	return true, scan(ta)
}

// boundedGoAllocator is a Go allocator that refuses, as trackingAllocator
// does, requests above maxAllocation.
type boundedGoAllocator struct{ memory.Allocator }

func (a boundedGoAllocator) Allocate(size int) []byte {
	checkAllocation(size)
	return a.Allocator.Allocate(size)
}

func (a boundedGoAllocator) Reallocate(size int, b []byte) []byte {
	checkAllocation(size)
	return a.Allocator.Reallocate(size, b)
}
