package synth

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"
)

// Duet data: versions A and B of a benchmark run one after the other
// (seqn) or in parallel (syncduet: iterations started together at a
// barrier; duet: unsynchronised), and every iteration's start and end are
// recorded (Drozdík, "Asynchronous Duet Benchmarking", MFF UK 2023). The
// generator writes the duetprocess per-iteration CSV (docs/formats/duet.md).
//
// Model. All runs of a data set share one machine timeline. Interference
// episodes on it (a Poisson process of rate EpisodeRate per second,
// exponential lengths of mean episodeMeanNs, intensities m drawn from
// episodeEffect) slow whatever runs during them: an iteration of nominal
// length x that overlaps episodes e for o_e ns takes
//
//	t = x + Σ_e m_e · o_e,    x = μ_p · c(k) · R_rp · P · ε_k
//
// where μ_A = μ, μ_B = μ·(1+Slowdown) (0 for an A/A benchmark), c(k) the
// warm-up curve (WarmupFactor at k = 0 falling to 1 at k =
// WarmupIterations, quadratically), R_rp a lognormal factor of run r and
// pair p (runSD), P = 1+Parallel when A and B run at the same time (duet,
// syncduet) and 1 otherwise, and ε_k private lognormal noise (Noise). A and
// B of a duet or syncduet run are on the timeline together, so an episode
// hits both; the two pairs of a seqn run are far apart and meet different
// episodes. Every factor has expectation 1, so in seqn runs away from
// episodes mean(B)/mean(A) = 1+Slowdown.

// DuetBenchmark is one benchmark of a duet data set.
type DuetBenchmark struct {
	// Suite is renaissance or speccpu (iterations recorded from 0), or
	// dacapo or scalabench (from 1).
	Suite string `json:"suite"`
	Name  string `json:"name"`
	// MeanNs is μ, the steady mean of pair A's iteration time alone.
	MeanNs float64 `json:"mean_ns"`
	// Slowdown is B's true relative slowdown: μ_B = μ·(1+Slowdown); 0 is an A/A benchmark.
	Slowdown float64 `json:"slowdown"`
	// WarmupIterations and WarmupFactor shape c(k).
	WarmupIterations int     `json:"warmup_iterations"`
	WarmupFactor     float64 `json:"warmup_factor"`
}

// DuetConfig configures a synthetic duet data set.
type DuetConfig struct {
	Seed       uint64
	Benchmarks []DuetBenchmark
	// Types are the duet types run for every benchmark, each Runs times.
	Types []string
	// Runs (runid 0…Runs−1) per benchmark and type, Iterations per pair and run.
	Runs, Iterations int
	// noise is the σ of the private per-iteration lognormal factor, runSD of
	// the per (run, pair) factor.
	noise, runSD float64
	// parallel slows both pairs when they run at the same time.
	parallel float64
	// EpisodeRate (per second of timeline), episodeMeanNs and episodeEffect
	// (range of m) describe the interference episodes.
	EpisodeRate   float64
	episodeMeanNs float64
	episodeEffect [2]float64
	// start is the wall-clock time of the first iteration.
	start time.Time
	// host names the machine (its artifacts); cirrus* is bare-metal.
	host string
}

// DefaultDuetConfig is the duet preset: four benchmarks, an A/A and an A/B
// (B 5 % slower) in Renaissance (0-based iterations, about 1 s each) and in
// DaCapo (1-based, about 0.3 s each), each run 10 times as seqn, syncduet
// and duet with 40 iterations per pair: 9,600 rows, about 2.5 hours of
// timeline.
func DefaultDuetConfig() DuetConfig {
	return DuetConfig{
		Seed: 1,
		Benchmarks: []DuetBenchmark{
			{Suite: "renaissance", Name: "chi-square", MeanNs: 1.2e9, Slowdown: 0, WarmupIterations: 10, WarmupFactor: 3},
			{Suite: "renaissance", Name: "scala-kmeans", MeanNs: 0.9e9, Slowdown: 0.05, WarmupIterations: 12, WarmupFactor: 2.5},
			{Suite: "dacapo", Name: "h2", MeanNs: 0.35e9, Slowdown: 0, WarmupIterations: 8, WarmupFactor: 2},
			{Suite: "dacapo", Name: "fop", MeanNs: 0.25e9, Slowdown: 0.05, WarmupIterations: 8, WarmupFactor: 4},
		},
		Types:         []string{"seqn", "syncduet", "duet"},
		Runs:          10,
		Iterations:    40,
		noise:         0.02,
		runSD:         0.01,
		parallel:      0.10,
		EpisodeRate:   1.0 / 60,
		episodeMeanNs: 2e9,
		episodeEffect: [2]float64{0.2, 0.6},
		start:         time.Date(2022, 6, 6, 10, 0, 0, 0, time.UTC),
		host:          "cirrus05",
	}
}

// validate reports a configuration the generator cannot use.
func (c *DuetConfig) validate() error {
	switch {
	case len(c.Benchmarks) == 0:
		return fmt.Errorf("synth: duet: no benchmarks")
	case c.Runs < 1 || c.Iterations < 1:
		return fmt.Errorf("synth: duet: runs %d, iterations %d: want ≥ 1", c.Runs, c.Iterations)
	case len(c.Types) == 0:
		return fmt.Errorf("synth: duet: no types")
	case c.EpisodeRate < 0 || c.episodeMeanNs < 0 || c.noise < 0 || c.runSD < 0 || c.parallel < 0:
		return fmt.Errorf("synth: duet: negative rate, length or noise")
	}
	for _, t := range c.Types {
		if t != "seqn" && t != "syncduet" && t != "duet" {
			return fmt.Errorf("synth: duet: type %q (want seqn, syncduet or duet)", t)
		}
	}
	for _, b := range c.Benchmarks {
		if b.MeanNs <= 0 || b.Slowdown <= -1 || b.Name == "" || b.Suite == "" {
			return fmt.Errorf("synth: duet: benchmark %+v", b)
		}
	}
	return nil
}

// duetIteration is one generated row of the duetprocess CSV.
type duetIteration struct {
	suite, benchmark, typ, order, pair string
	runID, iteration                   int
	timeNs, startNs, endNs             int64
	// interferenceNs is what episodes added to the iteration (t − x).
	interferenceNs int64
}

// episode is one interference episode of the timeline.
type episode struct {
	StartNs int64   `json:"start_ns"`
	EndNs   int64   `json:"end_ns"`
	Effect  float64 `json:"effect"`
}

// DuetData is a generated data set and its truth.
type DuetData struct {
	config     DuetConfig
	iterations []duetIteration
	episodes   []episode
}

// Purposes of the duet streams (after those of rng.go).
const (
	purposeDuetEpisodes uint64 = 100 + iota
	purposeDuetRun
	purposeDuetIteration
	purposeDuetLaunch
)

// episodes draws the timeline's episodes lazily, in time order.
type episodes struct {
	g    *rng
	cfg  *DuetConfig
	list []episode
	next int64 // start of the next episode to draw
}

// upTo draws episodes until one starts at or after t.
func (e *episodes) upTo(t int64) {
	if e.cfg.EpisodeRate == 0 {
		return
	}
	for e.next < t {
		length := int64(-math.Log(1-e.g.float64()) * e.cfg.episodeMeanNs)
		eff := e.g.uniform(e.cfg.episodeEffect[0], e.cfg.episodeEffect[1])
		e.list = append(e.list, episode{StartNs: e.next, EndNs: e.next + length, Effect: eff})
		gap := -math.Log(1-e.g.float64()) / e.cfg.EpisodeRate * 1e9
		e.next += int64(gap)
	}
}

// extra is Σ m_e·overlap(e, [s, s+x)): what episodes add to an iteration
// starting at s of nominal length x.
func (e *episodes) extra(s, x int64) int64 {
	e.upTo(s + x)
	var add float64
	for j := range e.list { // by start; episodes may overlap each other
		ep := &e.list[j]
		if ep.StartNs >= s+x {
			break
		}
		if o := min(ep.EndNs, s+x) - max(ep.StartNs, s); o > 0 {
			add += ep.Effect * float64(o)
		}
	}
	return int64(add)
}

// GenerateDuet generates cfg's data set: for every benchmark, every type
// and run in turn on one timeline, both pairs' iterations.
func GenerateDuet(cfg DuetConfig) (*DuetData, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	eps := &episodes{g: stream(cfg.Seed, streamKey{purpose: purposeDuetEpisodes}), cfg: &cfg}
	eps.next = cfg.start.UnixNano() + int64(eps.g.float64()/max(cfg.EpisodeRate, 1e-12)*1e9)
	d := &DuetData{config: cfg}
	now := cfg.start.UnixNano()
	const gapRuns = 5 * int64(time.Second)
	const gapSeqn = 30 * int64(time.Second)
	for bi, b := range cfg.Benchmarks {
		base := hashString(hashString(fnvOffset, b.Suite), b.Name)
		first := 0
		if b.Suite == "dacapo" || b.Suite == "scalabench" {
			first = 1
		}
		for ti, typ := range cfg.Types {
			for run := 0; run < cfg.Runs; run++ {
				idx := [5]uint64{uint64(bi), uint64(ti), uint64(run)}
				launch := stream(cfg.Seed, streamKey{base: base, purpose: purposeDuetLaunch, idx: idx})
				order := "None"
				if typ != "seqn" {
					order = "AB"
					if launch.float64() < 0.5 {
						order = "BA"
					}
				}
				var pairs [2]*pairGen
				for p := range pairs {
					mu := b.MeanNs
					if p == 1 {
						mu *= 1 + b.Slowdown
					}
					k := streamKey{base: base, purpose: purposeDuetRun, idx: [5]uint64{uint64(bi), uint64(ti), uint64(run), uint64(p)}}
					runFactor := stream(cfg.Seed, k).lognormal1(cfg.runSD)
					k.purpose = purposeDuetIteration
					pairs[p] = &pairGen{b: &b, cfg: &cfg, mu: mu * runFactor, g: stream(cfg.Seed, k), first: first, eps: eps}
					if typ != "seqn" {
						pairs[p].parallel = 1 + cfg.parallel
					}
				}
				out := func(p int, it *duetIteration) {
					it.suite, it.benchmark, it.typ, it.order, it.pair, it.runID = b.Suite, b.Name, typ, order, string(rune('A'+p)), run
					d.iterations = append(d.iterations, *it)
				}
				switch typ {
				case "seqn":
					t := now
					for p := 0; p < 2; p++ {
						for k := 0; k < cfg.Iterations; k++ {
							it := pairs[p].next(k, t)
							out(p, &it)
							t = it.endNs + pairs[p].harnessGap()
						}
						t += gapSeqn
					}
					now = t
				case "syncduet":
					t := now
					for k := 0; k < cfg.Iterations; k++ {
						a, bb := pairs[0].next(k, t), pairs[1].next(k, t)
						out(0, &a)
						out(1, &bb)
						t = max(a.endNs, bb.endNs) + pairs[0].harnessGap()
					}
					now = t + gapRuns
				case "duet":
					// The pair launched second starts a few ms later; then each
					// runs its iterations back to back, unsynchronised.
					delay := int64(launch.uniform(2e6, 15e6))
					ts := [2]int64{now, now}
					if order == "AB" {
						ts[1] += delay
					} else {
						ts[0] += delay
					}
					its := [2][]duetIteration{}
					for p := 0; p < 2; p++ {
						for k := 0; k < cfg.Iterations; k++ {
							it := pairs[p].next(k, ts[p])
							its[p] = append(its[p], it)
							ts[p] = it.endNs + pairs[p].harnessGap()
						}
					}
					for p := 0; p < 2; p++ {
						for k := range its[p] {
							out(p, &its[p][k])
						}
					}
					now = max(ts[0], ts[1]) + gapRuns
				}
				now += gapRuns
			}
		}
	}
	eps.upTo(now)
	for _, e := range eps.list {
		if e.StartNs < now {
			d.episodes = append(d.episodes, e)
		}
	}
	return d, nil
}

// pairGen draws the iterations of one pair of one run.
type pairGen struct {
	b        *DuetBenchmark
	cfg      *DuetConfig
	mu       float64
	parallel float64
	g        *rng
	first    int
	eps      *episodes
}

// warmup is c(k).
func (p *pairGen) warmup(k int) float64 {
	l := p.b.WarmupIterations
	if k >= l || l == 0 {
		return 1
	}
	f := 1 - float64(k)/float64(l)
	return 1 + (p.b.WarmupFactor-1)*f*f
}

// next is iteration k (0-based) starting at s.
func (p *pairGen) next(k int, s int64) duetIteration {
	par := p.parallel
	if par == 0 {
		par = 1
	}
	x := int64(p.mu * p.warmup(k) * par * p.g.lognormal1(p.cfg.noise))
	x = max(x, 1)
	add := p.eps.extra(s, x)
	t := x + add
	return duetIteration{iteration: k + p.first, timeNs: t, startNs: s, endNs: s + t, interferenceNs: add}
}

// harnessGap is the harness's pause between iterations, 1–5 ms.
func (p *pairGen) harnessGap() int64 { return int64(p.g.uniform(1e6, 5e6)) }

// duetColumns is the header of the CSV WriteDuetCSV writes: the
// duetprocess columns for these suites, in the order duetprocess writes them.
var duetColumns = []string{"suite", "benchmark", "type", "order", "pair", "runid", "iteration",
	"iteration_time_ns", "iteration_start_ns", "iteration_end_ns", "date", "hostname", "lscpu", "meminfo", "uname"}

// WriteCSV writes the data set as a duetprocess CSV, artifacts of one
// invocation on every row.
func (d *DuetData) WriteCSV(w io.Writer) error {
	s := newSink(w)
	for i, c := range duetColumns {
		if i > 0 {
			s.str(",")
		}
		s.str(c)
	}
	s.str("\n")
	host := d.config.host
	art := "," + d.config.start.Format("Mon Jan _2 15:04:05 MST 2006") + "," + host +
		",Intel(R) Xeon(R) CPU E5-2620 v4 @ 2.10GHz,65861772 kB,Linux " + host + " 5.10.0-15-amd64 #1 SMP Debian 5.10.120-1 (2022-06-09) x86_64 GNU/Linux\n"
	for i := range d.iterations {
		it := &d.iterations[i]
		s.str(it.suite)
		s.str(",")
		s.str(it.benchmark)
		s.str(",")
		s.str(it.typ)
		s.str(",")
		s.str(it.order)
		s.str(",")
		s.str(it.pair)
		s.str(",")
		s.b = strconv.AppendInt(s.b, int64(it.runID), 10)
		s.str(",")
		s.b = strconv.AppendInt(s.b, int64(it.iteration), 10)
		for _, v := range [3]int64{it.timeNs, it.startNs, it.endNs} {
			s.str(",")
			s.int(v)
		}
		s.str(art)
		s.maybeFlush()
	}
	return s.flush()
}

// duetTruth is what the truth JSON of a duet data set holds.
type duetTruth struct {
	Seed       uint64          `json:"seed"`
	Benchmarks []DuetBenchmark `json:"benchmarks"`
	Types      []string        `json:"types"`
	Runs       int             `json:"runs"`
	Iterations int             `json:"iterations"`
	Episodes   []episode       `json:"episodes"`
}

// writeTruthJSON writes the benchmarks' true slowdowns and warm-up and the
// interference episodes as indented JSON.
func (d *DuetData) writeTruthJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	c := d.config
	return enc.Encode(duetTruth{Seed: c.Seed, Benchmarks: c.Benchmarks, Types: c.Types, Runs: c.Runs, Iterations: c.Iterations, Episodes: d.episodes})
}

// formatDuet is the duetprocess CSV, the output of the duet preset.
const formatDuet = "duet"

// generateDuetTo writes cfg's data set in the format named by kind:
// formatDuet (duetprocess CSV) or formatTruth (its truth as JSON).
func generateDuetTo(kind string, w io.Writer, cfg DuetConfig) error {
	d, err := GenerateDuet(cfg)
	if err != nil {
		return err
	}
	switch kind {
	case formatDuet:
		return d.WriteCSV(w)
	case formatTruth:
		return d.writeTruthJSON(w)
	}
	return fmt.Errorf("synth: duet data is written as %s or %s, not %q", formatDuet, formatTruth, kind)
}
