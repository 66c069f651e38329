//go:build amd64 && !purego

package stats

import "golang.org/x/sys/cpu"

// haveStudKernel reports whether studentizedAVX2 can run (AVX2).
var haveStudKernel = cpu.X86.HasAVX2

// studentizedAVX2 is studentized on four resamples at a time (see
// stud_amd64.s); len(out) is a multiple of 4.
//
//go:noescape
func studentizedAVX2(s, q []float64, diff []uint64, n, n1 float64, out []float64)
