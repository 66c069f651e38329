//go:build amd64 && !purego

package stats

import "golang.org/x/sys/cpu"

// haveTailsMask reports whether tailsMask and medianPos can run (AVX-512
// F, and DQ for tailsMask's byte masks).
var haveTailsMask = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ

// tailsMask returns the bits i with vs[i] < lmax or vs[i] > hmin, for
// len(vs) ≤ 64.
//
//go:noescape
func tailsMask(vs []float64, lmax, hmin float64) uint64

// medianPos returns the first j with counts[0] + … + counts[j] > k and
// that sum (len(counts) and the total when there is none).
//
//go:noescape
func medianPos(counts []int32, k int32) (j int, c int32)
