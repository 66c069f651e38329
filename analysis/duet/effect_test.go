package duet

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/format/duet"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/table"
)

// effectRates are, per type, the share of A/A benchmarks whose CI test
// reports a difference (false positives) and the share of A/B benchmarks
// (B slower by the configured slowdown) whose CI test finds B slower.
type effectRates struct{ aaFP, abFound map[string]float64 }

// duetEffect generates cfg with synth's duet generator, reads the
// CSV with format/duet and runs the analysis.
func duetEffect(t testing.TB, cfg synth.DuetConfig, opt Options) effectRates {
	t.Helper()
	data, err := synth.GenerateDuet(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var csv bytes.Buffer
	if err := data.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	b := table.NewBuilder(memory.DefaultAllocator, 0)
	var rep ingest.Summary
	if err := (duet.Format()).Read(bytes.NewReader(csv.Bytes()), ingest.Source{File: "gen.csv"}, b, &rep); err != nil {
		t.Fatal(err)
	}
	tab := b.Finish()
	b.Release()
	defer tab.Release()
	res, err := Run(tab, opt)
	if err != nil {
		t.Fatal(err)
	}
	slow := map[string]float64{}
	for _, bm := range cfg.Benchmarks {
		slow[bm.Name] = bm.Slowdown
	}
	r := effectRates{aaFP: map[string]float64{}, abFound: map[string]float64{}}
	n := map[string][2]int{}
	for _, bm := range res.Benchmarks {
		c := n[bm.Key.Type]
		if slow[bm.Key.Benchmark] == 0 {
			c[0]++
			if bm.HasCI && !bm.CI.Equal {
				r.aaFP[bm.Key.Type]++
			}
		} else {
			c[1]++
			if bm.HasCI && !bm.CI.Equal && bm.Relative < 0 {
				r.abFound[bm.Key.Type]++
			}
		}
		n[bm.Key.Type] = c
	}
	for typ, c := range n {
		r.aaFP[typ] /= float64(c[0])
		r.abFound[typ] /= float64(c[1])
	}
	return r
}

// TestDuetEffect shows what the method is for, on synth's duet
// generator with shared interference episodes (one every 20 s of timeline,
// slowing whatever runs by 20–60 % for about 2 s) and 2 % private noise:
// 20 A/A and 20 A/B benchmarks (B 5 % slower), 10 runs × 40 iterations of
// each type, seeds 1–3 pooled. The duet CI test keeps its A/A
// false-positive rate near α = 5 % and finds nearly every 5 % slowdown;
// the seqn CI test, with the same runs, finds clearly fewer, because an
// episode hits only one side of a sequential pair but both pairs of a duet.
func TestDuetEffect(t *testing.T) {
	seeds := []uint64{1, 2, 3}
	if testing.Short() {
		seeds = seeds[:1]
	}
	opt := DefaultOptions()
	opt.Resamples = 2000
	opt.Slowdowns = nil
	opt.OverlapRatios = nil
	sum := effectRates{aaFP: map[string]float64{}, abFound: map[string]float64{}}
	for _, seed := range seeds {
		cfg := effectConfig(seed)
		r := duetEffect(t, cfg, opt)
		for typ := range r.aaFP {
			sum.aaFP[typ] += r.aaFP[typ] / float64(len(seeds))
			sum.abFound[typ] += r.abFound[typ] / float64(len(seeds))
		}
	}
	t.Logf("A/A false positives %v; A/B 5 %% slowdowns found %v", sum.aaFP, sum.abFound)
	for _, typ := range []string{TypeDuet, typeSyncDuet} {
		if fp := sum.aaFP[typ]; fp > 0.15 {
			t.Errorf("%s: A/A false-positive rate %.3f, want near α = 0.05 (≤ 0.15)", typ, fp)
		}
		if found := sum.abFound[typ]; found < 0.9 {
			t.Errorf("%s: found %.3f of the 5 %% slowdowns, want ≥ 0.9", typ, found)
		}
	}
	if seqn, d := sum.abFound[typeSeqn], sum.abFound[TypeDuet]; !(seqn <= d-0.2) {
		t.Errorf("seqn found %.3f of the 5 %% slowdowns, duet %.3f: want seqn at least 0.2 lower", seqn, d)
	}
}

// effectConfig is the data set of TestDuetEffect.
func effectConfig(seed uint64) synth.DuetConfig {
	cfg := synth.DefaultDuetConfig()
	cfg.Seed = seed
	cfg.Benchmarks = nil
	for i := 0; i < 40; i++ {
		s := 0.0
		if i%2 == 1 {
			s = 0.05
		}
		cfg.Benchmarks = append(cfg.Benchmarks, synth.DuetBenchmark{Suite: "renaissance", Name: fmt.Sprintf("b%02d", i),
			MeanNs: 0.5e9, Slowdown: s, WarmupIterations: 8, WarmupFactor: 2})
	}
	cfg.EpisodeRate = 1.0 / 20
	return cfg
}
