package stats

import (
	"bufio"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/testenv"
)

// paRuns reads a pa-format CSV (project;commit;benchmark;params;instance;
// trial;fork;iteration;mode;unit;value_count;value) into one Hierarchy per
// "benchmark;params", levels instance > trial > fork > iteration.
func paRuns(t *testing.T, path string) map[string]*Hierarchy {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type cols struct {
		values, counts []float64
		ids            [4][]int32
	}
	runs := map[string]*cols{}
	var order []string
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		r := strings.Split(sc.Text(), ";")
		key := r[2] + ";" + r[3]
		c := runs[key]
		if c == nil {
			c = &cols{}
			runs[key] = c
			order = append(order, key)
		}
		for l := 0; l < 4; l++ {
			id, err := strconv.Atoi(r[4+l])
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			c.ids[l] = append(c.ids[l], int32(id))
		}
		n, err1 := strconv.ParseFloat(r[10], 64)
		v, err2 := strconv.ParseFloat(r[11], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %q", path, sc.Text())
		}
		c.counts, c.values = append(c.counts, n), append(c.values, v)
	}
	out := map[string]*Hierarchy{}
	for _, k := range order {
		c := runs[k]
		h, err := NewHierarchy(c.values, c.counts, c.ids[0], c.ids[1], c.ids[2], c.ids[3])
		if err != nil {
			t.Fatalf("%s %s: %v", path, k, err)
		}
		out[k] = h
	}
	return out
}

// TestPAIndicesReproducePA compares HierarchicalRatioCI with PAIndices to
// pa's own output on the same two versions (testdata/pa: make.sh made the
// inputs and ran pa v0.1.0, built from its public source, with 10,000
// resamples at 99 %): every interval, of each version's mean and of the
// ratio, within 15 % of pa's width (pa seeds from the clock: its intervals
// move by a few % of their width between runs), and the same verdict (the
// ratio interval excludes 1 or not). Without PAIndices the ratio
// intervals are the bootstrap's, more than 50 % of pa's width away.
func TestPAIndicesReproducePA(t *testing.T) {
	v1, v2 := paRuns(t, "testdata/pa/v1.csv"), paRuns(t, "testdata/pa/v2.csv")
	f, err := os.ReadFile("testdata/pa/pa-out.csv")
	if err != nil {
		t.Fatal(err)
	}
	n, farPlain := 0, 0
	for _, line := range strings.Split(string(f), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r := strings.Split(line, ";")
		key := r[0] + ";" + r[2]
		var want [6]float64
		for i, c := range []int{3, 4, 6, 7, 9, 10} {
			if want[i], err = strconv.ParseFloat(r[c], 64); err != nil {
				t.Fatal(err)
			}
		}
		if v1[key] == nil || v2[key] == nil {
			t.Fatalf("%s: not in the inputs", key)
		}
		n++
		for _, pa := range []bool{true, false} {
			opt := estimate.HierarchicalOptions{BootstrapOptions: estimate.BootstrapOptions{Resamples: 10000, Confidence: 0.99}, PAIndices: pa}
			got, err := HierarchicalRatioCI(v2[key], v1[key], opt, NewStream(1, key, 0), nil)
			if err != nil {
				t.Fatal(err)
			}
			g := [6]float64{got.Control.Lower, got.Control.Upper, got.Test.Lower, got.Test.Upper, got.Ratio.Lower, got.Ratio.Upper}
			if !pa {
				if math.Max(math.Abs(g[4]-want[4]), math.Abs(g[5]-want[5])) > 0.5*(want[5]-want[4]) {
					farPlain++
				}
				continue
			}
			for i := 0; i < 6; i += 2 {
				w := want[i+1] - want[i]
				if d := math.Max(math.Abs(g[i]-want[i]), math.Abs(g[i+1]-want[i+1])); !(d <= 0.15*w) {
					t.Errorf("%s %s: [%.6g, %.6g], pa [%.6g, %.6g]: %.0f %% of its width apart", key, []string{"v1", "v2", "ratio"}[i/2], g[i], g[i+1], want[i], want[i+1], 100*d/w)
				}
			}
			if excl, paExcl := g[4] > 1 || g[5] < 1, want[4] > 1 || want[5] < 1; excl != paExcl {
				t.Errorf("%s: ratio interval [%.4f, %.4f] excludes 1: %v; pa's [%.4f, %.4f]: %v", key, g[4], g[5], excl, want[4], want[5], paExcl)
			}
		}
	}
	if n != 4 || farPlain != n {
		t.Errorf("%d benchmarks compared (want 4); the uniform bootstrap's ratio interval is far from pa's for %d", n, farPlain)
	}
}

// TestPAIndexProbabilities: the exact distribution of pa's index sums to
// 1 and matches pa's own draw, math.Mod(math.Abs(x), l) for x normal with
// the indices' mean and standard deviation (gonum's stat.StdDev, n − 1),
// simulated 1,000,000 times (standard error of a share below 0.0005).
func TestPAIndexProbabilities(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, l := range []int{2, 3, 5, 30} {
		p := paIndexProbabilities(l)
		fl := float64(l)
		mu, sigma := (fl-1)/2, math.Sqrt(fl*(fl+1)/12)
		freq := make([]float64, l)
		const n = 1000000
		for i := 0; i < n; i++ {
			freq[int(math.Mod(math.Abs(mu+sigma*r.NormFloat64()), fl))]++
		}
		sum := 0.0
		for i := range p {
			sum += p[i]
			if d := math.Abs(freq[i]/n - p[i]); d > 0.0025 {
				t.Errorf("l = %d, index %d: P = %.4f, pa's draw %.4f", l, i, p[i], freq[i]/n)
			}
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("l = %d: probabilities sum to %v", l, sum)
		}
		// The alias table draws them too.
		a, s := newAliasTable(p), NewStream(1, "alias", uint64(l))
		clear(freq)
		for i := 0; i < n; i++ {
			freq[a.draw(s)]++
		}
		for i := range p {
			if d := math.Abs(freq[i]/n - p[i]); d > 0.0025 {
				t.Errorf("l = %d, index %d: P = %.4f, alias draws %.4f", l, i, p[i], freq[i]/n)
			}
		}
	}
}

// The assembly kernel of aliasTable.sumDraws must give the bits of the
// Go loop: the same sum and the generator left in the same state, for
// tables of pa's index distribution and of skewed weights (thresholds
// near 0 and 2³², columns that are their own alias).
func TestSumDrawsKernel(t *testing.T) {
	if !haveDrawKernel {
		testenv.Skip(t, "no draw kernel in this build (purego or not amd64)")
	}
	src := NewStream(7, "sumdraws", 0)
	for _, n := range []int{1, 2, 3, 7, 10, 45, 450, 1000} {
		for kind := 0; kind < 2; kind++ {
			var p []float64
			if kind == 0 {
				p = paIndexProbabilities(n)
			} else {
				p = make([]float64, n)
				for i := range p {
					p[i] = math.Pow(src.Float64(), 8)
				}
				p[0] = 0
			}
			a := newAliasTable(p)
			means := make([]float64, n)
			for i := range means {
				means[i] = 1e3 * (1 + src.Float64())
			}
			for rep := 0; rep < 20; rep++ {
				s1, s2 := src.Uint64(), src.Uint64()
				gs, ks := &Stream{}, &Stream{}
				gs.pcg.Seed(s1, s2)
				ks.pcg.Seed(s1, s2)
				start := src.Float64()
				want := a.sumDrawsGo(gs, means, start)
				got := sumDrawsAsm(&ks.pcg, a.e, means, start)
				if math.Float64bits(got) != math.Float64bits(want) || gs.pcg != ks.pcg {
					t.Fatalf("n %d, kind %d, rep %d: kernel %v (state %v), Go %v (state %v)", n, kind, rep, got, ks.pcg, want, gs.pcg)
				}
			}
		}
	}
}

// The uniform draw kernel must give the bits of the Go loop (sumUniformGo
// over Stream.uint32n), and its redraw must follow Lemire's rule: with an
// artificial threshold of half the 32-bit range, half the outputs are
// redrawn.
func TestSumUniformKernel(t *testing.T) {
	if !haveDrawKernel {
		testenv.Skip(t, "no draw kernel in this build (purego or not amd64)")
	}
	src := NewStream(8, "sumuniform", 0)
	for _, n := range []int{1, 2, 3, 10, 100, 450, 5000} {
		means := make([]float64, n)
		for i := range means {
			means[i] = 1e3 * (1 + src.Float64())
		}
		for rep := 0; rep < 20; rep++ {
			s1, s2 := src.Uint64(), src.Uint64()
			start := src.Float64()
			gs, ks := &Stream{}, &Stream{}
			gs.pcg.Seed(s1, s2)
			ks.pcg.Seed(s1, s2)
			want := sumUniformGo(gs, means, start)
			got := sumUniform(ks, means, start)
			if math.Float64bits(got) != math.Float64bits(want) || gs.pcg != ks.pcg {
				t.Fatalf("n %d, rep %d: kernel %v (state %v), Go %v (state %v)", n, rep, got, ks.pcg, want, gs.pcg)
			}
			// The redraw, with thresh 2³¹.
			gs.pcg.Seed(s1, s2)
			ks.pcg.Seed(s1, s2)
			want, redrawn := start, 0
			for range means {
				x := uint64(uint32(gs.pcg.Uint64())) * uint64(n)
				for uint32(x) < 1<<31 {
					redrawn++
					x = uint64(uint32(gs.pcg.Uint64())) * uint64(n)
				}
				want += means[x>>32]
			}
			got = sumUniformAsm(&ks.pcg, means, 1<<31, start)
			if math.Float64bits(got) != math.Float64bits(want) || gs.pcg != ks.pcg {
				t.Fatalf("n %d, rep %d, thresh 2³¹: kernel %v (state %v), Go %v (state %v)", n, rep, got, ks.pcg, want, gs.pcg)
			}
			if n >= 100 && (redrawn < n/2 || redrawn > 2*n) {
				t.Fatalf("n %d: %d redraws, want about %d", n, redrawn, n)
			}
		}
	}
}
