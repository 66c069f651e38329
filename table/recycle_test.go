package table

import (
	"slices"
	"testing"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"

	"github.com/benchtrim/benchtrim/internal/hugepage"
)

// TestBuilderRecycles: a record handed to a sink and released gives its
// column memory back to the Builder, whose next batch writes into it,
// while a record the sink retains keeps its values whatever the batches
// after it hold.
func TestBuilderRecycles(t *testing.T) {
	const rows = 1024
	b := NewBuilder(nil, rows)
	defer b.Release()
	var kept arrow.Record     // the first record, retained
	var seen []unsafe.Pointer // data of the value column of released records
	reused := 0
	b.SetSink(func(rec arrow.Record) error {
		p := unsafe.Pointer(unsafe.SliceData(rec.Column(idxValue).(*array.Float64).Float64Values()))
		for _, q := range seen {
			if p == q {
				reused++
			}
		}
		if kept == nil {
			rec.Retain()
			kept = rec
			return nil
		}
		seen = append(seen, p)
		return nil
	})
	for i := 0; i < 6*rows; i++ {
		r := goodRow(int32(i%rows + 1))
		r.Value, r.Fork, r.Line = float64(i), int32(2+i/rows), int64(i)
		if err := b.Append(&r); err != nil {
			t.Fatal(err)
		}
	}
	b.Finish().Release()
	defer kept.Release()
	// Records 3 to 6 can reuse the buffers of records 2 to 5 (the first
	// batch grows as rows come and is kept).
	if reused < 3 {
		t.Errorf("value buffers reused %d times in 5 released records, want at least 3", reused)
	}
	v := kept.Column(idxValue).(*array.Float64).Float64Values()
	fork := kept.Column(idxFork).(*array.Int32).Int32Values()
	line := kept.Column(idxLine).(*array.Int64).Int64Values()
	for i := range v {
		if v[i] != float64(i) || fork[i] != 2 || line[i] != int64(i) {
			t.Fatalf("kept record row %d: value %v fork %d line %d, want %d, 2, %d", i, v[i], fork[i], line[i], i, i)
		}
	}
}

// TestFirstBatchGrowth: a Builder's first batch grows by doubling to
// exactly a batch's rows, so that growing it copies fewer values than
// twice the batch (append's quarter steps copy about four times as many) and its buffers,
// once released, go back to the recycler like any later batch's.
func TestFirstBatchGrowth(t *testing.T) {
	var caps []int
	var s []float64
	for len(s) < 3000 {
		s = grow(s, 100, 3000)
		s = s[:len(s)+100]
		if len(caps) == 0 || caps[len(caps)-1] != cap(s) {
			caps = append(caps, cap(s))
		}
	}
	want := []int{256, 512, 1024, 2048, 3000}
	if !slices.Equal(caps, want) {
		t.Errorf("capacities %v on the way to 3000, want %v", caps, want)
	}
	copied := 0
	for _, c := range caps[:len(caps)-1] {
		copied += c
	}
	if copied >= 2*3000 {
		t.Errorf("growing to 3000 copied %d values, want fewer than twice 3000", copied)
	}
	if c := cap(grow(make([]int32, 10, 10), 500, 300)); c != 510 {
		t.Errorf("grow past the limit: capacity %d, want 510 (what the values need)", c)
	}
	if c := cap(grow([]int64(nil), 1, 0)); c != firstRoom {
		t.Errorf("grow of nil without a limit: capacity %d, want %d", c, firstRoom)
	}

	const rows = 4096
	b := NewBuilder(nil, rows)
	defer b.Release()
	var recs int
	b.SetSink(func(rec arrow.Record) error {
		recs++
		return nil
	})
	for i := 0; i < 2*rows; i++ {
		r := goodRow(int32(i%rows + 1))
		r.Value, r.Fork, r.Iteration, r.Line = float64(i), int32(2+i/rows), int32(i%7+2), int64(i)
		if err := b.Append(&r); err != nil {
			t.Fatal(err)
		}
		if i == rows-1 {
			// The first record is out and released: every column that
			// held its own values gave back a buffer of a batch's size.
			if n := len(b.pool.free); n < 6 {
				t.Errorf("after the first batch the recycler holds %d buffers, want at least 6 (value, ns_per_op, count, line, fork, iteration)", n)
			}
		}
	}
	b.Finish().Release()
	if recs != 2 {
		t.Errorf("%d records, want 2", recs)
	}
}

// TestRecyclerSlab: a whole-batch buffer the recycler has no freed copy
// of is cut from the shared slabs (marked for huge pages, aligned to a
// huge page), the next one right after it, also for another recycler; a
// small or partial buffer is plain memory, and a freed buffer of the size
// asked comes back before new memory.
func TestRecyclerSlab(t *testing.T) {
	const rows = 1 << 16
	slabs.mu.Lock()
	slabs.rest = nil // start a slab
	slabs.mu.Unlock()
	r, r2 := &recycler{rows: rows, full: true}, &recycler{rows: rows, full: true}
	addr := func(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
	a, b := r.Allocate(8*rows), r2.Allocate(4*rows)
	if addr(a)%hugepage.Size != 0 {
		t.Errorf("first slab buffer at %#x, want a multiple of %d", addr(a), hugepage.Size)
	}
	if addr(b) != addr(a)+8*rows || cap(a) != 8*rows || cap(b) != 4*rows {
		t.Errorf("second buffer at %#x (cap %d), want %#x right after the first (cap %d)", addr(b), cap(b), addr(a)+8*rows, cap(a))
	}
	for _, size := range []int{100, 2 * rows} { // small; a first batch growing (not a whole batch)
		if c := r.Allocate(size); len(c) != size || addr(c) == addr(b)+4*rows {
			t.Errorf("a %d-byte buffer at %#x: len %d, want %d, not from the slab", size, addr(c), len(c), size)
		}
	}
	r.Free(a)
	if c := r.Allocate(8 * rows); addr(c) != addr(a) {
		t.Errorf("after Free the buffer at %#x, want the freed one at %#x", addr(c), addr(a))
	}
	if c := r.Allocate(8 * rows); addr(c) != addr(b)+4*rows {
		t.Errorf("next new buffer at %#x, want %#x in the slab", addr(c), addr(b)+4*rows)
	}
	if (&recycler{rows: 16}).Allocate(8*16) == nil {
		t.Error("nil buffer for a small batch")
	}
	first := &recycler{rows: rows} // no whole batch built yet
	if c := first.Allocate(8 * rows); addr(c) == addr(b)+12*rows || addr(c) == addr(b)+20*rows {
		t.Errorf("a first batch's buffer at %#x, from the slab", addr(c))
	}
}
