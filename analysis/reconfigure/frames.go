package reconfigure

import (
	"math"
	"strings"

	"github.com/benchtrim/benchtrim/reports"
)

// benchmarksFrame is the per-benchmark result for notebooks: one row per
// replayed benchmark and criterion (one row with criterion "" for a
// skipped benchmark), typed columns:
//
//	project … mode             the benchmark run
//	iterations_in_data         recorded iterations per fork (list)
//	criterion                  cv, rciw or kld
//	warmup_iterations          warmup iterations per fork run (list)
//	warmup_capped_forks        forks whose warmup ran to its cap
//	forks_used, forks_stable   forks run, and whether the fork criterion stopped them
//	aa                         A/A test: not_different, different, or not_tested
//	aa_note                    why the A/A test was not possible
//	ratio, ratio_ci_lower, ratio_ci_upper  mean(dynamic)/mean(static) and its CI
//	change_rate                |ratio − 1|
//	dynamic_s, static_s  execution times
//	short                      less data than the configuration or baseline ask for
//	skipped, notes             why the benchmark was skipped; warnings
func benchmarksFrame(results []Result) *reports.Frame {
	var proj, ver, bench, params, mode, crit, aa, aaNote, skipped, notes []string
	var data, warm [][]int64
	var capped, used []int64
	var stable, short []bool
	var ratio, lo, hi, change, dyn, static []float64
	for _, r := range results {
		k := r.Key
		add := func(c string, w []int64, capd, u int64, st bool, a, note string, rt, l, h, ch, d float64) {
			proj, ver, bench, params, mode = append(proj, k.Project), append(ver, k.Version), append(bench, k.Benchmark), append(params, k.Params), append(mode, k.Mode)
			d64 := make([]int64, len(r.IterationsInData))
			for i, n := range r.IterationsInData {
				d64[i] = int64(n)
			}
			data, crit, warm, capped, used, stable = append(data, d64), append(crit, c), append(warm, w), append(capped, capd), append(used, u), append(stable, st)
			aa, aaNote = append(aa, a), append(aaNote, note)
			ratio, lo, hi, change, dyn = append(ratio, rt), append(lo, l), append(hi, h), append(change, ch), append(dyn, d)
			static, short = append(static, r.StaticSeconds), append(short, r.Short)
			skipped, notes = append(skipped, r.Skipped), append(notes, strings.Join(r.Warnings, "; "))
		}
		nan := math.NaN()
		if r.Skipped != "" {
			add("", nil, 0, 0, false, "not_tested", "", nan, nan, nan, nan, nan)
			continue
		}
		for _, cr := range r.Criteria {
			w := make([]int64, len(cr.Forks))
			for i, f := range cr.Forks {
				w[i] = int64(f.WarmupIterations)
			}
			a, note := "not_tested", cr.AA.Reason
			rt, l, h, ch := nan, nan, nan, nan
			if cr.AA.Available {
				a, note = "different", ""
				if cr.AA.NotDifferent {
					a = "not_different"
				}
				rt, l, h, ch = cr.AA.Ratio.Ratio.Estimate, cr.AA.Ratio.Ratio.Lower, cr.AA.Ratio.Ratio.Upper, cr.AA.ChangeRate
			}
			add(cr.Criterion.String(), w, int64(cr.WarmupCapped()), int64(cr.forksUsed()), cr.ForksStable, a, note, rt, l, h, ch, cr.DynamicSeconds)
		}
	}
	f := &reports.Frame{}
	f.String("project", proj)
	f.String("version", ver)
	f.String("benchmark", bench)
	f.String("params", params)
	f.String("mode", mode)
	f.IntList("iterations_in_data", data)
	f.String("criterion", crit)
	f.IntList("warmup_iterations_by_fork", warm)
	f.Int("warmup_capped_forks", capped)
	f.Int("forks_used", used)
	f.Bool("forks_stable", stable)
	f.String("aa", aa)
	f.String("aa_note", aaNote)
	f.Float("ratio", ratio)
	f.Float("ratio_ci_lower", lo)
	f.Float("ratio_ci_upper", hi)
	f.Float("change_rate", change)
	f.Float("dynamic_s", dyn)
	f.Float("static_s", static)
	f.Bool("short", short)
	f.String("skipped", skipped)
	f.String("notes", notes)
	return f
}

// summaryFrame is Tables 2 and 3 for notebooks: one row per project (and
// "all") and criterion with every SummaryRow field as a typed column;
// shares are fractions, times hours.
func summaryFrame(rows []SummaryRow) *reports.Frame {
	n := len(rows)
	proj, crit := make([]string, n), make([]string, n)
	ints := make([][]int64, 3)
	floats := make([][]float64, 16)
	for j := range ints {
		ints[j] = make([]int64, n)
	}
	for j := range floats {
		floats[j] = make([]float64, n)
	}
	for i, r := range rows {
		proj[i], crit[i] = r.Project, r.Criterion.String()
		for j, v := range []int{r.Benchmarks, r.Short, r.AATested} {
			ints[j][i] = int64(v)
		}
		for j, v := range []float64{r.NotDifferent, r.ChangeMean, r.ChangeSD, r.Below1, r.Below2, r.Below3,
			r.StaticHours, r.DynamicHours, r.Saved, r.WarmupMean, r.WarmupSD, r.ForksMean, r.ForksSD,
			r.WarmupNeverStable, r.ForksNeverStable, r.StaticHours - r.DynamicHours} {
			floats[j][i] = v
		}
	}
	f := &reports.Frame{}
	f.String("project", proj)
	f.String("criterion", crit)
	for j, name := range []string{"benchmarks", "short_benchmarks", "aa_tested"} {
		f.Int(name, ints[j])
	}
	for j, name := range []string{"not_different", "change_mean", "change_sd", "below_1pct", "below_2pct", "below_3pct",
		"static_hours", "dynamic_hours", "time_saved", "warmup_mean", "warmup_sd", "forks_mean", "forks_sd",
		"warmup_never_stable", "forks_never_stable", "time_saved_hours"} {
		f.Float(name, floats[j])
	}
	return f
}
