package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/analysis/reconfigure"
	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/synth"
)

// reconfigureInput writes a JMH avgt file recorded with -wi 0 in the shape
// of the paper's data: 5 forks × 100 iterations of 1 s, of a benchmark
// warming up for 30 iterations (3× slower at first), a flat one and one
// slowing down by 30 % from iteration 80 on.
func reconfigureInput(t *testing.T, dir string) string {
	t.Helper()
	cfg := synth.DefaultSuiteConfig()
	cfg.Seed = 5
	cfg.Project = "demo"
	cfg.Benchmarks = 3
	cfg.Params = nil
	cfg.Instances, cfg.Trials, cfg.Forks, cfg.Iterations = 1, 1, 5, 100
	cfg.GC.Enabled = false
	cfg.Specs = []synth.BenchmarkSpec{
		{Class: "Parse", Method: "json", Kind: synth.KindWarmup, Mean: 5000, WarmupIterations: 30, WarmupFactor: 3},
		{Class: "Parse", Method: "xml", Kind: synth.KindFlat, Mean: 8000},
		{Class: "Cache", Method: "get", Kind: synth.KindSlowdown, Mean: 300, SlowdownAt: 80, SlowdownFactor: 1.3},
	}
	s, err := synth.NewSuite(cfg)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "demo-v1.json")
	if err := atomicfile.Write(path, s.WriteJMH); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReconfigureCommand(t *testing.T) {
	dir := t.TempDir()
	in := reconfigureInput(t, dir)
	per, cfgs := filepath.Join(dir, "per.csv"), filepath.Join(dir, "dynamic.csv")
	t2, t3 := filepath.Join(dir, "t2.md"), filepath.Join(dir, "t3.tex")
	args := []string{"--quiet", "reconfigure", "--details", "--aa-resamples", "2000", "-o", per, "--configs-out", cfgs, "--table2", t2, "--table3", t3, in}
	stdout, stderr, err := runCLI(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, want := range []string{
		"dynamic reconfiguration: CV cuts 89.3 % of the suite's time (25 min → 2.66 min);\n",
		"A/A tests find 66.7 % of 3 tested benchmarks not different",
		"| criterion |  saved | static |  dynamic | A/A tested | not different | mean change |  < 3 % |",
		"configuration ⟨5, 50, 10, 2, 5⟩, s_W 5",
		"benchmarks: 3 replayed, 0 skipped; 0 with less data",
		"### Dynamic reconfiguration per benchmark",
		"| org.example.demo.Parse.json | ",
		"### Result quality", "### Time", " | KLD       |          3 |",
		"wrote " + per, "wrote " + t2, "wrote " + t3, "wrote " + cfgs,
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	// Per benchmark: 3 benchmarks × 3 criteria.
	rows := readCSVFile(t, per)
	if len(rows) != 1+9 {
		t.Fatalf("per-benchmark CSV has %d rows, want header + 9", len(rows))
	}
	col := columnsOf(rows[0])
	forksUsed := 0
	for _, r := range rows[1:] {
		n, err := strconv.Atoi(r[col["forks_used"]])
		if err != nil || n < 2 || n > 5 {
			t.Errorf("row %v: forks used %q, want 2..5", r, r[col["forks_used"]])
		}
		forksUsed += n
		warm := strings.Split(r[col["warmup_iterations_by_fork"]], ";")
		if len(warm) != n {
			t.Errorf("row %v: %d warmup entries for %d forks", r, len(warm), n)
		}
		// The benchmark warming up for 30 iterations, 3× slower at first:
		// CV and KLD should not stop its forks' warmup in the first 10.
		if strings.HasSuffix(r[col["benchmark"]], "Parse.json") && r[col["criterion"]] != "rciw" {
			for _, w := range warm {
				if v, _ := strconv.Atoi(w); v < 10 {
					t.Errorf("%s: warmup %s per fork stops within the first 10 iterations of a 30-iteration warmup", r[col["criterion"]], r[col["warmup_iterations_by_fork"]])
					break
				}
			}
		}
		// The slowdown at iteration 80 lies in the baseline (51–100) only.
		if strings.HasSuffix(r[col["benchmark"]], "Cache.get") && r[col["aa"]] != "different" {
			t.Errorf("%s: A/A %q for a benchmark whose baseline has a 30 %% slowdown", r[col["criterion"]], r[col["aa"]])
		}
	}
	// The configurations file: one row per fork run, readable by ReadConfigsFile.
	dc, err := reconfigure.ReadConfigsFile(cfgs)
	if err != nil {
		t.Fatal(err)
	}
	if len(dc) != forksUsed {
		t.Errorf("%d dynamic configurations, want %d (forks used)", len(dc), forksUsed)
	}
	for _, p := range []string{t2, t3} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) == 0 {
			t.Errorf("%s is empty", p)
		}
	}
	if b, _ := os.ReadFile(t3); !strings.Contains(string(b), `\begin{tabular}`) {
		t.Errorf("%s is not LaTeX", t3)
	}
	// Same seed, other worker count: the same output.
	args2 := []string{"--quiet", "--workers", "1", "reconfigure", "--aa-resamples", "2000", in}
	one, _, err := runCLI(t, args2...)
	if err != nil {
		t.Fatal(err)
	}
	args2[2] = "3"
	three, _, err := runCLI(t, args2...)
	if err != nil {
		t.Fatal(err)
	}
	if one != three {
		t.Errorf("output differs between 1 and 3 workers")
	}
}

// TestReconfigureShortData: data with fewer iterations than the
// configuration are replayed as far as they go and reported as short; the
// baseline flags make the A/A test possible.
func TestReconfigureShortData(t *testing.T) {
	in := repoFile("testdata", "jmh", "small_avgt.json")
	stdout, stderr, err := runCLI(t, "--quiet", "reconfigure", "--details", "--criteria", "cv", "--aa-resamples", "500", in)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, "no A/A test was possible") || !strings.Contains(stdout, "lower --wi-max, --mi, --baseline-wi and --baseline-mi") ||
		!strings.Contains(stdout, "with less data than the configuration or the baseline asks for") || !strings.Contains(stdout, "no baseline") {
		t.Errorf("short data not reported:\n%s", stdout)
	}
	stdout, stderr, err = runCLI(t, "--quiet", "reconfigure", "--criteria", "cv", "--aa-resamples", "500",
		"--wi-min", "1", "--wi-max", "2", "--mi", "1", "--baseline-wi", "1", "--baseline-mi", "2", in)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if strings.Contains(stdout, "no baseline") {
		t.Errorf("baseline flags ignored:\n%s", stdout)
	}
}

func TestReconfigureCommandErrors(t *testing.T) {
	in := repoFile("testdata", "jmh", "small_avgt.json")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"reconfigure", "--criteria", "cv,foo", in}, `--criteria: unknown stoppage criterion "foo"`},
		{[]string{"reconfigure", "--criteria", "cv,cv", in}, "given twice"},
		{[]string{"reconfigure", "--wi-min", "10", "--wi-max", "5", in}, "wi_min <= wi_max"},
		{[]string{"reconfigure", "--window", "1", in}, "--window 1: must be at least 2"},
		{[]string{"reconfigure", "--kld-threshold", "1.5", in}, "--kld-threshold 1.5: must be between 0 and 1"},
		{[]string{"reconfigure", "--aa-confidence", "1", in}, "--aa-confidence 1: must be between 0 and 1"},
		{[]string{"reconfigure", "--table2", "t.docx", in}, "unsupported extension \".docx\""},
		{[]string{"reconfigure", "--iteration-time", "-1s", in}, "--iteration-time"},
		{[]string{"reconfigure", "--bench", "(", in}, "--bench"},
		{[]string{"reconfigure"}, "no input files"},
		{[]string{"reconfigure", "--bench", "NoSuchBenchmark", in}, `--bench "NoSuchBenchmark" matches none of the 2 benchmarks (org.example.small.JsonBenchmark.encodeSmall, org.example.small.JsonBenchmark.readLarge)`},
	} {
		_, _, err := runCLI(t, append([]string{"--quiet"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.args, err, tc.want)
		}
	}
}
