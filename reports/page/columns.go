package page

import (
	"fmt"
	"sort"
	"strings"

	"github.com/benchtrim/benchtrim/analysis/trim"
)

// A section is one part of the page and what it reads: per frame of
// trim's (trim.Frames, by name) the columns it reads. The page reads no
// other column (undeclaredError), and a frame without a column a section
// needs is an error naming the frame and the column (checkColumns), never
// a blank cell.
type section struct {
	name  string
	reads map[string]columns
	// set is reads as sets, by frame (indexed).
	set map[string]map[string]bool
}

// columns are the columns a section reads from one frame: need, which the
// frame must have, and opt, which it reads where the frame has them (the
// key columns a frame of one project or one version may leave out, the
// JMH score columns a file of an older build lacks); opt are required too
// in strict mode.
type columns struct{ need, opt []string }

// keyed is need and the key columns of the benchmark run (what frame.key
// and frame.name read; the compare frame has no version column, naming
// base and test).
func keyed(need ...string) columns {
	return columns{need: append([]string{"benchmark"}, need...), opt: []string{"project", "version", "params", "mode"}}
}

// with adds opt columns to c.
func (c columns) with(opt ...string) columns {
	c.opt = append(append([]string(nil), c.opt...), opt...)
	return c
}

// config are a configuration's columns in the plan with prefix pre
// ("recorded_" or ""): what configText reads.
func config(pre string) []string {
	var out []string
	for _, c := range []string{"instances", "trials", "forks", "warmup_iterations", "iterations", "slices"} {
		out = append(out, pre+c)
	}
	return out
}

func cols(s ...string) []string {
	var out []string
	for _, x := range s {
		out = append(out, strings.Fields(x)...)
	}
	return out
}

// columns is the set of frame's columns s reads (nil s: none).
func (s *section) columns(frame string) map[string]bool {
	if s == nil {
		return nil
	}
	return s.set[frame]
}

// indexed fills in each section's sets.
func indexed(secs ...*section) []*section {
	for _, s := range secs {
		s.set = map[string]map[string]bool{}
		for fr, c := range s.reads {
			m := map[string]bool{}
			for _, x := range append(append([]string(nil), c.need...), c.opt...) {
				m[x] = true
			}
			s.set[fr] = m
		}
	}
	return secs
}

// in makes s the section being written.
func (d *pageData) in(s *section) { d.section = s }

// undeclare notes that the section being written read column c of frame
// name without declaring it.
func (d *pageData) undeclare(name, c string) {
	sec := "(no section)"
	if d.section != nil {
		sec = d.section.name
	}
	if d.undeclared == nil {
		d.undeclared = map[string]bool{}
	}
	d.undeclared[sec+"\x00"+name+"\x00"+c] = true
}

// undeclaredError fails when a section read a column it does not declare
// (a column added to the page and not to its section's reads).
func (d *pageData) undeclaredError() error {
	if len(d.undeclared) == 0 {
		return nil
	}
	keys := make([]string, 0, len(d.undeclared))
	for k := range d.undeclared {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	p := strings.Split(keys[0], "\x00")
	return fmt.Errorf("report: the page's %s section reads column %s of the %s frame without declaring it (%d undeclared reads)", p[0], p[2], p[1], len(keys))
}

// checkColumns fails when a frame lacks a column a section needs (in
// strict mode, any it reads): a file of another frame put in its place
// (with a manifest made anew), or of a build that wrote other columns;
// the page would show empty cells and say nothing. Outside strict mode a
// frame without rows is not checked (the page draws nothing of it).
func (d *pageData) checkColumns() error {
	for _, ff := range trim.Frames {
		rows := d.frames[ff.Name]
		if rows == nil || (!d.strict && len(rows.Cells) == 0) {
			continue
		}
		have := map[string]bool{}
		for _, h := range rows.Header {
			have[h] = true
		}
		missing, by := map[string]bool{}, map[string]bool{}
		for _, s := range sections {
			c, ok := s.reads[ff.Name]
			if !ok {
				continue
			}
			want := c.need
			if d.strict {
				want = append(append([]string(nil), c.need...), c.opt...)
			}
			for _, x := range want {
				if !have[x] {
					missing[x], by[s.name] = true, true
				}
			}
		}
		if len(missing) > 0 {
			return fmt.Errorf("%s: no column %s, which the %s frame of benchtrim trim has (read by the page's %s section; the file of another frame, or of another build?)",
				rows.File, strings.Join(sortedKeys(missing), ", "), ff.Name, strings.Join(sortedKeys(by), ", "))
		}
	}
	return nil
}

// The page's sections, in the order they are written, and the columns
// each reads.
var (
	secNav = &section{name: "navigation", reads: map[string]columns{
		trim.FramePlan: {opt: cols("params")},
	}}
	secAnswer = &section{name: "answer", reads: map[string]columns{
		trim.FramePlan: {need: cols("status unreliable in_ci rule alpha keep target_detectable_slowdown",
			"recorded_time_s time_s minimum_time_s change_rate recorded_precision precision recorded_detectable_slowdown detectable_slowdown",
			"splits split_error_median minimum_split_error_median split_agreement minimum_split_agreement")},
	}}
	secRuns = &section{name: "runs", reads: map[string]columns{
		trim.FramePlan: keyed(cols("tool path status reason warnings command duet_verdict rule alpha target_detectable_slowdown",
			"recorded_time_s time_s time_saved reference_ns change_rate minimum_change_rate minimum_time_s",
			"recorded_precision precision minimum_precision recorded_detectable_slowdown detectable_slowdown minimum_detectable_slowdown",
			strings.Join(config(""), " "), strings.Join(config("recorded_"), " "))...).with("previous_version"),
		trim.FrameCompare:       {need: cols("project test benchmark params mode base ratio ratio_ci_lower ratio_ci_upper error verdict"), opt: cols("u_pvalue")},
		trim.FrameConsidered:    keyed(cols("instances trials forks iterations slices time_s detectable_slowdown met")...),
		trim.FrameDistributions: keyed(cols("configuration iterations mean_ns quantile value_ns")...).with(cols("unit score_scale score score_error")...),
		trim.FrameSeries:        keyed(cols("instance trial fork iteration value_ns phase")...),
		trim.FrameSteadyForks:   keyed(cols("instance trial fork class st_index")...),
	}}
	secTradeoff = &section{name: "trade-off", reads: map[string]columns{
		trim.FramePlan: {need: cols("path rule alpha recorded_time_s time_s minimum_time_s recorded_detectable_slowdown detectable_slowdown minimum_detectable_slowdown")},
	}}
	secIndex = &section{name: "index", reads: map[string]columns{
		trim.FramePlan:    {need: cols("path status time_saved recorded_detectable_slowdown detectable_slowdown"), opt: cols("previous_version")},
		trim.FrameCompare: {need: cols("change_rate error verdict")},
	}}
	secTrim = &section{name: "configurations and time", reads: map[string]columns{
		trim.FramePlan: keyed(cols("mode path status unreliable reason warnings duet_verdict command",
			"forks warmup_iterations iterations recorded_time_s time_s time_saved minimum_time_s",
			"estimate_ns reference_ns reference_lower_ns reference_upper_ns change_rate minimum_change_rate",
			"splits split_error_median minimum_split_error_median split_agreement minimum_split_agreement detectable_slowdown minimum_detectable_slowdown")...),
	}}
	secParams = &section{name: "scores by @Param", reads: map[string]columns{
		trim.FramePlan: keyed("path"),
	}}
	secSteady = &section{name: "steady state", reads: map[string]columns{
		trim.FramePlan:         keyed(cols("path warmup_ends recorded_warmup_iterations warmup_iterations")...),
		trim.FrameSteadyForks:  keyed("class"),
		trim.FrameForkSeries:   keyed(cols("instance trial fork class st_index warmup_iterations iteration value_ns")...),
		trim.FrameForkSegments: keyed(cols("instance trial fork start end mean_ns")...),
	}}
	secChangepoint = &section{name: "change points", reads: map[string]columns{
		trim.FrameForkCROPS: keyed(cols("instance trial fork penalty changepoint_count chosen_penalty")...),
	}}
	secReconfigure = &section{name: "dynamic reconfiguration", reads: map[string]columns{
		trim.FrameReconfigure: keyed(cols("criterion aa skipped warmup_iterations_by_fork forks_used static_s dynamic_s change_rate ratio ratio_ci_lower ratio_ci_upper")...),
	}}
	secCompare = &section{name: "versions compared", reads: map[string]columns{
		trim.FrameCompare: {need: cols("project test benchmark params mode base ratio ratio_ci_lower ratio_ci_upper error verdict")},
	}}
	secDuet = &section{name: "duet", reads: map[string]columns{
		trim.FrameDuetBenchmarks: {need: cols("environment suite benchmark version type verdict runs pairs a_mean_ns b_mean_ns grand_mean_ns",
			"b_vs_a b_vs_a_ci_lower b_vs_a_ci_upper ci_rel_width confidence resamples min_overlap_ratio mds_ci mds_u u_pvalue")},
		trim.FrameDuetMatch:    {need: cols("type slowdown benchmarks match_ci match_u")},
		trim.FrameDuetTimeline: {need: cols("environment suite benchmark version type run pair iteration start_s end_s time_ns")},
		trim.FrameDuetPairs:    {need: cols("environment suite benchmark version type a_iteration b_iteration start_s end_s")},
		trim.FrameDuetSpeedup:  {need: cols("environment suite benchmark definition seqn duet speedup")},
	}}
)

var sections = indexed(secNav, secAnswer, secRuns, secTradeoff, secIndex, secTrim, secParams, secSteady, secChangepoint, secReconfigure, secCompare, secDuet)
