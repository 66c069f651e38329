package optimize

import (
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
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

// javaExtract is the committed extract of the rows of the prototype's
// published min_config_res.csv files that the tests compare with
// (testdata/javaref/extract.sh writes it; TestPrototypeJavaExtract checks
// it against the replication package).
const javaExtract = "testdata/javaref/published.tsv.gz"

// javaMetrics are the metrics whose choices the prototype published, in
// the order of extract.sh.
var javaMetrics = []Metric{CV, RMAD, RCIWMean, RCIWMeanT, RCIWMedian}

// javaFile names one published min_config_res.csv: its result folder
// under optimizer/, data file stem and metric folder.
type javaFile struct{ results, stem, metric string }

// javaPublished holds the prototype's choices of every published file, by
// javaKey.
type javaPublished map[javaFile]map[string]protoChoice

// prototypeJavaRoot returns the replication package's optimizer folder
// named by BENCHTRIM_UOPTIME_PROTOTYPE, or "" when it is not set.
func prototypeJavaRoot() string {
	root := os.Getenv("BENCHTRIM_UOPTIME_PROTOTYPE")
	if root == "" {
		return ""
	}
	if _, err := os.Stat(filepath.Join(root, "optimizer", "dataset_2")); err == nil {
		root = filepath.Join(root, "optimizer")
	}
	return root
}

// readJavaPublished returns the prototype's published choices: from the
// replication package when BENCHTRIM_UOPTIME_PROTOTYPE names it, else
// from the committed extract.
func readJavaPublished(t *testing.T) javaPublished {
	t.Helper()
	if root := prototypeJavaRoot(); root != "" {
		return readJavaPackage(t, root)
	}
	return readJavaExtract(t, javaExtract)
}

// javaFiles lists the published files the tests compare with: each set's
// file stems under each metric, in the one of the set's result folders
// for which exists is true (data set 3 keeps a project's first release
// under optimizer_results_only_base, its last under _only_latest).
func javaFiles(exists func(javaFile) bool) []javaFile {
	var out []javaFile
	seen := map[javaFile]bool{}
	for _, s := range javaSets {
		for _, stem := range s.files {
			for _, m := range javaMetrics {
				f := javaFile{s.results[0], stem, protoMetricDir[m]}
				for _, dir := range s.results {
					if g := (javaFile{dir, stem, protoMetricDir[m]}); exists(g) {
						f = g
					}
				}
				if !seen[f] {
					seen[f] = true
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// readJavaPackage reads every published file javaFiles lists from the
// replication package's optimizer folder root.
func readJavaPackage(t *testing.T, root string) javaPublished {
	t.Helper()
	path := func(f javaFile) string { return filepath.Join(root, f.results, f.stem, f.metric, "min_config_res.csv") }
	files := javaFiles(func(f javaFile) bool {
		_, err := os.Stat(path(f))
		return err == nil
	})
	out := javaPublished{}
	for _, f := range files {
		out[f] = readJavaProto(t, path(f))
	}
	return out
}

// readJavaProto reads one published min_config_res.csv
// (Benchmark,Config,Instability,Time,...) by javaKey.
func readJavaProto(t *testing.T, path string) map[string]protoChoice {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	recs, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(recs) == 0 || len(recs[0]) < 4 || strings.Join(recs[0][:4], ",") != "Benchmark,Config,Instability,Time" {
		t.Fatalf("%s: not the prototype's min_config_res.csv header", path)
	}
	out := map[string]protoChoice{}
	for i, rec := range recs[1:] {
		c, err := parseProtoChoice(rec[1], rec[2], rec[3])
		if err != nil {
			t.Fatalf("%s:%d: %v", path, i+2, err)
		}
		k := javaKey(rec[0])
		if _, dup := out[k]; dup {
			t.Fatalf("%s:%d: benchmark run %s given twice", path, i+2, k)
		}
		out[k] = c
	}
	return out
}

// parseProtoChoice parses a published Config "(forks, iterations)",
// Instability and Time, which must be forks × iterations.
func parseProtoChoice(config, instability, tm string) (protoChoice, error) {
	var f, it int
	if _, err := fmt.Sscanf(config, "(%d, %d)", &f, &it); err != nil || fmt.Sprintf("(%d, %d)", f, it) != config {
		return protoChoice{}, fmt.Errorf("configuration %q is not (forks, iterations)", config)
	}
	inst, err := strconv.ParseFloat(instability, 64)
	if err != nil {
		return protoChoice{}, fmt.Errorf("instability %q: %v", instability, err)
	}
	n, err := strconv.Atoi(tm)
	if err != nil || n != f*it {
		return protoChoice{}, fmt.Errorf("time %q, want forks × iterations = %d", tm, f*it)
	}
	return protoChoice{config, inst, n}, nil
}

// javaExtractHeader is the header of the committed extract.
const javaExtractHeader = "results\tfile\tmetric\tbenchmark\tconfig\tinstability\ttime"

// readJavaExtract reads the extract extract.sh writes: gzip'd TSV, a row
// per published row. A row of a file javaFiles does not list, a file it
// lists without rows or a run given twice is an error.
func readJavaExtract(t *testing.T, path string) javaPublished {
	t.Helper()
	lines := gunzipLines(t, path)
	if len(lines) == 0 || lines[0] != javaExtractHeader {
		t.Fatalf("%s: header is not %q", path, javaExtractHeader)
	}
	out := javaPublished{}
	for i, line := range lines[1:] {
		rec := strings.Split(line, "\t")
		if len(rec) != 7 {
			t.Fatalf("%s:%d: %d fields, want 7", path, i+2, len(rec))
		}
		f := javaFile{rec[0], rec[1], rec[2]}
		c, err := parseProtoChoice(rec[4], rec[5], rec[6])
		if err != nil {
			t.Fatalf("%s:%d: %v", path, i+2, err)
		}
		if out[f] == nil {
			out[f] = map[string]protoChoice{}
		}
		k := javaKey(rec[3])
		if _, dup := out[f][k]; dup {
			t.Fatalf("%s:%d: benchmark run %s of %s given twice", path, i+2, k, f)
		}
		out[f][k] = c
	}
	files := javaFiles(func(f javaFile) bool { return out[f] != nil })
	if len(files) != len(out) {
		t.Fatalf("%s: %d published files, of which %d are the tests' (%v)", path, len(out), len(files), files)
	}
	for _, f := range files {
		if len(out[f]) == 0 {
			t.Fatalf("%s: no rows of %s", path, f)
		}
	}
	return out
}

// gunzipLines returns the lines of the gzip'd text file path.
func gunzipLines(t *testing.T, path string) []string {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// choices returns the prototype's choices of file stem under metric m in
// set s.
func (p javaPublished) choices(t *testing.T, s javaSet, stem string, m Metric) map[string]protoChoice {
	t.Helper()
	for _, dir := range s.results {
		if c := p[javaFile{dir, stem, protoMetricDir[m]}]; c != nil {
			return c
		}
	}
	t.Fatalf("%s: no published %s results for %s under %s", s.name, m, stem, strings.Join(s.results, ", "))
	return nil
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
	for _, s := range tab.Collect(table.Filter{}) {
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

// javaCase is one comparison: metric m chosen with meth, named name in the
// results; with explain set, a difference is explained when explain's
// seed-1 choice is the prototype's (another definition of the metric:
// byDefinition) or flipSeed finds a seed under which explain's decision
// goes the prototype's way.
type javaCase struct {
	name    string
	m       Metric
	meth    *javaMethod
	explain *javaMethod
}

// javaComparison is the agreement of one set (or one of its files) under
// one case.
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

func (c *javaComparison) add(d javaComparison) {
	c.total += d.total
	c.agree += d.agree
	c.seeds += d.seeds
	c.maxSeed = max(c.maxSeed, d.maxSeed)
	c.byDefinition += d.byDefinition
	c.differ = append(c.differ, d.differ...)
	c.unexplained = append(c.unexplained, d.unexplained...)
}

// compareJava compares the choices of every case with opt on every file of
// every set with the prototype's published ones, and returns the agreement
// per case and set, in that order. The files are compared in parallel
// subtests (one per case and file; a series' random streams depend on its
// key and the seed only, so the choices are those of a serial run).
func compareJava(t *testing.T, cases []javaCase, opt Options) []javaComparison {
	t.Helper()
	dir := testenv.Shared(t, "data", "jmh-versions")
	pub := readJavaPublished(t)
	type unit struct {
		c    javaCase
		set  javaSet
		stem string
		res  javaComparison
	}
	var units []*unit
	for _, c := range cases {
		for _, set := range javaSets {
			for _, stem := range set.files {
				units = append(units, &unit{c: c, set: set, stem: stem})
			}
		}
	}
	t.Run("files", func(t *testing.T) {
		for _, u := range units {
			t.Run(u.c.name+"/"+u.set.name+"/"+u.stem, func(t *testing.T) {
				t.Parallel()
				want := pub.choices(t, u.set, u.stem, u.c.m)
				o := opt
				o.DiscardWarmup = u.set.discard
				u.res = compareJavaFile(t, filepath.Join(dir, u.set.data, u.stem+".csv"), u.stem, want, u.c, o)
			})
		}
	})
	var out []javaComparison
	for _, u := range units {
		if n := len(out); n == 0 || out[n-1].set != u.set.name || out[n-1].metric != u.c.name {
			out = append(out, javaComparison{set: u.set.name, metric: u.c.name})
		}
		out[len(out)-1].add(u.res)
	}
	return out
}

// compareJavaFile compares the choices of case c with opt on the Java CSV
// path (file stem) with the prototype's, want.
func compareJavaFile(t *testing.T, path, stem string, want map[string]protoChoice, c javaCase, o Options) javaComparison {
	t.Helper()
	series, release := readJavaSeries(t, path)
	defer release()
	var r javaComparison
	if len(series) != len(want) {
		t.Errorf("%s: %d benchmark runs, the prototype %d", stem, len(series), len(want))
	}
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	meth, explain, m := c.meth, c.explain, c.m
	for _, k := range keys {
		w := want[k]
		r.total++
		s := series[k]
		if s == nil {
			r.unexplained = append(r.unexplained, stem+" "+k+": not in benchtrim's table")
			continue
		}
		g := meth.choose(t, s, m, o)
		if g.config == w.config {
			r.agree++
			continue
		}
		d := fmt.Sprintf("%s %s: got %s (%.5f, %d s), prototype %s (%.5f, %d s)", stem, k, g.config, g.value, g.time, w.config, w.instability, w.time)
		seed := 0
		if explain != nil && explain != meth {
			if e := explain.choose(t, s, m, o); e.config == w.config {
				r.byDefinition++
				r.differ = append(r.differ, d+"; the prototype's definition chooses it")
				continue
			} else {
				g = e
			}
		}
		if explain != nil {
			seed = flipSeed(t, *explain, s, m, g, javaChoice{config: w.config, value: w.instability, time: w.time}, o)
		}
		if seed == 0 {
			r.unexplained = append(r.unexplained, d)
			continue
		}
		r.seeds++
		r.maxSeed = max(r.maxSeed, seed)
		r.differ = append(r.differ, fmt.Sprintf("%s; flips with seed %d", d, seed))
	}
	return r
}

// TestPrototypeJavaAgreement compares the configurations chosen under cv
// and rmad on µOpTime's Java data sets 2 and 3 (the files of
// ../shared/data/jmh-versions) with those the µOpTime prototype published
// (javaSets): every one must agree. The published choices come from the
// committed extract (testdata/javaref), or, with BENCHTRIM_UOPTIME_PROTOTYPE
// set to a checkout of njapke/uoptime-replication-package (commit
// 938e5667), from its optimizer/dataset_2/laaber_optimization_{warmup,nowarmup}_fse20/
// and optimizer/dataset_3/optimizer_results_ese21/optimizer_results_only_{base,latest}/.
func TestPrototypeJavaAgreement(t *testing.T) {
	var cases []javaCase
	for _, m := range []Metric{CV, RMAD} {
		cases = append(cases, javaCase{m.String(), m, &uoptimeMethod, nil})
	}
	for _, c := range compareJava(t, cases, javaPrototypeOptions(0)) {
		t.Logf("%s %s: %d/%d agree", c.set, c.metric, c.agree, c.total)
		if c.agree != c.total || c.total == 0 {
			t.Errorf("%s %s: %d/%d agree with the prototype:\n%s", c.set, c.metric, c.agree, c.total, strings.Join(c.unexplained, "\n"))
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
	cases := []javaCase{
		{"rciw-mean", RCIWMean, &uoptimeMethod, &uoptimeMethod},
		{"rciw-mean-t", RCIWMeanT, &uoptimeMethod, &uoptimeMethod},
		{"rciw-median as the prototype", RCIWMedian, &protoMedianMethod, &protoMedianMethod},
		{"rciw-median", RCIWMedian, &uoptimeMethod, &protoMedianMethod},
	}
	for _, c := range compareJava(t, cases, opt) {
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

// TestPrototypeJavaExtract checks the committed extract of the prototype's
// published Java choices against the replication package named by
// BENCHTRIM_UOPTIME_PROTOTYPE: the same choices as Go's encoding/csv reads
// the published files, and the same content as extract.sh writes from
// them now. Without the variable it is skipped; regenerate the extract
// with sh testdata/javaref/extract.sh PACKAGE.
func TestPrototypeJavaExtract(t *testing.T) {
	root := prototypeJavaRoot()
	if root == "" {
		testenv.Skip(t, "BENCHTRIM_UOPTIME_PROTOTYPE not set (path of the µOpTime replication package); not checking %s against it", javaExtract)
	}
	got, want := readJavaExtract(t, javaExtract), readJavaPackage(t, root)
	if len(got) != len(want) {
		t.Errorf("%s: %d published files, the package %d", javaExtract, len(got), len(want))
	}
	for f, w := range want {
		g := got[f]
		for k, wc := range w {
			if gc, ok := g[k]; !ok || gc.config != wc.config || gc.time != wc.time ||
				(gc.instability != wc.instability && !(math.IsNaN(gc.instability) && math.IsNaN(wc.instability))) {
				t.Errorf("%s %s: extract %+v (present %v), published %+v", f, k, gc, ok, wc)
			}
		}
		if len(g) != len(w) {
			t.Errorf("%s: %d benchmark runs in the extract, %d published", f, len(g), len(w))
		}
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		testenv.Skip(t, "no sh: extract.sh not run")
	}
	out := filepath.Join(t.TempDir(), "published.tsv.gz")
	cmd := exec.Command(sh, filepath.Join("testdata", "javaref", "extract.sh"), root, out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("extract.sh: %v\n%s", err, b)
	}
	if g, w := gunzipLines(t, javaExtract), gunzipLines(t, out); strings.Join(g, "\n") != strings.Join(w, "\n") {
		t.Errorf("%s differs from what extract.sh writes from %s now (%d and %d lines); regenerate: sh testdata/javaref/extract.sh %s", javaExtract, root, len(g), len(w), root)
	}
}

// TestPrototypeJavaExtractComplete: the committed extract holds the
// prototype's choices of every file the tests compare with under all five
// metrics (486 benchmark runs each: 144 of data set 3, 171 of data set 2
// in each variant), the same runs under every metric of a file.
func TestPrototypeJavaExtractComplete(t *testing.T) {
	pub := readJavaExtract(t, javaExtract)
	perMetric := map[string]int{}
	for _, s := range javaSets {
		for _, stem := range s.files {
			first := pub.choices(t, s, stem, javaMetrics[0])
			for _, m := range javaMetrics {
				c := pub.choices(t, s, stem, m)
				perMetric[m.String()] += len(c)
				for k := range first {
					if _, ok := c[k]; !ok {
						t.Errorf("%s %s: %s has a choice under %s, not under %s", s.name, stem, k, javaMetrics[0], m)
					}
				}
			}
		}
	}
	for _, m := range javaMetrics {
		if perMetric[m.String()] != 486 {
			t.Errorf("%s: %d benchmark runs in the extract, want 486", m, perMetric[m.String()])
		}
	}
}
