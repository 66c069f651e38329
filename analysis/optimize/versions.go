package optimize

import (
	"fmt"
	"math"
	"sort"

	"github.com/benchtrim/benchtrim/internal/workpool"
	"github.com/benchtrim/benchtrim/table"
)

// VersionOptions configures compareVersions. Start from DefaultOptions.Versions.
type VersionOptions struct {
	// Base is the version whose configurations are applied to every later
	// version; "" means the first version of each project.
	Base string
	// Order lists the versions in release order; versions of the data not
	// listed are left out (with a note). Nil means the order in which the
	// input gives them (the order of the files; Run), or natural order
	// (versionLess) where the input does not say.
	Order []string
	// SlowdownsOnly counts only increases of time per operation as changes,
	// as the µOpTime prototype did; otherwise both directions count.
	SlowdownsOnly bool
	// MinChange is the smallest relative change of the average that counts
	// (3 % in the paper).
	MinChange float64
}

// defaultVersionOptions: first version as base, natural order, both
// directions, 3 % minimum change.
var defaultVersionOptions = VersionOptions{MinChange: 0.03}

// ground is the index of the full configuration (the ground truth) in
// benchmarkChange's arrays; method m is at index 1 + m.
const ground = 0

// BenchmarkChange is the comparison of one benchmark between two
// consecutive versions under one metric: for the full configuration (index
// ground) and each method (index 1 + method) the relative change of the
// average and whether a change was detected.
type BenchmarkChange struct {
	Project, Benchmark, Params, Mode string
	From, To                         string
	Metric                           Metric
	// Change is (r_to − r_from) / r_from of the metric's estimator.
	Change [1 + numMethods]float64
	// Detected: the two bootstrap CIs do not overlap and Change is large enough.
	Detected [1 + numMethods]bool
}

// VersionPair counts detections of one method on one pair of consecutive
// versions (or, in versionReport.Totals, over all pairs: From and To empty),
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
	// Present lists per project the versions (sorted) of the benchmark
	// runs the selection keeps in the whole input, Versions' source: the
	// same in every part of a split run, so that each part compares the
	// versions the unsplit run compares.
	Present map[string][]string
	// Later has one entry per benchmark run of a compared version after
	// its project's base, in key order: the base version's configurations
	// evaluated on it, or why they were not. With the report's Results
	// they are what Pairs, Totals, Changes and Notes are computed from
	// (by Run and by Merge).
	Later []LaterRun
}

// LaterRun is a benchmark run of a version after its project's base
// version, with the base version's configurations evaluated on it.
type LaterRun struct {
	Key table.Key
	// Evals holds per metric (in Options.Metrics order) the evaluations
	// of the full configuration (index ground) and of each method's base
	// configuration (index 1 + method); nil when not evaluated.
	Evals []LaterEvals
	// NotInBase: the benchmark has no result in the base version, so it is
	// not compared. Note says why it was not evaluated, or that a base
	// configuration asks for more units than this run recorded.
	NotInBase bool
	Note      string
}

// LaterEvals are the evaluations of one metric's configurations on a later run.
type LaterEvals struct {
	Metric Metric
	Eval   [1 + numMethods]Evaluation
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
// baselines. The versions compared are those of series; Run passes those
// of the whole input instead (compareVersionsOf).
//
// rep.Options (metrics, seed, bootstrap, --first, --discard-warmup) are used
// for the later versions too, so every evaluation is the same pure function
// of (seed, benchmark, metric, configuration) as in optimize.
func compareVersions(series []*table.Series, rep *Report, vopt VersionOptions) (*VersionReport, error) {
	keys := make([]table.Key, len(series))
	for i, s := range series {
		keys[i] = s.Key
	}
	return compareVersionsOf(series, presentVersions(keys), rep, vopt)
}

// compareVersionsOf is compareVersions comparing the versions present
// lists per project (presentVersions): those of the whole input when
// series are a part of it.
func compareVersionsOf(series []*table.Series, present map[string][]string, rep *Report, vopt VersionOptions) (*VersionReport, error) {
	out := &VersionReport{Present: present}
	projects, baseOf, err := out.prepare(rep.Results, vopt)
	if err != nil {
		return nil, err
	}
	opt := rep.Options
	if out.Later, err = out.evaluateLater(series, baseOf, &opt); err != nil {
		return nil, err
	}
	out.finish(projects, baseOf, &opt, vopt)
	return out, nil
}

// prepare orders out.Present into out.Versions (orderVersions) and indexes
// the base versions' results (baseResults): the first half of
// compareVersions, shared with Merge.
func (out *VersionReport) prepare(results []Result, vopt VersionOptions) ([]string, map[benchID]map[Metric]*Result, error) {
	if !(vopt.MinChange >= 0) || math.IsInf(vopt.MinChange, 0) {
		return nil, nil, fmt.Errorf("optimize: minimum change must be finite and ≥ 0, got %v", vopt.MinChange)
	}
	out.Versions, out.Notes = map[string][]string{}, nil
	projects, err := out.orderVersions(vopt)
	if err != nil {
		return nil, nil, err
	}
	return projects, out.baseResults(results), nil
}

// finish computes Notes, Changes, Pairs and Totals from the base results
// and out.Later: the second half of compareVersions, shared with Merge.
func (out *VersionReport) finish(projects []string, baseOf map[benchID]map[Metric]*Result, opt *Options, vopt VersionOptions) {
	for _, l := range out.Later {
		if l.NotInBase {
			out.Notes = append(out.Notes, l.Note)
		}
	}
	evals := out.collectEvaluations(baseOf)
	out.detect(projects, evals, opt, vopt)
}

// presentVersions lists per project the versions of keys, sorted.
func presentVersions(keys []table.Key) map[string][]string {
	seen := map[string]map[string]bool{}
	for _, k := range keys {
		if seen[k.Project] == nil {
			seen[k.Project] = map[string]bool{}
		}
		seen[k.Project][k.Version] = true
	}
	out := make(map[string][]string, len(seen))
	for p, vs := range seen {
		for v := range vs {
			out[p] = append(out[p], v)
		}
		sort.Strings(out[p])
	}
	return out
}

// multipleVersions reports whether some project of present has more than
// one version.
func multipleVersions(present map[string][]string) bool {
	for _, vs := range present {
		if len(vs) > 1 {
			return true
		}
	}
	return false
}

// orderVersions fills out.Versions from out.Present: each project's
// versions in release order (vopt.Order, else versionLess) from the base
// version on, and returns the projects in name order.
func (out *VersionReport) orderVersions(vopt VersionOptions) ([]string, error) {
	projects := make([]string, 0, len(out.Present))
	for p := range out.Present {
		projects = append(projects, p)
	}
	sort.Strings(projects)
	for _, proj := range projects {
		present := out.Present[proj]
		var vs []string
		if vopt.Order != nil {
			listed := map[string]bool{}
			for _, v := range vopt.Order {
				listed[v] = true
				if contains(present, v) {
					vs = append(vs, v)
				}
			}
			for _, v := range present {
				if !listed[v] {
					out.Notes = append(out.Notes, fmt.Sprintf("%s@%s: version not in the given order, left out", proj, v))
				}
			}
		} else {
			vs = append(vs, present...)
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

// baseResults indexes the results on each project's base version by
// benchmark and metric: the configurations applied to the later versions.
func (out *VersionReport) baseResults(results []Result) map[benchID]map[Metric]*Result {
	baseOf := map[benchID]map[Metric]*Result{}
	for i := range results {
		r := &results[i]
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

// evaluateLater evaluates the base configurations on every series of a
// later version, in parallel (opt.Workers), each into its own slot, and
// lists the later series not in the base version.
func (out *VersionReport) evaluateLater(series []*table.Series, baseOf map[benchID]map[Metric]*Result, opt *Options) ([]LaterRun, error) {
	var jobs []LaterRun
	var todo []*table.Series
	for _, s := range series {
		vs := out.Versions[s.Project]
		if len(vs) < 2 || s.Version == vs[0] || !contains(vs, s.Version) {
			continue
		}
		if baseOf[idOf(s.Key)] == nil {
			jobs = append(jobs, LaterRun{Key: s.Key, NotInBase: true, Note: fmt.Sprintf("%s: not in base version %s, not compared", s.Key, vs[0])})
			todo = append(todo, nil)
			continue
		}
		jobs = append(jobs, LaterRun{Key: s.Key})
		todo = append(todo, s)
	}
	err := workpool.Run(len(jobs), opt.Workers, func(i int) error {
		s := todo[i]
		if s == nil {
			return nil
		}
		j := &jobs[i]
		p, skip := prepare(s, opt)
		if skip != nil {
			j.Note = fmt.Sprintf("%s: %s", skip.Key, skip.Reason)
			return nil
		}
		ws := workspaces.Get().(*workspace)
		defer workspaces.Put(ws)
		ws.begin(p)
		defer ws.begin(nil)
		short := false
		for _, m := range opt.Metrics {
			br := baseOf[idOf(s.Key)][m]
			if br == nil {
				continue
			}
			var ev [1 + numMethods]Evaluation
			ev[ground] = p.evaluate(m, p.full, true, opt, ws)
			for meth := Method(0); meth < numMethods; meth++ {
				c := br.eval(meth).Config
				reuse := false
				for k := 0; k < 1+int(meth); k++ {
					if k > 0 && br.eval(Method(k-1)).Config == c {
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
			j.Evals = append(j.Evals, LaterEvals{Metric: m, Eval: ev})
		}
		if short {
			j.Note = fmt.Sprintf("%s: a base configuration asks for more units than this version recorded; it uses the values that exist", s.Key)
		}
		return nil
	})
	return jobs, err
}

// versionEvals holds evaluations by "project\x00version", benchmark and
// metric.
type versionEvals map[string]map[benchID]map[Metric]*[1 + numMethods]Evaluation

// collectEvaluations puts the base version's own evaluations and the later
// versions' (out.Later) into one index, and keeps the later runs' notes.
func (out *VersionReport) collectEvaluations(baseOf map[benchID]map[Metric]*Result) versionEvals {
	evals := versionEvals{}
	put := func(version string, id benchID, m Metric, ev *[1 + numMethods]Evaluation) {
		k := id.project + "\x00" + version
		if evals[k] == nil {
			evals[k] = map[benchID]map[Metric]*[1 + numMethods]Evaluation{}
		}
		if evals[k][id] == nil {
			evals[k][id] = map[Metric]*[1 + numMethods]Evaluation{}
		}
		evals[k][id][m] = ev
	}
	for id, byMetric := range baseOf {
		for m, r := range byMetric {
			ev := &[1 + numMethods]Evaluation{r.Full, r.Chosen, r.Minimum, r.Random}
			put(out.Versions[id.project][0], id, m, ev)
		}
	}
	for i := range out.Later {
		j := &out.Later[i]
		if j.NotInBase {
			continue
		}
		if j.Note != "" {
			out.Notes = append(out.Notes, j.Note)
		}
		for k := range j.Evals {
			put(j.Key.Version, idOf(j.Key), j.Evals[k].Metric, &j.Evals[k].Eval)
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
			all := make([]benchID, 0, len(from))
			for id := range from {
				all = append(all, id)
			}
			sort.Slice(all, func(a, b int) bool { return lessID(all[a], all[b]) })
			var ids []benchID
			for _, id := range all {
				if _, ok := to[id]; ok {
					ids = append(ids, id)
				} else {
					out.Notes = append(out.Notes, fmt.Sprintf("%s %s: missing in %s, not compared", proj, id.benchmark+paramsSuffix(id.params), vs[i+1]))
				}
			}
			for _, m := range opt.Metrics {
				pairs := make([]VersionPair, numMethods)
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
						pairs[meth].add(bc.Detected[ground], bc.Detected[1+meth])
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
