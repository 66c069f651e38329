package synth

import (
	"bytes"
	"math"
	"testing"
)

// duetData generates the duet preset with seed.
func duetData(t *testing.T, seed uint64) *DuetData {
	t.Helper()
	cfg := DefaultDuetConfig()
	cfg.Seed = seed
	d, err := GenerateDuet(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDuetDeterministic: the same seed gives the same bytes, another seed
// other bytes.
func TestDuetDeterministic(t *testing.T) {
	var a, b, c bytes.Buffer
	for _, x := range []struct {
		buf  *bytes.Buffer
		seed uint64
	}{{&a, 7}, {&b, 7}, {&c, 8}} {
		cfg := DefaultDuetConfig()
		cfg.Seed = x.seed
		if err := generateDuetTo(formatDuet, x.buf, cfg); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("seed 7 twice: different bytes")
	}
	if bytes.Equal(a.Bytes(), c.Bytes()) {
		t.Error("seeds 7 and 8: same bytes")
	}
	if n := bytes.Count(a.Bytes(), []byte("\n")); n != 1+9600 {
		t.Errorf("%d lines, want the header and 4 benchmarks × 3 types × 10 runs × 2 pairs × 40 iterations = 9600 rows", n)
	}
}

// runKey groups the iterations of one run.
type duetRunKey struct {
	bench, typ string
	run        int
}

// runsOf groups d's iterations by run and pair (0 A, 1 B).
func runsOf(d *DuetData) map[duetRunKey]*[2][]duetIteration {
	runs := map[duetRunKey]*[2][]duetIteration{}
	for _, it := range d.iterations {
		k := duetRunKey{it.benchmark, it.typ, it.runID}
		if runs[k] == nil {
			runs[k] = &[2][]duetIteration{}
		}
		p := int(it.pair[0] - 'A')
		runs[k][p] = append(runs[k][p], it)
	}
	return runs
}

// TestDuetTruth: the generated rows hold the truth. Per benchmark and type,
// mean(B)/mean(A) over the steady iterations (after the warm-up, no
// interference) is within 2 % of 1+Slowdown (5 % for the A/B benchmarks,
// 0 for the A/A ones; the run factor's sd of 1 % over 10 runs gives a
// standard error of about 0.45 %, so 2 % is 4.4 of them; averaged over
// seeds 1–30 every ratio is within 0.2 % of the truth); interference episodes inside a duet or
// syncduet run slow both pairs, while a seqn run's pairs are 30 s apart;
// syncduet iterations start together, duet ones do not; Renaissance
// counts iterations from 0 and DaCapo from 1.
func TestDuetTruth(t *testing.T) {
	d := duetData(t, 1)
	cfg := d.config

	means := map[string]*[2][]float64{}
	shared, sharedMissed := 0, 0
	for k, pr := range runsOf(d) {
		var b DuetBenchmark
		for _, x := range cfg.Benchmarks {
			if x.Name == k.bench {
				b = x
			}
		}
		for p := 0; p < 2; p++ {
			if len(pr[p]) != cfg.Iterations {
				t.Fatalf("%v pair %d: %d iterations", k, p, len(pr[p]))
			}
			first := 0
			if b.Suite == "dacapo" {
				first = 1
			}
			if pr[p][0].iteration != first {
				t.Errorf("%v: first iteration %d, want %d", k, pr[p][0].iteration, first)
			}
			key := k.bench + " " + k.typ
			if means[key] == nil {
				means[key] = &[2][]float64{}
			}
			for i, it := range pr[p] {
				if i >= b.WarmupIterations && it.interferenceNs == 0 {
					means[key][p] = append(means[key][p], float64(it.timeNs))
				}
				if it.endNs-it.startNs != it.timeNs || (i > 0 && it.startNs < pr[p][i-1].endNs) {
					t.Fatalf("%v: iteration %+v overlaps its predecessor or end − start ≠ time", k, it)
				}
			}
		}
		a, bb := pr[0], pr[1]
		switch k.typ {
		case "seqn":
			if gap := bb[0].startNs - a[len(a)-1].endNs; gap < 30e9 {
				t.Errorf("%v: B starts %d ns after A ends, want ≥ 30 s", k, gap)
			}
		case "syncduet":
			for i := range a {
				if a[i].startNs != bb[i].startNs {
					t.Fatalf("%v: syncduet iteration %d starts at %d and %d", k, i, a[i].startNs, bb[i].startNs)
				}
			}
		case "duet":
			apart := 0
			for i := 1; i < len(a); i++ {
				if d := a[i].startNs - bb[i].startNs; d > 1e6 || d < -1e6 {
					apart++
				}
			}
			if apart < len(a)*3/4 {
				t.Errorf("%v: only %d of %d duet iterations start more than 1 ms apart", k, apart, len(a)-1)
			}
		}
		if k.typ == "seqn" {
			continue
		}
		// Episodes inside the span where both pairs run hit both pairs.
		from, to := max(a[0].startNs, bb[0].startNs), min(a[len(a)-1].endNs, bb[len(bb)-1].endNs)
		for _, e := range d.episodes {
			if e.StartNs < from || e.EndNs > to || e.EndNs-e.StartNs < 10e6 {
				continue
			}
			shared++
			for _, its := range [][]duetIteration{a, bb} {
				hit := false
				for _, it := range its {
					if it.startNs < e.EndNs && it.endNs > e.StartNs && it.interferenceNs > 0 {
						hit = true
					}
				}
				if !hit {
					sharedMissed++
				}
			}
		}
	}
	t.Logf("%d episodes inside parallel runs", shared)
	if shared < 20 || sharedMissed > 0 {
		t.Errorf("%d episodes inside parallel runs, %d pairs they missed; want ≥ 20 and 0", shared, sharedMissed)
	}
	mean := func(x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v
		}
		return s / float64(len(x))
	}
	for _, b := range cfg.Benchmarks {
		for _, typ := range cfg.Types {
			m := means[b.Name+" "+typ]
			ratio := mean(m[1]) / mean(m[0])
			t.Logf("%s %s: B/A %.4f over %d+%d steady iterations", b.Name, typ, ratio, len(m[0]), len(m[1]))
			if math.Abs(ratio-(1+b.Slowdown)) > 0.02 || len(m[0]) < 200 {
				t.Errorf("%s %s: B/A = %.4f over %d+%d steady iterations, want %.2f ± 0.02", b.Name, typ, ratio, len(m[0]), len(m[1]), 1+b.Slowdown)
			}
		}
	}
}
