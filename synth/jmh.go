package synth

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
)

// metricOut is one metric of a JMH record, ready to print.
type metricOut struct {
	name string
	unit string
	st   metricStats
	raw  [][]float64 // per fork; nil for a histogram primary
}

// jmhRecord is one JMH run (one series in one instance and trial).
type jmhRecord struct {
	primary     metricOut
	hist        []bucket // sample mode: all iterations' buckets, concatenated
	histEnds    []int    // end offset in hist of each iteration, forks × iterations
	secondaries []metricOut
}

// jmhGen builds records with reusable buffers; not safe for concurrent use.
type jmhGen struct {
	s          *Suite
	g          *rng
	iterCounts *denseCounts
	pool       *denseCounts
	pooled     []bucket
	levels     []float64
}

func newJMHGen(s *Suite) *jmhGen {
	gen := &jmhGen{s: s, g: newRNG()}
	if s.cfg.Mode == modeSampleTime {
		gen.iterCounts, gen.pool = newDenseCounts(), newDenseCounts()
	}
	return gen
}

// unitValue converts an iteration's ns/op into the record's unit.
func (s *Suite) unitValue(ns float64) float64 {
	if s.unit.throughput {
		return float64(s.cfg.Threads) * s.unit.nsPerUnit / ns
	}
	return ns * s.unit.scale
}

// record generates series i's run on instance a, trial r into rec, reusing
// rec's histogram buffers.
func (gen *jmhGen) record(i, a, r int, rec *jmhRecord) {
	s, c := gen.s, &gen.s.cfg
	t := &s.truth[i]
	*rec = jmhRecord{hist: rec.hist[:0], histEnds: rec.histEnds[:0]}
	unit := c.unit()
	iterNs := make([][]float64, c.Forks) // iteration ns/op, for GC rates
	for f := 1; f <= c.Forks; f++ {
		gen.levels = s.forkLevels(gen.levels[:0], i, a, r, f)
		iterNs[f-1] = append([]float64(nil), gen.levels...)
	}
	if c.Mode == modeSampleTime {
		gen.sampleRecord(i, a, r, iterNs, rec)
	} else {
		raw := make([][]float64, c.Forks)
		var all []float64
		for f := range raw {
			raw[f] = make([]float64, len(iterNs[f]))
			for k, x := range iterNs[f] {
				raw[f][k] = s.unitValue(x)
			}
			all = append(all, raw[f]...)
		}
		rec.primary = metricOut{unit: unit, st: avgStats(all), raw: raw}
	}
	if c.GC.Enabled && c.Mode != modeSingleShot {
		gen.gcMetrics(t, a, r, iterNs, rec)
	}
	sort.Slice(rec.secondaries, func(x, y int) bool { return rec.secondaries[x].name < rec.secondaries[y].name })
}

// sampleRecord draws every iteration's invocation samples, the pooled
// statistics and the per-iteration percentile secondaries; it replaces the
// values of iterNs by the iterations' sample means.
func (gen *jmhGen) sampleRecord(i, a, r int, iterNs [][]float64, rec *jmhRecord) {
	s, c := gen.s, &gen.s.cfg
	t := &s.truth[i]
	scale := s.unit.scale
	value := func(idx uint32) float64 { return float64(bucketValue(int(idx))) * scale }
	pct := make([][][]float64, len(sampleSecondaries))
	for j := range pct {
		pct[j] = make([][]float64, c.Forks)
	}
	for f := 1; f <= c.Forks; f++ {
		for j := range pct {
			pct[j][f-1] = make([]float64, c.Iterations)
		}
		for k, level := range iterNs[f-1] {
			s.iterationSamples(s.sampleStream(gen.g, i, a, r, f, k), level, gen.iterCounts)
			start := len(rec.hist)
			rec.hist = gen.iterCounts.drain(rec.hist)
			h := rec.hist[start:]
			rec.histEnds = append(rec.histEnds, len(rec.hist))
			var n int64
			for _, b := range h {
				gen.pool.add(int(b.idx), uint64(b.count))
				n += int64(b.count)
			}
			iterNs[f-1][k], _ = histMean(h)
			at := histOrderStat(h, value)
			for j, sec := range sampleSecondaries {
				pct[j][f-1][k] = legacyPercentile(n, at, sec.rank)
			}
		}
	}
	gen.pooled = gen.pool.drain(gen.pooled[:0])
	rec.primary = metricOut{unit: s.cfg.unit(), st: histStats(gen.pooled, value)}
	var n int64
	for _, b := range gen.pooled {
		n += int64(b.count)
	}
	at := histOrderStat(gen.pooled, value)
	prefix := t.Method + "·"
	if s.jv.atLeast(37) {
		prefix = ""
	}
	for j, sec := range sampleSecondaries {
		v := legacyPercentile(n, at, sec.rank)
		st := metricStats{score: v, err: math.NaN(), lo: math.NaN(), hi: math.NaN()}
		for q := range st.pct {
			st.pct[q] = v
		}
		rec.secondaries = append(rec.secondaries, metricOut{name: prefix + sec.suffix, unit: s.cfg.unit(), st: st, raw: pct[j]})
	}
}

// gcMetrics adds -prof gc secondaries: gc.alloc.rate (MB/sec, i.e. MiB/s),
// gc.alloc.rate.norm (B/op), gc.count (SUM) and gc.time (ms, SUM, only in
// iterations with a GC, omitted when no GC happened).
func (gen *jmhGen) gcMetrics(t *BenchmarkTruth, a, r int, iterNs [][]float64, rec *jmhRecord) {
	s, c := gen.s, &gen.s.cfg
	prefix := "·"
	if s.jv.atLeast(37) {
		prefix = ""
	}
	iterSec := c.IterationTime.Seconds()
	forks := len(iterNs)
	rate, norm, count, gctime := make([][]float64, forks), make([][]float64, forks), make([][]float64, forks), make([][]float64, forks)
	var allRate, allNorm, allCount, allTime []float64
	anyGC := false
	for f := range iterNs {
		g := stream(c.Seed, streamKey{base: s.vbase[t.Index], purpose: purposeGC, idx: [5]uint64{uint64(a), uint64(r), uint64(f + 1)}})
		gctime[f] = []float64{}
		for _, x := range iterNs[f] {
			nb := float64(t.BytesPerOp) + 0.02*math.Abs(g.r.NormFloat64())
			if t.ZeroAlloc {
				nb = math.Exp(g.uniform(math.Log(1e-5), math.Log(2e-3)))
			}
			mbs := nb * float64(c.Threads) * 1e9 / x / (1 << 20)
			nGC := 0
			if !t.ZeroAlloc {
				nGC = g.poisson(mbs * iterSec / c.GC.youngGenMB)
			}
			norm[f] = append(norm[f], nb)
			rate[f] = append(rate[f], mbs)
			count[f] = append(count[f], float64(nGC))
			if nGC > 0 {
				anyGC = true
				gctime[f] = append(gctime[f], math.Max(1, math.Round(float64(nGC)*g.uniform(0.3, 1.5))))
			}
		}
		allRate = append(allRate, rate[f]...)
		allNorm = append(allNorm, norm[f]...)
		allCount = append(allCount, count[f]...)
		allTime = append(allTime, gctime[f]...)
	}
	rec.secondaries = append(rec.secondaries,
		metricOut{name: prefix + "gc.alloc.rate", unit: "MB/sec", st: avgStats(allRate), raw: rate},
		metricOut{name: prefix + "gc.alloc.rate.norm", unit: "B/op", st: avgStats(allNorm), raw: norm},
		metricOut{name: prefix + "gc.count", unit: "counts", st: sumStats(allCount, len(allCount)), raw: count},
	)
	if anyGC {
		rec.secondaries = append(rec.secondaries,
			metricOut{name: prefix + "gc.time", unit: "ms", st: sumStats(allTime, len(allCount)), raw: gctime})
	}
}

// WriteJMH writes the suite's JMH JSON file for instance 1, trial 1.
func (s *Suite) WriteJMH(w io.Writer) error { return s.writeJMHRun(w, 1, 1) }

// writeJMHRun writes the JMH JSON file of one run of the whole suite
// (instance and trial 1-based): a JSON array with one record per series, as
// JMH's JSONResultFormat prints it (4-space indentation, `" : "`, Java
// double syntax, "NaN" strings, one-line histogram pairs, fields present
// according to JMHVersion), recorded with -wi 0: warmupIterations is 0 and
// every iteration is a measurement iteration.
func (s *Suite) writeJMHRun(w io.Writer, instance, trial int) error {
	if instance < 1 || instance > s.cfg.Instances || trial < 1 || trial > s.cfg.Trials {
		return fmt.Errorf("synth: WriteJMHRun: instance %d, trial %d outside %d×%d", instance, trial, s.cfg.Instances, s.cfg.Trials)
	}
	out := newSink(w)
	out.str("[\n")
	err := s.forEachRecord(instance, trial, func(i int, rec *jmhRecord) error {
		if i > 0 {
			out.str(",\n")
		}
		s.writeJMHRecord(out, &s.truth[i], rec)
		return out.err
	})
	if err != nil {
		return err
	}
	out.str("\n]\n\n\n")
	return out.flush()
}

// writeJMHRecord prints one record at indentation 4.
func (s *Suite) writeJMHRecord(out *sink, t *BenchmarkTruth, rec *jmhRecord) {
	c := &s.cfg
	strField := func(name, v string) {
		out.key(8, name)
		out.b = appendJSONString(out.b, v)
		out.str(",\n")
	}
	intField := func(name string, v int64) {
		out.key(8, name)
		out.int(v)
		out.str(",\n")
	}
	out.str("    {\n")
	if s.jv.atLeast(19) {
		strField("jmhVersion", c.JMHVersion)
	}
	strField("benchmark", t.JMHName)
	strField("mode", c.Mode)
	intField("threads", int64(c.Threads))
	intField("forks", int64(c.Forks))
	if s.jv.atLeast(19) {
		strField("jvm", c.jvm.path)
		out.key(8, "jvmArgs")
		out.str("[\n")
		for j, arg := range c.jvm.args {
			out.indent(12)
			out.b = appendJSONString(out.b, arg)
			if j < len(c.jvm.args)-1 {
				out.str(",")
			}
			out.str("\n")
		}
		out.indent(8)
		out.str("],\n")
		strField("jdkVersion", c.jvm.jdkVersion)
		if s.jv.atLeast(21) {
			strField("vmName", c.jvm.vmName)
		}
		strField("vmVersion", c.jvm.vmVersion)
	}
	timeStr := jmhTime(c.IterationTime)
	if c.Mode == modeSingleShot {
		timeStr = "single-shot"
	}
	intField("warmupIterations", 0)
	strField("warmupTime", timeStr)
	if s.jv.atLeast(12) {
		intField("warmupBatchSize", 1)
	}
	intField("measurementIterations", int64(c.Iterations))
	strField("measurementTime", timeStr)
	if s.jv.atLeast(12) {
		intField("measurementBatchSize", 1)
	}
	if len(t.Params) > 0 {
		out.key(8, "params")
		out.str("{\n")
		for j, p := range t.Params {
			out.key(12, p.Name)
			out.b = appendJSONString(out.b, p.Value)
			if j < len(t.Params)-1 {
				out.str(",")
			}
			out.str("\n")
		}
		out.indent(8)
		out.str("},\n")
	}
	out.key(8, "primaryMetric")
	s.writeMetric(out, 8, &rec.primary, rec)
	out.str(",\n")
	out.key(8, "secondaryMetrics")
	out.str("{\n")
	for j := range rec.secondaries {
		out.key(12, rec.secondaries[j].name)
		s.writeMetric(out, 12, &rec.secondaries[j], nil)
		if j < len(rec.secondaries)-1 {
			out.str(",")
		}
		out.str("\n")
	}
	out.indent(8)
	out.str("}\n    }")
}

// writeMetric prints a metric object whose key sits at indentation ind;
// rec is non-nil for a histogram primary.
func (s *Suite) writeMetric(out *sink, ind int, m *metricOut, rec *jmhRecord) {
	d := ind + 4
	out.str("{\n")
	out.key(d, "score")
	out.b = appendJSONDouble(out.b, m.st.score)
	out.str(",\n")
	out.key(d, "scoreError")
	out.b = appendJSONDouble(out.b, m.st.err)
	out.str(",\n")
	out.key(d, "scoreConfidence")
	out.str("[\n")
	out.indent(d + 4)
	out.b = appendJSONDouble(out.b, m.st.lo)
	out.str(",\n")
	out.indent(d + 4)
	out.b = appendJSONDouble(out.b, m.st.hi)
	out.str("\n")
	out.indent(d)
	out.str("],\n")
	out.key(d, "scorePercentiles")
	out.str("{\n")
	for j, k := range jmhPercentileKeys {
		out.key(d+4, k)
		out.b = appendJSONDouble(out.b, m.st.pct[j])
		if j < len(jmhPercentileKeys)-1 {
			out.str(",")
		}
		out.str("\n")
	}
	out.indent(d)
	out.str("},\n")
	out.key(d, "scoreUnit")
	out.b = appendJSONString(out.b, m.unit)
	out.str(",\n")
	if rec != nil && m.raw == nil {
		s.writeHistogram(out, d, rec)
	} else {
		out.key(d, "rawData")
		out.str("[\n")
		for f, row := range m.raw {
			out.indent(d + 4)
			out.str("[\n")
			for k, v := range row {
				out.indent(d + 8)
				out.b = appendJSONDouble(out.b, v)
				if k < len(row)-1 {
					out.str(",")
				}
				out.str("\n")
			}
			out.indent(d + 4)
			out.str("]")
			if f < len(m.raw)-1 {
				out.str(",")
			}
			out.str("\n")
			out.maybeFlush()
		}
		out.indent(d)
		out.str("]\n")
	}
	out.indent(ind)
	out.str("}")
}

// writeHistogram prints "rawDataHistogram" : forks × iterations × [value, count].
func (s *Suite) writeHistogram(out *sink, d int, rec *jmhRecord) {
	scale := s.unit.scale
	iters := s.cfg.Iterations
	out.key(d, "rawDataHistogram")
	out.str("[\n")
	start := 0
	for f := 0; f < s.cfg.Forks; f++ {
		out.indent(d + 4)
		out.str("[\n")
		for k := 0; k < iters; k++ {
			end := rec.histEnds[f*iters+k]
			out.indent(d + 8)
			out.str("[\n")
			for j := start; j < end; j++ {
				b := rec.hist[j]
				out.indent(d + 12)
				out.str("[ ")
				out.b = appendJSONDouble(out.b, float64(bucketValue(int(b.idx)))*scale)
				out.str(", ")
				out.int(int64(b.count))
				if j < end-1 {
					out.str(" ],\n")
				} else {
					out.str(" ]\n")
				}
			}
			start = end
			out.indent(d + 8)
			out.str("]")
			if k < iters-1 {
				out.str(",")
			}
			out.str("\n")
			out.maybeFlush()
		}
		out.indent(d + 4)
		out.str("]")
		if f < s.cfg.Forks-1 {
			out.str(",")
		}
		out.str("\n")
	}
	out.indent(d)
	out.str("]\n")
}

// maxWorkers bounds the goroutines generating records.
const maxWorkers = 8

// forEachRecord generates the records of every series for instance a,
// trial r and calls emit with them in series order. Records are generated
// by up to GOMAXPROCS workers (each series from its own streams, so the
// output does not depend on the number of workers) with bounded lookahead;
// the record passed to emit is reused after emit returns. The first error
// of emit stops the generation and is returned.
func (s *Suite) forEachRecord(a, r int, emit func(i int, rec *jmhRecord) error) error {
	n := len(s.truth)
	workers := min(runtime.GOMAXPROCS(0), n, maxWorkers)
	if workers <= 1 {
		gen, rec := newJMHGen(s), &jmhRecord{}
		for i := 0; i < n; i++ {
			gen.record(i, a, r, rec)
			if err := emit(i, rec); err != nil {
				return err
			}
		}
		return nil
	}
	// A worker takes a free record before it takes the next index, so the
	// record of the index emit waits for is always being generated.
	free := make(chan *jmhRecord, 2*workers)
	for j := 0; j < cap(free); j++ {
		free <- &jmhRecord{}
	}
	results := make([]chan *jmhRecord, n)
	for i := range results {
		results[i] = make(chan *jmhRecord, 1)
	}
	done := make(chan struct{})
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			gen := newJMHGen(s)
			for {
				var rec *jmhRecord
				select {
				case rec = <-free:
				case <-done:
					return
				}
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				gen.record(i, a, r, rec)
				results[i] <- rec
			}
		}()
	}
	var err error
	for i := 0; i < n && err == nil; i++ {
		rec := <-results[i]
		err = emit(i, rec)
		free <- rec
	}
	close(done)
	wg.Wait()
	return err
}
