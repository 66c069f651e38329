package duet

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"testing"
)

// The fidelity tests compare each stage on the two chi-square fixtures
// with the outputs of the author's process.py (testdata/expected, see
// testdata/README.md): timestamps to 1 µs (the reference holds them as
// float64, about 256 ns apart at 2022 epochs), statistics to 1e-9
// relative.

func TestFixtureWarmup(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx, func(t *testing.T) {
			var want []string
			for _, r := range expected(t, fx, "after_warmup_filter") {
				want = append(want, r["type"]+"/"+r["runid"]+"/"+r["pair"]+"/"+r["iteration"])
			}
			var got []string
			for _, g := range loadGroups(t, fx) {
				for _, r := range filterWarmup(g.records, g.key.Suite, warmupCode) {
					got = append(got, fmt.Sprintf("%s/%d/%c/%d", g.key.Type, r.Run, r.Pair, r.Iteration))
				}
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("kept\n%v\nwant\n%v", got, want)
			}
		})
	}
}

func TestFixtureOverlaps(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx, func(t *testing.T) {
			g := groupOf(t, loadGroups(t, fx), TypeDuet)
			want := expected(t, fx, "overlaps_after_warmup")
			var n int
			var missed []string
			for _, r := range runs(filterWarmup(g.records, g.key.Suite, warmupCode)) {
				sweep := sweepOverlaps(r.A, r.B)
				all := allPairsOverlaps(r.A, r.B)
				for _, o := range all {
					if !slices.ContainsFunc(sweep, func(s Overlap) bool { return s.A == o.A && s.B == o.B }) {
						missed = append(missed, fmt.Sprintf("run %d A%d B%d rate %.3f", r.Run, r.A[o.A].Iteration, r.B[o.B].Iteration, o.Rate))
					}
				}
				if len(all)-len(sweep) < 0 {
					t.Errorf("run %d: sweep found %d pairs, all pairs %d", r.Run, len(sweep), len(all))
				}
				for _, o := range sweep {
					if n >= len(want) {
						t.Fatalf("more than the %d expected overlaps", len(want))
					}
					w := want[n]
					n++
					name := fmt.Sprintf("run %d pair %d", r.Run, n)
					if w["runid"] != strconv.Itoa(int(r.Run)) || w["iteration_A"] != strconv.Itoa(int(r.A[o.A].Iteration)) || w["iteration_B"] != strconv.Itoa(int(r.B[o.B].Iteration)) {
						t.Errorf("%s: (run %d, A%d, B%d), want (run %s, A%s, B%s)", name, r.Run, r.A[o.A].Iteration, r.B[o.B].Iteration, w["runid"], w["iteration_A"], w["iteration_B"])
					}
					checkNs(t, name+" overlap start", o.Start, num(t, w["overlap_start_ns"]))
					checkNs(t, name+" overlap end", o.End, num(t, w["overlap_end_ns"]))
					checkNs(t, name+" overlap time", o.time(), num(t, w["overlap_time_ns"]))
					checkClose(t, name+" rate", o.Rate, num(t, w["overlap_rate"]), 1e-9)
				}
			}
			if n != len(want) {
				t.Errorf("%d overlaps, want %d", n, len(want))
			}
			// SPEC §4.2 says the sweep misses nothing on the warm-up-filtered
			// fixtures; it does miss one pair of the second fixture: A2
			// spans B2 and B3, and the sweep moves past A2 after B2.
			wantMissed := map[string][]string{fixtures[1]: {"run 0 A2 B3 rate 0.208"}}[fx]
			if !slices.Equal(missed, wantMissed) {
				t.Errorf("sweep missed %q, want %q", missed, wantMissed)
			}
		})
	}
}

// runMeans pairs g's warm-up-filtered runs as the CI test does.
func runMeans(g *group, m float64) []runMean {
	return pairedRunMeans(filterWarmup(g.records, g.key.Suite, warmupCode), g.key.Type, m, enumerationSweep)
}

func TestFixtureRunMeans(t *testing.T) {
	for _, fx := range fixtures {
		for _, c := range []struct {
			file string
			typ  string
			m    float64
		}{
			{"run_means_duet_m0.1", TypeDuet, 0.1},
			{"run_means_duet_m0.4", TypeDuet, 0.4},
			{"run_means_duet_m0.9", TypeDuet, 0.9},
			{"run_means_seqn", typeSeqn, 0},
		} {
			if c.typ == typeSeqn && fx == fixtures[0] {
				continue
			}
			t.Run(fx+"/"+c.file, func(t *testing.T) {
				got := runMeans(groupOf(t, loadGroups(t, fx), c.typ), c.m)
				want := expected(t, fx, c.file)
				if len(got) != len(want) {
					t.Fatalf("%d run means %+v, want %d", len(got), got, len(want))
				}
				for i, w := range want {
					if strconv.Itoa(int(got[i].run)) != w["runid"] || strconv.Itoa(got[i].pairs) != w["n_pairs"] {
						t.Errorf("run mean %d: run %d with %d pairs, want run %s with %s", i, got[i].run, got[i].pairs, w["runid"], w["n_pairs"])
					}
					checkClose(t, "run mean", got[i].mean, num(t, w["sample"]), 1e-9)
				}
			})
		}
	}
}

func TestFixtureRunTime(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx, func(t *testing.T) {
			want := expected(t, fx, "run_time")
			var n int
			for _, g := range loadGroups(t, fx) {
				for _, rt := range runTimes(g.records, g.key.Type) {
					i := slices.IndexFunc(want, func(w map[string]string) bool {
						return w["type"] == g.key.Type && w["runid"] == strconv.Itoa(int(rt.Run))
					})
					if i < 0 {
						t.Errorf("%s run %d not expected", g.key.Type, rt.Run)
						continue
					}
					n++
					w := want[i]
					checkNs(t, "run_time_ns", rt.TimeNs, num(t, w["run_time_ns"]))
					if strconv.FormatInt(rt.Seconds, 10) != w["run_time"] || strconv.Itoa(rt.Iterations) != w["iteration_count"] {
						t.Errorf("%s run %d: %d s, %d iterations, want %s s, %s", g.key.Type, rt.Run, rt.Seconds, rt.Iterations, w["run_time"], w["iteration_count"])
					}
				}
			}
			if n != len(want) {
				t.Errorf("%d runs, want %d", n, len(want))
			}
		})
	}
	// SPEC §10: seqn 2.5625 s and duet 1.9375 s per iteration, speedup 0.32258.
	gs := loadGroups(t, fixtures[1])
	seqn, duet := runTimes(groupOf(t, gs, typeSeqn).records, typeSeqn), runTimes(groupOf(t, gs, TypeDuet).records, TypeDuet)
	checkClose(t, "speedup", speedup(seqn, duet, speedupCode), 2.5625/1.9375-1, 1e-12)
	checkClose(t, "thesis speedup", speedup(seqn, duet, speedupThesis), (20901182349.0+21997211501)/(16964947803.0+15*1e9+float64(duet[1].TimeNs%1e9)), 1e-12)
}

func TestFixtureUTest(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx, func(t *testing.T) {
			want := expected(t, fx, "utest")
			gs := loadGroups(t, fx)
			if len(gs) != len(want) {
				t.Fatalf("%d keys, want %d", len(gs), len(want))
			}
			for _, w := range want {
				g := groupOf(t, gs, w["type"])
				if g.key.Env != w["environment"] || g.key.Suite != w["suite"] || g.key.Benchmark != w["benchmark"] {
					t.Errorf("key %+v, want %v", g.key, w)
				}
				var a, b []float64
				for _, r := range filterWarmup(g.records, g.key.Suite, warmupCode) {
					if r.Pair == 'A' {
						a = append(a, r.TimeNs)
					} else {
						b = append(b, r.TimeNs)
					}
				}
				u, ok, err := mannWhitney(a, b, 0.05)
				if err != nil || !ok {
					t.Fatal(ok, err)
				}
				checkClose(t, w["type"]+" U", u.U, num(t, w["u_test_statistics"]), 1e-12)
				checkClose(t, w["type"]+" p", u.P, num(t, w["u_test_pvalue"]), 1e-9)
				if strconv.FormatBool(u.Equal) != map[string]string{"True": "true", "False": "false"}[w["match_utest"]] {
					t.Errorf("%s match %v, want %s", w["type"], u.Equal, w["match_utest"])
				}
			}
		})
	}
}

func TestFixtureSlowdown(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx, func(t *testing.T) {
			want := expected(t, fx, "alter_score_0.10")
			var n int
			for _, g := range loadGroups(t, fx) {
				kept := filterWarmup(g.records, g.key.Suite, warmupCode)
				slowed := slowdownB(nil, kept, g.key.Type, 0.1)
				for i, r := range slowed {
					j := slices.IndexFunc(want, func(w map[string]string) bool {
						return w["type"] == g.key.Type && w["runid"] == strconv.Itoa(int(r.Run)) &&
							w["pair"] == string(r.Pair) && w["iteration"] == strconv.Itoa(int(r.Iteration))
					})
					if j < 0 {
						t.Fatalf("%s run %d %c%d not expected", g.key.Type, r.Run, r.Pair, r.Iteration)
					}
					n++
					w := want[j]
					name := fmt.Sprintf("%s run %d %c%d", g.key.Type, r.Run, r.Pair, r.Iteration)
					checkNs(t, name+" start", r.StartNs, num(t, w["iteration_start_ns"]))
					checkNs(t, name+" end", r.EndNs, num(t, w["iteration_end_ns"]))
					// The reference's time is end' − start' of float64 timestamps
					// (256 ns apart), so it too is compared to 1 µs.
					if d := math.Abs(r.TimeNs - num(t, w["iteration_time_ns"])); d > 1000 {
						t.Errorf("%s time = %.1f, want %s (diff %.0f ns > 1 µs)", name, r.TimeNs, w["iteration_time_ns"], d)
					}
					if r.Pair == 'A' && r != kept[i] {
						t.Errorf("%s changed", name)
					}
				}
			}
			if n != len(want) {
				t.Errorf("%d records, want %d", n, len(want))
			}
		})
	}
}

// TestFixtureRun checks Run end to end on the fixtures: the CI rows of
// *.ci_bca_randomstate0.csv (two run means, so BCa gives [min, max]
// whatever the draw: compared to 1e-9), the grand mean, relative CI width
// and the duet pairing per m of SPEC §11, and the U tests after a 10 %
// slowdown of SPEC §14.5.
func TestFixtureRun(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx, func(t *testing.T) {
			opt := DefaultOptions()
			opt.OverlapRatios = []float64{0.1, 0.3, 0.4, 0.5, 0.7, 0.9}
			opt.Slowdowns = []float64{0, 0.1}
			res, err := Run(loadFixture(t, "testdata/fixtures/"+fx+".csv"), opt)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range expected(t, fx, "ci_bca_randomstate0") {
				var ci CI
				var has bool
				b := res.benchmark(t, w["type"])
				if w["type"] == TypeDuet {
					row := res.overlapRow(t, num(t, w["min_overlap_ratio"]))
					ci, has = row.CI, row.HasCI
				} else {
					ci, has = b.CI, b.HasCI
				}
				name := w["type"] + " m=" + w["min_overlap_ratio"]
				if !has || strconv.Itoa(ci.Runs) != w["n_runs"] {
					t.Fatalf("%s: has CI %v with %d runs, want %s", name, has, ci.Runs, w["n_runs"])
				}
				checkClose(t, name+" grand mean", b.GrandMean, num(t, w["grand_mean"]), 1e-9)
				checkClose(t, name+" mean", ci.Mean, num(t, w["mean_of_run_means"]), 1e-9)
				checkClose(t, name+" lo", ci.Lower, num(t, w["lo"]), 1e-9)
				checkClose(t, name+" hi", ci.Upper, num(t, w["hi"]), 1e-9)
				checkClose(t, name+" relative width", ci.RelWidth, num(t, w["ci_width"]), 1e-9)
				if (w["match_ci"] == "True") != ci.Equal {
					t.Errorf("%s: equal %v, want %s", name, ci.Equal, w["match_ci"])
				}
			}
			if fx == fixtures[0] {
				// SPEC §11: pairs and relative overlap time per m.
				for _, c := range []struct {
					m     float64
					pairs int
					rel   float64
				}{{0.1, 18, 0.825027}, {0.3, 17, 0.794406}, {0.4, 12, 0.607087}, {0.5, 4, 0.246473}, {0.7, 0, math.NaN()}, {0.9, 0, math.NaN()}} {
					row := res.overlapRow(t, c.m)
					if row.Pairs != c.pairs {
						t.Errorf("m=%v: %d pairs, want %d", c.m, row.Pairs, c.pairs)
					}
					checkClose(t, fmt.Sprintf("m=%v relative overlap time", c.m), row.RelOverlapTime, c.rel, 1e-6)
				}
				b := res.benchmark(t, TypeDuet)
				if b.Pairs != 12 || b.Runs != 2 {
					t.Errorf("duet: %d pairs in %d runs, want 12 in 2", b.Pairs, b.Runs)
				}
			}
			// SPEC §14.5: U tests after s = 0.1.
			want := map[string][2]float64{}
			if fx == fixtures[0] {
				want[TypeDuet] = [2]float64{28, 0.1041}
			} else {
				want[typeSeqn] = [2]float64{0, 0.028571}
			}
			for typ, w := range want {
				row := res.mdsRow(t, typ, 0.1)
				checkClose(t, typ+" U after 10%", row.U.U, w[0], 1e-12)
				checkClose(t, typ+" p after 10%", row.U.P, w[1], 5e-4/w[1])
			}
		})
	}
}

func (r *Report) benchmark(t *testing.T, typ string) *Benchmark {
	t.Helper()
	for i := range r.Benchmarks {
		if r.Benchmarks[i].Type == typ {
			return &r.Benchmarks[i]
		}
	}
	t.Fatalf("no %s benchmark", typ)
	return nil
}

func (r *Report) overlapRow(t *testing.T, m float64) *OverlapRow {
	t.Helper()
	for i := range r.Overlaps {
		if r.Overlaps[i].M == m {
			return &r.Overlaps[i]
		}
	}
	t.Fatalf("no overlap row at m=%v", m)
	return nil
}

func (r *Report) mdsRow(t *testing.T, typ string, s float64) *MDSRow {
	t.Helper()
	for i := range r.MDS {
		if r.MDS[i].Type == typ && r.MDS[i].Slowdown == s {
			return &r.MDS[i]
		}
	}
	t.Fatalf("no %s MDS row at s=%v", typ, s)
	return nil
}
