package trim

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/benchtrim/benchtrim/analysis/duet"
	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

// Names of the duet data tables Report.Frame returns (empty without duet
// rows): analysis/duet's tables of the PathDuet benchmarks, and the
// timelines the report plots.
const (
	// FrameDuetBenchmarks: duet.FrameBenchmarks, one row per
	// benchmark-env key (CI and U test, verdict, relative difference, MDS).
	FrameDuetBenchmarks = "duet-benchmarks"
	// FrameDuetOverlaps: duet.FrameOverlaps, per duet key and minimum
	// overlap ratio.
	FrameDuetOverlaps = "duet-overlaps"
	// FrameDuetMDS: duet.FrameMDS, per key and emulated slowdown of B.
	FrameDuetMDS = "duet-mds"
	// FrameDuetMatch: duet.FrameMatch, the A/A match ratios per
	// (environment, suite, type, slowdown): the MDS curves.
	FrameDuetMatch = "duet-match"
	// FrameDuetSpeedup: duet's "speedup" table, duet's runtime against seqn's.
	FrameDuetSpeedup = "duet-speedup"
	// FrameDuetTimeline: the plotted runs' iterations, one row per A or B
	// iteration: the key (environment, suite, benchmark, version, type),
	// the run (instance, run), pair A or B, the recorded iteration index,
	// start_s and end_s (s since the run's first kept start) and time_ns
	// (the recorded duration).
	FrameDuetTimeline = "duet-timeline"
	// FrameDuetPairs: the plotted runs' pairs at the minimum overlap
	// ratio, one row per pair: the key and run as in FrameDuetTimeline,
	// the recorded iterations of the paired A and B (a_iteration,
	// b_iteration), the overlap's start_s and end_s, and its rate
	// min(overlap/time_a, overlap/time_b).
	FrameDuetPairs = "duet-pairs"
)

// maxDuetTimelines bounds the duet runs kept for timeline plots;
// maxTimelineIterations bounds the iterations kept per pair of one run
// (the first ones in time).
const (
	maxDuetTimelines      = 8
	maxTimelineIterations = 200
)

// DuetVerdict is the duet analysis' A/B result for one benchmark run of a
// duet mode (one analysis/duet benchmark-env key; a run whose instances
// sit in several environments has one per environment).
type DuetVerdict struct {
	// Env is the key's environment ("" for unlabelled hosts).
	Env string
	// Runs and Pairs are the runs in the data and the paired iterations
	// the CI test averaged (after the warm-up filter).
	Runs, Pairs int
	// Verdict is analysis/duet's reading of the CI of mean(A − B):
	// duet.VerdictSame, VerdictAFaster, VerdictASlower, VerdictNoCI or
	// VerdictDegenerate.
	Verdict string
	// BvsA is B's time against A's,
	//
	//	(B − A)/A = −r/(1 + r),  r = mean(A − B)/mean(B)
	//
	// with r duet's relative difference (duet.Benchmark.Relative, the
	// mean of the run means of A − B over B's mean time); Lower and Upper
	// transform r's CI bounds the same way (the map is decreasing, so
	// they swap). NaN without a CI.
	BvsA, Lower, Upper float64
	// Confidence is the CI's level (duet.Options.Confidence).
	Confidence float64
}

// bVsA maps duet's relative difference r = mean(A − B)/mean(B) to
// (B − A)/A = −r/(1 + r).
func bVsA(r float64) float64 { return -r / (1 + r) }

// String is the verdict in a sentence, Short first and then which pair is
// faster and the CI in parentheses: "B 5.0 % slower (A faster; 95 % CI of
// (B − A)/A [+4.4 %, +6.1 %], 10 runs, 380 pairs)".
func (v DuetVerdict) String() string {
	ci := fmt.Sprintf("%g %% CI of (B − A)/A [%s, %s], %d runs, %d pairs", 100*v.Confidence, signedPct(v.Lower), signedPct(v.Upper), v.Runs, v.Pairs)
	switch v.Verdict {
	case duet.VerdictAFaster:
		return fmt.Sprintf("%s (A faster; %s)", v.short(), ci)
	case duet.VerdictASlower:
		return fmt.Sprintf("%s (A slower; %s)", v.short(), ci)
	case duet.VerdictSame:
		return fmt.Sprintf("%s (B against A %s; %s contains 0)", v.short(), signedPct(v.BvsA), strings.Replace(ci, ",", "", 1))
	}
	return fmt.Sprintf("%s (%d runs, %d pairs)", v.short(), v.Runs, v.Pairs)
}

// short is the verdict in a few words, as the terminal's plan table shows
// it: "B 5.0 % slower", "B 3.1 % faster", "no difference", "no CI".
func (v DuetVerdict) short() string {
	switch v.Verdict {
	case duet.VerdictAFaster:
		return fmt.Sprintf("B %.1f %% slower", 100*v.BvsA)
	case duet.VerdictASlower:
		return fmt.Sprintf("B %.1f %% faster", -100*v.BvsA)
	}
	return v.Verdict
}

// signedPct is a percentage with its sign, one decimal ("0.0 %" when it
// rounds to zero, "-" for NaN).
func signedPct(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	if math.Round(1000*x) == 0 {
		return "0.0 %"
	}
	return fmt.Sprintf("%+.1f %%", 100*x)
}

// duetText joins the verdicts of b (with their environments when there
// are several), or "" without one.
func duetText(vs []DuetVerdict, short bool) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		s := v.String()
		if short {
			s = v.short()
		}
		if len(vs) > 1 {
			s = v.Env + ": " + s
		}
		parts[i] = s
	}
	return strings.Join(parts, "; ")
}

// runDuet runs analysis/duet on the PathDuet benchmarks of rep (opt.Duet
// with trim's Seed, Workers and Select narrowed to them), keeps its report
// in rep.Duet and gives each duet benchmark its verdicts. The duet
// analysis failing (no timestamps, no usable row) does not stop trim: the
// duet benchmarks then carry the error as a warning.
func runDuet(rep *Report, t *table.Table, opt *Options) {
	var keys []table.Key
	for i := range rep.Benchmarks {
		if rep.Benchmarks[i].Path == PathDuet {
			keys = append(keys, rep.Benchmarks[i].Key)
		}
	}
	if len(keys) == 0 {
		return
	}
	dopt := opt.Duet
	dopt.Select, dopt.Seed, dopt.Workers, dopt.Progress = only(opt.Select, keys), opt.Seed, opt.Workers, nil
	res, err := duet.Run(t, dopt)
	if err != nil {
		for i := range rep.Benchmarks {
			if b := &rep.Benchmarks[i]; b.Path == PathDuet {
				b.Warnings = append(b.Warnings, "duet analysis could not run: "+err.Error())
			}
		}
		return
	}
	rep.Duet = res
	type runKey struct{ project, version, benchmark, mode string }
	byRun := map[runKey][]*duet.Benchmark{}
	for i := range res.Benchmarks {
		d := &res.Benchmarks[i]
		k := runKey{d.Suite, d.Version, d.Benchmark, d.Type}
		byRun[k] = append(byRun[k], d)
	}
	for i := range rep.Benchmarks {
		b := &rep.Benchmarks[i]
		if b.Path != PathDuet {
			continue
		}
		ds := byRun[runKey{b.Key.Project, b.Key.Version, b.Key.Benchmark, b.Key.Mode}]
		if len(ds) == 0 {
			b.Reason = "duet data: no result from the duet analysis (benchmark excluded, or no row with timestamps and an A/B pair)"
			continue
		}
		b.Reason = fmt.Sprintf("duet data (%s): A and B compared by the duet method, the %g %% BCa bootstrap CI of the mean over runs of the paired differences A − B",
			b.Key.Mode, 100*res.Options.Confidence)
		for _, d := range ds {
			v := DuetVerdict{Env: d.Env, Runs: d.Runs, Pairs: d.Pairs, Verdict: d.Verdict, BvsA: math.NaN(), Lower: math.NaN(), Upper: math.NaN(),
				Confidence: res.Options.Confidence}
			if d.HasCI {
				v.BvsA, v.Lower, v.Upper = bVsA(d.Relative), bVsA(d.RelUpper), bVsA(d.RelLower)
			}
			b.Duet = append(b.Duet, v)
		}
	}
}

// writeDuetText prints the duet benchmarks' verdicts in counts, one line,
// with the range of (B − A)/A of the keys where B is slower or faster.
func (r *Report) writeDuetText(w io.Writer) {
	if r.Duet == nil {
		return
	}
	counts := map[string]int{}
	lo, hi := map[string]float64{}, map[string]float64{}
	for _, b := range r.Duet.Benchmarks {
		v := b.Verdict
		x := math.Abs(bVsA(b.Relative))
		if counts[v] == 0 {
			lo[v], hi[v] = x, x
		}
		counts[v]++
		lo[v], hi[v] = math.Min(lo[v], x), math.Max(hi[v], x)
	}
	parts := []string{}
	for _, x := range []struct{ v, say string }{{duet.VerdictAFaster, "B slower"}, {duet.VerdictASlower, "B faster"},
		{duet.VerdictSame, "no difference"}, {duet.VerdictNoCI, "no CI"}, {duet.VerdictDegenerate, "degenerate CI"}} {
		n := counts[x.v]
		switch {
		case n == 0:
		case x.v == duet.VerdictAFaster || x.v == duet.VerdictASlower:
			parts = append(parts, fmt.Sprintf("%s %d (by %.1f to %.1f %%)", x.say, n, 100*lo[x.v], 100*hi[x.v]))
		default:
			parts = append(parts, fmt.Sprintf("%s %d", x.say, n))
		}
	}
	fmt.Fprintf(w, "duet A/B (%g %% CI of mean(A − B) over runs): %d benchmark-env keys, %s\n",
		100*r.Duet.Options.Confidence, len(r.Duet.Benchmarks), strings.Join(parts, ", "))
	for _, x := range r.Duet.Warnings {
		fmt.Fprintf(w, "duet note: %s\n", x)
	}
}

// duetFrame returns one of the duet frames (an empty one of the same
// columns without duet data).
func (r *Report) duetFrame(name string) (*reports.Frame, error) {
	d := r.Duet
	if d == nil {
		d = &duet.Report{}
	}
	switch name {
	case FrameDuetTimeline:
		return r.duetTimelineFrame(), nil
	case FrameDuetPairs:
		return r.duetPairsFrame(), nil
	case FrameDuetBenchmarks:
		return r.duetBenchmarksFrame(d), nil
	}
	return d.Frame(strings.TrimPrefix(name, "duet-"))
}

// duetBenchmarksFrame is duet.Report.BenchmarksFrame with B against A and
// the settings a reader needs to read it:
//
//	b_vs_a, b_vs_a_ci_lower, b_vs_a_ci_upper   (B − A)/A and its CI (DuetVerdict.BvsA)
//	confidence, resamples                      the CI's level and bootstrap resamples
//	min_overlap_ratio                          the duet pairing's minimum overlap ratio m
func (r *Report) duetBenchmarksFrame(d *duet.Report) *reports.Frame {
	f := d.BenchmarksFrame()
	n := len(d.Benchmarks)
	bva, lo, hi, conf, m := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	res := make([]int64, n)
	for i, b := range d.Benchmarks {
		bva[i], lo[i], hi[i] = math.NaN(), math.NaN(), math.NaN()
		if b.HasCI {
			bva[i], lo[i], hi[i] = bVsA(b.Relative), bVsA(b.RelUpper), bVsA(b.RelLower)
		}
		conf[i], res[i], m[i] = d.Options.Confidence, int64(d.Options.Resamples), d.Options.MinOverlap
	}
	f.Float("b_vs_a", bva)
	f.Float("b_vs_a_ci_lower", lo)
	f.Float("b_vs_a_ci_upper", hi)
	f.Float("confidence", conf)
	f.Int("resamples", res)
	f.Float("min_overlap_ratio", m)
	return f
}

// isDuetFrame reports whether name is one of the duet frames.
func isDuetFrame(name string) bool {
	switch name {
	case FrameDuetBenchmarks, FrameDuetOverlaps, FrameDuetMDS, FrameDuetMatch, FrameDuetSpeedup, FrameDuetTimeline, FrameDuetPairs:
		return true
	}
	return false
}

// timelines returns the duet keys whose first run the report plots: at
// most maxDuetTimelines, largest |relative difference| first (keys
// without a CI last), then in key order.
func (r *Report) timelines() []*duet.Benchmark {
	if r.Duet == nil {
		return nil
	}
	var out []*duet.Benchmark
	for i := range r.Duet.Benchmarks {
		if b := &r.Duet.Benchmarks[i]; b.Timeline != nil {
			out = append(out, b)
		}
	}
	size := func(b *duet.Benchmark) float64 {
		if math.IsNaN(b.Relative) {
			return -1
		}
		return math.Abs(b.Relative)
	}
	slices.SortStableFunc(out, func(a, b *duet.Benchmark) int { return cmp.Compare(size(b), size(a)) })
	return out[:min(len(out), maxDuetTimelines)]
}

// timelineWindow returns the records of tl kept for the plot (the first
// maxTimelineIterations of each pair, and only those starting before the
// later pair's cut), the run's first start and the cut.
func timelineWindow(tl *duet.Timeline) (a, b []duet.Record, t0, cut int64) {
	t0, cut = math.MaxInt64, math.MaxInt64
	for _, x := range [][]duet.Record{tl.A, tl.B} {
		for _, rec := range x {
			t0 = min(t0, rec.StartNs)
		}
		if len(x) > maxTimelineIterations {
			cut = min(cut, x[maxTimelineIterations].StartNs)
		}
	}
	keep := func(x []duet.Record) []duet.Record {
		var out []duet.Record
		for _, rec := range x {
			if rec.StartNs < cut {
				out = append(out, rec)
			}
		}
		return out
	}
	return keep(tl.A), keep(tl.B), t0, cut
}

func (r *Report) duetTimelineFrame() *reports.Frame {
	var k duet.KeyColumns
	var inst, run, iter []int64
	var pair []string
	var start, end, dur []float64
	for _, b := range r.timelines() {
		a, bb, t0, _ := timelineWindow(b.Timeline)
		for _, side := range []struct {
			name string
			recs []duet.Record
		}{{"A", a}, {"B", bb}} {
			for _, x := range side.recs {
				k.Add(b.Key)
				inst, run, iter = append(inst, int64(b.Timeline.Instance)), append(run, int64(b.Timeline.Run)), append(iter, int64(x.Iteration))
				pair = append(pair, side.name)
				start, end = append(start, float64(x.StartNs-t0)/1e9), append(end, float64(x.EndNs-t0)/1e9)
				dur = append(dur, x.TimeNs)
			}
		}
	}
	f := &reports.Frame{}
	k.AddTo(f)
	f.Int("instance", inst)
	f.Int("run", run)
	f.String("pair", pair)
	f.Int("iteration", iter)
	f.Float("start_s", start)
	f.Float("end_s", end)
	f.Float("time_ns", dur)
	return f
}

func (r *Report) duetPairsFrame() *reports.Frame {
	var k duet.KeyColumns
	var inst, run, ai, bi []int64
	var start, end, rate []float64
	for _, b := range r.timelines() {
		tl := b.Timeline
		_, _, t0, cut := timelineWindow(tl)
		for _, o := range tl.Pairs {
			if tl.A[o.A].StartNs >= cut || tl.B[o.B].StartNs >= cut {
				continue
			}
			k.Add(b.Key)
			inst, run = append(inst, int64(tl.Instance)), append(run, int64(tl.Run))
			ai, bi = append(ai, int64(tl.A[o.A].Iteration)), append(bi, int64(tl.B[o.B].Iteration))
			start, end, rate = append(start, float64(o.Start-t0)/1e9), append(end, float64(o.End-t0)/1e9), append(rate, o.Rate)
		}
	}
	f := &reports.Frame{}
	k.AddTo(f)
	f.Int("instance", inst)
	f.Int("run", run)
	f.Int("a_iteration", ai)
	f.Int("b_iteration", bi)
	f.Float("start_s", start)
	f.Float("end_s", end)
	f.Float("rate", rate)
	return f
}
