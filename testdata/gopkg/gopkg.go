// Package gopkg is a small Go package whose benchmarks benchtrim's tests
// record with go test -bench, trim, and run again with trim's commands
// (analysis/trim TestCommandsRunAsPlanned). Its sub-benchmarks have
// key=value parts before and after positional ones, and names that a
// -bench pattern must quote.
package gopkg

// Sum adds xs.
func Sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}
