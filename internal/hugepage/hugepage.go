// Package hugepage gives out memory that the kernel may back with
// transparent huge pages.
//
// A process that writes into fresh memory takes one page fault per page it
// touches first: 256 per MB with 4 KB pages. Where faults are dear (in a
// virtual machine one costs 5–20 µs), ingesting a 35 MB JMH file spent a
// fifth of its CPU in them. Linux backs an anonymous region with 2 MB
// pages, one fault each, when transparent huge pages are enabled for it:
// always, or (the usual setting, "madvise" in
// /sys/kernel/mm/transparent_hugepage/enabled) for regions marked with
// madvise(MADV_HUGEPAGE) before they are touched (Documentation/admin-guide/mm/transhuge.rst).
// The Go runtime maps its heap a few MB at a time without that mark, so
// Bytes marks the memory it returns itself.
package hugepage

import "unsafe"

// Size is the huge page size Bytes aligns to (x86-64 and arm64 Linux with
// 4 KB base pages).
const Size = 2 << 20

// Bytes returns a zeroed slice of n bytes (its capacity n too) of Go
// memory starting at a multiple of Size, marked for huge pages where the
// system has them (on Linux; elsewhere, and where the kernel refuses, it is
// plain memory). n should be a multiple of Size: the kernel maps huge
// pages only for whole aligned 2 MB ranges. The slice is ordinary
// garbage-collected memory, kept alive by any slice of it.
func Bytes(n int) []byte {
	b := make([]byte, n+Size)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	off := int((p+Size-1)&^(Size-1) - p)
	b = b[off : off+n : off+n]
	advise(b)
	return b
}
