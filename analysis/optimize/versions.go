package optimize

import (
	"fmt"
	"math"
	"sort"

	"github.com/benchtrim/benchtrim/internal/workpool"
	"github.com/benchtrim/benchtrim/table"
)

// VersionOptions configures compareVersions. Start from DefaultVersionOptions.
type VersionOptions struct {
	// Base is the version whose configurations are applied to every later
	// version; "" means the first version of each project.
	Base string
	// Order lists the versions in release order; versions of the data not
	// listed are left out (with a note). Nil means natural order (versionLess).
	Order []string
	// SlowdownsOnly counts only increases of time per operation as changes,
	// as the µOpTime prototype did; otherwise both directions count.
	SlowdownsOnly bool
	// MinChange is the smallest relative change of the average that counts
	// (3 % in the paper).
	MinChange float64
}

// DefaultVersionOptions: first version as base, natural order, both
// directions, 3 % minimum change.
var DefaultVersionOptions = VersionOptions{MinChange: 0.03}

// Ground is the index of the full configuration (the ground truth) in
// BenchmarkChange's arrays; method m is at index 1 + m.
const Ground = 0

// BenchmarkChange is the comparison of one benchmark between two
// consecutive versions under one metric: for the full configuration (index
// Ground) and each method (index 1 + Method) the relative change of the
// average and whether a change was detected.
type BenchmarkChange struct {
	Project, Benchmark, Params, Mode string
	From, To                         string
	Metric                           Metric
	// Change is (r_to − r_from) / r_from of the metric's estimator.
	Change [1 + NumMethods]float64
	// Detected: the two bootstrap CIs do not overlap and Change is large enough.
	Detected [1 + NumMethods]bool
}

// VersionPair counts detections of one method on one pair of consecutive
// versions (or, in VersionReport.Totals, over all pairs: From and To empty),
// against the full configuration as ground truth.
type VersionPair struct {
	Project, From, To string
	Metric            Metric
	Method            Method
	// Benchmarks compared; FullChanges detected with the full
	// configurations; Detected with the method's configurations.
	Benchmarks, FullChanges, Detected int
	TP, FP, TN, FN                    int
	// FPR = FP / (FP + TN) and FNR = FN / (FN + TP); NaN when undefined.
	FPR, FNR float64
}

// VersionReport is the outcome of compareVersions.
type VersionReport struct {
	// Versions[project] lists the compared versions, base first.
	Versions map[string][]string
	// Pairs per project, version pair, metric and method; Totals per
	// project, metric and method.
	Pairs, Totals []VersionPair
	// Changes per benchmark, version pair and metric.
	Changes []BenchmarkChange
	// Notes name versions left out, benchmarks missing in a version and
	// configurations larger than a later version's data.
	Notes []string
}

// benchID identifies a benchmark across versions.
type benchID struct{ project, benchmark, params, mode string }

func idOf(k table.Key) benchID { return benchID{k.Project, k.Benchmark, k.Params, k.Mode} }

// compareVersions evaluates µOpTime across versions in forward mode (the
// paper's RQ4): the configurations chosen on the base version (in rep, from
// optimize on series that include it) are applied unchanged to every later
// version, as a CI pipeline would after optimising once. For each pair of
// consecutive versions from the base on and every benchmark present in
// both, a performance change is detected when the two bootstrap CIs of the
// metric's estimator do not overlap (touching bounds count as not
// overlapping, as in the prototype's performance_changes_go.py) and the
// relative change of the estimator, (r_to − r_from)/r_from, is at least
// MinChange in absolute value (SlowdownsOnly: at least +MinChange). With the
// full configuration of each version as ground truth it counts true and
// false positives and negatives of µOpTime's configurations and of both
// baselines.
//
// rep.Options (metrics, seed, bootstrap, --first, --discard-warmup) are used
// for the later versions too, so every evaluation is the same pure function
// of (seed, benchmark, metric, configuration) as in optimize.
func compareVersions(series []*table.Series, rep *Report, vopt VersionOptions) (*VersionReport, error) {
	if !(vopt.MinChange >= 0) || math.IsInf(vopt.MinChange, 0) {
		return nil, fmt.Errorf("optimize: minimum change must be finite and ≥ 0, got %v", vopt.MinChange)
	}
	opt := rep.Options
	out := &VersionReport{Versions: map[string][]string{}}
	projects, err := out.orderVersions(series, vopt)
	if err != nil {
		return nil, err
	}
	baseOf := out.baseResults(rep)
	jobs, err := out.evaluateLater(series, baseOf, &opt)
	if err != nil {
		return nil, err
	}
	evals := out.collectEvaluations(baseOf, jobs)
	out.detect(projects, evals, &opt, vopt)
	return out, nil
}

// orderVersions fills out.Versions: each project's versions in release
// order (vopt.Order, else versionLess) from the base version on, and
// returns the projects in name order.
func (out *VersionReport) orderVersions(series []*table.Series, vopt VersionOptions) ([]string, error) {
	present := map[string]map[string]bool{}
	for _, s := range series {
		if present[s.Project] == nil {
			present[s.Project] = map[string]bool{}
		}
		present[s.Project][s.Version] = true
	}
	projects := make([]string, 0, len(present))
	for p := range present {
		projects = append(projects, p)
	}
	sort.Strings(projects)
	for _, proj := range projects {
		var vs []string
		if vopt.Order != nil {
			listed := map[string]bool{}
			for _, v := range vopt.Order {
				listed[v] = true
				if present[proj][v] {
					vs = append(vs, v)
				}
			}
			for v := range present[proj] {
				if !listed[v] {
					out.Notes = append(out.Notes, fmt.Sprintf("%s@%s: version not in the given order, left out", proj, v))
				}
			}
		} else {
			for v := range present[proj] {
				vs = append(vs, v)
			}
			sort.Slice(vs, func(i, j int) bool { return versionLess(vs[i], vs[j]) })
		}
		base := 0
		if vopt.Base != "" {
			base = -1
			for i, v := range vs {
				if v == vopt.Base {
					base = i
				}
			}
			if base < 0 {
				return nil, fmt.Errorf("optimize: base version %q not found for project %q (versions %v)", vopt.Base, proj, vs)
			}
		}
		if len(vs) == 0 {
			continue
		}
		if base > 0 {
			out.Notes = append(out.Notes, fmt.Sprintf("%s: versions before the base %s are not compared (forward mode)", proj, vs[base]))
		}
		out.Versions[proj] = vs[base:]
	}

	return projects, nil
}

// baseResults indexes rep's results on each project's base version by
// benchmark and metric: the configurations applied to the later versions.
func (out *VersionReport) baseResults(rep *Report) map[benchID]map[Metric]*Result {
	baseOf := map[benchID]map[Metric]*Result{}
	for i := range rep.Results {
		r := &rep.Results[i]
		vs := out.Versions[r.Key.Project]
		if len(vs) == 0 || r.Key.Version != vs[0] {
			continue
		}
		id := idOf(r.Key)
		if baseOf[id] == nil {
			baseOf[id] = map[Metric]*Result{}
		}
		baseOf[id][r.Metric] = r
	}

	return baseOf
}

// laterRun is a series of a later version with the evaluations of its base
// version's configurations (ground truth first, then each method's).
type laterRun struct {
	s     *table.Series
	evals map[Metric]*[1 + NumMethods]Evaluation
	note  string
}

// evaluateLater evaluates the base configurations on every series of a
// later version, in parallel (opt.Workers), each into its own slot.
func (out *VersionReport) evaluateLater(series []*table.Series, baseOf map[benchID]map[Metric]*Result, opt *Options) ([]*laterRun, error) {
	var jobs []*laterRun
	for _, s := range series {
		vs := out.Versions[s.Project]
		if len(vs) < 2 || s.Version == vs[0] || !contains(vs, s.Version) {
			continue
		}
		if baseOf[idOf(s.Key)] == nil {
			out.Notes = append(out.Notes, fmt.Sprintf("%s: not in base version %s, not compared", s.Key, vs[0]))
			continue
		}
		jobs = append(jobs, &laterRun{s: s})
	}
	err := workpool.Run(len(jobs), opt.Workers, func(i int) error {
		j := jobs[i]
		p, skip := prepare(j.s, opt)
		if skip != nil {
			j.note = fmt.Sprintf("%s: %s", skip.Key, skip.Reason)
			return nil
		}
		ws := workspaces.Get().(*workspace)
		defer workspaces.Put(ws)
		j.evals = map[Metric]*[1 + NumMethods]Evaluation{}
		short := false
		for m, br := range baseOf[idOf(j.s.Key)] {
			var ev [1 + NumMethods]Evaluation
			ev[Ground] = p.evaluate(m, p.full, true, opt, ws)
			for meth := Method(0); meth < NumMethods; meth++ {
				c := br.Eval(meth).Config
				reuse := false
				for k := 0; k < 1+int(meth); k++ {
					if k > 0 && br.Eval(Method(k-1)).Config == c {
						ev[1+meth], reuse = ev[k], true
						break
					}
				}
				if !reuse {
					ev[1+meth] = p.evaluate(m, c, true, opt, ws)
				}
				if ev[1+meth].Observations < countNominal(c) {
					short = true
				}
			}
			j.evals[m] = &ev
		}
		if short {
			j.note = fmt.Sprintf("%s: a base configuration asks for more units than this version recorded; it uses the values that exist", j.s.Key)
		}
		return nil
	})
	return jobs, err
}

// versionEvals holds evaluations by "project\x00version", benchmark and
// metric.
type versionEvals map[string]map[benchID]map[Metric]*[1 + NumMethods]Evaluation

// collectEvaluations puts the base version's own evaluations and the later
// versions' into one index, and keeps the jobs' notes.
func (out *VersionReport) collectEvaluations(baseOf map[benchID]map[Metric]*Result, jobs []*laterRun) versionEvals {
	evals := versionEvals{}
	put := func(version string, id benchID, m Metric, ev *[1 + NumMethods]Evaluation) {
		k := id.project + "\x00" + version
		if evals[k] == nil {
			evals[k] = map[benchID]map[Metric]*[1 + NumMethods]Evaluation{}
		}
		if evals[k][id] == nil {
			evals[k][id] = map[Metric]*[1 + NumMethods]Evaluation{}
		}
		evals[k][id][m] = ev
	}
	for id, byMetric := range baseOf {
		for m, r := range byMetric {
			ev := &[1 + NumMethods]Evaluation{r.Full, r.Chosen, r.Minimum, r.Random}
			put(out.Versions[id.project][0], id, m, ev)
		}
	}
	for _, j := range jobs {
		if j.note != "" {
			out.Notes = append(out.Notes, j.note)
		}
		for m, ev := range j.evals {
			put(j.s.Version, idOf(j.s.Key), m, ev)
		}
	}

	return evals
}

// detect compares every pair of consecutive versions of each project per
// metric: a change per benchmark under the full configuration (the ground
// truth) and under each method's, and the pairs' and projects' totals.
func (out *VersionReport) detect(projects []string, evals versionEvals, opt *Options, vopt VersionOptions) {
	for _, proj := range projects {
		vs := out.Versions[proj]
		totals := map[[2]int]*VersionPair{}
		var totalKeys [][2]int
		for i := 0; i+1 < len(vs); i++ {
			from, to := evals[proj+"\x00"+vs[i]], evals[proj+"\x00"+vs[i+1]]
			var ids []benchID
			for id := range from {
				if _, ok := to[id]; ok {
					ids = append(ids, id)
				} else {
					out.Notes = append(out.Notes, fmt.Sprintf("%s %s: missing in %s, not compared", proj, id.benchmark+paramsSuffix(id.params), vs[i+1]))
				}
			}
			sort.Slice(ids, func(a, b int) bool { return lessID(ids[a], ids[b]) })
			for _, m := range opt.Metrics {
				pairs := make([]VersionPair, NumMethods)
				for meth := range pairs {
					pairs[meth] = VersionPair{Project: proj, From: vs[i], To: vs[i+1], Metric: m, Method: Method(meth)}
				}
				for _, id := range ids {
					a, b := from[id][m], to[id][m]
					if a == nil || b == nil {
						continue
					}
					bc := BenchmarkChange{Project: proj, Benchmark: id.benchmark, Params: id.params, Mode: id.mode,
						From: vs[i], To: vs[i+1], Metric: m}
					for k := range bc.Change {
						bc.Change[k], bc.Detected[k] = detectChange(&a[k], &b[k], vopt)
					}
					out.Changes = append(out.Changes, bc)
					for meth := range pairs {
						pairs[meth].add(bc.Detected[Ground], bc.Detected[1+meth])
					}
				}
				for meth := range pairs {
					pr := &pairs[meth]
					pr.finish()
					out.Pairs = append(out.Pairs, *pr)
					tk := [2]int{int(m), meth}
					t := totals[tk]
					if t == nil {
						t = &VersionPair{Project: proj, Metric: m, Method: Method(meth)}
						totals[tk] = t
						totalKeys = append(totalKeys, tk)
					}
					t.Benchmarks += pr.Benchmarks
					t.FullChanges += pr.FullChanges
					t.Detected += pr.Detected
					t.TP += pr.TP
					t.FP += pr.FP
					t.TN += pr.TN
					t.FN += pr.FN
				}
			}
		}
		for _, tk := range totalKeys {
			t := totals[tk]
			t.finish()
			out.Totals = append(out.Totals, *t)
		}
	}
}

func (p *VersionPair) add(truth, detected bool) {
	p.Benchmarks++
	if truth {
		p.FullChanges++
	}
	if detected {
		p.Detected++
	}
	switch {
	case truth && detected:
		p.TP++
	case truth:
		p.FN++
	case detected:
		p.FP++
	default:
		p.TN++
	}
}

func (p *VersionPair) finish() {
	p.FPR, p.FNR = math.NaN(), math.NaN()
	if n := p.FP + p.TN; n > 0 {
		p.FPR = float64(p.FP) / float64(n)
	}
	if n := p.FN + p.TP; n > 0 {
		p.FNR = float64(p.FN) / float64(n)
	}
}

// detectChange returns the relative change (r_b − r_a)/r_a of the
// estimators and whether it is a detected performance change: the CIs
// [L_a, U_a] and [L_b, U_b] do not overlap, min(U_a, U_b) ≤ max(L_a, L_b),
// and the change is ≥ MinChange (in absolute value unless SlowdownsOnly).
// Missing CIs (NaN) never detect a change.
func detectChange(a, b *Evaluation, vopt VersionOptions) (change float64, detected bool) {
	change = (b.Average - a.Average) / a.Average
	if math.IsNaN(a.Lower) || math.IsNaN(a.Upper) || math.IsNaN(b.Lower) || math.IsNaN(b.Upper) || math.IsNaN(change) {
		return change, false
	}
	disjoint := math.Min(a.Upper, b.Upper) <= math.Max(a.Lower, b.Lower)
	big := math.Abs(change) >= vopt.MinChange
	if vopt.SlowdownsOnly {
		big = change >= vopt.MinChange
	}
	return change, disjoint && big
}

func countNominal(c Config) int {
	n := 1
	for _, k := range c {
		n *= int(k)
	}
	return n
}

func contains(vs []string, v string) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}

func lessID(a, b benchID) bool {
	if a.benchmark != b.benchmark {
		return a.benchmark < b.benchmark
	}
	if a.params != b.params {
		return a.params < b.params
	}
	return a.mode < b.mode
}

func paramsSuffix(p string) string {
	if p == "" {
		return ""
	}
	return "[" + p + "]"
}
