package synth

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// JMH modes, as written in the JSON "mode" field.
const (
	modeThroughput  = "thrpt"
	modeAverageTime = "avgt"
	modeSampleTime  = "sample"
	modeSingleShot  = "ss"
)

// ParamAxis is one JMH @Param: a name and its values in declaration order.
type ParamAxis struct {
	Name   string
	Values []string
}

// Param is one parameter value of a series.
type Param struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// BenchmarkSpec fixes properties of one benchmark method instead of drawing
// them. Zero fields are drawn as usual. A spec applies to every params
// combination of its method.
type BenchmarkSpec struct {
	// Class and Method name the benchmark (the JMH name is
	// Package.Class.Method); empty means generated.
	Class, Method string
	// Kind of every series of the method; kindUnset means assigned with the
	// suite's fractions.
	Kind Kind
	// Shape of a no-steady-state method; shapeNone means drawn.
	Shape NoSteadyShape
	// Mean is the true steady-state mean of the method's first params
	// combination in ns/op; 0 means drawn from [MinMean, MaxMean].
	Mean float64
	// WarmupIterations and WarmupFactor fix the warmup curve (L and W).
	WarmupIterations int
	WarmupFactor     float64
	// SlowdownAt (0-based iteration) and SlowdownFactor (1+d) fix the slowdown.
	SlowdownAt     int
	SlowdownFactor float64
}

// WarmupConfig describes warmup curves: W (first iteration / steady mean)
// drawn uniformly from [MinFactor, MaxFactor] and L (true warmup iterations)
// uniformly from [MinIterations, MaxIterations].
type WarmupConfig struct {
	// Fraction of series (without a spec'd kind) that warm up.
	Fraction                     float64
	MinIterations, MaxIterations int
	minFactor, maxFactor         float64
	// shape is the decay rate λ of the curve over its length (larger decays
	// faster); 4 leaves 2 % of the excess at 3/4 of the length.
	shape float64
}

// SlowdownConfig describes late slowdowns: a step up by a factor drawn from
// [MinFactor, MaxFactor] at an iteration drawn from
// [MinAt·Iterations, MaxAt·Iterations).
type SlowdownConfig struct {
	Fraction             float64
	minFactor, maxFactor float64
	minAt, maxAt         float64
}

// NoSteadyConfig describes series that never reach a steady state, half of
// them (alternating) oscillating and half drifting.
type NoSteadyConfig struct {
	Fraction float64
	// amplitude A of the square-wave oscillation (levels 1±A) and its
	// Period in iterations.
	amplitude float64
	Period    int
	// drift D: relative increase from the first to the last iteration of a fork.
	drift float64
}

// OutlierConfig injects iteration outliers: with probability Rate an
// iteration is multiplied by 1+m, m uniform in [MinMagnitude, MaxMagnitude].
// Outliers are listed in BenchmarkTruth.Outliers.
type OutlierConfig struct {
	Rate                       float64
	minMagnitude, maxMagnitude float64
}

// SampleConfig describes sample-mode (JMH SampleTime) invocations.
type SampleConfig struct {
	// MaxPerIteration caps the samples per iteration; an iteration takes
	// min(MaxPerIteration, max(1, IterationTime / level)) samples.
	MaxPerIteration int
	// noise is the lognormal sigma of one invocation around the iteration level.
	noise float64
	// tailRate is the probability that an invocation is a tail event
	// (GC pause, interrupt) multiplied by a factor uniform in
	// [MinTail, MaxTail]; samples are rescaled so that the expected
	// invocation time is still the iteration level.
	tailRate         float64
	minTail, maxTail float64
}

// GCConfig adds JMH `-prof gc` secondary metrics (gc.alloc.rate,
// gc.alloc.rate.norm, gc.count and, when a GC happened, gc.time) to every
// record except single-shot ones.
type GCConfig struct {
	Enabled bool
	// zeroAllocFraction of series allocate (almost) nothing: tiny
	// gc.alloc.rate.norm values, no GCs, no gc.time key.
	zeroAllocFraction float64
	// youngGenMB is the allocation volume between two GCs.
	youngGenMB float64
}

// goBenchConfig describes `go test -bench` text output.
type goBenchConfig struct {
	goos, goarch, cpu string
	// procs is GOMAXPROCS, appended to names as -N when > 1.
	procs int
	// benchmem adds B/op and allocs/op.
	benchmem bool
	// setBytes > 0 adds MB/s as if b.SetBytes(setBytes) were called.
	setBytes int64
	// customMetric, when set, adds a b.ReportMetric unit (e.g. "p99-ns")
	// whose value is a per-series constant multiple (1.2–3) of ns/op.
	customMetric string
}

// raggedConfig drops rows from the µOpTime CSV (writeUOpTimeCSV only) to make
// ragged data like the real files. Dropped rows are listed in
// BenchmarkTruth.Dropped.
type raggedConfig struct {
	// dropIterations whole iterations (all their slices) are dropped.
	dropIterations int
	// dropSlices single slices are dropped (from iterations not dropped whole).
	dropSlices int
}

// jvmConfig holds the JVM fields of a JMH record.
type jvmConfig struct {
	path       string
	args       []string
	jdkVersion string
	vmName     string
	vmVersion  string
}

// SuiteConfig describes a synthetic benchmark suite. Start from
// DefaultSuiteConfig and change what a test needs.
type SuiteConfig struct {
	// Project and Version label the data (pa "project" and "commit").
	Project, Version string
	// pkg is the Java package of the benchmark classes; GoPackage the
	// import path printed in `pkg:` lines.
	pkg, goPackage string

	// Benchmarks is the number of benchmark methods; each is expanded over
	// the cartesian product of Params, giving one series per combination.
	Benchmarks int
	Params     []ParamAxis
	// Specs optionally fix properties of the first len(Specs) methods.
	Specs []BenchmarkSpec

	// Mode (the JMH mode: thrpt, avgt, sample or ss), Unit (JMH
	// scoreUnit; "" = ns/op, or ops/s for thrpt), JMHVersion and Threads
	// shape the JMH output.
	Mode       string
	Unit       string
	JMHVersion string
	Threads    int

	// Level sizes, outermost first. JMH files hold one (instance, trial);
	// µOpTime CSVs have no fork level and use fork 1; Slices is the number
	// of µOpTime 1-s slices per iteration. Iterations are recorded as with
	// `-wi 0`: warmup shows up as the first measurement iterations.
	Instances, Trials, Forks, Iterations, slices int
	// IterationTime is JMH's iteration time (-r) and the length of one
	// µOpTime slice or one Go benchmark run (-benchtime).
	IterationTime time.Duration

	// MinMean and MaxMean bound the true steady-state means (ns/op, drawn
	// log-uniformly per method); the j-th value (0-based) of a params axis
	// multiplies a method's mean by 1+0.75·j.
	MinMean, MaxMean float64
	// noise is the lognormal sigma of iteration values, sliceNoise of
	// µOpTime slices within an iteration.
	noise, sliceNoise float64
	// InstanceSD, TrialSD and ForkSD are the lognormal sigmas of the
	// between-instance, between-trial and between-fork factors.
	InstanceSD, TrialSD, ForkSD float64

	// The shares and settings of the series' shapes (their types'
	// comments say more): Warmup.Fraction, Warmup.MinIterations and
	// Warmup.MaxIterations; Slowdown.Fraction; NoSteady.Fraction and
	// NoSteady.Period; Outliers.Rate; Sample.MaxPerIteration (sample mode);
	// GC.Enabled (JMH `-prof gc` metrics).
	Warmup   WarmupConfig
	Slowdown SlowdownConfig
	NoSteady NoSteadyConfig
	Outliers OutlierConfig
	Sample   SampleConfig
	GC       GCConfig
	goBench  goBenchConfig
	ragged   raggedConfig
	jvm      jvmConfig

	// Seed selects every random draw.
	Seed uint64
}

// DefaultSuiteConfig returns the default suite: 8 JMH avgt benchmark methods
// × 2 params (16 series), 3 forks × 100 iterations of 1 s recorded with
// -wi 0, JMH 1.37, true means 20 ns – 2 ms, 2 % iteration noise, 3 %
// between forks, 40 % warming up (5–30 iterations, 1.5–4× slower at first),
// 10 % late slowdowns (+10–30 % after 50–80 % of the fork), 10 % without a
// steady state, 0.5 % outliers (+50–300 %), 3 instances × 3 trials × 5
// slices for µOpTime/pa output, and -prof gc metrics. A fresh copy is
// returned each time.
func DefaultSuiteConfig() SuiteConfig {
	return SuiteConfig{
		Project:    "demo",
		Version:    "v1",
		pkg:        "org.example.demo",
		goPackage:  "example.com/demo",
		Benchmarks: 8,
		Params:     []ParamAxis{{Name: "size", Values: []string{"16", "1024"}}},
		Mode:       modeAverageTime,
		Unit:       "ns/op",
		JMHVersion: "1.37",
		Threads:    1,

		Instances:     3,
		Trials:        3,
		Forks:         3,
		Iterations:    100,
		slices:        5,
		IterationTime: time.Second,

		MinMean:    20,
		MaxMean:    2e6,
		noise:      0.02,
		sliceNoise: 0.01,
		InstanceSD: 0.03,
		TrialSD:    0.01,
		ForkSD:     0.03,

		Warmup:   WarmupConfig{Fraction: 0.4, MinIterations: 5, MaxIterations: 30, minFactor: 1.5, maxFactor: 4, shape: 4},
		Slowdown: SlowdownConfig{Fraction: 0.1, minFactor: 1.1, maxFactor: 1.3, minAt: 0.5, maxAt: 0.8},
		NoSteady: NoSteadyConfig{Fraction: 0.1, amplitude: 0.1, Period: 12, drift: 0.3},
		Outliers: OutlierConfig{Rate: 0.005, minMagnitude: 0.5, maxMagnitude: 3},
		Sample:   SampleConfig{MaxPerIteration: 1000, noise: 0.05, tailRate: 0.002, minTail: 5, maxTail: 30},
		GC:       GCConfig{Enabled: true, zeroAllocFraction: 0.25, youngGenMB: 256},
		goBench: goBenchConfig{goos: "linux", goarch: "amd64", cpu: "Intel(R) Xeon(R) CPU @ 2.20GHz",
			procs: 8, benchmem: true},
		jvm: jvmConfig{
			path:       "/usr/lib/jvm/java-17-openjdk-amd64/bin/java",
			args:       []string{"-Xms2g", "-Xmx2g"},
			jdkVersion: "17.0.9",
			vmName:     "OpenJDK 64-Bit Server VM",
			vmVersion:  "17.0.9+9-Ubuntu-122.04",
		},
		Seed: 1,
	}
}

// UOpTimeSuiteConfig returns a suite shaped like the µOpTime Go data set:
// 3 instances × 3 suite runs × 5 iterations × 5 one-second slices, one fork,
// mostly flat benchmarks with means from 2 ns to 1 ms, no params.
func UOpTimeSuiteConfig() SuiteConfig {
	c := DefaultSuiteConfig()
	c.pkg = "org.example.gobench"
	c.Benchmarks = 20
	c.Params = nil
	c.Forks = 1
	c.Iterations = 5
	c.MinMean, c.MaxMean = 2, 1e6
	c.noise, c.sliceNoise = 0.02, 0.015
	c.InstanceSD, c.TrialSD, c.ForkSD = 0.03, 0.01, 0
	c.Warmup.Fraction = 0
	c.Slowdown.Fraction = 0
	c.NoSteady.Fraction = 0
	c.Outliers.Rate = 0.002
	c.GC.Enabled = false
	return c
}

// sampleSuiteConfig returns a JMH sample-mode suite (us/op, JMH 1.37, no
// params, -prof gc) of the given number of benchmarks, each 5 forks × 50
// iterations of up to 1000 invocation samples: about 1.5 MB of JSON per
// benchmark, so 140 benchmarks give a file of about 210 MB (the size the
// ingest benchmarks need).
func sampleSuiteConfig(benchmarks int) SuiteConfig {
	c := DefaultSuiteConfig()
	c.Mode, c.Unit = modeSampleTime, "us/op"
	c.Benchmarks, c.Params = benchmarks, nil
	c.Forks, c.Iterations = 5, 50
	return c
}

// unitInfo describes a JMH score unit.
type unitInfo struct {
	throughput bool
	nsPerUnit  float64 // nanoseconds in the unit's time unit
	scale      float64 // ns → unit factor for time units (1/nsPerUnit as a double)
}

// parseUnit parses "<tu>/op" or "ops/<tu>" with tu one of ns us ms s min hr day.
func parseUnit(u string) (unitInfo, error) {
	timeUnits := map[string][2]float64{
		"ns": {1, 1}, "us": {1e3, 1e-3}, "ms": {1e6, 1e-6}, "s": {1e9, 1e-9},
		"min": {6e10, 1 / 6e10}, "hr": {3.6e12, 1 / 3.6e12}, "day": {8.64e13, 1 / 8.64e13},
	}
	if tu, ok := strings.CutPrefix(u, "ops/"); ok {
		if v, ok := timeUnits[tu]; ok {
			return unitInfo{throughput: true, nsPerUnit: v[0]}, nil
		}
	} else if tu, ok := strings.CutSuffix(u, "/op"); ok {
		if v, ok := timeUnits[tu]; ok {
			return unitInfo{nsPerUnit: v[0], scale: v[1]}, nil
		}
	}
	return unitInfo{}, fmt.Errorf("synth: unknown unit %q (want <tu>/op or ops/<tu>, tu one of ns us ms s min hr day)", u)
}

// jmhVersion is a parsed "1.minor[.patch]" JMH version.
type jmhVersion struct{ major, minor int }

func parseJMHVersion(v string) (jmhVersion, error) {
	parts := strings.Split(v, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return jmhVersion{}, fmt.Errorf("synth: JMH version %q is not major.minor[.patch]", v)
	}
	var n [3]int
	for i, p := range parts {
		x, err := strconv.Atoi(p)
		if err != nil || x < 0 {
			return jmhVersion{}, fmt.Errorf("synth: JMH version %q is not major.minor[.patch]", v)
		}
		n[i] = x
	}
	jv := jmhVersion{n[0], n[1]}
	if jv.major != 1 || jv.minor < 8 {
		return jmhVersion{}, fmt.Errorf("synth: JMH version %q not supported (want 1.8 or later)", v)
	}
	return jv, nil
}

func (v jmhVersion) atLeast(minor int) bool { return v.minor >= minor }

// validate reports the first problem of c, naming the field.
func (c *SuiteConfig) validate() error {
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("synth: SuiteConfig.%s: %s", field, fmt.Sprintf(format, args...))
	}
	finitePos := func(x float64) bool { return x > 0 && !math.IsInf(x, 0) && !math.IsNaN(x) }
	nonNeg := func(x float64) bool { return x >= 0 && !math.IsInf(x, 0) && !math.IsNaN(x) }
	frac := func(x float64) bool { return x >= 0 && x <= 1 }
	switch {
	case c.Benchmarks < 1:
		return bad("Benchmarks", "%d < 1", c.Benchmarks)
	case len(c.Specs) > c.Benchmarks:
		return bad("Specs", "%d specs for %d benchmarks", len(c.Specs), c.Benchmarks)
	case c.Instances < 1, c.Trials < 1, c.Forks < 1, c.Iterations < 1, c.slices < 1:
		return bad("Instances/Trials/Forks/Iterations/Slices", "every level needs at least 1 (got %d, %d, %d, %d, %d)",
			c.Instances, c.Trials, c.Forks, c.Iterations, c.slices)
	case c.Threads < 1:
		return bad("Threads", "%d < 1", c.Threads)
	case c.IterationTime <= 0:
		return bad("IterationTime", "%v is not positive", c.IterationTime)
	case !finitePos(c.MinMean) || !finitePos(c.MaxMean) || c.MinMean > c.MaxMean:
		return bad("MinMean/MaxMean", "need 0 < MinMean ≤ MaxMean (got %g, %g)", c.MinMean, c.MaxMean)
	case !nonNeg(c.noise) || !nonNeg(c.sliceNoise) || !nonNeg(c.InstanceSD) || !nonNeg(c.TrialSD) || !nonNeg(c.ForkSD):
		return bad("Noise", "noise parameters must be finite and ≥ 0")
	case !frac(c.Warmup.Fraction) || !frac(c.Slowdown.Fraction) || !frac(c.NoSteady.Fraction):
		return bad("Warmup/Slowdown/NoSteady.Fraction", "fractions must lie in [0, 1]")
	case c.Warmup.Fraction+c.Slowdown.Fraction+c.NoSteady.Fraction > 1+1e-12:
		return bad("Warmup/Slowdown/NoSteady.Fraction", "fractions sum to more than 1")
	case !frac(c.Outliers.Rate) || !frac(c.Sample.tailRate) || !frac(c.GC.zeroAllocFraction):
		return bad("Outliers.Rate/Sample.TailRate/GC.ZeroAllocFraction", "rates must lie in [0, 1]")
	case c.ragged.dropIterations < 0 || c.ragged.dropSlices < 0:
		return bad("Ragged", "negative drop counts")
	case c.goBench.procs < 1:
		return bad("Go.Procs", "%d < 1", c.goBench.procs)
	}
	needCurve := c.Warmup.Fraction > 0 || c.Slowdown.Fraction > 0 || hasSpecKind(c.Specs, KindWarmup) || hasSpecKind(c.Specs, KindSlowdown)
	if needCurve && c.Iterations < 2 {
		return bad("Iterations", "warmup and slowdown series need at least 2 iterations per fork")
	}
	if c.Warmup.Fraction > 0 || hasSpecKind(c.Specs, KindWarmup) {
		w := c.Warmup
		if w.MinIterations < 1 || w.MaxIterations < w.MinIterations {
			return bad("Warmup", "need 1 ≤ MinIterations ≤ MaxIterations (got %d, %d)", w.MinIterations, w.MaxIterations)
		}
		if !(w.minFactor > 1) || w.maxFactor < w.minFactor || !finitePos(w.shape) {
			return bad("Warmup", "need 1 < MinFactor ≤ MaxFactor and Shape > 0")
		}
	}
	if c.Slowdown.Fraction > 0 || hasSpecKind(c.Specs, KindSlowdown) {
		s := c.Slowdown
		if !(s.minFactor > 0) || s.maxFactor < s.minFactor || s.minFactor == 1 || s.minAt <= 0 || s.maxAt < s.minAt || s.maxAt >= 1 {
			return bad("Slowdown", "need 0 < MinFactor ≤ MaxFactor, MinFactor ≠ 1, 0 < MinAt ≤ MaxAt < 1")
		}
	}
	if c.NoSteady.Fraction > 0 || hasSpecKind(c.Specs, KindNoSteadyState) {
		n := c.NoSteady
		if !(n.amplitude > 0 && n.amplitude < 1) || n.Period < 2 || !finitePos(n.drift) {
			return bad("NoSteady", "need 0 < Amplitude < 1, Period ≥ 2, Drift > 0")
		}
	}
	if c.Outliers.Rate > 0 && (!finitePos(c.Outliers.minMagnitude) || c.Outliers.maxMagnitude < c.Outliers.minMagnitude) {
		return bad("Outliers", "need 0 < MinMagnitude ≤ MaxMagnitude")
	}
	if c.Mode == modeSampleTime {
		s := c.Sample
		if s.MaxPerIteration < 1 || !nonNeg(s.noise) {
			return bad("Sample", "need MaxPerIteration ≥ 1 and Noise ≥ 0")
		}
		if s.tailRate > 0 && (!(s.minTail >= 1) || s.maxTail < s.minTail) {
			return bad("Sample", "need 1 ≤ MinTail ≤ MaxTail")
		}
	}
	if c.GC.Enabled && !finitePos(c.GC.youngGenMB) {
		return bad("GC.YoungGenMB", "%g is not positive", c.GC.youngGenMB)
	}
	switch c.Mode {
	case modeThroughput, modeAverageTime, modeSampleTime, modeSingleShot:
	default:
		return bad("Mode", "unknown mode %q", c.Mode)
	}
	u, err := parseUnit(c.unit())
	if err != nil {
		return err
	}
	if u.throughput != (c.Mode == modeThroughput) {
		return bad("Unit", "unit %q does not fit mode %q", c.unit(), c.Mode)
	}
	if _, err := parseJMHVersion(c.JMHVersion); err != nil {
		return err
	}
	for _, s := range []struct{ field, v string }{{"Project", c.Project}, {"Version", c.Version}, {"Package", c.pkg}, {"GoPackage", c.goPackage}} {
		if s.v == "" || strings.ContainsAny(s.v, " \t\r\n;,\"") {
			return bad(s.field, "%q must be non-empty without spaces, quotes, ';' or ','", s.v)
		}
	}
	seen := map[string]bool{}
	for _, a := range c.Params {
		if !validToken(a.Name) || seen[a.Name] || len(a.Values) == 0 {
			return bad("Params", "axis %q: names must be unique identifiers with at least one value", a.Name)
		}
		seen[a.Name] = true
		vs := map[string]bool{}
		for _, v := range a.Values {
			if v == "" || vs[v] || strings.ContainsAny(v, " \t\r\n;,=/\"\\") {
				return bad("Params", "axis %q: value %q must be unique, non-empty, without spaces or ; , = / \" \\", a.Name, v)
			}
			vs[v] = true
		}
	}
	for i, s := range c.Specs {
		if (s.Class != "") != (s.Method != "") || (s.Class != "" && (!validToken(s.Class) || !validToken(s.Method))) {
			return bad("Specs", "spec %d: Class and Method must both be identifiers or both empty", i)
		}
		if s.Kind > KindNoSteadyState || s.Shape > ShapeDrift || s.Mean < 0 || s.WarmupIterations < 0 ||
			s.SlowdownAt < 0 || s.SlowdownAt >= c.Iterations || s.WarmupIterations >= c.Iterations ||
			(s.WarmupFactor != 0 && !(s.WarmupFactor > 1)) || s.SlowdownFactor < 0 {
			return bad("Specs", "spec %d: out-of-range field", i)
		}
	}
	return nil
}

func hasSpecKind(specs []BenchmarkSpec, k Kind) bool {
	for _, s := range specs {
		if s.Kind == k {
			return true
		}
	}
	return false
}

// validToken reports whether s is a Java/Go-style identifier.
func validToken(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// unit returns the configured JMH unit or the mode's default.
func (c *SuiteConfig) unit() string {
	if c.Unit != "" {
		return c.Unit
	}
	if c.Mode == modeThroughput {
		return "ops/s"
	}
	return "ns/op"
}
