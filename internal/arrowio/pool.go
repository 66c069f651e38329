package arrowio

import (
	"math/bits"
	"sync"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// pool is a memory.Allocator that keeps the buffers of 64 KiB and more
// it gets back (Free) and hands them out again, instead of allocating
// anew: pqarrow's column writers grow and drop the same large buffers
// (index buffers, page buffers) column after column and row group after
// row group, and fresh memory costs more than reused memory (the system
// zeroes and maps every new page). Smaller buffers come from the Go
// allocator. Like memory.GoAllocator it returns zeroed, 64-byte aligned
// memory. It is safe for concurrent use.
//
// Only buffers it handed out and has not had back go back into the
// pool, so a buffer freed twice, or memory it did not allocate, is never
// handed out to two owners.
type pool struct {
	mu   sync.Mutex
	free [64][][]byte // by class: capacity 1<<class
	out  map[unsafe.Pointer]bool
	held int // bytes in free
}

const (
	// poolMinClass is the smallest class pooled (64 KiB).
	poolMinClass = 16
	// poolMaxHeld bounds the bytes the pool keeps for reuse.
	poolMaxHeld = 64 << 20
)

var goAlloc = memory.NewGoAllocator()

func newPool() *pool { return &pool{out: map[unsafe.Pointer]bool{}} }

// class is the smallest c with 1<<c ≥ n.
func class(n int) int { return bits.Len(uint(n - 1)) }

// Allocate returns n zeroed bytes.
func (p *pool) Allocate(n int) []byte { return p.allocate(n, 0) }

// allocate returns n bytes of which all but the first keep are zero (the
// caller overwrites those).
func (p *pool) allocate(n, keep int) []byte {
	c := class(n)
	if c < poolMinClass {
		return goAlloc.Allocate(n)
	}
	p.mu.Lock()
	var b []byte
	if k := len(p.free[c]); k > 0 {
		b = p.free[c][k-1]
		p.free[c] = p.free[c][:k-1]
		p.held -= cap(b)
		clear(b[keep:cap(b)])
	} else {
		b = goAlloc.Allocate(1 << c)
	}
	p.out[unsafe.Pointer(unsafe.SliceData(b[:1]))] = true
	p.mu.Unlock()
	return b[:n]
}

// Reallocate returns b grown (or shrunk) to n bytes, its contents kept.
func (p *pool) Reallocate(n int, b []byte) []byte {
	if cap(b) >= n {
		return b[:n]
	}
	nb := p.allocate(n, len(b))
	copy(nb, b)
	p.Free(b)
	return nb
}

// Free takes b back.
func (p *pool) Free(b []byte) {
	c := cap(b)
	if c < 1<<poolMinClass || c&(c-1) != 0 {
		return
	}
	ptr := unsafe.Pointer(unsafe.SliceData(b[:1]))
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.out[ptr] {
		return
	}
	delete(p.out, ptr)
	if p.held+c <= poolMaxHeld {
		cl := class(c)
		p.free[cl] = append(p.free[cl], b[:c])
		p.held += c
	}
}

var _ memory.Allocator = (*pool)(nil)
