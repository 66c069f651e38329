package duet

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/internal/workpool"
	"github.com/benchtrim/benchtrim/table"
)

// Verdicts of the CI test on A/B data.
const (
	VerdictSame       = "no difference" // the CI of mean(A − B) contains 0
	VerdictAFaster    = "A faster"      // the CI lies below 0
	VerdictASlower    = "A slower"      // the CI lies above 0
	VerdictNoCI       = "no CI"         // fewer than 2 runs with pairs
	VerdictDegenerate = "degenerate"    // the bootstrap distribution is degenerate (NaN bounds)
)

// Benchmark is the result of one benchmark-env key at slowdown 0.
type Benchmark struct {
	Key
	// Runs is the number of runs in the data; Iterations the iterations
	// (A and B) left after the warm-up filter.
	Runs, Iterations int
	// Pairs is the number of paired iterations (by index, or for duet the
	// overlap pairs at MinOverlap) over all runs.
	Pairs int
	// MeanA, MeanB and GrandMean are the mean iteration times in ns of A,
	// B and both (after warm-up).
	MeanA, MeanB, GrandMean float64
	// CVA, CVB and CV are coefficients of variation (ddof 1) of A's, B's
	// and all iteration times (SPEC §9 uses CV).
	CVA, CVB, CV float64
	// HasCI says whether the CI test ran (at least 2 runs with pairs).
	HasCI bool
	CI    CI
	// HasU says whether the U test ran (both sides have iterations).
	HasU bool
	U    UTest
	// Relative, RelLower and RelUpper are CI.Mean, CI.Lower and CI.Upper
	// divided by MeanB: how much slower (> 0) or faster (< 0) A is than B.
	Relative, RelLower, RelUpper float64
	// Verdict reads the CI: VerdictSame, VerdictAFaster, VerdictASlower,
	// VerdictNoCI or VerdictDegenerate.
	Verdict string
	// runTimes are the runs' machine times (raw data, SPEC §10);
	// RunSeconds is their mean in seconds and PerIteration the mean of
	// Seconds/Iterations.
	RunTimes     []RunTime
	RunSeconds   float64
	PerIteration float64
	// MDSCI and MDSU are the per-benchmark minimal detectable slowdowns of
	// the CI and U tests (D9): the smallest grid slowdown s at which the
	// test reports a change at s and at every larger grid point; NaN when
	// the test does not report a change at the largest grid point (or the
	// grid is empty).
	MDSCI, MDSU float64
	// Timeline is the first run of a duet key after the warm-up filter,
	// with its pairs at MinOverlap (nil for other types), for plots.
	Timeline *Timeline
}

// OverlapRow is a duet key's pairing at one minimum overlap ratio m.
type OverlapRow struct {
	Key
	M float64
	// Pairs is |O_m| over all runs; RelOverlapTime the relative overlap
	// time (NaN without pairs, SPEC §11).
	Pairs          int
	RelOverlapTime float64
	HasCI          bool
	CI             CI
}

// MDSRow is one key's tests after emulating B slower by Slowdown.
type MDSRow struct {
	Key
	Slowdown float64
	HasCI    bool
	CI       CI
	HasU     bool
	U        UTest
}

// MatchRow is an A/A match ratio of one (environment, suite, type) at one
// slowdown (SPEC §8, §12.2): over the keys that have both a CI and a U
// test (the reference's inner join), the share the CI test and the U test
// call equal.
type MatchRow struct {
	Env, Suite, Type string
	Slowdown         float64
	Benchmarks       int
	MatchCI, MatchU  int
	CIRatio, URatio  float64
}

// SpeedupRow is the runtime speedup of duet against seqn of one benchmark
// in one environment (SPEC §10; Options.Speedup says which definition).
type SpeedupRow struct {
	Env, Suite, Benchmark, Version string
	// Seqn and Duet are the per-type means the definition divides (s per
	// iteration for speedupCode, ns per run for speedupThesis).
	Seqn, Duet float64
	Speedup    float64
}

// Report is the duet analysis of a table.
type Report struct {
	// Options are the options used (with the seed).
	Options    Options
	Benchmarks []Benchmark
	Overlaps   []OverlapRow
	MDS        []MDSRow
	Match      []MatchRow
	Speedups   []SpeedupRow
	// Dropped counts the rows dropped when reading the table; Warnings
	// says so (Dropped.warnings).
	Dropped  Dropped
	Warnings []string
}

// Run analyses the duet rows of t (see fromTable for the mapping): per
// benchmark-env key the warm-up filter, pairing, the CI test and the U test
// at slowdown 0 and at every Options.Slowdowns, the duet pairing at every
// Options.OverlapRatios, run times, and then the A/A match ratios and the
// runtime speedups. Keys are analysed in parallel; every CI of a key draws
// from the stream stats.NewStream(Seed, key, 1) afresh (common random
// numbers across slowdowns and ratios), so the result does not depend on
// Workers or GOMAXPROCS. A table without any duet row is an error.
//
// With opt.Select.Shards > 1, Run analyses one shard of the keys (see
// Merge): a shard without any benchmark run is a *table.EmptyShardError,
// and a shard whose runs hold no duet row gives a report without
// benchmarks (its Dropped count in the merged report).
func Run(t *table.Table, opt Options) (*Report, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	ld, err := fromTable(t, opt)
	if err != nil {
		return nil, err
	}
	if len(ld.groups) == 0 && opt.Select.Shards > 1 {
		if ld.runs > 0 {
			return &Report{Options: opt, Dropped: ld.Dropped, Warnings: ld.warnings}, nil
		}
		if n := selectedRuns(t, opt.Select.Unsharded()); n > 0 {
			return nil, &table.EmptyShardError{Shard: opt.Select.Shard, Shards: opt.Select.Shards, Runs: n}
		}
	}
	if len(ld.groups) == 0 {
		return nil, noDuetRows(ld.Dropped, ld.warnings)
	}
	res, err := analyze(ld.groups, opt)
	if err != nil {
		return nil, err
	}
	res.Dropped = ld.Dropped
	res.Warnings = append(ld.warnings, res.Warnings...)
	return res, nil
}

// noDuetRows is the error of a run without duet rows, with the warnings
// saying which rows were dropped; when the rows were dropped only for
// lack of an environment label (raw duetbench folders of other hosts), it
// says first to use --keep-unlabelled.
func noDuetRows(d Dropped, warnings []string) error {
	if d.Unlabelled > 0 && d.OtherModes+d.Excluded+d.NoTime+d.BadPair == 0 {
		return fmt.Errorf("duet: the %d duet rows come from hosts without an environment label (not cirrus*, teaching*, ip-*): "+
			"use --keep-unlabelled to analyse them", d.Unlabelled)
	}
	msg := "duet: the table holds no duet rows (mode seqn, syncduet or duet, pair A or B, with timestamps)"
	if len(warnings) > 0 {
		msg += ": " + strings.Join(warnings, "; ")
	}
	return errors.New(msg)
}

// selectedRuns counts the benchmark runs of t that f keeps.
func selectedRuns(t *table.Table, f table.Filter) int {
	n := 0
	for _, k := range t.Runs() {
		if f.Matches(k) {
			n++
		}
	}
	return n
}

// analyze is Run on groups already read (fromTable), for callers and tests
// that build records themselves. Groups must be sorted by key with their
// records sorted as fromTable leaves them.
func analyze(groups []group, opt Options) (*Report, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	parts, err := workpool.Map(len(groups), opt.Workers, func(i int) (*keyResult, error) {
		kr, err := analyzeGroup(&groups[i], opt)
		if err != nil {
			return nil, fmt.Errorf("duet: %s: %w", groups[i].key, err)
		}
		if opt.Progress != nil {
			opt.Progress(len(groups))
		}
		return kr, nil
	})
	if err != nil {
		return nil, err
	}
	res := &Report{Options: opt}
	for _, p := range parts {
		res.Benchmarks = append(res.Benchmarks, p.bench)
		res.Overlaps = append(res.Overlaps, p.overlaps...)
		res.MDS = append(res.MDS, p.mds...)
	}
	res.summarize()
	return res, nil
}

// summarize computes the summaries across keys from the per-key results:
// the A/A match ratios from MDS and the runtime speedups from Benchmarks
// (analyze and Merge).
func (r *Report) summarize() {
	r.Match = matchRatios(r.MDS)
	r.Speedups = speedups(r.Benchmarks, r.Options.Speedup)
}

type keyResult struct {
	bench    Benchmark
	overlaps []OverlapRow
	mds      []MDSRow
}

// blockCI is the stream block of every CI test.
const blockCI = 1

// evaluator runs the tests of one key, reusing its buffers.
type evaluator struct {
	key   Key
	opt   Options
	boot  estimate.BootstrapOptions
	ws    stats.Workspace
	diffs []float64
	means []float64
	a, b  []float64
}

// runOverlaps returns each duet run's overlaps (nil for other types).
func (ev *evaluator) runOverlaps(rs []runRecs) [][]Overlap {
	if ev.key.Type != TypeDuet {
		return nil
	}
	out := make([][]Overlap, len(rs))
	for i, r := range rs {
		out[i] = overlaps(r.A, r.B, ev.opt.Enumeration)
	}
	return out
}

// ciTest pairs each run (by overlap at m for duet, by index otherwise),
// averages the differences per run and bootstraps the CI. It also returns
// the number of pairs and their total overlap time.
func (ev *evaluator) ciTest(rs []runRecs, ov [][]Overlap, m, grandMean float64) (ci CI, ok bool, pairs int, overlapNs float64, err error) {
	ev.means = ev.means[:0]
	for i, r := range rs {
		if ov != nil {
			om := filterOverlaps(ov[i], r.A, r.B, m)
			for _, o := range om {
				overlapNs += float64(o.time())
			}
			ev.diffs = pairByOverlap(ev.diffs, om, r.A, r.B)
		} else {
			ev.diffs = pairByIndex(ev.diffs, r.A, r.B)
		}
		if len(ev.diffs) > 0 {
			pairs += len(ev.diffs)
			ev.means = append(ev.means, meanOf(ev.diffs))
		}
	}
	ci, ok, err = ciTest(ev.means, grandMean, ev.boot, stats.NewStream(ev.opt.Seed, ev.key.String(), blockCI), &ev.ws)
	return ci, ok, pairs, overlapNs, err
}

// times splits the iteration times into A and B.
func (ev *evaluator) times(recs []Record) (a, b []float64) {
	ev.a, ev.b = ev.a[:0], ev.b[:0]
	for _, r := range recs {
		if r.Pair == 'A' {
			ev.a = append(ev.a, r.TimeNs)
		} else {
			ev.b = append(ev.b, r.TimeNs)
		}
	}
	return ev.a, ev.b
}

func analyzeGroup(g *group, opt Options) (*keyResult, error) {
	ev := &evaluator{key: g.key, opt: opt, boot: estimate.BootstrapOptions{Resamples: opt.Resamples, Confidence: opt.Confidence}}
	b := Benchmark{Key: g.key, MDSCI: math.NaN(), MDSU: math.NaN()}
	b.RunTimes = runTimes(g.records, g.key.Type)
	b.Runs = len(b.RunTimes)
	if b.Runs > 0 {
		b.RunSeconds = meanBy(b.RunTimes, func(r RunTime) float64 { return float64(r.Seconds) })
		b.PerIteration = meanBy(b.RunTimes, RunTime.perIteration)
	}

	kept := filterWarmup(g.records, g.key.Suite, opt.Warmup)
	b.Iterations = len(kept)
	a, bt := ev.times(kept)
	all := append(append(make([]float64, 0, len(kept)), a...), bt...)
	b.MeanA, b.MeanB, b.GrandMean = meanOf(a), meanOf(bt), meanOf(all)
	b.CVA, b.CVB, b.CV = cv(a), cv(bt), cv(all)
	var err error
	if b.U, b.HasU, err = mannWhitney(a, bt, opt.Alpha); err != nil {
		return nil, err
	}

	rs := runs(kept)
	ov := ev.runOverlaps(rs)
	if b.CI, b.HasCI, b.Pairs, _, err = ev.ciTest(rs, ov, opt.MinOverlap, b.GrandMean); err != nil {
		return nil, err
	}
	b.Relative, b.RelLower, b.RelUpper = b.CI.Mean/b.MeanB, b.CI.Lower/b.MeanB, b.CI.Upper/b.MeanB
	b.Verdict = verdict(b.HasCI, b.CI)
	if !b.HasCI {
		b.Relative, b.RelLower, b.RelUpper = math.NaN(), math.NaN(), math.NaN()
	}

	kr := &keyResult{}
	if g.key.Type == TypeDuet && len(rs) > 0 {
		r0 := rs[0]
		b.Timeline = &Timeline{Instance: r0.Instance, Run: r0.Run, A: r0.A, B: r0.B,
			Pairs: filterOverlaps(ov[0], r0.A, r0.B, opt.MinOverlap)}
	}
	if g.key.Type == TypeDuet {
		var total float64
		for _, r := range kept {
			total += r.TimeNs
		}
		for _, m := range opt.OverlapRatios {
			row := OverlapRow{Key: g.key, M: m}
			var overlapNs float64
			if row.CI, row.HasCI, row.Pairs, overlapNs, err = ev.ciTest(rs, ov, m, b.GrandMean); err != nil {
				return nil, err
			}
			row.RelOverlapTime = relativeOverlapTime(overlapNs, total, row.Pairs)
			kr.overlaps = append(kr.overlaps, row)
		}
	}

	var slowed []Record
	for _, s := range opt.Slowdowns {
		row := MDSRow{Key: g.key, Slowdown: s}
		if s == 0 {
			row.HasCI, row.CI, row.HasU, row.U = b.HasCI, b.CI, b.HasU, b.U
			kr.mds = append(kr.mds, row)
			continue
		}
		slowed = slowdownB(slowed, kept, g.key.Type, s)
		srs := runs(slowed)
		sa, sb := ev.times(slowed)
		if row.U, row.HasU, err = mannWhitney(sa, sb, opt.Alpha); err != nil {
			return nil, err
		}
		// The grand mean of the slowed data, as the reference recomputes it.
		gm := (sumOf(sa) + sumOf(sb)) / float64(len(sa)+len(sb))
		if row.CI, row.HasCI, _, _, err = ev.ciTest(srs, ev.runOverlaps(srs), opt.MinOverlap, gm); err != nil {
			return nil, err
		}
		kr.mds = append(kr.mds, row)
	}
	b.MDSCI = mds(kr.mds, func(r MDSRow) bool { return r.HasCI && !r.CI.Equal })
	b.MDSU = mds(kr.mds, func(r MDSRow) bool { return r.HasU && !r.U.Equal })
	kr.bench = b
	return kr, nil
}

func sumOf(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s
}

func verdict(has bool, ci CI) string {
	switch {
	case !has:
		return VerdictNoCI
	case math.IsNaN(ci.Lower) || math.IsNaN(ci.Upper):
		return VerdictDegenerate
	case ci.Equal:
		return VerdictSame
	case ci.Upper < 0:
		return VerdictAFaster
	}
	return VerdictASlower
}

// mds returns the smallest slowdown of rows (ascending) from which on
// detected holds at every row (D9), or NaN.
func mds(rows []MDSRow, detected func(MDSRow) bool) float64 {
	out := math.NaN()
	for i := len(rows) - 1; i >= 0 && detected(rows[i]); i-- {
		out = rows[i].Slowdown
	}
	return out
}

// matchRatios aggregates the MDS rows per (environment, suite, type,
// slowdown) over the keys with both tests (SPEC §8, §12.2 step 4).
func matchRatios(rows []MDSRow) []MatchRow {
	type gk struct {
		env, suite, typ string
		s               float64
	}
	idx := map[gk]int{}
	var out []MatchRow
	for _, r := range rows {
		if !r.HasCI || !r.HasU {
			continue
		}
		k := gk{r.Env, r.Suite, r.Type, r.Slowdown}
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, MatchRow{Env: r.Env, Suite: r.Suite, Type: r.Type, Slowdown: r.Slowdown})
		}
		m := &out[i]
		m.Benchmarks++
		if r.CI.Equal {
			m.MatchCI++
		}
		if r.U.Equal {
			m.MatchU++
		}
	}
	for i := range out {
		out[i].CIRatio = float64(out[i].MatchCI) / float64(out[i].Benchmarks)
		out[i].URatio = float64(out[i].MatchU) / float64(out[i].Benchmarks)
	}
	slices.SortStableFunc(out, func(a, b MatchRow) int {
		if c := (Key{Env: a.Env, Suite: a.Suite, Type: a.Type}).compare(Key{Env: b.Env, Suite: b.Suite, Type: b.Type}); c != 0 {
			return c
		}
		switch {
		case a.Slowdown < b.Slowdown:
			return -1
		case a.Slowdown > b.Slowdown:
			return 1
		}
		return 0
	})
	return out
}

// speedups pairs the seqn and duet keys of each (environment, suite,
// benchmark, version).
func speedups(bs []Benchmark, def SpeedupDefinition) []SpeedupRow {
	type bk struct{ env, suite, bench, version string }
	seqn := map[bk][]RunTime{}
	for _, b := range bs {
		if b.Type == typeSeqn {
			seqn[bk{b.Env, b.Suite, b.Benchmark, b.Version}] = b.RunTimes
		}
	}
	var out []SpeedupRow
	for _, b := range bs {
		if b.Type != TypeDuet {
			continue
		}
		s, ok := seqn[bk{b.Env, b.Suite, b.Benchmark, b.Version}]
		if !ok || len(s) == 0 || len(b.RunTimes) == 0 {
			continue
		}
		row := SpeedupRow{Env: b.Env, Suite: b.Suite, Benchmark: b.Benchmark, Version: b.Version,
			Speedup: speedup(s, b.RunTimes, def)}
		if def == speedupThesis {
			ns := func(r RunTime) float64 { return float64(r.TimeNs) }
			row.Seqn, row.Duet = meanBy(s, ns), meanBy(b.RunTimes, ns)
		} else {
			row.Seqn, row.Duet = meanBy(s, RunTime.perIteration), meanBy(b.RunTimes, RunTime.perIteration)
		}
		out = append(out, row)
	}
	return out
}
