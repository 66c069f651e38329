package trim

import (
	"flag"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchtrim/benchtrim/analysis/internal/verdict"
	"github.com/benchtrim/benchtrim/analysis/optimize"
	"github.com/benchtrim/benchtrim/analysis/reconfigure"
	"github.com/benchtrim/benchtrim/analysis/steady"
	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/internal/version"
	"github.com/benchtrim/benchtrim/reports/chart"
	"github.com/benchtrim/benchtrim/table"
)

// This file is trim's evaluation on real recordings of several versions
// (TestEvaluationVersions): every method's configuration is chosen on one
// version's recording and judged by the user's test (benchstat's U test
// at α = 0.05) on the next version's data against what the full
// recordings conclude. testdata/evaluation-versions.md holds its tables
// and docs/trim.md shows them; `go test ./analysis/trim -run
// TestEvaluationVersions -update` rewrites both the table and the
// frontier plot (docs/trim-frontier.svg).

var update = flag.Bool("update", false, "rewrite the evaluation's tables and plot")

// evalSet is one real data set: its files under ../shared/data, grouped
// into sequences of versions (oldest first) by seqs.
type evalSet struct {
	name string
	glob string
	seqs func(files []string) [][]string
	// stated is Options.StatedWarmup for files without their warmup.
	stated int
	// family pools the set with others of its tool for the summary
	// tables ("" keeps it apart).
	family string
}

// byVersion is one sequence of every file, in the natural order of their
// names (version.Compare: 1.9.0 before 1.10.0, 01_09_00 before
// 01_10_07).
func byVersion(files []string) [][]string {
	s := slices.Clone(files)
	slices.SortFunc(s, func(a, b string) int { return version.Compare(filepath.Base(a), filepath.Base(b)) })
	return [][]string{s}
}

// byJDK groups json-log-filter's files by the JVM they ran on (the name's
// part after the version: jdk8, jdk11, graalvm.jdk25, …), each group in
// version order: releases are compared on the same JVM.
func byJDK(files []string) [][]string {
	groups := map[string][]string{}
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "jmh-results-"), ".json")
		i := 0
		for i < len(name) && (name[i] == '.' || ('0' <= name[i] && name[i] <= '9')) {
			i++
		}
		groups[name[i:]] = append(groups[name[i:]], f)
	}
	var keys []string
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out [][]string
	for _, k := range keys {
		out = append(out, byVersion(groups[k])[0])
	}
	return out
}

// eachAlone makes every file a sequence of its own (one version: A/A only).
func eachAlone(files []string) [][]string {
	var out [][]string
	for _, f := range files {
		out = append(out, []string{f})
	}
	return out
}

var evalSets = []evalSet{
	// ESE'21: 10 warmup iterations per fork ran before the 20 in the files.
	{"byte-buddy (31 releases, 3 forks × 20 iterations)", "jmh-versions/laaber-ese21/laaber_bytebuddy-*.csv", byVersion, 10, "JMH"},
	{"jenetics (21 releases, 3 forks × 20 iterations)", "jmh-versions/laaber-ese21/laaber_jenetics-*.csv", byVersion, 10, "JMH"},
	{"json-log-filter (13 releases on 6 JVMs, 1 fork × 3–15)", "jmh-versions/json-log-filter/*.json", byJDK, 0, "JMH"},
	{"oastools (4 releases, go test -count 3–5)", "gobench-versions/oastools/*.txt", byVersion, 0, "Go"},
	{"tattle (4 releases, -count 30)", "gobench-versions/tattle/*.txt", byVersion, 0, "Go"},
	{"rxp (5 releases, -count 50)", "gobench-versions/rxp/*.txt", byVersion, 0, "Go"},
	{"FSE'20 (4 projects, 1 version, 5 forks × 100)", "jmh-versions/laaber-fse20/*.csv", eachAlone, 0, ""},
}

var (
	evalOnly = flag.String("evalset", "", "TestEvaluationVersions: only the data sets whose name contains this")
	evalKeep = flag.Float64("evalkeep", 0, "TestEvaluationVersions: trim's --keep instead of the default")
	evalPNG  = flag.String("evalpng", "", "TestEvaluationVersions: also draw the frontier as a PNG to this file")
)

// evalBench is one benchmark run of one version as the evaluation needs
// it: trim's decision, the design after the warmup, the cost model, the
// other methods' configurations, and the reconfiguration's forks.
type evalBench struct {
	b      Benchmark
	d      *design
	cost   costModel
	s      *table.Series
	w      int
	config map[string]config // method → configuration on d
	// dynamic: per reconfiguration criterion, the forks' warmup and
	// measurement iterations (in the data after trim's warmup w).
	dynamic map[string][]reconfigure.ForkResult
}

// evalVersion is one version's recording: its benchmark runs by name.
type evalVersion struct {
	file  string
	bench map[string]*evalBench
}

// runKeyName names a benchmark run across versions.
func runKeyName(k table.Key) string { return k.Benchmark + "|" + k.Params + "|" + k.Mode }

// evalOptions are trim's defaults with the evaluation's cheaper settings:
// 2000 bootstrap resamples, no split validation (the evaluation is the
// check), 200 A/B pairs per detectable slowdown of the other methods.
func evalOptions() Options {
	o := fastOptions()
	o.Splits, o.DetectDraws = 0, DefaultOptions.DetectDraws
	// The evaluation's times are the files' (docs/trim.md: no process or
	// fork start-up in them).
	o.Overhead, o.CommandOverhead = [table.NumLevels]time.Duration{}, 0
	return o
}

// The uniform reductions of a design: per level the counts a user would
// pick, the same for every benchmark: Go -count 3, 4, 5, 6, 8, 10, 15,
// 20, 30, 40, 50; JMH forks 1, 2, 3, 5 × iterations 5, 10, 15, 20, 30,
// 50, 100 (those within the recording).
var (
	uniformCounts     = []int{3, 4, 5, 6, 8, 10, 15, 20, 30, 40, 50}
	uniformForks      = []int{1, 2, 3, 5}
	uniformIterations = []int{5, 10, 15, 20, 30, 50, 100}
)

// uniformName names a uniform reduction.
func uniformName(tool string, forks, its int) string {
	if tool == "go" {
		return fmt.Sprintf("uniform -count %d", its)
	}
	return fmt.Sprintf("uniform %d fork × %d", forks, its)
}

// uniformConfig is the configuration of forks × its on d (every other
// level recorded in full), ok false when the recording has fewer.
func uniformConfig(d *design, forks, its int) (config, bool) {
	k := make(config, len(d.levels))
	hasFork := false
	for j, l := range d.levels {
		k[j] = d.maxK[j]
		switch l {
		case table.LevelFork:
			hasFork = true
			if forks > d.maxK[j] {
				return nil, false
			}
			k[j] = forks
		case table.LevelIteration:
			if its > d.maxK[j]+4 {
				return nil, false // a count the recording is far from
			}
			k[j] = min(its, d.maxK[j])
		}
	}
	if !hasFork && forks != 1 {
		return nil, false
	}
	return k, true
}

// loadVersion reads one version's file, runs trim, and finds every
// method's configuration on each benchmark run's design.
func loadVersion(file string, opt Options) (*evalVersion, error) {
	tab, _, _, err := ingest.ReadFiles([]string{file}, ingest.ReadOptions{Formats: all.Formats()})
	if err != nil {
		return nil, err
	}
	defer tab.Release()
	v := &evalVersion{file: file, bench: map[string]*evalBench{}}
	var order []*evalBench
	opt.evalHook = func(b *Benchmark, s *table.Series, w int, d *design, cost costModel) {
		eb := &evalBench{d: d, cost: cost, s: s, w: w, config: map[string]config{}}
		v.bench[runKeyName(b.Key)] = eb
		order = append(order, eb)
	}
	rep, err := Run(tab, opt)
	if err != nil {
		return nil, err
	}
	for i := range rep.Benchmarks {
		b := &rep.Benchmarks[i]
		eb := v.bench[runKeyName(b.Key)]
		if eb == nil {
			continue
		}
		eb.b = *b
		eb.config["recorded"] = config(slices.Clone(eb.d.maxK))
		eb.config["trim"] = designCounts(eb.d, b.Recommended)
		if need := verdict.MinSamples(opt.Test, opt.Alpha); b.Status.reduced() && newSampler(eb.d).samplesPer(eb.config["trim"]) < need {
			return nil, fmt.Errorf("%s: trim recommends %v, where the %s test cannot report a change (fewer than %d values a side)", b.Key, eb.config["trim"], opt.Test, need)
		}
		if !b.Status.reduced() && b.Status != StatusNoSteady {
			eb.config["trim"] = eb.config["recorded"]
		}
		// Kalibera–Jones alone: the cheapest configuration whose standard
		// error (√V(k), the variance components' model) is at most
		// Options.Keep times the recorded one's.
		sr := newSearch(eb.d, eb.cost, nil)
		vRec := eb.d.variance(sr.recorded().floats())
		eb.config["Kalibera–Jones alone"] = sr.recorded()
		for _, k := range sr.candidates((1 - minSaving) * sr.timeNs(sr.recorded())) {
			if math.Sqrt(eb.d.variance(k.floats())) <= opt.Keep*math.Sqrt(vRec) && newSampler(eb.d).samplesPer(k) >= verdict.MinSamples(opt.Test, opt.Alpha) {
				eb.config["Kalibera–Jones alone"] = k
				break
			}
		}
		its, forks := uniformIterations, uniformForks
		if b.Tool == "go" {
			its, forks = uniformCounts, []int{1}
		}
		for _, f := range forks {
			for _, it := range its {
				if k, ok := uniformConfig(eb.d, f, it); ok {
					eb.config[uniformName(b.Tool, f, it)] = k
				}
			}
		}
	}
	// µOpTime alone, per metric, on the same data after the warmup.
	var series []*table.Series
	var ws []int
	var idx []int
	for i, eb := range order {
		series, ws, idx = append(series, eb.s), append(ws, eb.w), append(idx, i)
	}
	if len(series) > 0 {
		post, err := postWarmupTable(series, idx, ws, &opt)
		if err != nil {
			return nil, err
		}
		oopt := optimize.DefaultOptions
		oopt.Bootstrap.Resamples = 1000
		oopt.Seed, oopt.Parallel = opt.Seed, nil
		orep, err := optimize.Run(post, oopt)
		post.Release()
		if err != nil {
			return nil, fmt.Errorf("optimize: %w", err)
		}
		for _, r := range orep.Results {
			eb := v.bench[runKeyName(r.Key)]
			if eb == nil {
				continue
			}
			c := Config{Instances: int(r.Chosen.Config[table.LevelInstance]), Trials: int(r.Chosen.Config[table.LevelTrial]),
				Forks: int(r.Chosen.Config[table.LevelFork]), Iterations: int(r.Chosen.Config[table.LevelIteration]), Slices: int(r.Chosen.Config[table.LevelSlice])}
			eb.config["µOpTime alone, "+r.Metric.String()] = designCounts(eb.d, c)
		}
	}
	// Dynamic reconfiguration (JMH): per criterion, its forks' warmup and
	// measurement iterations.
	if ropt := opt.Reconfigure; len(order) > 0 && order[0].b.Tool == "jmh" {
		ropt.Seed = opt.Seed
		rrep, err := reconfigure.Run(tab, ropt)
		if err == nil {
			for _, r := range rrep.Results {
				eb := v.bench[runKeyName(r.Key)]
				if eb == nil || r.Skipped != "" {
					continue
				}
				eb.dynamic = map[string][]reconfigure.ForkResult{}
				for _, cr := range r.Criteria {
					eb.dynamic["dynamic reconfiguration, "+cr.Criterion.Label()] = cr.Forks
				}
			}
		}
	}
	return v, nil
}

// methodTally gathers one method's outcome over a data set.
type methodTally struct {
	timeNs, recordedNs  float64
	clear, clearKept    int
	aaFull, aaMethod    int
	aaSplits            int
	pairs, agree        int
	detect              []float64
	applied, benchmarks int
}

func (m *methodTally) add(o *methodTally) {
	m.timeNs += o.timeNs
	m.recordedNs += o.recordedNs
	m.clear += o.clear
	m.clearKept += o.clearKept
	m.aaFull += o.aaFull
	m.aaMethod += o.aaMethod
	m.aaSplits += o.aaSplits
	m.pairs += o.pairs
	m.agree += o.agree
	m.detect = append(m.detect, o.detect...)
	m.applied += o.applied
	m.benchmarks += o.benchmarks
}

func (m *methodTally) share() float64 { return m.timeNs / m.recordedNs }
func (m *methodTally) recall() float64 {
	if m.clear == 0 {
		return math.NaN()
	}
	return float64(m.clearKept) / float64(m.clear)
}
func (m *methodTally) falseAlarms() float64 {
	if m.aaSplits == 0 {
		return math.NaN()
	}
	return float64(m.aaMethod) / float64(m.aaSplits)
}
func (m *methodTally) fullFalseAlarms() float64 {
	if m.aaSplits == 0 {
		return math.NaN()
	}
	return float64(m.aaFull) / float64(m.aaSplits)
}
func (m *methodTally) agreement() float64 {
	if m.pairs == 0 {
		return math.NaN()
	}
	return float64(m.agree) / float64(m.pairs)
}

// evalAASplits is the number of random halvings of a version's top-level
// units per benchmark run for the A/A false alarms.
const evalAASplits = 5

// evalDetectDraws is the number of A/B pairs behind the evaluation's
// detectable slowdowns.
const evalDetectDraws = 100

// runValues is the sample values of method m on benchmark run eb: its
// configuration replayed in recorded order, or, for dynamic
// reconfiguration, every used fork's measurement iterations after its
// warmup; with their time (ns) in trim's cost model.
func runValues(eb *evalBench, m string) ([]float64, float64, bool) {
	if forks, ok := eb.dynamic[m]; ok {
		var out []float64
		var its float64
		for _, f := range forks {
			vals := forkValues(eb.s, forkID(f))
			lo := min(f.WarmupIterations, len(vals))
			hi := min(lo+f.MeasurementIterations, len(vals))
			out = append(out, vals[lo:hi]...)
			its += float64(f.WarmupIterations + f.MeasurementIterations)
		}
		stated := eb.cost.warmupNs - float64(eb.w)*eb.cost.unitNs // the warmup the files do not hold
		return out, float64(len(forks))*stated + its*eb.cost.unitNs, len(out) > 0
	}
	k, ok := eb.config[m]
	if !ok {
		return nil, 0, false
	}
	f := eb.d.full(k.floats())
	return newSampler(eb.d).replay(nil, k), eb.cost.timeNs(&f), true
}

// evalMethods lists the methods of a data set, trim first.
func evalMethods(vs []*evalVersion) []string {
	seen := map[string]bool{}
	for _, v := range vs {
		for _, eb := range v.bench {
			for m := range eb.config {
				seen[m] = true
			}
			for m := range eb.dynamic {
				seen[m] = true
			}
		}
	}
	var out []string
	for m := range seen {
		if m != "trim" {
			out = append(out, m)
		}
	}
	sort.Strings(out)
	return append([]string{"trim"}, out...)
}

// evaluate tallies every method over one sequence of versions: the time
// share of each version's plan; for each consecutive pair the full
// recordings' verdict (U test at α) against the verdict of the plan
// chosen on the earlier version run on both (sampler.replay, clamped to
// each design), the clear changes (p < α/10 and at least 3 %) among them;
// and the A/A false alarms of the later version split in halves.
func evaluate(vs []*evalVersion, opt Options, methods []string, tally map[string]*methodTally) {
	alpha := opt.Alpha
	for i, v := range vs {
		names := make([]string, 0, len(v.bench))
		for n := range v.bench {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			eb := v.bench[n]
			rec, recT, _ := runValues(eb, "recorded")
			_ = rec
			for _, m := range methods {
				_, tm, ok := runValues(eb, m)
				if !ok {
					continue
				}
				mt := tally[m]
				mt.timeNs += tm
				mt.recordedNs += recT
				mt.applied++
				if k, ok := eb.config[m]; ok {
					det := newDetector(newSampler(eb.d), opt.Test, alpha, evalDetectDraws, func() *stats.Stream {
						return stats.NewStream(opt.Seed, n+"|"+filepath.Base(v.file), 77)
					})
					mt.detect = append(mt.detect, det.detectable(k))
				}
			}
			if i+1 >= len(vs) {
				continue
			}
			next := vs[i+1].bench[n]
			if next == nil || len(next.d.levels) != len(eb.d.levels) {
				continue
			}
			fa, _, _ := runValues(eb, "recorded")
			fb, _, _ := runValues(next, "recorded")
			full := verdict.Flat(opt.Test, alpha, fa, fb)
			clear := full.Change != 0 && full.P < alpha/10 && math.Abs(full.Ratio-1) >= 0.03
			for _, m := range methods {
				a, _, ok1 := runValues(eb, m)
				var b []float64
				ok2 := false
				if k, ok := eb.config[m]; ok {
					b, ok2 = newSampler(next.d).replay(nil, clampCounts(next.d, k, eb.d)), true
				} else if _, ok := eb.dynamic[m]; ok {
					b, _, ok2 = runValues(next, m)
				}
				if !ok1 || !ok2 || len(a) == 0 || len(b) == 0 {
					continue
				}
				got := verdict.Flat(opt.Test, alpha, a, b).Change
				mt := tally[m]
				mt.pairs++
				if got == full.Change {
					mt.agree++
				}
				if clear {
					mt.clear++
					if got == full.Change {
						mt.clearKept++
					}
				}
				// A/A: the later version's top units halved at random.
				if k, ok := eb.config[m]; ok {
					aaSplits(next, k, eb.d, opt, n, mt)
				}
			}
		}
	}
	// Single versions (FSE'20): A/A on the version itself.
	if len(vs) == 1 {
		for n, eb := range vs[0].bench {
			for _, m := range methods {
				if k, ok := eb.config[m]; ok {
					aaSplits(eb, k, eb.d, opt, n, tally[m])
				}
			}
		}
	}
}

// aaSplits adds to mt the A/A verdicts of evalAASplits random halvings of
// eb's top-level units (⌊n/2⌋ units each, the odd one left out): the full
// halves' verdict and configuration k's (chosen on design from, clamped to
// each half) under the user's test.
func aaSplits(eb *evalBench, k config, from *design, opt Options, name string, mt *methodTally) {
	n := eb.d.units[0]
	if n < 2 {
		return
	}
	rng := stats.NewStream(opt.Seed, name+"|aa|"+eb.b.Key.Version, 5)
	perm := make([]int, n)
	for s := 0; s < evalAASplits; s++ {
		for i := range perm {
			perm[i] = i
		}
		for i := n - 1; i > 0; i-- {
			j := rng.IntN(i + 1)
			perm[i], perm[j] = perm[j], perm[i]
		}
		h := n / 2
		h1, h2 := slices.Clone(perm[:h]), slices.Clone(perm[h:2*h])
		slices.Sort(h1)
		slices.Sort(h2)
		d1, d2 := eb.d.subset(h1), eb.d.subset(h2)
		if d1 == nil || d2 == nil {
			continue
		}
		f1 := newSampler(d1).replay(nil, config(slices.Clone(d1.maxK)))
		f2 := newSampler(d2).replay(nil, config(slices.Clone(d2.maxK)))
		r1 := newSampler(d1).replay(nil, clampCounts(d1, k, from))
		r2 := newSampler(d2).replay(nil, clampCounts(d2, k, from))
		mt.aaSplits++
		if verdict.Flat(opt.Test, opt.Alpha, f1, f2).Change != 0 {
			mt.aaFull++
		}
		if verdict.Flat(opt.Test, opt.Alpha, r1, r2).Change != 0 {
			mt.aaMethod++
		}
	}
}

// forkID is the fork of a reconfiguration result.
func forkID(f reconfigure.ForkResult) steady.ForkID {
	return steady.ForkID{Instance: f.Instance, Trial: f.Trial, Fork: f.Fork}
}

func TestEvaluationVersions(t *testing.T) {
	shared := testenv.Shared(t)
	opt := evalOptions()
	if *evalKeep > 0 {
		opt.Keep = *evalKeep
	}
	type setResult struct {
		methods []string
		tally   map[string]*methodTally
	}
	results := make([]setResult, len(evalSets))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, set := range evalSets {
		if !strings.Contains(set.name, *evalOnly) {
			continue
		}
		opt := opt
		opt.StatedWarmup = set.stated
		files, _ := filepath.Glob(filepath.Join(shared, "data", set.glob))
		if len(files) == 0 {
			t.Errorf("%s: no files match %s", set.name, set.glob)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			tally := map[string]*methodTally{}
			var methods []string
			for _, seq := range set.seqs(files) {
				var vs []*evalVersion
				for _, f := range seq {
					v, err := loadVersion(f, opt)
					if err != nil {
						t.Errorf("%s: %v", f, err)
						return
					}
					vs = append(vs, v)
				}
				ms := evalMethods(vs)
				for _, m := range ms {
					if tally[m] == nil {
						tally[m] = &methodTally{}
					}
					if !slices.Contains(methods, m) {
						methods = append(methods, m)
					}
				}
				evaluate(vs, opt, ms, tally)
			}
			results[i] = setResult{methods, tally}
		}()
	}
	wg.Wait()
	var out strings.Builder
	families := map[string]map[string]*methodTally{}
	var famMethods = map[string][]string{}
	for i, set := range evalSets {
		if results[i].tally == nil || set.family == "" {
			continue
		}
		if families[set.family] == nil {
			families[set.family] = map[string]*methodTally{}
		}
		for _, m := range results[i].methods {
			if families[set.family][m] == nil {
				families[set.family][m] = &methodTally{}
				famMethods[set.family] = append(famMethods[set.family], m)
			}
			families[set.family][m].add(results[i].tally[m])
		}
	}
	for _, f := range []string{"JMH", "Go"} {
		if families[f] != nil {
			var ms []string
			for _, m := range famMethods[f] {
				if !strings.HasPrefix(m, "uniform ") { // each set has its own counts: see its table
					ms = append(ms, m)
				}
			}
			writeTally(&out, "all "+f+" sets below (uniform reductions in each set's table)", ms, families[f])
		}
	}
	var setNames []string
	var setTallies []map[string]*methodTally
	for i, set := range evalSets {
		if results[i].tally != nil {
			setNames, setTallies = append(setNames, set.name), append(setTallies, results[i].tally)
			writeTally(&out, set.name, results[i].methods, results[i].tally)
			if tr := results[i].tally["trim"]; tr != nil && tr.clear >= minClearChanges {
				checkCriteria(t, set.name, results[i].methods, results[i].tally)
			}
		}
	}
	t.Log("\n" + out.String())
	table := "testdata/evaluation-versions.md"
	if *update {
		if err := os.WriteFile(table, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := writeFrontier("../../docs/trim-frontier.svg", setNames, setTallies); err != nil {
			t.Fatal(err)
		}
	} else if *evalOnly == "" && *evalKeep == 0 {
		checkGolden(t, table, out.String())
	}
	if *evalPNG != "" {
		if err := writeFrontier(*evalPNG, setNames, setTallies); err != nil {
			t.Fatal(err)
		}
	}
}

// checkGolden fails when file does not hold got, or docs/trim.md does
// not show it.
func checkGolden(t *testing.T, file, got string) {
	t.Helper()
	want, err := os.ReadFile(file)
	if err != nil || string(want) != got {
		t.Errorf("%s differs from this run's tables (go test ./analysis/trim -run TestEvaluationVersions -update rewrites it)", file)
	}
	doc, err := os.ReadFile("../../docs/trim.md")
	if err != nil || !strings.Contains(string(doc), strings.TrimSpace(got)) {
		t.Errorf("docs/trim.md does not show %s", file)
	}
}

// minClearChanges is the fewest clear changes a data set must have for
// checkCriteria to judge trim on it (fewer say little about a 95 % share).
const minClearChanges = 20

// checkCriteria checks trim's claims on a data set's tally: it keeps at least
// 95 % of the full recordings' clear changes, its A/A false alarms are at
// most 2 points above the full recordings', no uniform reduction keeps as
// many clear changes with as few false alarms in less time, and µOpTime
// alone (every metric) keeps fewer or takes more time.
func checkCriteria(t *testing.T, name string, methods []string, tally map[string]*methodTally) {
	t.Helper()
	tr := tally["trim"]
	if tr == nil {
		t.Errorf("%s: no trim tally", name)
		return
	}
	if r := tr.recall(); !(r >= 0.95) {
		t.Errorf("%s: trim keeps %.1f %% of the clear changes, want at least 95 %%", name, 100*r)
	}
	if fa, full := tr.falseAlarms(), tr.fullFalseAlarms(); fa > full+0.02 {
		t.Errorf("%s: trim's A/A false alarms %.1f %%, the full recordings' %.1f %%: more than 2 points above", name, 100*fa, 100*full)
	}
	for _, m := range methods {
		o := tally[m]
		if o == nil || m == "trim" || o.clear == 0 {
			continue
		}
		better := o.recall() >= tr.recall() && o.share() < tr.share()
		switch {
		case strings.HasPrefix(m, "uniform ") && better && o.falseAlarms() <= tr.falseAlarms():
			t.Errorf("%s: %s keeps %.1f %% of the clear changes (trim %.1f %%) with %.1f %% false alarms (trim %.1f %%) in %.1f %% of the time (trim %.1f %%)",
				name, m, 100*o.recall(), 100*tr.recall(), 100*o.falseAlarms(), 100*tr.falseAlarms(), 100*o.share(), 100*tr.share())
		case strings.HasPrefix(m, "µOpTime ") && better:
			t.Errorf("%s: %s keeps %.1f %% of the clear changes (trim %.1f %%) in %.1f %% of the time (trim %.1f %%)",
				name, m, 100*o.recall(), 100*tr.recall(), 100*o.share(), 100*tr.share())
		}
	}
}

// writeFrontier draws the trade-off of every data set with at least
// minClearChanges/2 clear changes: the time share (x) against the share
// of clear changes kept (y), one circle per method (uniform reductions,
// µOpTime per metric, Kalibera–Jones, dynamic reconfiguration) and a
// cross for trim, one colour per data set.
func writeFrontier(path string, names []string, tallies []map[string]*methodTally) error {
	c := &chart.Chart{Title: "time against the clear changes kept (next version, U test)",
		X: chart.Axis{Label: "time, % of the recorded", Min: 0, Max: 105},
		Y: chart.Axis{Label: "clear changes kept, %", Min: 0, Max: 102}, LegendBottom: true, LegendSize: 8}
	palette := []color.Color{color.RGBA{31, 119, 180, 255}, color.RGBA{255, 127, 14, 255}, color.RGBA{44, 160, 44, 255},
		color.RGBA{214, 39, 40, 255}, color.RGBA{148, 103, 189, 255}, color.RGBA{140, 86, 75, 255}}
	n := 0
	for i, tally := range tallies {
		tr := tally["trim"]
		if tr == nil || tr.clear < minClearChanges/2 {
			continue
		}
		col := palette[n%len(palette)]
		n++
		var xys []chart.XY
		ms := make([]string, 0, len(tally))
		for m := range tally {
			ms = append(ms, m)
		}
		sort.Strings(ms)
		for _, m := range ms {
			mt := tally[m]
			if m == "trim" || m == "recorded" || mt.clear == 0 || mt.applied == 0 {
				continue
			}
			xys = append(xys, chart.XY{X: 100 * mt.share(), Y: 100 * mt.recall()})
		}
		g := chart.Glyph{Color: col, Radius: 2.5}
		cross := chart.Glyph{Color: col, Radius: 5, Shape: chart.Cross}
		c.Marks = append(c.Marks, &chart.Points{XYs: xys, Glyph: g},
			&chart.Points{XYs: []chart.XY{{X: 100 * tr.share(), Y: 100 * tr.recall()}}, Glyph: cross})
		name, _, _ := strings.Cut(names[i], " (")
		c.Legend = append(c.Legend, chart.LegendEntry{Label: name + ": trim ×, the others ○", Glyph: &cross})
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	format := "svg"
	if strings.HasSuffix(path, ".png") {
		format = "png"
	}
	if err := c.Write(f, format); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeTally writes one data set's table: per method the time share, the
// recall of clear changes, the A/A false alarms (and the full
// recordings'), the verdict agreement and the median detectable slowdown.
func writeTally(b *strings.Builder, name string, methods []string, tally map[string]*methodTally) {
	fmt.Fprintf(b, "\n#### %s\n\n", name)
	b.WriteString("| method | time | clear changes kept | A/A false alarms (full) | verdicts agree | detects (median) |\n| --- | ---: | ---: | ---: | ---: | ---: |\n")
	for _, m := range methods {
		mt := tally[m]
		if mt == nil || mt.applied == 0 {
			continue
		}
		med := math.NaN()
		if len(mt.detect) > 0 {
			med = stats.Quantile(mt.detect, 0.5, nil)
		}
		fmt.Fprintf(b, "| %s | %s | %s (%d) | %s (%s) | %s | %s |\n", m, cellPct(mt.share()), cellPct(mt.recall()), mt.clear,
			cellPct(mt.falseAlarms()), cellPct(mt.fullFalseAlarms()), cellPct(mt.agreement()), cellPct(med))
	}
}

func cellPct(x float64) string {
	switch {
	case math.IsNaN(x):
		return "–"
	case math.IsInf(x, 1):
		return "∞"
	}
	return fmt.Sprintf("%.1f %%", 100*x)
}
