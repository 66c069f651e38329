//go:build !linux

package atomicfile

import "errors"

// exchange is not available here: replaceDir renames aside instead.
func exchange(a, b string) error { return errors.New("atomicfile: no atomic exchange on this system") }
