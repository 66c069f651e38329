package optimize

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/table"
)

// grid is the shape of a generated benchmark run.
type grid struct{ instances, trials, forks, iterations, slices int }

// goGrid is µOpTime's Go data shape: 3 instances × 3 suite runs × 5
// iterations × 5 one-second slices.
var goGrid = grid{instances: 3, trials: 3, forks: 1, iterations: 5, slices: 5}

// spec describes one generated benchmark series. Values are
//
//	mean · factor · A_instance · R_trial · F_fork · ε
//
// with lognormal factors of sigma instanceSD, trialSD, forkSD and noise.
type spec struct {
	project, version, name, mode string
	params                       string
	grid                         grid
	mean, factor                 float64
	noise, instanceSD, trialSD   float64
	forkSD                       float64
	// warmupIters makes the first warmupIters iterations of each fork
	// warmupFactor× slower, decaying linearly.
	warmupIters  int
	warmupFactor float64
	// drop, when set, leaves out observations (ragged data).
	drop func(ix [table.NumLevels]int32) bool
	// nan, when set, writes NaN for the observations it selects
	// (non-finite rows); noSetup leaves out the setup (assumed timing).
	nan     func(ix [table.NumLevels]int32) bool
	noSetup bool
	// buckets > 1 writes each iteration as that many histogram rows
	// (sample mode) with counts 1..buckets.
	buckets int
	seed    uint64
}

func lognormal(r *rand.Rand, sigma float64) float64 {
	if sigma == 0 {
		return 1
	}
	return math.Exp(sigma*r.NormFloat64() - sigma*sigma/2)
}

// addSpec appends the rows and setup of s to b.
func addSpec(t testing.TB, b *table.Builder, s spec) {
	t.Helper()
	if s.factor == 0 {
		s.factor = 1
	}
	if s.mode == "" {
		s.mode = "go"
	}
	g := s.grid
	key := table.Key{Project: s.project, Version: s.version, Benchmark: s.name, Params: s.params, Mode: s.mode}
	// The noise stream depends on the benchmark and the seed, not on the
	// version, so versions differ only by factor (and fresh noise per
	// version from the version label).
	r := rand.New(rand.NewPCG(s.seed, uint64(len(s.name))*7919+uint64(hashString(s.name+s.params+s.version))))
	row := table.Row{Project: s.project, Version: s.version, Benchmark: s.name, Params: s.params, Mode: s.mode,
		Unit: "ns/op", Count: 1}
	for a := 1; a <= g.instances; a++ {
		fa := lognormal(r, s.instanceSD)
		for tr := 1; tr <= g.trials; tr++ {
			ft := lognormal(r, s.trialSD)
			for f := 1; f <= g.forks; f++ {
				ff := lognormal(r, s.forkSD)
				for it := 1; it <= g.iterations; it++ {
					w := 1.0
					if it <= s.warmupIters {
						w = 1 + (s.warmupFactor-1)*float64(s.warmupIters-it+1)/float64(s.warmupIters)
					}
					for sl := 1; sl <= g.slices; sl++ {
						ix := [table.NumLevels]int32{int32(a), int32(tr), int32(f), int32(it), int32(sl)}
						v := s.mean * s.factor * fa * ft * ff * w * lognormal(r, s.noise)
						if s.drop != nil && s.drop(ix) {
							continue
						}
						row.Instance, row.Trial, row.Fork, row.Iteration, row.Slice = ix[0], ix[1], ix[2], ix[3], ix[4]
						if s.buckets > 1 {
							// Buckets around v whose count-weighted mean is v.
							var tot float64
							for k := 1; k <= s.buckets; k++ {
								tot += float64(k)
							}
							for k := 1; k <= s.buckets; k++ {
								off := float64(k) - float64(s.buckets+1)/2
								row.Count = int64(k)
								row.NsPerOp = v + off*0.001*v
								row.Value = row.NsPerOp
								b.Append(&row)
							}
							// Correct the mean exactly is not needed: the
							// optimiser uses the weighted mean as written.
							continue
						}
						row.Count = 1
						if s.nan != nil && s.nan(ix) {
							v = math.NaN()
						}
						row.Value, row.NsPerOp = v, v
						b.Append(&row)
					}
				}
			}
		}
	}
	if s.noSetup {
		return
	}
	setup := table.Setup{Key: key}
	if s.mode == "go" {
		setup.Tool = "go"
		setup.Instances, setup.Trials, setup.Slices = g.instances, g.trials, g.slices
		setup.MeasurementIterations = g.iterations
		setup.SliceTimeNs = 1e9
		setup.MeasurementTimeNs = int64(g.slices) * 1e9
		setup.Forks = 1
	} else {
		setup.Tool = "jmh"
		setup.Forks = g.forks
		setup.MeasurementIterations = g.iterations
		setup.MeasurementTimeNs = 1e9
	}
	if err := b.AddSetup(setup); err != nil {
		t.Fatal(err)
	}
}

func hashString(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// build collects the series of the given specs.
func build(t testing.TB, specs ...spec) []*table.Series {
	t.Helper()
	b := table.NewBuilder(memory.NewGoAllocator(), 0)
	defer b.Release()
	for _, s := range specs {
		addSpec(t, b, s)
	}
	tab := b.Finish()
	defer tab.Release()
	return tab.Collect(table.Filter{})
}

// goSuite generates n µOpTime-shaped benchmarks of one version with noise
// levels spread so that some reduce a lot, some a little, some not at all.
func goSuite(project, version string, n int, seed uint64, factors map[string]float64) []spec {
	return goSuiteGrid(project, version, n, seed, factors, goGrid)
}

// goSuiteGrid is goSuite with another grid.
func goSuiteGrid(project, version string, n int, seed uint64, factors map[string]float64, g grid) []spec {
	var out []spec
	r := rand.New(rand.NewPCG(seed, 99))
	for i := 0; i < n; i++ {
		name := "BenchmarkGen" + string(rune('A'+i%26)) + string(rune('a'+i/26))
		noise := []float64{0.001, 0.004, 0.01, 0.03, 0.08}[i%5]
		f := 1.0
		if factors != nil && factors[name] != 0 {
			f = factors[name]
		}
		out = append(out, spec{project: project, version: version, name: name, grid: g,
			mean: math.Exp(r.Float64()*12) + 2, factor: f, noise: noise, instanceSD: noise / 3, trialSD: noise / 4, seed: seed})
	}
	return out
}

// fastOptions are DefaultOptions with few resamples, for quick tests.
func fastOptions() Options {
	o := DefaultOptions
	o.Bootstrap = estimate.BootstrapOptions{Resamples: 400, Confidence: 0.99}
	o.Workers = 2
	return o
}

func checkClose(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.IsNaN(got) != math.IsNaN(want) || math.Abs(got-want) > tol {
		t.Errorf("%s = %.12g, want %.12g (±%g)", name, got, want, tol)
	}
}
