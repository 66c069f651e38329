package duet

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/benchtrim/benchtrim/internal/stats"
)

// WriteText writes a short terminal summary, at most 100 columns wide: the
// settings, then per type the number of benchmark-env keys, the A/A match
// ratios of the CI test (over keys with a CI) and the U test (over keys
// with a U test), the median relative CI width and CV, and the slowdown
// from which on every key's emulated regression is detected (pooled match
// ratio 0 at that and every larger grid point); then the runtime speedup
// of duet against seqn and, for A/B data, the verdict counts.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	o := r.Options
	envs := map[string]bool{}
	for _, x := range r.Benchmarks {
		envs[x.Env] = true
	}
	b.WriteString(r.headline() + "\n")
	fmt.Fprintf(&b, "%d benchmark-env keys, %d environment(s); seed %d, %d resamples, %g%% CI,\n",
		len(r.Benchmarks), len(envs), o.Seed, o.Resamples, 100*o.Confidence)
	fmt.Fprintf(&b, "m = %g (%s overlaps), warm-up %s, U test at p > %g is equal\n", o.MinOverlap, o.Enumeration, o.Warmup, o.Alpha)
	fmt.Fprintf(&b, "%-9s %5s  %-13s  %-13s  %11s  %9s  %6s  %6s\n", "type", "keys", "A/A CI match", "A/A U match", "median RCIW", "median CV", "MDS CI", "MDS U")
	for _, typ := range types {
		var n, hasCI, eqCI, hasU, eqU int
		var rciw, cv []float64
		for _, x := range r.Benchmarks {
			if x.Type != typ {
				continue
			}
			n++
			if x.HasCI {
				hasCI++
				if x.CI.Equal {
					eqCI++
				}
				if !math.IsNaN(x.CI.RelWidth) {
					rciw = append(rciw, x.CI.RelWidth)
				}
			}
			if x.HasU {
				hasU++
				if x.U.Equal {
					eqU++
				}
			}
			if !math.IsNaN(x.CV) {
				cv = append(cv, x.CV)
			}
		}
		if n == 0 {
			continue
		}
		mdsCI, mdsU := r.pooledMDS(typ)
		fmt.Fprintf(&b, "%-9s %5d  %-13s  %-13s  %11s  %9s  %6s  %6s\n", typ, n, ratio(eqCI, hasCI), ratio(eqU, hasU),
			num4(median(rciw)), num4(median(cv)), pct(mdsCI), pct(mdsU))
	}
	var sp []float64
	for _, s := range r.Speedups {
		if !math.IsNaN(s.Speedup) {
			sp = append(sp, s.Speedup)
		}
	}
	if len(sp) > 0 {
		fmt.Fprintf(&b, "runtime speedup of duet against seqn (%s definition): median %.3f, mean %.3f, %d benchmarks\n",
			o.Speedup, median(sp), stats.Mean(sp, nil), len(sp))
	}
	counts := map[string]int{}
	for _, x := range r.Benchmarks {
		counts[x.Verdict]++
	}
	var parts []string
	for _, v := range []string{VerdictSame, VerdictAFaster, VerdictASlower, VerdictNoCI, VerdictDegenerate} {
		if counts[v] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", v, counts[v]))
		}
	}
	fmt.Fprintf(&b, "CI verdicts (A against B): %s\n", strings.Join(parts, ", "))
	writeChanges(&b, r.Benchmarks, maxChanges, r.Options.Confidence)
	for _, x := range r.Warnings {
		fmt.Fprintf(&b, "note: %s\n", x)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// maxChanges is the number of changed benchmarks WriteText lists.
const maxChanges = 10

// writeChanges lists the keys whose CI excludes 0, largest relative
// difference first, at most max of them, each on one line of at most 100
// columns: "  key: A faster by 4.76 % [3.90 %, 5.61 %] of B".
func writeChanges(b *strings.Builder, bs []Benchmark, max int, confidence float64) {
	var ch []Benchmark
	for _, x := range bs {
		if x.Verdict == VerdictAFaster || x.Verdict == VerdictASlower {
			ch = append(ch, x)
		}
	}
	if len(ch) == 0 {
		return
	}
	slices.SortStableFunc(ch, func(x, y Benchmark) int { return cmp.Compare(math.Abs(y.Relative), math.Abs(x.Relative)) })
	fmt.Fprintf(b, "largest changes (mean of run means of A − B over B's mean, %g%% CI):\n", 100*confidence)
	for i, x := range ch {
		if i == max {
			fmt.Fprintf(b, "  … and %d more\n", len(ch)-max)
			break
		}
		lo, hi := math.Abs(x.RelLower), math.Abs(x.RelUpper)
		if lo > hi {
			lo, hi = hi, lo
		}
		tail := fmt.Sprintf(": %s by %.2f%% [%.2f%%, %.2f%%]", x.Verdict, 100*math.Abs(x.Relative), 100*lo, 100*hi)
		name := x.Key.String()
		if room := 100 - 2 - len([]rune(tail)); len([]rune(name)) > room {
			name = string([]rune(name)[:room-1]) + "…"
		}
		fmt.Fprintf(b, "  %s%s\n", name, tail)
	}
}

// pooledMDS returns, for one type, the smallest grid slowdown from which
// on the match ratio pooled over environments and suites is 0, per test.
func (r *Report) pooledMDS(typ string) (ci, u float64) {
	type agg struct{ n, ci, u int }
	by := map[float64]*agg{}
	for _, m := range r.Match {
		if m.Type != typ {
			continue
		}
		a := by[m.Slowdown]
		if a == nil {
			a = &agg{}
			by[m.Slowdown] = a
		}
		a.n += m.Benchmarks
		a.ci += m.MatchCI
		a.u += m.MatchU
	}
	ci, u = math.NaN(), math.NaN()
	doneCI, doneU := false, false
	for i := len(r.Options.Slowdowns) - 1; i >= 0; i-- {
		a := by[r.Options.Slowdowns[i]]
		if a == nil || a.n == 0 {
			break
		}
		if !doneCI && a.ci == 0 {
			ci = r.Options.Slowdowns[i]
		} else {
			doneCI = true
		}
		if !doneU && a.u == 0 {
			u = r.Options.Slowdowns[i]
		} else {
			doneU = true
		}
	}
	return ci, u
}

func median(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	return stats.Median(x, nil)
}

func ratio(k, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d %.3f", k, n, float64(k)/float64(n))
}

func num4(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%.4f", x)
}

func pct(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%g%%", math.Round(x*1e4)/100)
}

// headline is the answer, in two lines: in how many benchmark-env keys the CI
// test finds A and B different, in which direction, and the median relative
// CI width of each type present (smaller: a more precise setup).
func (r *Report) headline() string {
	var diff, faster, slower int
	widths := map[string][]float64{}
	for _, x := range r.Benchmarks {
		switch x.Verdict {
		case VerdictAFaster:
			diff, faster = diff+1, faster+1
		case VerdictASlower:
			diff, slower = diff+1, slower+1
		}
		if x.HasCI && !math.IsNaN(x.CI.RelWidth) {
			widths[x.Type] = append(widths[x.Type], x.CI.RelWidth)
		}
	}
	s := fmt.Sprintf("duet: the CI test finds A and B different in %d of %d benchmark-env keys (A faster %d, slower %d)", diff, len(r.Benchmarks), faster, slower)
	var parts []string
	for _, typ := range types {
		if w := widths[typ]; len(w) > 0 {
			parts = append(parts, fmt.Sprintf("%s %.3f", typ, stats.Median(w, nil)))
		}
	}
	if len(parts) > 0 {
		s += ";\nmedian relative CI width " + strings.Join(parts, ", ")
	}
	return s
}
