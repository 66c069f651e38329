package optimize

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/format/uoptime"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/table"
)

// javaSet is one of the µOpTime prototype's Java result sets whose data
// ../shared/data/jmh-versions holds: the data folder and files, the
// folders of its published min_config_res.csv files (per file stem and
// metric), and the options that reproduce its optimizer's run.
type javaSet struct {
	name    string
	data    string   // under ../shared/data/jmh-versions
	files   []string // file stems
	results []string // folders under the replication package's optimizer/
	discard int      // iterations dropped from every fork
}

// javaSets are the prototype's runs on its data sets 2 and 3:
// optimizer_jmh_parallel_ese21.py on data set 3 (published for each
// project's first and last release), optimizer_jmh_parallel_fse20.py on
// data set 2 without iterations 1–50 ("warmup") and optimizer_jmh_fse20.py
// with them ("nowarmup").
var javaSets = []javaSet{
	{"ese21", "laaber-ese21",
		[]string{"laaber_bytebuddy-01_00_00-jmh121", "laaber_bytebuddy-01_10_07-jmh121", "laaber_jenetics-03_00_00-jmh121", "laaber_jenetics-05_02_00-jmh121"},
		[]string{"dataset_3/optimizer_results_ese21/optimizer_results_only_base", "dataset_3/optimizer_results_ese21/optimizer_results_only_latest"}, 0},
	{"fse20 warmup", "laaber-fse20",
		[]string{"laaber_byte-buddy", "laaber_jenetics", "laaber_protostuff", "laaber_zipkin"},
		[]string{"dataset_2/laaber_optimization_warmup_fse20"}, 50},
	{"fse20 nowarmup", "laaber-fse20",
		[]string{"laaber_byte-buddy", "laaber_jenetics", "laaber_protostuff", "laaber_zipkin"},
		[]string{"dataset_2/laaber_optimization_nowarmup_fse20"}, 0},
}

// javaPrototypeOptions are the prototype JMH optimizers' settings: all
// forks and iterations, threshold 0.01, at least 3 forks × iterations,
// forks one after the other, execution time forks × measurement
// iterations (NoWarmupTime), the first discard iterations of every fork
// dropped.
func javaPrototypeOptions(discard int) Options {
	opt := DefaultOptions
	opt.DiscardWarmup = discard
	opt.NoWarmupTime = true
	opt.Bootstrap = estimate.BootstrapOptions{Resamples: 200, Confidence: 0.99}
	opt.Workers = 2
	opt.NoReportedCIs = true // the choices are the same
	return opt
}

// javaRCIWFloor is the agreement of seed 1 with the prototype's RCIW
// choices (TestPrototypeJavaAgreementRCIW) when the comparison came.
var javaRCIWFloor = map[string]int{
	"ese21 rciw-mean": 141, "fse20 warmup rciw-mean": 161, "fse20 nowarmup rciw-mean": 159,
	"ese21 rciw-mean-t": 140, "fse20 warmup rciw-mean-t": 149, "fse20 nowarmup rciw-mean-t": 164,
	"ese21 rciw-median as the prototype": 140, "fse20 warmup rciw-median as the prototype": 160, "fse20 nowarmup rciw-median as the prototype": 160,
	"ese21 rciw-median": 127, "fse20 warmup rciw-median": 111, "fse20 nowarmup rciw-median": 71,
}

// protoChoice is one row of a prototype min_config_res.csv.
type protoChoice struct {
	config      string  // "(fork, it)"
	instability float64 // the metric of the chosen configuration
	time        int     // forks × iterations
}

// prototypeJavaRoot returns the replication package's optimizer folder
// (BENCHTRIM_UOPTIME_PROTOTYPE) or skips the test visibly.
func prototypeJavaRoot(t *testing.T) string {
	t.Helper()
	root := os.Getenv("BENCHTRIM_UOPTIME_PROTOTYPE")
	if root == "" {
		testenv.Skip(t, "BENCHTRIM_UOPTIME_PROTOTYPE not set (path of the µOpTime replication package); skipping the comparison with its Java results")
	}
	if _, err := os.Stat(filepath.Join(root, "optimizer", "dataset_2")); err == nil {
		root = filepath.Join(root, "optimizer")
	}
	return root
}

// javaKey names a benchmark run as the test compares them: benchmark and
// canonical params. The prototype's data set 2 names are
// project#benchmark#k=v&k=v.
func javaKey(protoName string) string {
	parts := strings.SplitN(protoName, "#", 3)
	if len(parts) < 3 {
		return protoName
	}
	params := map[string]string{}
	if parts[2] != "" {
		for _, p := range strings.Split(parts[2], "&") {
			k, v, _ := strings.Cut(p, "=")
			params[k] = v
		}
	}
	return runKey(table.Key{Benchmark: parts[1], Params: table.CanonicalParams(params)})
}

func runKey(k table.Key) string {
	if k.Params == "" {
		return k.Benchmark
	}
	return k.Benchmark + "[" + k.Params + "]"
}

// readJavaProto reads the prototype's choices of file stem under metric m
// in set s, by javaKey.
func readJavaProto(t *testing.T, root string, s javaSet, stem string, m Metric) map[string]protoChoice {
	t.Helper()
	var path string
	for _, dir := range s.results {
		p := filepath.Join(root, dir, stem, protoMetricDir[m], "min_config_res.csv")
		if _, err := os.Stat(p); err == nil {
			path = p
		}
	}
	if path == "" {
		t.Fatalf("%s: no published %s results for %s under %s", s.name, m, stem, strings.Join(s.results, ", "))
	}
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	recs, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out := map[string]protoChoice{}
	for _, rec := range recs[1:] {
		inst, err1 := strconv.ParseFloat(rec[2], 64)
		tm, err2 := strconv.Atoi(rec[3])
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: row %q", path, rec)
		}
		out[javaKey(rec[0])] = protoChoice{rec[1], inst, tm}
	}
	return out
}

// javaChoice is one choice for one benchmark run and metric.
type javaChoice struct {
	c      Config
	config string // "(fork, it)", as the prototype writes it
	value  float64
	time   int // forks × iterations
}

func choiceOf(c Config, value float64) javaChoice {
	return javaChoice{c, fmt.Sprintf("(%d, %d)", c[table.LevelFork], c[table.LevelIteration]), value, int(c[table.LevelFork] * c[table.LevelIteration])}
}

// protoConfig parses the prototype's "(fork, it)".
func protoConfig(t *testing.T, s string) Config {
	t.Helper()
	c := Config{1, 1, 1, 1, 1}
	if _, err := fmt.Sscanf(s, "(%d, %d)", &c[table.LevelFork], &c[table.LevelIteration]); err != nil {
		t.Fatalf("prototype configuration %q: %v", s, err)
	}
	return c
}

// readJavaSeries reads a Java CSV as the command reads it (ingest.ReadFiles,
// so the labels and random streams are the command's) and returns its
// series by javaKey; release frees their table.
func readJavaSeries(t *testing.T, path string) (map[string]*table.Series, func()) {
	t.Helper()
	tab, _, _, err := ingest.ReadFiles([]string{path}, ingest.ReadOptions{Formats: []ingest.Format{uoptime.JMHFormat()}})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*table.Series{}
	for _, s := range table.Collect(tab, table.Filter{}) {
		out[runKey(s.Key)] = s
	}
	return out, tab.Release
}

// javaMethod is how the test chooses a benchmark run's configuration under
// a metric, and computes that metric of one configuration, with options opt.
type javaMethod struct {
	choose  func(t *testing.T, s *table.Series, m Metric, opt Options) javaChoice
	valueAt func(t *testing.T, p *prepared, m Metric, c Config, opt Options) float64
}

// uoptimeMethod is µOpTime's choice (optimize) and metric (evaluate).
var uoptimeMethod = javaMethod{
	choose: func(t *testing.T, s *table.Series, m Metric, opt Options) javaChoice {
		t.Helper()
		opt.Metrics = []Metric{m}
		r, err := optimize([]*table.Series{s}, opt)
		if err != nil || len(r.Results) != 1 {
			t.Fatalf("%s %s: %v", s.Key, m, err)
		}
		return choiceOf(r.Results[0].Chosen.Config, r.Results[0].Chosen.Value)
	},
	valueAt: func(t *testing.T, p *prepared, m Metric, c Config, opt Options) float64 {
		ws := new(workspace)
		ws.begin(p)
		return p.evaluate(m, c, false, &opt, ws).Value
	},
}

// protoMedianMethod is the prototype's rciw_median_p, which divides the
// width of the percentile bootstrap CI of the mean by the median
// (stat_functions.py), computed with benchtrim's bootstrap of the mean
// (the draws rciw-mean uses), and µOpTime's search with it:
// configurations in ascending time, the first stable one, the smallest
// metric among those of its time.
var protoMedianMethod = javaMethod{
	choose: func(t *testing.T, s *table.Series, _ Metric, opt Options) javaChoice {
		t.Helper()
		p := mustPrepare(t, s, &opt)
		ws := new(workspace)
		ws.begin(p)
		var best Config
		bestTime, bestValue, found := int64(0), math.Inf(1), false
		for _, e := range p.configs {
			if int(e.reps) < opt.MinRepetitions || e.n == 0 {
				continue
			}
			if found && e.timeNs > bestTime {
				break
			}
			x := p.gather(nil, e.c)
			mean, med := stats.Mean(x, nil), median(x, ws)
			limit := min(opt.Threshold, bestValue) * med / mean // on the CI's width over the mean
			iv, err, complete := p.ci(stats.MeanPercentile, x, e.c, limit, &opt, ws)
			if !complete || err != nil {
				continue
			}
			if v := math.Abs(iv.Upper-iv.Lower) / med; stable(v, opt.Threshold) && v < bestValue {
				best, bestTime, bestValue, found = e.c, e.timeNs, v, true
			}
		}
		if !found {
			return choiceOf(p.full, math.NaN())
		}
		return choiceOf(best, bestValue)
	},
	valueAt: func(t *testing.T, p *prepared, _ Metric, c Config, opt Options) float64 {
		ws := new(workspace)
		ws.begin(p)
		x := p.gather(nil, c)
		iv, err, _ := p.ci(stats.MeanPercentile, x, c, math.Inf(1), &opt, ws)
		if err != nil {
			return math.NaN()
		}
		return math.Abs(iv.Upper-iv.Lower) / median(x, ws)
	},
}

func mustPrepare(t *testing.T, s *table.Series, opt *Options) *prepared {
	t.Helper()
	p, skipped := prepare(s, opt)
	if skipped != nil {
		t.Fatalf("%s: %s", s.Key, skipped.Reason)
	}
	return p
}

// maxExplainSeed is the last seed tried to explain a difference of an RCIW
// metric's choice as bootstrap noise.
const maxExplainSeed = 200

// flipSeed looks for the seed (2 … maxExplainSeed) under which the
// decision that made got differ from the prototype's want goes the
// prototype's way in benchtrim's own bootstrap: when got is the cheaper,
// got unstable (as the prototype found it); when want is, want stable;
// at equal times, want stable with the smaller metric. It returns 0 when
// no seed does.
func flipSeed(t *testing.T, meth javaMethod, s *table.Series, m Metric, got, want javaChoice, opt Options) int {
	t.Helper()
	p := mustPrepare(t, s, &opt)
	w := protoConfig(t, want.config)
	for seed := uint64(2); seed <= maxExplainSeed; seed++ {
		opt.Seed = seed
		var flips bool
		switch {
		case got.time < want.time:
			flips = !stable(meth.valueAt(t, p, m, got.c, opt), opt.Threshold)
		case want.time < got.time:
			flips = stable(meth.valueAt(t, p, m, w, opt), opt.Threshold)
		default:
			vw, vg := meth.valueAt(t, p, m, w, opt), meth.valueAt(t, p, m, got.c, opt)
			flips = stable(vw, opt.Threshold) && (vw < vg || math.IsNaN(vg))
		}
		if flips {
			return int(seed)
		}
	}
	return 0
}

// javaComparison is the agreement of one set under one metric.
type javaComparison struct {
	set    string
	metric string
	total  int
	agree  int
	// seeds counts the differences flipSeed explains, and maxSeed is the
	// largest seed needed; unexplained lists the others.
	seeds, maxSeed int
	// byDefinition counts the differences the explaining method's own
	// seed-1 choice removes.
	byDefinition int
	differ       []string
	unexplained  []string
}

// compareJava chooses with meth under metric m (named name in the
// result) with opt on every file of every set and compares the choices with
// the prototype's. With explain set, a difference is explained when
// explain's seed-1 choice is the prototype's (another definition of the
// metric: byDefinition) or flipSeed finds a seed under which explain's
// decision goes the prototype's way.
func compareJava(t *testing.T, name string, m Metric, meth *javaMethod, opt Options, explain *javaMethod) []javaComparison {
	t.Helper()
	root := prototypeJavaRoot(t)
	dir := testenv.Shared(t, "data", "jmh-versions")
	var out []javaComparison
	for _, set := range javaSets {
		o := opt
		o.DiscardWarmup = set.discard
		c := javaComparison{set: set.name, metric: name}
		for _, stem := range set.files {
			series, release := readJavaSeries(t, filepath.Join(dir, set.data, stem+".csv"))
			want := readJavaProto(t, root, set, stem, m)
			if len(series) != len(want) {
				t.Errorf("%s %s: %d benchmark runs, the prototype %d", set.name, stem, len(series), len(want))
			}
			keys := make([]string, 0, len(want))
			for k := range want {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				w := want[k]
				c.total++
				s := series[k]
				if s == nil {
					c.unexplained = append(c.unexplained, stem+" "+k+": not in benchtrim's table")
					continue
				}
				g := meth.choose(t, s, m, o)
				if g.config == w.config {
					c.agree++
					continue
				}
				d := fmt.Sprintf("%s %s: got %s (%.5f, %d s), prototype %s (%.5f, %d s)", stem, k, g.config, g.value, g.time, w.config, w.instability, w.time)
				seed := 0
				if explain != nil && explain != meth {
					if e := explain.choose(t, s, m, o); e.config == w.config {
						c.byDefinition++
						c.differ = append(c.differ, d+"; the prototype's definition chooses it")
						continue
					} else {
						g = e
					}
				}
				if explain != nil {
					seed = flipSeed(t, *explain, s, m, g, javaChoice{config: w.config, value: w.instability, time: w.time}, o)
				}
				if seed == 0 {
					c.unexplained = append(c.unexplained, d)
					continue
				}
				c.seeds++
				c.maxSeed = max(c.maxSeed, seed)
				c.differ = append(c.differ, fmt.Sprintf("%s; flips with seed %d", d, seed))
			}
			release()
		}
		out = append(out, c)
	}
	return out
}

// TestPrototypeJavaAgreement compares the configurations chosen under cv
// and rmad on µOpTime's Java data sets 2 and 3 (the files of
// ../shared/data/jmh-versions) with those the µOpTime prototype published
// (javaSets): every one must agree. The prototype's results are not part of
// the repository: set BENCHTRIM_UOPTIME_PROTOTYPE to a checkout of
// njapke/uoptime-replication-package (commit 938e5667), which needs
// optimizer/dataset_2/laaber_optimization_{warmup,nowarmup}_fse20/ and
// optimizer/dataset_3/optimizer_results_ese21/optimizer_results_only_{base,latest}/.
func TestPrototypeJavaAgreement(t *testing.T) {
	opt := javaPrototypeOptions(0)
	for _, m := range []Metric{cv, RMAD} {
		for _, c := range compareJava(t, m.String(), m, &uoptimeMethod, opt, nil) {
			t.Logf("%s %s: %d/%d agree", c.set, c.metric, c.agree, c.total)
			if c.agree != c.total || c.total == 0 {
				t.Errorf("%s %s: %d/%d agree with the prototype:\n%s", c.set, c.metric, c.agree, c.total, strings.Join(c.unexplained, "\n"))
			}
		}
	}
}

// TestPrototypeJavaAgreementRCIW compares the choices of the RCIW metrics
// (10,000 resamples, seed 1) with the prototype's on the same files. Its
// bootstrap is numpy's, so near the threshold the two choose differently;
// a difference counts as bootstrap noise when the decision that made it
// goes the prototype's way in benchtrim's own bootstrap under another
// seed (flipSeed), and any other difference fails the test. rciw-median
// is compared twice: benchtrim's (the CI of the median, as the paper
// describes), whose differences must be removed by the prototype's
// definition (the CI of the mean over the median, protoMedianMethod) or be
// noise of it, and that definition on its own. The agreement of seed 1
// may not fall below what it was when the comparison came
// (javaRCIWFloor). docs/optimize.md ("Java data sets") shows the counts.
func TestPrototypeJavaAgreementRCIW(t *testing.T) {
	if testing.Short() {
		testenv.Skip(t, "-short: 10,000 resamples on 486 benchmark runs")
	}
	opt := javaPrototypeOptions(0)
	opt.Bootstrap = estimate.DefaultBootstrap
	for _, tc := range []struct {
		name    string
		m       Metric
		meth    *javaMethod
		explain *javaMethod
	}{
		{"rciw-mean", rciwMean, &uoptimeMethod, &uoptimeMethod},
		{"rciw-mean-t", rciwMeanT, &uoptimeMethod, &uoptimeMethod},
		{"rciw-median as the prototype", RCIWMedian, &protoMedianMethod, &protoMedianMethod},
		{"rciw-median", RCIWMedian, &uoptimeMethod, &protoMedianMethod},
	} {
		for _, c := range compareJava(t, tc.name, tc.m, tc.meth, opt, tc.explain) {
			t.Logf("%s %s: %d/%d agree; of the others %d by the prototype's definition, %d flip with another seed (up to %d)",
				c.set, c.metric, c.agree, c.total, c.byDefinition, c.seeds, c.maxSeed)
			for _, d := range c.differ {
				t.Logf("    %s", d)
			}
			if len(c.unexplained) > 0 {
				t.Errorf("%s %s: %d differences that no seed up to %d explains:\n%s", c.set, c.metric, len(c.unexplained), maxExplainSeed, strings.Join(c.unexplained, "\n"))
			}
			if floor, ok := javaRCIWFloor[c.set+" "+c.metric]; !ok || c.agree < floor {
				t.Errorf("%s %s: %d/%d agree with the prototype, fewer than the %d of seed 1 before", c.set, c.metric, c.agree, c.total, floor)
			}
		}
	}
}
