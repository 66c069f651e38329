package gopkg

import (
	"crypto/sha256"
	"fmt"
	"testing"
)

var sink int

// BenchmarkSum has key=value parts before positional ones
// (BenchmarkSum/n=1000/slow); n=100 and n=1000 tell unanchored patterns
// apart.
func BenchmarkSum(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		xs := make([]int, n)
		for _, mode := range []string{"fast", "slow"} {
			b.Run(fmt.Sprintf("n=%d/%s", n, mode), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					sink += Sum(xs)
					if mode == "slow" {
						sink += Sum(xs) + Sum(xs)
					}
				}
			})
		}
	}
}

// BenchmarkSumAll shares BenchmarkSum's prefix: a pattern must not run it
// for BenchmarkSum.
func BenchmarkSumAll(b *testing.B) {
	xs := make([]int, 100)
	for i := 0; i < b.N; i++ {
		sink += Sum(xs)
	}
}

// BenchmarkHash has a positional part before a key=value one
// (BenchmarkHash/sha256/size=64).
func BenchmarkHash(b *testing.B) {
	for _, size := range []int{64, 1024} {
		buf := make([]byte, size)
		b.Run(fmt.Sprintf("sha256/size=%d", size), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				s := sha256.Sum256(buf)
				sink += int(s[0])
			}
		})
	}
}

// BenchmarkAlloc allocates (its lines have B/op and allocs/op with
// -benchmem).
func BenchmarkAlloc(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += len(make([]byte, 64+i%2))
	}
}

// BenchmarkNames has sub-benchmarks whose names hold regexp syntax, a
// space (go test prints an underscore) and a repeated name (printed with
// #01).
func BenchmarkNames(b *testing.B) {
	for _, name := range []string{"a+b", "(x)", "[y]", "p|q", "k=v.w", "sp ace", "dup", "dup"} {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sink++
			}
		})
	}
}
