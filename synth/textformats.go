package synth

import (
	"github.com/benchtrim/benchtrim/format/pa"

	"io"
	"strconv"
)

// uOpTimeHeader is the header of µOpTime Go benchmark CSVs.
const uOpTimeHeader = "m_id,n,ns_per_op,bed_setup,it_setup,sr_setup,ir_setup,bed_pos,it_pos,sr_pos,ir_pos,b_name"

// paHeader is the pa/bencher CSV header (docs/formats/pa.md), defined
// once by the reader.
var paHeader = pa.Header

// writeUOpTimeCSV writes the suite as a µOpTime Go benchmark CSV (Japke et
// al., TOSEM 2025, replication package data set 1): one row per 1-s slice,
// levels instance (ir) > suite run (sr, the suite's trials) > iteration (it)
// > slice (bed), rows ordered instance, benchmark, suite run, iteration,
// slice as in the real files; fork 1 of each trial is used (a Go suite run
// is one process). n is the simulated b.N of the slice's `go test` run
// (n·ns_per_op ≈ 1–1.3 × IterationTime) and ns_per_op is rounded as Go
// prints it. Rows listed in BenchmarkTruth.Dropped are left out; m_id stays
// consecutive.
func (s *Suite) writeUOpTimeCSV(w io.Writer) error {
	c := &s.cfg
	out := newSink(w)
	out.str(uOpTimeHeader + "\n")
	setup := "," + strconv.Itoa(c.slices) + "," + strconv.Itoa(c.Iterations) + "," + strconv.Itoa(c.Trials) + "," + strconv.Itoa(c.Instances) + ","
	g := newRNG()
	var levels []float64
	id := int64(0)
	goal := c.IterationTime.Nanoseconds()
	for a := 1; a <= c.Instances; a++ {
		for i := range s.truth {
			t := &s.truth[i]
			dropped := map[Position]bool{}
			for _, p := range t.Dropped {
				dropped[p] = true
			}
			for r := 1; r <= c.Trials; r++ {
				levels = s.forkLevels(levels[:0], i, a, r, 1)
				for k, level := range levels {
					it := Position{Instance: a, Trial: r, Fork: 1, Iteration: k + 1}
					if dropped[it] {
						continue
					}
					g.reset(c.Seed, streamKey{base: s.vbase[i], purpose: purposeSlices, idx: [5]uint64{uint64(a), uint64(r), 1, uint64(k)}})
					for sl := 1; sl <= c.slices; sl++ {
						v := level * g.lognormal1(c.sliceNoise)
						n := goLaunchN(g, v, goal)
						p := it
						p.Slice = sl
						if dropped[p] {
							continue
						}
						id++
						out.int(id)
						out.str(",")
						out.int(n)
						out.str(",")
						out.b = appendCSVFloat(out.b, goRounded(v))
						out.str(setup)
						out.int(int64(sl))
						out.str(",")
						out.int(int64(k + 1))
						out.str(",")
						out.int(int64(r))
						out.str(",")
						out.int(int64(a))
						out.str(",")
						out.str(t.GoName)
						out.str("\n")
					}
					out.maybeFlush()
				}
				if out.err != nil {
					return out.err
				}
			}
		}
	}
	return out.flush()
}

// goName returns the name of series t as `go test` prints it, with the
// -GOMAXPROCS suffix when Procs > 1.
func (s *Suite) goName(t *BenchmarkTruth) string {
	if s.cfg.goBench.procs > 1 {
		return t.GoName + "-" + strconv.Itoa(s.cfg.goBench.procs)
	}
	return t.GoName
}

// writeGoBench writes the suite as `go test -bench . -count Iterations`
// output of instance 1, trial 1 (Go design doc 14313, "Go Benchmark Data
// Format"): per fork one run of the test binary (config lines goos, goarch,
// pkg, cpu; result lines; PASS; ok), each series' -count repeats on
// consecutive lines as `BenchmarkX/k=v-8 <tab> N <tab> v ns/op` with b.N
// simulated like Go's launch loop, values printed like Go's prettyPrint,
// and optional MB/s, custom metric, B/op and allocs/op.
func (s *Suite) writeGoBench(w io.Writer) error {
	c := &s.cfg
	gc := &c.goBench
	out := newSink(w)
	width := 0
	for i := range s.truth {
		width = max(width, len(s.goName(&s.truth[i])))
	}
	g := newRNG()
	var levels []float64
	goal := c.IterationTime.Nanoseconds()
	for f := 1; f <= c.Forks; f++ {
		out.str("goos: " + gc.goos + "\ngoarch: " + gc.goarch + "\npkg: " + c.goPackage + "\n")
		if gc.cpu != "" {
			out.str("cpu: " + gc.cpu + "\n")
		}
		totalNs := 0.0
		for i := range s.truth {
			t := &s.truth[i]
			name := s.goName(t)
			levels = s.forkLevels(levels[:0], i, 1, 1, f)
			for k, v := range levels {
				g.reset(c.Seed, streamKey{base: s.vbase[i], purpose: purposeGoRun, idx: [5]uint64{1, 1, uint64(f), uint64(k)}})
				n := goLaunchN(g, v, goal)
				// The launch runs before the last one, plus setup, also take time.
				totalNs += float64(n)*v*g.uniform(1.05, 1.4) + g.uniform(0.01e9, 0.2e9)
				out.str(name)
				out.indent(width - len(name))
				out.str("\t")
				out.b = appendPadInt(out.b, n, 8)
				out.str("\t")
				out.b = appendGoPretty(out.b, v, "ns/op")
				if gc.setBytes > 0 {
					out.str("\t")
					out.b = appendFixedPad(out.b, float64(gc.setBytes)*1e3/v, 2, 7)
					out.str(" MB/s")
				}
				if gc.customMetric != "" {
					out.str("\t")
					out.b = appendGoPretty(out.b, v*t.CustomFactor, gc.customMetric)
				}
				if gc.benchmem {
					out.str("\t")
					out.b = appendPadInt(out.b, t.BytesPerOp, 8)
					out.str(" B/op\t")
					out.b = appendPadInt(out.b, t.AllocsPerOp, 8)
					out.str(" allocs/op")
				}
				out.str("\n")
			}
			out.maybeFlush()
		}
		out.str("PASS\nok  \t" + c.goPackage + "\t")
		out.b = strconv.AppendFloat(out.b, totalNs/1e9, 'f', 3, 64)
		out.str("s\n")
		if out.err != nil {
			return out.err
		}
	}
	return out.flush()
}

// appendFixedPad appends x with the given fraction digits, right-aligned in width.
func appendFixedPad(b []byte, x float64, digits, width int) []byte {
	var tmp [40]byte
	t := strconv.AppendFloat(tmp[:0], x, 'f', digits, 64)
	for i := len(t); i < width; i++ {
		b = append(b, ' ')
	}
	return append(b, t...)
}

// writePA writes the suite as a pa/bencher CSV (Laaber's pa and bencher
// tools): header paHeader, `;`-separated, one row per iteration value with
// value_count 1 (avgt, thrpt, ss), or per histogram bucket with value_count
// = count (sample), over every instance, trial, fork and iteration, rows
// grouped by series; values in the JMH unit printed with Java's %e
// ("4.789633e+01"), instance written as its number, commit = Version.
func (s *Suite) writePA(w io.Writer) error {
	c := &s.cfg
	out := newSink(w)
	out.str(paHeader + "\n")
	gen := newJMHGen(s)
	var levels []float64
	var hist []bucket
	unit := c.unit()
	for i := range s.truth {
		t := &s.truth[i]
		prefix := c.Project + ";" + c.Version + ";" + t.JMHName + ";" + t.ParamsKey + ";"
		for a := 1; a <= c.Instances; a++ {
			for r := 1; r <= c.Trials; r++ {
				for f := 1; f <= c.Forks; f++ {
					levels = s.forkLevels(levels[:0], i, a, r, f)
					for k, level := range levels {
						row := func(count int64, v float64) {
							out.str(prefix)
							out.int(int64(a))
							out.str(";")
							out.int(int64(r))
							out.str(";")
							out.int(int64(f))
							out.str(";")
							out.int(int64(k + 1))
							out.str(";" + c.Mode + ";" + unit + ";")
							out.int(count)
							out.str(";")
							out.b = strconv.AppendFloat(out.b, v, 'e', 6, 64)
							out.str("\n")
						}
						if c.Mode != modeSampleTime {
							row(1, s.unitValue(level))
							continue
						}
						s.iterationSamples(s.sampleStream(gen.g, i, a, r, f, k), level, gen.iterCounts)
						hist = gen.iterCounts.drain(hist[:0])
						for _, b := range hist {
							row(int64(b.count), float64(bucketValue(int(b.idx)))*s.unit.scale)
						}
					}
					out.maybeFlush()
					if out.err != nil {
						return out.err
					}
				}
			}
		}
	}
	return out.flush()
}
