package trim

import (
	"testing"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/table"
)

// twoLevel is a design of forks × iterations with fork and iteration
// standard deviations sdF and sdI (relative, around 100), from rng.
func twoLevel(forks, its int, sdF, sdI float64, rng *stats.Stream) *design {
	var levels [][3]int32
	var values []float64
	for f := 0; f < forks; f++ {
		off := sdF * normal(rng)
		for i := 0; i < its; i++ {
			levels = append(levels, [3]int32{int32(f + 1), int32(i + 1), 1})
			values = append(values, 100*(1+off+sdI*normal(rng)))
		}
	}
	return newDesign(seriesOf(levels, values), 0)
}

// normal is a standard normal draw (Box–Muller).
func normal(rng *stats.Stream) float64 {
	return stats.NormalQuantile(min(max(rng.Float64(), 1e-12), 1-1e-12))
}

func BenchmarkDetectable(b *testing.B) {
	for _, sz := range [][2]int{{3, 20}, {2, 500}} {
		d := twoLevel(sz[0], sz[1], 0.01, 0.02, stats.NewStream(1, "bench", 0))
		if d == nil || len(d.levels) != 2 || d.levels[0] != table.LevelFork {
			b.Fatalf("design %+v", d)
		}
		s := newSampler(d)
		det := newDetector(s, estimate.TestU, 0.05, 500, func() *stats.Stream { return stats.NewStream(1, "x", 2) })
		k := config{sz[0], sz[1]}
		b.Run(fmtSize(sz), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				det.detectable(k)
			}
		})
	}
}

func fmtSize(sz [2]int) string { return string(rune('0'+sz[0])) + "x" + itoa(sz[1]) }

func itoa(n int) string {
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}
