package trim

import (
	"fmt"
	"strings"

	"github.com/benchtrim/benchtrim/analysis/reconfigure"
	"github.com/benchtrim/benchtrim/analysis/steady"
	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

// Names of the data tables Report.Frame returns.
const (
	// FramePlan: one row per benchmark run, the plan (PlanColumns).
	FramePlan = "plan"
	// FrameSteadyForks: steady-state detection per fork (steady.FrameForks
	// of the PathSteady benchmarks).
	FrameSteadyForks = "steady-forks"
	// FrameReconfigure: dynamic reconfiguration per benchmark and criterion
	// (reconfigure.FrameBenchmarks of the PathShort benchmarks).
	FrameReconfigure = "reconfigure"
	// FrameForkSeries: the plotted forks' iteration values, one row per
	// kept point: the run, the fork (instance, trial, fork), its class,
	// st_index (−1 unless steady), the recommended warmup_iterations, and
	// the point's 0-based iteration and value_ns.
	FrameForkSeries = "fork-series"
	// FrameForkSegments: the plotted forks' segments, one row per segment.
	FrameForkSegments = "fork-segments"
	// FrameForkCROPS: the plotted forks' CROPS penalty selection, one row
	// per (fork, penalty): penalty, changepoints, chosen_penalty (empty
	// without CROPS).
	FrameForkCROPS = "fork-crops"
	// FrameCompare: the A/B comparison of consecutive versions, one row
	// per benchmark and version pair (empty with one version per project).
	FrameCompare = "compare"
	// FrameDistributions: per benchmark run the quantiles of its
	// observations, recorded and recommended (the columns of reports.DistributionFrame;
	// Benchmark.Distributions), drawn as violins in the report.
	FrameDistributions = "distributions"
	// FrameConsidered: per benchmark run the configurations trim
	// evaluated (Benchmark.Considered), one row each: the run, its
	// instances, trials, forks, iterations, slices, time_s, its
	// detectable_slowdown under the user's test and met (the first that
	// met the target is the recommendation); the report draws them
	// against time.
	FrameConsidered = "considered"
	// FrameSeries: per benchmark run its observations in recorded order
	// (Benchmark.Series; the columns of reports.SeriesFrame), drawn per
	// fork in the report.
	FrameSeries = "series"
)

// FrameFile names one data table of Report.Frame and its file in an
// output directory (benchtrim trim --out-dir).
type FrameFile struct {
	// Name is what Report.Frame takes.
	Name string
	// File is the table's file name in the directory, written as CSV.
	File string
}

// Frames are every data table Report.Frame returns, the plan first, in the
// order an output directory lists their files: the list the page
// (reports/page) reads and `benchtrim report DIR` reads back.
var Frames = []FrameFile{
	{FramePlan, "plan.csv"},
	{FrameSteadyForks, "steady-forks.csv"},
	{FrameReconfigure, "reconfigure.csv"},
	{FrameForkSeries, "fork-series.csv"},
	{FrameForkSegments, "fork-segments.csv"},
	{FrameForkCROPS, "fork-crops.csv"},
	{FrameCompare, "compare.csv"},
	{FrameDuetBenchmarks, "duet-benchmarks.csv"},
	{FrameDuetOverlaps, "duet-overlaps.csv"},
	{FrameDuetMDS, "duet-mds.csv"},
	{FrameDuetMatch, "duet-match.csv"},
	{FrameDuetSpeedup, "duet-speedup.csv"},
	{FrameDuetTimeline, "duet-timeline.csv"},
	{FrameDuetPairs, "duet-pairs.csv"},
	{FrameDistributions, "distributions.csv"},
	{FrameConsidered, "considered.csv"},
	{FrameSeries, "series.csv"},
}

// PlanColumns are the columns of the plan frame:
//
//	project, version, benchmark, params, mode   the benchmark run
//	tool                 jmh, go or empty
//	path                 go, steady, short, stated-warmup, duet (Path)
//	analyses             the analyses that ran (a list; ";"-joined in CSV)
//	status               trimmed, unreliable: …, too few repetitions, duet, skipped
//	unreliable           the benchmark was flagged unreliable (kept)
//	reason, warnings     why (warnings " | "-joined)
//	forks_in_data, steady_forks, warmup_ends   warmup evidence (warmup_ends a list)
//	recorded_instances … recorded_time_s       the recorded configuration
//	instances, trials, forks, warmup_iterations, warmup_time_s, iterations,
//	slices, iteration_time_s, time_s           the recommended configuration
//	time_saved           1 − time_s / recorded_time_s
//	rule, alpha          the user's test (u, ratio, overlap: --test) and its significance level
//	keep                 Options.Keep: the detectable slowdown at most keep × the recorded
//	                     one (empty under an absolute --detect target)
//	target_detectable_slowdown   the largest detectable slowdown the recommendation may have
//	recorded_precision, precision   relative half-width of the CI of the mean: of the
//	                     recording and of a run of the recommended configuration (runs of
//	                     that size drawn from the recording: where they land around its mean)
//	instance_sd_rate … slice_sd_rate   √S²/mean per level (variance components)
//	recorded_detectable_slowdown, detectable_slowdown   minimal detectable slowdown under
//	                     the user's test (80 % of resampled A/B runs) of both configurations;
//	                     +Inf where the test cannot report a change
//	estimate_ns          mean under the recommended configuration replayed
//	                     on the recorded data (in-sample)
//	reference_ns, reference_lower_ns, reference_upper_ns
//	                     the full data's mean and hierarchical bootstrap CI
//	change_rate          |estimate − reference| / reference (in-sample)
//	in_ci                reference_lower_ns ≤ estimate_ns ≤ reference_upper_ns
//	minimum_time_s, minimum_change_rate, minimum_precision, minimum_detectable_slowdown
//	                     the fixed minimal configuration on the same data
//	split_level, splits  the split validation's level and number of splits
//	split_error_median, split_error_p95, split_agreement, split_time_share
//	                     out of sample: trim's choice made on one half, run on the other
//	minimum_split_error_median, minimum_split_agreement, minimum_split_time_share
//	                     the same for the fixed minimal configuration
//	previous_version, previous_version_error, previous_version_agrees
//	                     the previous version's choice run on this version (VersionCheck)
//	minimum_previous_version_error, minimum_previous_version_agrees
//	                     the same for the fixed minimal configuration
//	version_change       the A/B verdict against the project's previous version, or empty
//	duet_verdict         duet runs: the duet analysis' A/B verdict (DuetVerdict.String), or empty
//	command, repeat, instances_side_by_side    the command line, how often to run it
//	                     in a row and on how many machines side by side
//	seed                 the seed used
var PlanColumns = []string{"project", "version", "benchmark", "params", "mode", "tool", "path", "analyses", "status",
	"unreliable", "reason", "warnings", "forks_in_data", "steady_forks", "warmup_ends",
	"recorded_instances", "recorded_trials", "recorded_forks", "recorded_warmup_iterations", "recorded_warmup_time_s",
	"recorded_iterations", "recorded_slices", "recorded_iteration_time_s", "recorded_time_s",
	"instances", "trials", "forks", "warmup_iterations", "warmup_time_s", "iterations", "slices", "iteration_time_s", "time_s",
	"time_saved", "rule", "alpha", "keep", "target_detectable_slowdown", "recorded_precision", "precision",
	"instance_sd_rate", "trial_sd_rate", "fork_sd_rate", "iteration_sd_rate", "slice_sd_rate",
	"recorded_detectable_slowdown", "detectable_slowdown", "estimate_ns", "reference_ns", "reference_lower_ns",
	"reference_upper_ns", "change_rate", "in_ci", "minimum_time_s", "minimum_change_rate", "minimum_precision", "minimum_detectable_slowdown",
	"split_level", "splits", "split_error_median", "split_error_p95", "split_agreement", "split_time_share",
	"minimum_split_error_median", "minimum_split_agreement", "minimum_split_time_share",
	"previous_version", "previous_version_error", "previous_version_agrees", "minimum_previous_version_error", "minimum_previous_version_agrees", "version_change", "duet_verdict", "command", "repeat", "instances_side_by_side", "seed"}

// Frame returns a data table by name: one of Frames (FramePlan,
// FrameSteadyForks, FrameReconfigure, FrameForkSeries, FrameForkSegments,
// FrameForkCROPS, FrameCompare, FrameDistributions, FrameConsidered,
// FrameSeries and the FrameDuet… tables).
func (r *Report) Frame(name string) (*reports.Frame, error) {
	if isDuetFrame(name) {
		return r.duetFrame(name)
	}
	switch name {
	case FramePlan:
		return r.planFrame(), nil
	case FrameSteadyForks:
		if r.Steady == nil {
			return (&steady.Report{}).Frame(steady.FrameForks)
		}
		return r.Steady.Frame(steady.FrameForks)
	case FrameReconfigure:
		if r.Reconfigure == nil {
			return (&reconfigure.Report{}).Frame(reconfigure.FrameBenchmarks)
		}
		return r.Reconfigure.Frame(reconfigure.FrameBenchmarks)
	case FrameForkSeries:
		return r.forkSeriesFrame(), nil
	case FrameForkSegments:
		return r.forkSegmentsFrame(), nil
	case FrameForkCROPS:
		return r.forkCROPSFrame(), nil
	case FrameConsidered:
		return r.consideredFrame(), nil
	case FrameSeries:
		var ss []reports.RunSeries
		for i := range r.Benchmarks {
			if len(r.Benchmarks[i].Series.Points) > 0 {
				ss = append(ss, r.Benchmarks[i].Series)
			}
		}
		return reports.SeriesFrame(ss), nil
	case FrameDistributions:
		var ds []reports.Distribution
		for i := range r.Benchmarks {
			ds = append(ds, r.Benchmarks[i].Distributions...)
		}
		return reports.DistributionFrame(ds), nil
	case FrameCompare:
		return r.compareFrame(), nil
	}
	return nil, fmt.Errorf("trim: no data table %q", name)
}

// configCols collects one configuration's columns.
type configCols struct {
	instances, trials, forks, wi, iterations, slices []int64
	wt, it, time                                     []float64
}

func (c *configCols) add(x Config) {
	c.instances = append(c.instances, int64(x.Instances))
	c.trials = append(c.trials, int64(x.Trials))
	c.forks = append(c.forks, int64(x.Forks))
	c.wi = append(c.wi, int64(x.WarmupIterations))
	c.wt = append(c.wt, float64(x.WarmupTimeNs)/1e9)
	c.iterations = append(c.iterations, int64(x.Iterations))
	c.slices = append(c.slices, int64(x.Slices))
	c.it = append(c.it, float64(x.IterationTimeNs)/1e9)
	c.time = append(c.time, float64(x.TimeNs)/1e9)
}

func (c *configCols) to(f *reports.Frame, prefix string) {
	f.Int(prefix+"instances", c.instances)
	f.Int(prefix+"trials", c.trials)
	f.Int(prefix+"forks", c.forks)
	f.Int(prefix+"warmup_iterations", c.wi)
	f.Float(prefix+"warmup_time_s", c.wt)
	f.Int(prefix+"iterations", c.iterations)
	f.Int(prefix+"slices", c.slices)
	f.Float(prefix+"iteration_time_s", c.it)
	f.Float(prefix+"time_s", c.time)
}

func (r *Report) planFrame() *reports.Frame {
	var k reports.KeyColumns
	var rec, rcm configCols
	var tool, path, status, reason, warnings, command, vchange, dverdict []string
	var analyses [][]string
	var unreliable, inCI []bool
	var forks, steadyForks, repeat, side, seed []int64
	var ends [][]int64
	var testName []string
	var alpha, keepF, detTarget []float64
	var saved, precRec, prec, detRec, det, est, ref, lo, hi, change, minT, minC, minP, minD []float64
	var sd [table.NumLevels][]float64
	var splitLevel []string
	var splits []int64
	var sMed, sP95, sAgree, sShare, mMed, mAgree, mShare, pvErr, pvMinErr []float64
	var pvBase []string
	var pvAgree, pvMinAgree []bool
	for i := range r.Benchmarks {
		b := &r.Benchmarks[i]
		k.Add(b.Key)
		tool = append(tool, b.Tool)
		path = append(path, b.Path.String())
		analyses = append(analyses, b.Analyses)
		status = append(status, b.Status.String())
		unreliable = append(unreliable, b.Status.unreliable())
		reason = append(reason, b.Reason)
		warnings = append(warnings, strings.Join(b.Warnings, " | "))
		forks = append(forks, int64(b.Forks))
		steadyForks = append(steadyForks, int64(b.SteadyForks))
		e := make([]int64, len(b.WarmupEnds))
		for j, v := range b.WarmupEnds {
			e[j] = int64(v)
		}
		ends = append(ends, e)
		rec.add(b.Recorded)
		rcm.add(b.Recommended)
		s := nan
		if b.Recorded.TimeNs > 0 {
			s = 1 - float64(b.Recommended.TimeNs)/float64(b.Recorded.TimeNs)
		}
		saved = append(saved, s)
		testName, alpha = append(testName, r.Options.Test.String()), append(alpha, r.Options.Alpha)
		keepF = append(keepF, r.Options.Keep)
		if r.Options.Detect > 0 {
			keepF[len(keepF)-1] = nan
		}
		detTarget = append(detTarget, b.Target)
		precRec, prec = append(precRec, b.Precision), append(prec, b.RecommendedPrecision)
		for l := range sd {
			sd[l] = append(sd[l], b.LevelSD[l])
		}
		detRec, det = append(detRec, b.DetectableRecorded), append(det, b.Detectable)
		est = append(est, b.Estimate)
		ref = append(ref, b.Reference)
		lo = append(lo, b.RefLower)
		hi = append(hi, b.RefUpper)
		change = append(change, b.ChangeRate)
		inCI = append(inCI, b.InCI)
		mt := nan
		if b.Minimum.TimeNs > 0 {
			mt = float64(b.Minimum.TimeNs) / 1e9
		}
		minT, minC = append(minT, mt), append(minC, b.Minimum.ChangeRate)
		minP, minD = append(minP, b.Minimum.Precision), append(minD, b.Minimum.Detectable)
		o := &b.OutOfSample
		lvl, med, p95, mmed := "", nan, nan, nan
		if o.Splits > 0 {
			lvl = o.Level.String()
			med, p95 = stats.Quantile(o.Errors, 0.5, nil), stats.Quantile(o.Errors, 0.95, nil)
			mmed = stats.Quantile(o.MinimumErrors, 0.5, nil)
		}
		splitLevel, splits = append(splitLevel, lvl), append(splits, int64(o.Splits))
		sMed, sP95, sAgree, sShare = append(sMed, med), append(sP95, p95), append(sAgree, o.Agreement), append(sShare, o.TimeShare)
		mMed, mAgree, mShare = append(mMed, mmed), append(mAgree, o.MinimumAgreement), append(mShare, o.MinimumTimeShare)
		v := &b.FromPrevious
		pvBase, pvErr, pvMinErr = append(pvBase, v.Base), append(pvErr, v.Error), append(pvMinErr, v.MinimumError)
		pvAgree, pvMinAgree = append(pvAgree, v.Agree), append(pvMinAgree, v.MinimumAgree)
		command = append(command, b.Command.Line())
		vchange = append(vchange, b.Change)
		dverdict = append(dverdict, duetText(b.Duet, false))
		repeat = append(repeat, int64(b.Command.Repeat))
		side = append(side, int64(b.Command.Instances))
		seed = append(seed, int64(r.Options.Seed))
	}
	f := &reports.Frame{}
	k.AddTo(f)
	f.String("tool", tool)
	f.String("path", path)
	f.StringList("analyses", analyses)
	f.String("status", status)
	f.Bool("unreliable", unreliable)
	f.String("reason", reason)
	f.String("warnings", warnings)
	f.Int("forks_in_data", forks)
	f.Int("steady_forks", steadyForks)
	f.IntList("warmup_ends", ends)
	rec.to(f, "recorded_")
	rcm.to(f, "")
	f.Float("time_saved", saved)
	f.String("rule", testName)
	f.Float("alpha", alpha)
	f.Float("keep", keepF)
	f.Float("target_detectable_slowdown", detTarget)
	f.Float("recorded_precision", precRec)
	f.Float("precision", prec)
	for l := range sd {
		f.Float(table.Level(l).String()+"_sd_rate", sd[l])
	}
	f.Float("recorded_detectable_slowdown", detRec)
	f.Float("detectable_slowdown", det)
	f.Float("estimate_ns", est)
	f.Float("reference_ns", ref)
	f.Float("reference_lower_ns", lo)
	f.Float("reference_upper_ns", hi)
	f.Float("change_rate", change)
	f.Bool("in_ci", inCI)
	f.Float("minimum_time_s", minT)
	f.Float("minimum_change_rate", minC)
	f.Float("minimum_precision", minP)
	f.Float("minimum_detectable_slowdown", minD)
	f.String("split_level", splitLevel)
	f.Int("splits", splits)
	f.Float("split_error_median", sMed)
	f.Float("split_error_p95", sP95)
	f.Float("split_agreement", sAgree)
	f.Float("split_time_share", sShare)
	f.Float("minimum_split_error_median", mMed)
	f.Float("minimum_split_agreement", mAgree)
	f.Float("minimum_split_time_share", mShare)
	f.String("previous_version", pvBase)
	f.Float("previous_version_error", pvErr)
	f.Bool("previous_version_agrees", pvAgree)
	f.Float("minimum_previous_version_error", pvMinErr)
	f.Bool("minimum_previous_version_agrees", pvMinAgree)
	f.String("version_change", vchange)
	f.String("duet_verdict", dverdict)
	f.String("command", command)
	f.Int("repeat", repeat)
	f.Int("instances_side_by_side", side)
	f.Int("seed", seed)
	return f
}

func (r *Report) forkSeriesFrame() *reports.Frame {
	var k reports.KeyColumns
	var inst, trial, fork, st, wi, it []int64
	var class []string
	var val []float64
	for _, fs := range r.Forks {
		for j, v := range fs.Values {
			k.Add(fs.Key)
			inst = append(inst, int64(fs.Fork.Instance))
			trial = append(trial, int64(fs.Fork.Trial))
			fork = append(fork, int64(fs.Fork.Fork))
			class = append(class, fs.Class)
			st = append(st, int64(fs.SteadyStart))
			wi = append(wi, int64(fs.Warmup))
			it = append(it, int64(j*fs.Step))
			val = append(val, v)
		}
	}
	f := &reports.Frame{}
	k.AddTo(f)
	f.Int("instance", inst)
	f.Int("trial", trial)
	f.Int("fork", fork)
	f.String("class", class)
	f.Int("st_index", st)
	f.Int("warmup_iterations", wi)
	f.Int("iteration", it)
	f.Float("value_ns", val)
	return f
}

func (r *Report) forkSegmentsFrame() *reports.Frame {
	var k reports.KeyColumns
	var inst, trial, fork, start, end []int64
	var mean []float64
	for _, fs := range r.Forks {
		for _, s := range fs.Segments {
			k.Add(fs.Key)
			inst = append(inst, int64(fs.Fork.Instance))
			trial = append(trial, int64(fs.Fork.Trial))
			fork = append(fork, int64(fs.Fork.Fork))
			start = append(start, int64(s.Start))
			end = append(end, int64(s.End))
			mean = append(mean, s.Mean)
		}
	}
	f := &reports.Frame{}
	k.AddTo(f)
	f.Int("instance", inst)
	f.Int("trial", trial)
	f.Int("fork", fork)
	f.Int("start", start)
	f.Int("end", end)
	f.Float("mean_ns", mean)
	return f
}

func (r *Report) forkCROPSFrame() *reports.Frame {
	var k reports.KeyColumns
	var inst, trial, fork, ncp []int64
	var pen, chosen []float64
	for _, fs := range r.Forks {
		if fs.Knee == nil {
			continue
		}
		for j, p := range fs.Knee.Penalties {
			if j >= len(fs.Knee.NCpts) {
				break
			}
			k.Add(fs.Key)
			inst = append(inst, int64(fs.Fork.Instance))
			trial = append(trial, int64(fs.Fork.Trial))
			fork = append(fork, int64(fs.Fork.Fork))
			pen = append(pen, p)
			ncp = append(ncp, int64(fs.Knee.NCpts[j]))
			chosen = append(chosen, fs.Knee.Penalty)
		}
	}
	f := &reports.Frame{}
	k.AddTo(f)
	f.Int("instance", inst)
	f.Int("trial", trial)
	f.Int("fork", fork)
	f.Float("penalty", pen)
	f.Int("changepoint_count", ncp)
	f.Float("chosen_penalty", chosen)
	return f
}

func (r *Report) consideredFrame() *reports.Frame {
	var k reports.KeyColumns
	var inst, trials, forks, its, slices []int64
	var ts, det []float64
	var met []bool
	for i := range r.Benchmarks {
		b := &r.Benchmarks[i]
		for _, c := range b.Considered {
			k.Add(b.Key)
			inst, trials, forks = append(inst, int64(c.Config.Instances)), append(trials, int64(c.Config.Trials)), append(forks, int64(c.Config.Forks))
			its, slices = append(its, int64(c.Config.Iterations)), append(slices, int64(c.Config.Slices))
			ts, det, met = append(ts, float64(c.Config.TimeNs)/1e9), append(det, c.Detectable), append(met, c.Met)
		}
	}
	f := &reports.Frame{}
	k.AddTo(f)
	f.Int("instances", inst)
	f.Int("trials", trials)
	f.Int("forks", forks)
	f.Int("iterations", its)
	f.Int("slices", slices)
	f.Float("time_s", ts)
	f.Float("detectable_slowdown", det)
	f.Bool("met", met)
	return f
}
