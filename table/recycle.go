package table

import (
	"sync"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/internal/hugepage"
)

// recycler hands a Builder's column slices back to it once the records
// that took them are released, so that a table streamed through a sink
// (Builder.SetSink) reuses a few batches' memory instead of asking the
// heap for fresh memory per batch: without it, ingesting a 35 MB JMH file
// allocated 77 MB, faulted in 56 MB of new pages and collected twice.
//
// It is the memory.Allocator of the buffers Builder.flush makes of its
// slices (memory.NewBufferWithAllocator): Free takes a buffer back when
// its last reference is released. Allocate gives out a freed buffer of the
// asked size, or new memory. The records' users keep a buffer only by
// retaining it (the Arrow rule); a slice of it kept past Release would see
// the next batch's values.
//
// Only slices of fixed-width values without pointers pass through it
// (float64, int64, int32), as bytes; it keeps at most maxFree of them.
type recycler struct {
	rows int // a batch's rows: only buffers of a batch of 4- or 8-byte values come back
	mu   sync.Mutex
	free [][]byte
	full bool // a whole batch has been built: new whole-batch buffers come from the slabs
}

// slabs is where recyclers cut new batch buffers from: slabs of slabBytes
// marked for transparent huge pages (hugepage.Bytes), which the kernel
// faults in 2 MB at a time instead of 4 KB. A 64 Ki-row batch's buffers
// take about 3.5 MB, and a stream holds two or three batches before the
// first comes back; ingesting a 35 MB JMH file to Arrow IPC took 2,000
// fewer page faults (docs/development.md). The slabs are shared by all
// Builders, so that the tables of many files held in memory fill them
// instead of each leaving most of its own slab unused; only whole-batch
// buffers of at least minSlabBuffer bytes come from them (the buffers a
// recycler takes back), so no garbage of a growing first batch pins a
// slab, and only once a Builder has made a whole batch (recycler.full):
// the kernel backs a huge page whole, so a file's first batch, which the
// file may fill only in part (and which a table held in memory keeps),
// stays in 4 KB pages that are backed only where written.
var slabs struct {
	mu   sync.Mutex
	rest []byte // what is left of the last slab
}

const (
	slabBytes     = 4 * hugepage.Size
	minSlabBuffer = 64 << 10
)

// slabBuffer returns size bytes cut from the current slab (a new one when
// the current one has too little left).
func slabBuffer(size int) []byte {
	slabs.mu.Lock()
	defer slabs.mu.Unlock()
	if len(slabs.rest) < size {
		slabs.rest = hugepage.Bytes(slabBytes)
	}
	b := slabs.rest[:size:size]
	slabs.rest = slabs.rest[size:]
	return b
}

// maxFree bounds the buffers a recycler keeps: a batch takes up to 20
// (value, ns_per_op, count, line, start and end, five levels, and the
// indices of the nine string columns), and a pipe holds a few batches.
const maxFree = 64

// Allocate returns a buffer of size bytes: a freed one of that size, or a
// new one (always, from a nil recycler), cut from the slabs when it is a
// large whole-batch buffer. Its contents are undefined.
func (r *recycler) Allocate(size int) []byte {
	if r == nil {
		return make([]byte, size)
	}
	r.mu.Lock()
	for i := len(r.free) - 1; i >= 0; i-- {
		if b := r.free[i]; len(b) == size {
			last := len(r.free) - 1
			r.free[i] = r.free[last]
			r.free[last] = nil
			r.free = r.free[:last]
			r.mu.Unlock()
			return b
		}
	}
	full := r.full
	r.mu.Unlock()
	if full && r.whole(size) && size >= minSlabBuffer && size <= slabBytes {
		return slabBuffer(size)
	}
	return make([]byte, size)
}

// batchFull records that a whole batch has been built.
func (r *recycler) batchFull() {
	r.mu.Lock()
	r.full = true
	r.mu.Unlock()
}

// whole reports whether a buffer of size bytes holds a whole batch of 4-
// or 8-byte values: the buffers Free takes back.
func (r *recycler) whole(size int) bool { return size == 4*r.rows || size == 8*r.rows }

// Reallocate is Allocate and a copy of b.
func (r *recycler) Reallocate(size int, b []byte) []byte {
	out := r.Allocate(size)
	copy(out, b)
	r.Free(b)
	return out
}

// Free takes back b, whole (its capacity).
func (r *recycler) Free(b []byte) {
	b = b[:cap(b)]
	if !r.whole(len(b)) {
		return
	}
	r.mu.Lock()
	if len(r.free) < maxFree {
		r.free = append(r.free, b)
	}
	r.mu.Unlock()
}

// recycled returns an empty slice with room for n values of T, from r's
// freed buffers when one has that size.
func recycled[T int32 | int64 | float64](r *recycler, n int) []T {
	var zero T
	b := r.Allocate(n * int(unsafe.Sizeof(zero)))
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)[:0]
}

// recycledArray returns v as an array of type dt (whose values have T's
// width) whose data buffer is v itself, handed back to r (whole: v's
// capacity) when the array's last reference is released (never when r is
// nil); valid is its validity bitmap (nil when nulls is 0). The caller
// releases it.
func recycledArray[T int32 | int64 | float64](r *recycler, dt arrow.DataType, v []T, valid []byte, nulls int) arrow.Array {
	if r == nil {
		return fixedArray(dt, v, valid, nulls)
	}
	var zero T
	size := int(unsafe.Sizeof(zero))
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), cap(v)*size)[:len(v)*size]
	buf := memory.NewBufferWithAllocator(b, r)
	defer buf.Release()
	return fixedArrayOf(dt, len(v), buf, valid, nulls)
}

// fixedArray returns v as an array of type dt (whose values have T's
// width) whose data buffer is v itself, with validity bitmap valid (nil
// when nulls is 0); v and valid must not change afterwards. The caller
// releases it.
func fixedArray[T arrow.FixedWidthType](dt arrow.DataType, v []T, valid []byte, nulls int) arrow.Array {
	return fixedArrayOf(dt, len(v), memory.NewBufferBytes(arrow.GetBytes(v)), valid, nulls)
}

// fixedArrayOf is fixedArray of the n values in buffer values, which the
// array retains (the caller keeps its own reference).
func fixedArrayOf(dt arrow.DataType, n int, values *memory.Buffer, valid []byte, nulls int) arrow.Array {
	var bitmap *memory.Buffer
	if valid != nil {
		bitmap = memory.NewBufferBytes(valid)
	}
	data := array.NewData(dt, n, []*memory.Buffer{bitmap, values}, nil, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data)
}
