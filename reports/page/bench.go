package page

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/analysis/trim"
)

// run is one benchmark run of the plan with what its section shows: its
// distributions (recorded, recommended, the previous version's recorded
// one), its observations in order, the configurations trim considered,
// its comparison with the previous version and its forks' steady-state
// starts, each from its frame by the run's key.
type run struct {
	i      int    // row of the plan
	id     string // the section's anchor, "run-N" (N = i + 1)
	key    string
	name   string // benchmark[params] (@version with several)
	label  string // the index's and plots' label (runLabels)
	su     scoreUnit
	dists  map[string]*violin
	prev   *violin
	series []seriesFork
	// considered are the considered frame's rows of the run.
	considered []int
	// cmp is the compare frame's row with the run as test (-1: none).
	cmp int
}

// runsOf builds the plan's runs (duet runs included: their section says
// the duet verdict) from d's frames.
func runsOf(d *pageData, plan *frame) []*run {
	dists := map[string]map[string]*violin{}
	if df := d.frame(trim.FrameDistributions); df != nil {
		for i := range df.Cells {
			k := df.key(i)
			if dists[k] == nil {
				dists[k] = map[string]*violin{}
			}
			c := df.s(i, "configuration")
			v := dists[k][c]
			if v == nil {
				v = &violin{version: df.opt(i, "version"), config: c, n: df.n(i, "iterations"), mean: df.n(i, "mean_ns"),
					unit: df.opt(i, "unit"), scale: optNum(df, i, "score_scale"), score: optNum(df, i, "score"), scoreErr: optNum(df, i, "score_error")}
				dists[k][c] = v
			}
			if p, q := df.n(i, "quantile"), df.n(i, "value_ns"); !math.IsNaN(p) && !math.IsNaN(q) {
				v.p, v.q = append(v.p, p), append(v.q, q)
			}
		}
	}
	type pt struct {
		fork  string
		iter  float64
		v     float64
		phase string
	}
	series := map[string][]pt{}
	if sf := d.frame(trim.FrameSeries); sf != nil {
		for i := range sf.Cells {
			k := sf.key(i)
			fork := "fork " + sf.s(i, "fork")
			if in, tr := sf.s(i, "instance"), sf.s(i, "trial"); in != "1" || tr != "1" {
				fork = fmt.Sprintf("instance %s trial %s fork %s", in, tr, sf.s(i, "fork"))
			}
			series[k] = append(series[k], pt{fork, sf.n(i, "iteration"), sf.n(i, "value_ns"), sf.s(i, "phase")})
		}
	}
	steadyAt := map[string]int{} // key + "\x00" + fork label → st (1-based)
	if sf := d.frame(trim.FrameSteadyForks); sf != nil {
		for i := range sf.Cells {
			if st := sf.n(i, "st_index"); !math.IsNaN(st) && sf.s(i, "class") == "steady state" {
				fork := "fork " + sf.s(i, "fork")
				if in, tr := sf.s(i, "instance"), sf.s(i, "trial"); in != "1" || tr != "1" {
					fork = fmt.Sprintf("instance %s trial %s fork %s", in, tr, sf.s(i, "fork"))
				}
				steadyAt[sf.key(i)+"\x00"+fork] = int(st) + 1
			}
		}
	}
	considered := map[string][]int{}
	if cf := d.frame(trim.FrameConsidered); cf != nil {
		for i := range cf.Cells {
			considered[cf.key(i)] = append(considered[cf.key(i)], i)
		}
	}
	cmps := map[string]int{}
	if cf := d.frame(trim.FrameCompare); cf != nil {
		for i := range cf.Cells {
			k := strings.Join([]string{cf.s(i, "project"), cf.s(i, "test"), cf.s(i, "benchmark"), cf.s(i, "params"), cf.s(i, "mode")}, "\x00")
			cmps[k] = i
		}
	}
	runs := make([]*run, len(plan.Cells))
	var names []string
	for i := range plan.Cells {
		k := plan.key(i)
		r := &run{i: i, id: "run-" + strconv.Itoa(i+1), key: k, name: plan.name(i), dists: dists[k], considered: considered[k], cmp: -1}
		if c, ok := cmps[k]; ok {
			r.cmp = c
		}
		if rec := r.dists["recorded"]; rec != nil {
			r.su = recordedUnit(plan.opt(i, "mode"), rec.unit, rec.scale)
			r.su = r.su.autoFor(rec.quantile(0.5))
		} else {
			r.su = r.su.autoFor(plan.n(i, "reference_ns"))
		}
		if pv := plan.opt(i, "previous_version"); pv != "" {
			pk := strings.Join([]string{plan.opt(i, "project"), pv, plan.s(i, "benchmark"), plan.opt(i, "params"), plan.opt(i, "mode")}, "\x00")
			r.prev = dists[pk]["recorded"]
		}
		var cur *seriesFork
		for _, p := range series[k] {
			if cur == nil || cur.label != p.fork {
				r.series = append(r.series, seriesFork{label: p.fork, steadyi: steadyAt[k+"\x00"+p.fork]})
				cur = &r.series[len(r.series)-1]
			}
			cur.iter, cur.values, cur.phase = append(cur.iter, p.iter), append(cur.values, r.su.of(p.v)), append(cur.phase, p.phase)
		}
		runs[i] = r
		names = append(names, r.name)
	}
	labels := runLabels(names, 60)
	for i, r := range runs {
		r.label = labels[i]
	}
	return runs
}

// optNum is the number in column c of row i, NaN when f has no such
// column (a frame of an older build).
func optNum(f *frame, i int, c string) float64 {
	v, err := strconv.ParseFloat(f.opt(i, c), 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

// statusShort is the index's word for a plan status.
func statusShort(s string) string {
	switch {
	case strings.HasPrefix(s, "trimmed"):
		return "trimmed"
	case strings.HasPrefix(s, "kept"):
		return "kept"
	case strings.HasPrefix(s, "unreliable"):
		return "unreliable"
	case strings.HasPrefix(s, "too few"):
		return "too few"
	case strings.HasPrefix(s, "duet"):
		return "duet"
	}
	return s
}

// configText describes a configuration of plan row i with column prefix
// pre ("recorded_" or ""): "3 forks × (5 warmup + 20 iterations)" for JMH,
// "-count 10" for go test, with instances, trials and slices where there
// are more than one.
func configText(plan *frame, i int, pre string) string {
	n := func(c string) int {
		v := plan.n(i, pre+c)
		if math.IsNaN(v) {
			return 0
		}
		return int(v)
	}
	return configOf(plan.s(i, "tool"), n("instances"), n("trials"), n("forks"), n("warmup_iterations"), n("iterations"), n("slices"))
}

func configOf(tool string, inst, trials, forks, warm, its, slices int) string {
	plural := func(n int, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return strconv.Itoa(n) + " " + one + "s"
	}
	var s string
	switch {
	case tool == "go" && forks <= 1 && warm == 0:
		s = fmt.Sprintf("-count %d", its)
		if slices > 1 {
			s = fmt.Sprintf("%s × %d slices", plural(its, "iteration"), slices)
		}
	default:
		inner := plural(its, "iteration")
		if warm > 0 {
			inner = fmt.Sprintf("%d warmup + %s", warm, inner)
		}
		if slices > 1 {
			inner += fmt.Sprintf(" × %d slices", slices)
		}
		s = fmt.Sprintf("%s × (%s)", plural(forks, "fork"), inner)
	}
	if trials > 1 {
		s = plural(trials, "trial") + " × " + s
	}
	if inst > 1 {
		s = plural(inst, "instance") + " × " + s
	}
	return s
}

// sortedKeys returns m's keys sorted.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
