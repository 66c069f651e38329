package trim

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/benchtrim/benchtrim/analysis/compare"
	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/version"
	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

// VersionComparison is the A/B comparison of two consecutive versions of
// a project (compare.Run on their primary series).
type VersionComparison struct {
	Project, Base, Test string
	Report              *compare.Report
}

// compareVersions compares, per project of series holding several
// versions (projectVersions), each version with the next (versions in
// their given order, versionOrder) with opt.Compare and the user's test,
// and marks the test side's benchmarks with "compare" and the verdict.
func compareVersions(rep *Report, t *table.Table, series []*table.Series, opt *Options) ([]VersionComparison, error) {
	all := projectVersions(t, opt)
	byProject := map[string]map[string][]*table.Series{}
	for _, s := range series {
		if duetModes[s.Mode] {
			continue
		}
		if byProject[s.Project] == nil {
			byProject[s.Project] = map[string][]*table.Series{}
		}
		byProject[s.Project][s.Version] = append(byProject[s.Project][s.Version], s)
	}
	projects := make([]string, 0, len(byProject))
	for p := range byProject {
		projects = append(projects, p)
	}
	sort.Strings(projects)
	index := map[table.Key]int{}
	for i := range rep.Benchmarks {
		index[rep.Benchmarks[i].Key] = i
	}
	var out []VersionComparison
	for _, p := range projects {
		versions := all[p]
		for k := 0; k+1 < len(versions); k++ {
			base, test := versions[k], versions[k+1]
			copt := opt.Compare
			copt.Seed, copt.Workers = opt.Seed, opt.Workers
			copt.Rule, copt.Alpha = opt.Test, opt.Alpha
			if opt.Test == estimate.TestRatio {
				copt.Bootstrap.Confidence = 1 - opt.Alpha
			} else {
				// The ratio's CI only describes the change the user's
				// test decides: versionResamples resamples suffice.
				copt.Bootstrap.Resamples = min(copt.Bootstrap.Resamples, versionResamples)
			}
			copt.Metrics = []string{table.Primary}
			// A part of the input (a shard, a chunk) may hold no run of a
			// version: Part leaves the checks on the whole input to Merge.
			sh, n := opt.Select.Shard, opt.Select.Shards
			copt.Base = compare.Side{Label: base, Select: compare.Selector{Project: p, Version: base, Shard: sh, Shards: n}}
			copt.Test = compare.Side{Label: test, Select: compare.Selector{Project: p, Version: test, Shard: sh, Shards: n}}
			copt.Part = true
			cr, err := compare.Run(t, copt)
			if err != nil {
				return nil, fmt.Errorf("trim: compare %s %s → %s: %w", p, base, test, err)
			}
			out = append(out, VersionComparison{Project: p, Base: base, Test: test, Report: cr})
			for _, r := range cr.Rows {
				for _, k := range r.TestRuns {
					if i, ok := index[k]; ok {
						b := &rep.Benchmarks[i]
						b.Analyses = append(b.Analyses, "compare")
						if r.Err == nil {
							b.Change = fmt.Sprintf("%s → %s: %s", base, test, r.Verdict)
						}
					}
				}
			}
		}
	}
	return out, nil
}

// compareFrame has one row per compared benchmark and version pair:
// project, base, test, benchmark, params, mode, ratio (mean test / mean
// base), ratio_ci_lower, ratio_ci_upper (hierarchical bootstrap CI),
// verdict, change_rate (the verdict's change, a fraction: 0.05 is 5 %
// slower), u_pvalue (the U test's two-sided p-value, as benchstat computes
// it, whatever the rule), error; the names and units of `benchtrim
// compare -o`.
func (r *Report) compareFrame() *reports.Frame {
	var project, base, test, bench, params, mode, verdict, errs []string
	var ratio, lo, hi, pct, pv []float64
	for _, vc := range r.Versions {
		for _, x := range vc.Report.Rows {
			project = append(project, vc.Project)
			base = append(base, vc.Base)
			test = append(test, vc.Test)
			bench = append(bench, x.Benchmark)
			params = append(params, x.Params)
			mode = append(mode, x.Mode)
			if x.Err != nil {
				verdict = append(verdict, "")
				errs = append(errs, x.Err.Error())
				ratio, lo, hi, pct, pv = append(ratio, math.NaN()), append(lo, math.NaN()), append(hi, math.NaN()), append(pct, math.NaN()), append(pv, math.NaN())
				continue
			}
			verdict = append(verdict, x.Verdict.String())
			errs = append(errs, "")
			ratio = append(ratio, x.Ratio.Estimate)
			lo = append(lo, x.Ratio.Lower)
			hi = append(hi, x.Ratio.Upper)
			pct = append(pct, x.Verdict.Percent/100)
			pv = append(pv, x.P)
		}
	}
	f := &reports.Frame{}
	f.String("project", project)
	f.String("base", base)
	f.String("test", test)
	f.String("benchmark", bench)
	f.String("params", params)
	f.String("mode", mode)
	f.Float("ratio", ratio)
	f.Float("ratio_ci_lower", lo)
	f.Float("ratio_ci_upper", hi)
	f.String("verdict", verdict)
	f.Float("change_rate", pct)
	f.Float("u_pvalue", pv)
	f.String("error", errs)
	return f
}

// projectVersions lists per project the versions, in their given order
// (versionOrder), of the benchmark runs of the whole input that opt.Select
// keeps without its shard (duet modes left out): opt.AllRuns when t holds
// a chunk of the input, t's runs otherwise. A shard or chunk thus
// compares the same version pairs as the unsplit run; a pair whose side
// has no run in the part compares to an empty side, whose benchmarks are
// unmatched.
func projectVersions(t *table.Table, opt *Options) map[string][]string {
	runs := opt.AllRuns
	if runs == nil {
		runs = t.Runs()
	}
	sel := opt.Select.Unsharded()
	seen := map[string]map[string]bool{}
	for _, k := range runs {
		if duetModes[k.Mode] || !sel.Matches(k) {
			continue
		}
		if seen[k.Project] == nil {
			seen[k.Project] = map[string]bool{}
		}
		seen[k.Project][k.Version] = true
	}
	rank := versionOrder(t, opt)
	out := map[string][]string{}
	for p, vs := range seen {
		for v := range vs {
			out[p] = append(out[p], v)
		}
		sort.Slice(out[p], func(i, j int) bool { return rank.less(p, out[p][i], out[p][j]) })
	}
	return out
}

// versionRank orders the versions of each project: by their position in
// Options.Versions, else by the order in which the input gives them
// (table.Table.Labels: the order of the files on the command line), and versions
// that are in neither by version.Compare.
type versionRank map[string]map[string]int

func (r versionRank) less(project, a, b string) bool {
	ia, oka := r[project][a]
	ib, okb := r[project][b]
	switch {
	case oka && okb:
		return ia < ib
	case oka != okb:
		return oka
	}
	return version.Compare(a, b) < 0
}

// versionOrder is the versionRank of opt and t: Options.Versions when
// set (for every project), else the order of t's labels.
func versionOrder(t *table.Table, opt *Options) versionRank {
	r := versionRank{}
	if len(opt.Versions) > 0 {
		for _, l := range t.Labels() {
			if r[l[0]] == nil {
				r[l[0]] = map[string]int{}
				for i, v := range opt.Versions {
					r[l[0]][v] = i
				}
			}
		}
		return r
	}
	for _, l := range t.Labels() {
		if r[l[0]] == nil {
			r[l[0]] = map[string]int{}
		}
		if _, ok := r[l[0]][l[1]]; !ok {
			r[l[0]][l[1]] = len(r[l[0]])
		}
	}
	return r
}

// versionOrderNotes warns, once per project, where the versions' labels
// all look like versions (version.Numbered) and the order they are
// compared in (the files', or Options.Versions) is not their natural
// order (version.Compare): 1.10.0 before 1.9.0 is likely a
// shell glob's order, not the release order.
func versionOrderNotes(order map[string][]string, opt *Options) []string {
	projects := make([]string, 0, len(order))
	for p := range order {
		projects = append(projects, p)
	}
	sort.Strings(projects)
	var out []string
	for _, p := range projects {
		vs := order[p]
		if len(vs) < 2 {
			continue
		}
		looks := true
		for _, v := range vs {
			looks = looks && version.Numbered(v)
		}
		natural := slices.Clone(vs)
		slices.SortFunc(natural, version.Compare)
		if looks && !slices.Equal(vs, natural) {
			how := "the order of the files"
			if len(opt.Versions) > 0 {
				how = "--versions"
			}
			name := p
			if name == "" {
				name = "the input"
			}
			out = append(out, fmt.Sprintf("%s: versions compared in %s, %s; by their names they would be %s (--versions sets the order)",
				name, how, strings.Join(vs, ", "), strings.Join(natural, ", ")))
		}
	}
	return out
}

// versionResamples bounds the bootstrap resamples behind the ratio's CI
// in the versions' comparisons where the U or the overlap test decides
// (the CI is shown beside the verdict, not used by it): 2,000, whose
// percentile bounds of a 95 % interval are within about 2 % of the CI's
// width of those of 10,000 (compare's default).
const versionResamples = 2000
