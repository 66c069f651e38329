package duet

import (
	"fmt"
	"math"

	"github.com/benchtrim/benchtrim/reports"
)

// Names of the data tables Report.Frame returns.
const (
	FrameBenchmarks = "benchmarks" // one row per benchmark-env key: CI and U test, verdict, CV, runtime, MDS
	FrameOverlaps   = "overlaps"   // one row per (key, minimum overlap ratio m): pairs, CI, relative overlap time
	FrameMDS        = "mds"        // one row per (key, slowdown s): CI and U test on B slowed by s
	FrameMatch      = "match"      // A/A match ratios per (environment, suite, type, s)
	tableSpeedup    = "speedup"    // runtime speedup of duet against seqn per (environment, suite)
)

// tableNames lists the data tables in a fixed order.
var tableNames = []string{FrameBenchmarks, FrameOverlaps, FrameMDS, FrameMatch, tableSpeedup}

// Frame returns a data table by name (one of tableNames) for the shared
// writer.
func (r *Report) Frame(name string) (*reports.Frame, error) {
	switch name {
	case FrameBenchmarks:
		return r.BenchmarksFrame(), nil
	case FrameOverlaps:
		return r.overlapsFrame(), nil
	case FrameMDS:
		return r.mdsFrame(), nil
	case FrameMatch:
		return r.matchFrame(), nil
	case tableSpeedup:
		return r.speedupFrame(), nil
	}
	return nil, fmt.Errorf("duet: no data table %q", name)
}

// KeyColumns collects a duet key per row for a frame (the duet
// counterpart of reports.KeyColumns): environment, suite, benchmark,
// version, type.
type KeyColumns struct{ env, suite, bench, version, typ []string }

// Add appends the key of one row.
func (c *KeyColumns) Add(k Key) {
	c.env, c.suite, c.bench = append(c.env, k.Env), append(c.suite, k.Suite), append(c.bench, k.Benchmark)
	c.version, c.typ = append(c.version, k.Version), append(c.typ, k.Type)
}

// AddTo adds the key columns to f.
func (c *KeyColumns) AddTo(f *reports.Frame) {
	f.String("environment", c.env)
	f.String("suite", c.suite)
	f.String("benchmark", c.bench)
	f.String("version", c.version)
	f.String("type", c.typ)
}

// ciColumns collects CI and U test columns; missing tests are NaN cells and
// "" verdicts.
type ciColumns struct {
	runs                []int64
	mean, lo, hi, width []float64
	ciEqual             []string
	u, p                []float64
	uEqual              []string
}

func match(has, eq bool) string {
	switch {
	case !has:
		return ""
	case eq:
		return "equal"
	}
	return "different"
}

func (c *ciColumns) add(hasCI bool, ci CI, hasU bool, u UTest) {
	nan := math.NaN()
	c.runs = append(c.runs, int64(ci.Runs))
	if hasCI {
		c.mean, c.lo, c.hi, c.width = append(c.mean, ci.Mean), append(c.lo, ci.Lower), append(c.hi, ci.Upper), append(c.width, ci.RelWidth)
	} else {
		c.mean, c.lo, c.hi, c.width = append(c.mean, nan), append(c.lo, nan), append(c.hi, nan), append(c.width, nan)
	}
	c.ciEqual = append(c.ciEqual, match(hasCI, ci.Equal))
	if hasU {
		c.u, c.p = append(c.u, u.U), append(c.p, u.P)
	} else {
		c.u, c.p = append(c.u, nan), append(c.p, nan)
	}
	c.uEqual = append(c.uEqual, match(hasU, u.Equal))
}

func (c *ciColumns) to(f *reports.Frame) {
	f.Int("ci_runs", c.runs)
	f.Float("mean_diff_ns", c.mean)
	f.Float("ci_lower_ns", c.lo)
	f.Float("ci_upper_ns", c.hi)
	f.Float("ci_rel_width", c.width)
	f.String("ci_test", c.ciEqual)
	f.Float("u_statistic", c.u)
	f.Float("u_pvalue", c.p)
	f.String("u_test", c.uEqual)
}

// BenchmarksFrame is one row per benchmark-env key at slowdown 0:
//
//	environment, suite, benchmark, version, type   the key
//	runs, iterations, pairs   runs in the data, iterations after warm-up, pairs
//	a_mean_ns, b_mean_ns, grand_mean_ns, a_cv, b_cv, cv
//	ci_runs, mean_diff_ns, ci_lower_ns, ci_upper_ns   mean of run means of A − B and its BCa CI
//	ci_rel_width              (hi − lo) / grand mean (D4)
//	ci_test, u_test           equal, different, or "" when the test did not run
//	u_statistic, u_pvalue     U1 of A and the two-sided p-value
//	relative, rel_ci_lower, rel_ci_upper   mean_diff and its CI over mean_b
//	verdict                   no difference, A faster, A slower, no CI, degenerate
//	run_s, iteration_s   mean run time (whole seconds) and per iteration
//	mds_ci, mds_u             per-benchmark minimal detectable slowdowns (D9)
func (r *Report) BenchmarksFrame() *reports.Frame {
	var k KeyColumns
	var c ciColumns
	var runs, iters, pairs []int64
	var fl [13][]float64
	var verdict []string
	for _, b := range r.Benchmarks {
		k.Add(b.Key)
		c.add(b.HasCI, b.CI, b.HasU, b.U)
		runs, iters, pairs = append(runs, int64(b.Runs)), append(iters, int64(b.Iterations)), append(pairs, int64(b.Pairs))
		for j, v := range []float64{b.MeanA, b.MeanB, b.GrandMean, b.CVA, b.CVB, b.CV, b.Relative, b.RelLower, b.RelUpper,
			b.RunSeconds, b.PerIteration, b.MDSCI, b.MDSU} {
			fl[j] = append(fl[j], v)
		}
		verdict = append(verdict, b.Verdict)
	}
	f := &reports.Frame{}
	k.AddTo(f)
	f.Int("runs", runs)
	f.Int("iterations", iters)
	f.Int("pairs", pairs)
	for j, name := range []string{"a_mean_ns", "b_mean_ns", "grand_mean_ns", "a_cv", "b_cv", "cv"} {
		f.Float(name, fl[j])
	}
	c.to(f)
	for j, name := range []string{"relative", "rel_ci_lower", "rel_ci_upper"} {
		f.Float(name, fl[6+j])
	}
	f.String("verdict", verdict)
	for j, name := range []string{"run_s", "iteration_s", "mds_ci", "mds_u"} {
		f.Float(name, fl[9+j])
	}
	return f
}

// overlapsFrame is one row per duet key and minimum overlap ratio m: the
// key, m, pairs, rel_overlap_time (NaN without pairs) and the CI test
// columns of BenchmarksFrame.
func (r *Report) overlapsFrame() *reports.Frame {
	var k KeyColumns
	var c ciColumns
	var m, rel []float64
	var pairs []int64
	for _, o := range r.Overlaps {
		k.Add(o.Key)
		c.add(o.HasCI, o.CI, false, UTest{})
		m, pairs, rel = append(m, o.M), append(pairs, int64(o.Pairs)), append(rel, o.RelOverlapTime)
	}
	f := &reports.Frame{}
	k.AddTo(f)
	f.Float("min_overlap_ratio", m)
	f.Int("pairs", pairs)
	f.Float("rel_overlap_time", rel)
	f.Int("ci_runs", c.runs)
	f.Float("mean_diff_ns", c.mean)
	f.Float("ci_lower_ns", c.lo)
	f.Float("ci_upper_ns", c.hi)
	f.Float("ci_rel_width", c.width)
	f.String("ci_test", c.ciEqual)
	return f
}

// mdsFrame is one row per key and emulated slowdown s of B: the key,
// slowdown, and the CI and U test columns of BenchmarksFrame.
func (r *Report) mdsFrame() *reports.Frame {
	var k KeyColumns
	var c ciColumns
	var s []float64
	for _, m := range r.MDS {
		k.Add(m.Key)
		c.add(m.HasCI, m.CI, m.HasU, m.U)
		s = append(s, m.Slowdown)
	}
	f := &reports.Frame{}
	k.AddTo(f)
	f.Float("slowdown", s)
	c.to(f)
	return f
}

// matchFrame is one row per (environment, suite, type, slowdown): the
// number of keys with both tests, how many each test calls equal, and the
// A/A match ratios (Fig 5.8, 5.9).
func (r *Report) matchFrame() *reports.Frame {
	var env, suite, typ []string
	var s, cr, ur []float64
	var n, mc, mu []int64
	for _, m := range r.Match {
		env, suite, typ = append(env, m.Env), append(suite, m.Suite), append(typ, m.Type)
		s, cr, ur = append(s, m.Slowdown), append(cr, m.CIRatio), append(ur, m.URatio)
		n, mc, mu = append(n, int64(m.Benchmarks)), append(mc, int64(m.MatchCI)), append(mu, int64(m.MatchU))
	}
	f := &reports.Frame{}
	f.String("environment", env)
	f.String("suite", suite)
	f.String("type", typ)
	f.Float("slowdown", s)
	f.Int("benchmarks", n)
	f.Int("match_ci", mc)
	f.Int("match_u", mu)
	f.Float("match_ci_ratio", cr)
	f.Float("match_u_ratio", ur)
	return f
}

// speedupFrame is one row per benchmark and environment with seqn and duet
// runs: the per-type means the definition divides, the speedup, and the
// definition (code or thesis).
func (r *Report) speedupFrame() *reports.Frame {
	var env, suite, bench, version, def []string
	var seqn, duet, sp []float64
	for _, s := range r.Speedups {
		env, suite, bench, version = append(env, s.Env), append(suite, s.Suite), append(bench, s.Benchmark), append(version, s.Version)
		seqn, duet, sp = append(seqn, s.Seqn), append(duet, s.Duet), append(sp, s.Speedup)
		def = append(def, string(r.Options.Speedup))
	}
	f := &reports.Frame{}
	f.String("environment", env)
	f.String("suite", suite)
	f.String("benchmark", bench)
	f.String("version", version)
	f.Float("seqn", seqn)
	f.Float("duet", duet)
	f.Float("speedup", sp)
	f.String("definition", def)
	return f
}
