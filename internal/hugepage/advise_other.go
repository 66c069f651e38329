//go:build !linux

package hugepage

// advise does nothing: huge pages by madvise are a Linux feature.
func advise([]byte) {}
