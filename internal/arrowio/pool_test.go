package arrowio

import (
	"testing"
	"unsafe"
)

// TestPool checks that the pool hands out zeroed, aligned memory, reuses
// what it gets back, and never hands one buffer to two owners: a buffer
// freed twice, or memory it did not allocate, does not go back in.
func TestPool(t *testing.T) {
	p := newPool()
	a := p.Allocate(100 << 10)
	if len(a) != 100<<10 || uintptr(unsafe.Pointer(&a[0]))%64 != 0 {
		t.Fatalf("Allocate: len %d, address %p", len(a), &a[0])
	}
	for i := range a {
		a[i] = 0xff
	}
	p.Free(a)
	p.Free(a) // twice: ignored
	b := p.Allocate(90 << 10)
	if &b[0] != &a[0] {
		t.Error("a freed buffer of the same class was not reused")
	}
	for i, x := range b[:cap(b)] {
		if x != 0 {
			t.Fatalf("reused buffer not zeroed at %d", i)
		}
	}
	if c := p.Allocate(90 << 10); &c[0] == &b[0] {
		t.Error("a buffer freed twice was handed out twice")
	}
	p.Free(make([]byte, 128<<10)) // not the pool's: dropped
	if d := p.Allocate(128 << 10); p.held != 0 || len(d) != 128<<10 {
		t.Errorf("foreign memory kept (held %d)", p.held)
	}
	small := p.Allocate(100)
	if len(small) != 100 {
		t.Errorf("small Allocate: len %d", len(small))
	}
	g := p.Reallocate(300<<10, b)
	if len(g) != 300<<10 || g[0] != 0 {
		t.Errorf("Reallocate: len %d", len(g))
	}
	if p.held != cap(b) {
		t.Errorf("Reallocate did not take the old buffer back (held %d)", p.held)
	}
}

// TestPoolReallocateReused: Reallocate into a reused (dirty) buffer keeps
// the old contents and zeroes the rest of the capacity.
func TestPoolReallocateReused(t *testing.T) {
	p := newPool()
	x := p.Allocate(256 << 10)
	for i := range x {
		x[i] = 0xff
	}
	p.Free(x)
	y := p.Allocate(100 << 10)
	for i := range y {
		y[i] = 0x11
	}
	g := p.Reallocate(200<<10, y)
	if &g[0] != &x[0] {
		t.Fatal("Reallocate did not reuse the freed buffer of its class")
	}
	for i, v := range g[:cap(g)] {
		if want := byte(0); i < len(y) && v != 0x11 || i >= len(y) && v != want {
			t.Fatalf("byte %d is %#x after Reallocate", i, v)
		}
	}
}
