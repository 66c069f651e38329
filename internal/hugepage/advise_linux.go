package hugepage

import "syscall"

// madvHugepage is MADV_HUGEPAGE (include/uapi/asm-generic/mman-common.h).
const madvHugepage = 14

// advise marks b's pages for transparent huge pages. A kernel without
// them (or with them off) refuses or ignores the mark; either way b stays
// usable, so the error is dropped.
func advise(b []byte) {
	if len(b) > 0 {
		_ = syscall.Madvise(b, madvHugepage)
	}
}
