package synth

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Kind is the known behaviour of a benchmark series over the iterations of a
// fork (Barrett et al., OOPSLA 2017, "Virtual machine warmup blows hot and
// cold"; Traini et al., EMSE 2022).
type Kind uint8

// Kinds. KindUnset only appears in BenchmarkSpec (meaning "assign one").
const (
	KindUnset Kind = iota
	// KindFlat: steady from the first iteration.
	KindFlat
	// KindWarmup: slower first iterations decaying to the steady mean.
	KindWarmup
	// KindSlowdown: steady, then a step up to a slower steady level.
	KindSlowdown
	// KindNoSteadyState: oscillating or drifting until the end.
	KindNoSteadyState
)

// String returns "flat", "warmup", "slowdown", "no-steady-state" or "unset".
func (k Kind) String() string {
	switch k {
	case KindFlat:
		return "flat"
	case KindWarmup:
		return "warmup"
	case KindSlowdown:
		return "slowdown"
	case KindNoSteadyState:
		return "no-steady-state"
	case KindUnset:
		return "unset"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText encodes the kind as its String.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// NoSteadyShape is how a no-steady-state series misbehaves.
type NoSteadyShape uint8

// Shapes.
const (
	ShapeNone NoSteadyShape = iota
	// ShapeOscillation: a square wave between 1+A and 1−A.
	ShapeOscillation
	// ShapeDrift: a linear increase by D over the fork.
	ShapeDrift
)

// String returns "", "oscillation" or "drift".
func (s NoSteadyShape) String() string {
	switch s {
	case ShapeOscillation:
		return "oscillation"
	case ShapeDrift:
		return "drift"
	}
	return ""
}

// MarshalText encodes the shape as its String.
func (s NoSteadyShape) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Position locates a value in the repetition levels; all fields are
// 1-based like the canonical table. Slice is 0 when the whole iteration is
// meant.
type Position struct {
	Instance  int `json:"instance"`
	Trial     int `json:"trial"`
	Fork      int `json:"fork"`
	Iteration int `json:"iteration"`
	Slice     int `json:"slice"`
}

// Outlier is an injected iteration outlier: the iteration's value was
// multiplied by Factor (> 1).
type Outlier struct {
	Position
	Factor float64 `json:"factor"`
}

// BenchmarkTruth is what the generator knows about one series (a benchmark
// method with one params combination).
type BenchmarkTruth struct {
	// Index is the series' position in the suite (the order of the files).
	Index int `json:"index"`
	// Class and Method name the benchmark; JMHName is Package.Class.Method
	// and GoName "Benchmark"+Class+Method plus "/k=v" params parts (without
	// the -GOMAXPROCS suffix), as the µOpTime CSV's b_name.
	Class   string `json:"class"`
	Method  string `json:"method"`
	JMHName string `json:"jmh_name"`
	GoName  string `json:"go_name"`
	// Params in key order; ParamsKey is the canonical "k=v,k=v" string.
	Params    []Param `json:"params"`
	ParamsKey string  `json:"params_key"`

	Kind  Kind          `json:"kind"`
	Shape NoSteadyShape `json:"shape"`

	// Mean is the true steady-state mean μ in ns/op: the expected value of
	// a clean iteration at curve level 1 (after warmup, before a slowdown,
	// the centre of an oscillation, the start of a drift), including the
	// version's change. FinalMean is μ·c(n−1), the level at the last
	// iteration of a fork.
	Mean      float64 `json:"mean"`
	FinalMean float64 `json:"final_mean"`

	// Iterations per fork (the curve's length).
	Iterations int `json:"iterations"`
	// WarmupIterations (L) is the true number of warmup iterations of every
	// fork: iterations 0..L−1 (0-based) are slower, c(L) = 1 exactly.
	// WarmupFactor (W) is c(0) and WarmupShape the decay rate λ.
	WarmupIterations int     `json:"warmup_iterations"`
	WarmupFactor     float64 `json:"warmup_factor"`
	WarmupShape      float64 `json:"warmup_shape"`
	// SlowdownAt (S, 0-based) is the first slow iteration and
	// SlowdownFactor (1+d) the level after it; -1 and 1 without a slowdown.
	SlowdownAt     int     `json:"slowdown_at"`
	SlowdownFactor float64 `json:"slowdown_factor"`
	// Amplitude, Period and Phase describe an oscillation; Drift a drift.
	Amplitude float64 `json:"amplitude"`
	Period    int     `json:"period"`
	Phase     int     `json:"phase"`
	Drift     float64 `json:"drift"`
	// SteadyStart is the 0-based index of the first iteration of the final
	// steady segment of every fork, i.e. the number of iterations before it
	// (0 flat, L warmup, S slowdown); -1 without a steady state.
	SteadyStart int `json:"steady_start"`

	// BytesPerOp and AllocsPerOp are the allocation per operation (Go B/op
	// and allocs/op; JMH gc.alloc.rate.norm). ZeroAlloc series allocate
	// almost nothing and never trigger a GC.
	BytesPerOp  int64 `json:"bytes_per_op"`
	AllocsPerOp int64 `json:"allocs_per_op"`
	ZeroAlloc   bool  `json:"zero_alloc"`
	// CustomFactor is the ratio of the Go custom metric to ns/op.
	CustomFactor float64 `json:"custom_factor"`

	// Outliers lists the injected iteration outliers over all instances,
	// trials and forks, in level order.
	Outliers []Outlier `json:"outliers"`
	// Dropped lists the rows missing from the µOpTime CSV: whole
	// iterations (Slice 0) and single slices, in level order.
	Dropped []Position `json:"dropped"`
}

// curve returns the behaviour curve c(k): the expected value of 0-based
// iteration k of any fork relative to Mean (see the package doc).
func (t *BenchmarkTruth) curve(k int) float64 {
	switch t.Kind {
	case KindWarmup:
		if k < t.WarmupIterations {
			l, lam := float64(t.WarmupIterations), t.WarmupShape
			tail := math.Exp(-lam)
			return 1 + (t.WarmupFactor-1)*(math.Exp(-lam*float64(k)/l)-tail)/(1-tail)
		}
	case KindSlowdown:
		if k >= t.SlowdownAt {
			return t.SlowdownFactor
		}
	case KindNoSteadyState:
		switch t.Shape {
		case ShapeOscillation:
			half := max(1, t.Period/2)
			if ((k+t.Phase)/half)%2 == 0 {
				return 1 + t.Amplitude
			}
			return 1 - t.Amplitude
		case ShapeDrift:
			if t.Iterations > 1 {
				return 1 + t.Drift*float64(k)/float64(t.Iterations-1)
			}
		}
	}
	return 1
}

// Suite is a generated benchmark suite: its configuration, the truth of
// every series, and writers for every format. A Suite is immutable and safe
// for concurrent use.
type Suite struct {
	cfg    SuiteConfig
	unit   unitInfo
	jv     jmhVersion
	truth  []BenchmarkTruth
	vbase  []uint64 // per-series stream base of measured values (series and version)
	levels int      // Instances·Trials·Forks·Iterations per series
}

// NewSuite validates cfg and computes the truth of every series.
func NewSuite(cfg SuiteConfig) (*Suite, error) {
	return newSuite(cfg, nil)
}

// newSuite builds the suite; scale, when non-nil, multiplies each series'
// mean (used by Versions).
func newSuite(cfg SuiteConfig, scale []float64) (*Suite, error) {
	cfg = cloneConfig(cfg)
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	u, _ := parseUnit(cfg.unit())
	jv, _ := parseJMHVersion(cfg.JMHVersion)
	if cfg.Mode == modeSampleTime && !jv.atLeast(14) {
		return nil, fmt.Errorf("synth: SuiteConfig.JMHVersion: sample mode needs JMH 1.14 or later (rawDataHistogram), got %s", cfg.JMHVersion)
	}
	s := &Suite{cfg: cfg, unit: u, jv: jv}
	if err := s.buildTruth(scale); err != nil {
		return nil, err
	}
	if err := s.dropRows(); err != nil {
		return nil, err
	}
	return s, nil
}

func cloneConfig(c SuiteConfig) SuiteConfig {
	c.Params = slices.Clone(c.Params)
	for i := range c.Params {
		c.Params[i].Values = slices.Clone(c.Params[i].Values)
	}
	c.Specs = slices.Clone(c.Specs)
	c.jvm.args = slices.Clone(c.jvm.args)
	return c
}

// Config returns a copy of the suite's configuration.
func (s *Suite) Config() SuiteConfig { return cloneConfig(s.cfg) }

// Len returns the number of series.
func (s *Suite) Len() int { return len(s.truth) }

// Truth returns a copy of the truth of every series, in file order.
func (s *Suite) Truth() []BenchmarkTruth {
	out := make([]BenchmarkTruth, len(s.truth))
	for i, t := range s.truth {
		t.Params = slices.Clone(t.Params)
		t.Outliers = slices.Clone(t.Outliers)
		t.Dropped = slices.Clone(t.Dropped)
		out[i] = t
	}
	return out
}

// Word lists for benchmark names.
var (
	nameNouns = []string{"Json", "Parser", "Codec", "Hash", "Queue", "Cache", "Buffer", "Matrix",
		"Regex", "Sort", "Tree", "Stream", "Compress", "Crypto", "Logger", "Router", "Scheduler",
		"Serializer", "Tokenizer", "Format"}
	nameVerbs = []string{"encode", "decode", "parse", "read", "write", "insert", "lookup", "scan",
		"merge", "copy", "hash", "format", "sort", "validate", "compile", "render"}
	nameObjects = []string{"Small", "Large", "Nested", "Ascii", "Utf8", "Ints", "Strings", "Records",
		"Batch", "Single"}
)

const methodsPerClass = 5

// generatedName returns the class and method of generated method m.
func generatedName(m int) (class, method string) {
	c, j := m/methodsPerClass, m%methodsPerClass
	class = nameNouns[c%len(nameNouns)]
	if c >= len(nameNouns) {
		class += strconv.Itoa(c/len(nameNouns) + 1)
	}
	class += "Benchmark"
	// 3·j mod 16 is distinct for j < 16, so methods of a class differ.
	method = nameVerbs[(c*7+j*3)%len(nameVerbs)] + nameObjects[(c*3+j)%len(nameObjects)]
	return class, method
}

type method struct {
	class, name string
	spec        BenchmarkSpec
}

// buildTruth names the series, assigns kinds and draws every series' truth.
func (s *Suite) buildTruth(scale []float64) error {
	cfg := &s.cfg
	methods := make([]method, cfg.Benchmarks)
	seen := map[string]bool{}
	for m := range methods {
		class, name := generatedName(m)
		var sp BenchmarkSpec
		if m < len(cfg.Specs) {
			sp = cfg.Specs[m]
			if sp.Class != "" {
				class, name = sp.Class, sp.Method
			}
		}
		full := class + "." + name
		if seen[full] {
			return fmt.Errorf("synth: SuiteConfig.Specs: benchmark %s appears twice", full)
		}
		seen[full] = true
		methods[m] = method{class: class, name: name, spec: sp}
	}
	// JMH orders records by benchmark name, then params.
	sort.SliceStable(methods, func(a, b int) bool {
		return methods[a].class+"."+methods[a].name < methods[b].class+"."+methods[b].name
	})
	axes := slices.Clone(cfg.Params)
	sort.SliceStable(axes, func(a, b int) bool { return axes[a].Name < axes[b].Name })
	combos := paramCombos(axes)

	n := len(methods) * len(combos)
	if scale != nil && len(scale) != n {
		panic("synth: internal: scale length mismatch")
	}
	s.truth = make([]BenchmarkTruth, 0, n)
	s.vbase = make([]uint64, 0, n)
	verHash := hashString(fnvOffset, "version\x00"+cfg.Version)
	for _, m := range methods {
		jmhName := cfg.pkg + "." + m.class + "." + m.name
		goBase := "Benchmark" + strings.TrimSuffix(m.class, "Benchmark") + strings.ToUpper(m.name[:1]) + m.name[1:]
		mg := stream(cfg.Seed, streamKey{base: hashString(fnvOffset, jmhName), purpose: purposeTruth})
		mean := math.Exp(mg.uniform(math.Log(cfg.MinMean), math.Log(cfg.MaxMean)))
		if m.spec.Mean > 0 {
			mean = m.spec.Mean
		}
		for _, combo := range combos {
			t := BenchmarkTruth{
				Index: len(s.truth), Class: m.class, Method: m.name, JMHName: jmhName,
				Iterations: cfg.Iterations, SlowdownAt: -1, SlowdownFactor: 1,
			}
			goName := goBase
			keys := make([]string, len(combo))
			factor := 1.0
			for a, j := range combo {
				p := Param{Name: axes[a].Name, Value: axes[a].Values[j]}
				t.Params = append(t.Params, p)
				keys[a] = p.Name + "=" + p.Value
				goName += "/" + keys[a]
				factor *= 1 + 0.75*float64(j)
			}
			t.ParamsKey = strings.Join(keys, ",")
			t.GoName = goName
			t.Mean = mean * factor
			if scale != nil {
				t.Mean *= scale[len(s.truth)]
			}
			t.Kind, t.Shape = m.spec.Kind, m.spec.Shape
			s.drawSeriesTruth(&t, m.spec)
			s.truth = append(s.truth, t)
			key := hashString(fnvOffset, jmhName+"?"+t.ParamsKey)
			s.vbase = append(s.vbase, key^verHash)
		}
	}
	s.assignKinds()
	for i := range s.truth {
		s.finishTruth(&s.truth[i])
	}
	s.levels = cfg.Instances * cfg.Trials * cfg.Forks * cfg.Iterations
	return nil
}

// paramCombos returns the cartesian product of value indices, first axis
// outermost, values in declaration order. No axes give one empty combo.
func paramCombos(axes []ParamAxis) [][]int {
	combos := [][]int{{}}
	for _, a := range axes {
		var next [][]int
		for _, c := range combos {
			for j := range a.Values {
				next = append(next, append(slices.Clone(c), j))
			}
		}
		combos = next
	}
	return combos
}

// drawSeriesTruth draws the kind-independent per-series parameters from the
// series' truth stream, always in the same order so that a change of kind
// does not shift other draws.
func (s *Suite) drawSeriesTruth(t *BenchmarkTruth, sp BenchmarkSpec) {
	cfg := &s.cfg
	g := stream(cfg.Seed, streamKey{base: hashString(fnvOffset, t.JMHName+"?"+t.ParamsKey), purpose: purposeTruth})
	maxL := max(1, min(cfg.Warmup.MaxIterations, cfg.Iterations-1))
	t.WarmupIterations = g.intRange(min(cfg.Warmup.MinIterations, maxL), maxL)
	t.WarmupFactor = g.uniform(cfg.Warmup.minFactor, cfg.Warmup.maxFactor)
	t.WarmupShape = cfg.Warmup.shape
	lo := int(math.Ceil(cfg.Slowdown.minAt * float64(cfg.Iterations)))
	hi := int(cfg.Slowdown.maxAt * float64(cfg.Iterations))
	t.SlowdownAt = g.intRange(max(1, lo), min(max(1, hi), cfg.Iterations-1))
	t.SlowdownFactor = g.uniform(cfg.Slowdown.minFactor, cfg.Slowdown.maxFactor)
	t.Amplitude = cfg.NoSteady.amplitude
	t.Period = cfg.NoSteady.Period
	t.Phase = g.intRange(0, max(1, cfg.NoSteady.Period)-1)
	t.Drift = cfg.NoSteady.drift
	t.ZeroAlloc = g.float64() < cfg.GC.zeroAllocFraction
	// Allocation: 16 B – 16 KiB per op in 8-byte words, 16–256 B per object.
	t.BytesPerOp = int64(math.Exp(g.uniform(math.Log(16), math.Log(16384)))) / 8 * 8
	t.AllocsPerOp = max(1, t.BytesPerOp/int64(g.intRange(16, 256)))
	if t.ZeroAlloc {
		t.BytesPerOp, t.AllocsPerOp = 0, 0
	}
	t.CustomFactor = g.uniform(1.2, 3)
	if sp.WarmupIterations > 0 {
		t.WarmupIterations = sp.WarmupIterations
	}
	if sp.WarmupFactor > 0 {
		t.WarmupFactor = sp.WarmupFactor
	}
	if sp.SlowdownAt > 0 {
		t.SlowdownAt = sp.SlowdownAt
	}
	if sp.SlowdownFactor > 0 {
		t.SlowdownFactor = sp.SlowdownFactor
	}
}

// assignKinds gives every series without a spec'd kind one of the kinds:
// exactly round(fraction·n) of each non-flat kind, chosen by a seeded
// permutation; no-steady-state shapes alternate oscillation, drift.
func (s *Suite) assignKinds() {
	cfg := &s.cfg
	var free []int
	for i := range s.truth {
		if s.truth[i].Kind == KindUnset {
			free = append(free, i)
		}
	}
	g := stream(cfg.Seed, streamKey{base: hashString(fnvOffset, "kinds"), purpose: purposeKinds})
	g.r.Shuffle(len(free), func(a, b int) { free[a], free[b] = free[b], free[a] })
	n := float64(len(free))
	counts := []struct {
		kind Kind
		n    int
	}{
		{KindWarmup, int(math.Round(cfg.Warmup.Fraction * n))},
		{KindSlowdown, int(math.Round(cfg.Slowdown.Fraction * n))},
		{KindNoSteadyState, int(math.Round(cfg.NoSteady.Fraction * n))},
	}
	pos := 0
	for _, c := range counts {
		for j := 0; j < c.n && pos < len(free); j++ {
			s.truth[free[pos]].Kind = c.kind
			pos++
		}
	}
	for ; pos < len(free); pos++ {
		s.truth[free[pos]].Kind = KindFlat
	}
	shape := ShapeOscillation
	for i := range s.truth {
		t := &s.truth[i]
		if t.Kind == KindNoSteadyState && t.Shape == ShapeNone {
			t.Shape = shape
			shape = ShapeOscillation + ShapeDrift - shape
		}
	}
}

// finishTruth clears the parameters that do not apply to the series' kind,
// sets the derived fields and lists the outliers.
func (s *Suite) finishTruth(t *BenchmarkTruth) {
	if t.Kind != KindWarmup {
		t.WarmupIterations, t.WarmupFactor, t.WarmupShape = 0, 0, 0
	}
	if t.Kind != KindSlowdown {
		t.SlowdownAt, t.SlowdownFactor = -1, 1
	}
	if t.Kind != KindNoSteadyState {
		t.Shape = ShapeNone
	}
	if t.Shape != ShapeOscillation {
		t.Amplitude, t.Period, t.Phase = 0, 0, 0
	}
	if t.Shape != ShapeDrift {
		t.Drift = 0
	}
	switch t.Kind {
	case KindFlat:
		t.SteadyStart = 0
	case KindWarmup:
		t.SteadyStart = t.WarmupIterations
	case KindSlowdown:
		t.SteadyStart = t.SlowdownAt
	case KindNoSteadyState:
		t.SteadyStart = -1
	}
	t.FinalMean = t.Mean * t.curve(t.Iterations-1)
	cfg := &s.cfg
	for a := 1; a <= cfg.Instances; a++ {
		for r := 1; r <= cfg.Trials; r++ {
			for f := 1; f <= cfg.Forks; f++ {
				s.forkOutliers(t.Index, a, r, f, func(k int, factor float64) {
					t.Outliers = append(t.Outliers, Outlier{Position{a, r, f, k + 1, 0}, factor})
				})
			}
		}
	}
}

// forkOutliers calls fn for every outlier of fork (a, r, f) of series i in
// iteration order, with the 0-based iteration and the factor. Gaps between
// outliers are geometric, so the cost is per outlier, not per iteration.
func (s *Suite) forkOutliers(i, a, r, f int, fn func(k int, factor float64)) {
	o := s.cfg.Outliers
	if o.Rate <= 0 {
		return
	}
	g := stream(s.cfg.Seed, streamKey{base: s.vbase[i], purpose: purposeOutlier, idx: [5]uint64{uint64(a), uint64(r), uint64(f)}})
	logq := math.Log1p(-o.Rate)
	n := s.cfg.Iterations
	k := -1
	for {
		if o.Rate < 1 {
			// Geometric number of clean iterations before the next outlier.
			gap := math.Floor(math.Log(1-g.float64()) / logq)
			if gap >= float64(n) {
				return
			}
			k += 1 + int(gap)
		} else {
			k++
		}
		if k >= n {
			return
		}
		fn(k, 1+g.uniform(o.minMagnitude, o.maxMagnitude))
	}
}

// dropRows chooses the rows missing from the µOpTime CSV.
func (s *Suite) dropRows() error {
	cfg := &s.cfg
	rg := cfg.ragged
	if rg.dropIterations == 0 && rg.dropSlices == 0 {
		return nil
	}
	perSeries := cfg.Instances * cfg.Trials * cfg.Iterations
	units := len(s.truth) * perSeries
	if rg.dropIterations >= units || rg.dropSlices > (units-rg.dropIterations)*cfg.slices/2 {
		return fmt.Errorf("synth: SuiteConfig.Ragged: cannot drop %d iterations and %d slices of %d iterations",
			rg.dropIterations, rg.dropSlices, units)
	}
	g := stream(cfg.Seed, streamKey{base: hashString(fnvOffset, "ragged\x00"+cfg.Version), purpose: purposeRagged})
	dropIt := map[int]bool{}
	for len(dropIt) < rg.dropIterations {
		dropIt[g.r.IntN(units)] = true
	}
	dropSl := map[[2]int]bool{}
	for len(dropSl) < rg.dropSlices {
		u := g.r.IntN(units)
		if !dropIt[u] {
			dropSl[[2]int{u, g.r.IntN(cfg.slices)}] = true
		}
	}
	pos := func(u int) (series int, p Position) {
		series, u = u/perSeries, u%perSeries
		p.Iteration = u%cfg.Iterations + 1
		u /= cfg.Iterations
		p.Trial = u%cfg.Trials + 1
		p.Instance = u/cfg.Trials + 1
		p.Fork = 1
		return series, p
	}
	for u := range dropIt {
		i, p := pos(u)
		s.truth[i].Dropped = append(s.truth[i].Dropped, p)
	}
	for us := range dropSl {
		i, p := pos(us[0])
		p.Slice = us[1] + 1
		s.truth[i].Dropped = append(s.truth[i].Dropped, p)
	}
	for i := range s.truth {
		d := s.truth[i].Dropped
		sort.Slice(d, func(a, b int) bool { return positionLess(d[a], d[b]) })
	}
	return nil
}

func positionLess(a, b Position) bool {
	if a.Instance != b.Instance {
		return a.Instance < b.Instance
	}
	if a.Trial != b.Trial {
		return a.Trial < b.Trial
	}
	if a.Fork != b.Fork {
		return a.Fork < b.Fork
	}
	if a.Iteration != b.Iteration {
		return a.Iteration < b.Iteration
	}
	return a.Slice < b.Slice
}

// droppedRows returns the number of µOpTime CSV rows the Ragged option
// removes (a dropped iteration counts Slices rows).
func (s *Suite) droppedRows() int {
	n := 0
	for i := range s.truth {
		for _, p := range s.truth[i].Dropped {
			if p.Slice == 0 {
				n += s.cfg.slices
			} else {
				n++
			}
		}
	}
	return n
}
