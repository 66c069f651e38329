package trim

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/analysis/compare"
	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/atomicfile"

	"github.com/benchtrim/benchtrim/internal/synth"
)

// knownSuite is a JMH avgt suite recorded with -wi 0, 4 forks × 800
// iterations of 1 s, seed 21, whose four methods have fixed kinds: flat,
// warming up for 40 iterations (first iteration 3× slower), slowing down
// by 20 % from iteration 100 on, and oscillating (no steady state).
func knownSuite(t *testing.T) (*Report, *synth.Suite) {
	t.Helper()
	cfg := jmhSuite(4, 4, 800, 21)
	cfg.InstanceSD, cfg.TrialSD, cfg.ForkSD = 0, 0, 0.01
	cfg.Specs = []synth.BenchmarkSpec{
		{Class: "Known", Method: "flat", Kind: synth.KindFlat, Mean: 2000},
		{Class: "Known", Method: "warmup", Kind: synth.KindWarmup, Mean: 5000, WarmupIterations: 40, WarmupFactor: 3},
		{Class: "Known", Method: "slowdown", Kind: synth.KindSlowdown, Mean: 800, SlowdownAt: 100, SlowdownFactor: 1.2},
		{Class: "Known", Method: "oscillate", Kind: synth.KindNoSteadyState, Shape: synth.ShapeOscillation, Mean: 300},
	}
	tab, s := suiteTable(t, cfg, synth.FormatJMH)
	rep, err := Run(tab, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	return rep, s
}

func byMethod(t *testing.T, rep *Report, method string) *Benchmark {
	t.Helper()
	for i := range rep.Benchmarks {
		if b := &rep.Benchmarks[i]; b.Key.Benchmark == "org.example.demo.Known."+method {
			return b
		}
	}
	t.Fatalf("no benchmark %s", method)
	return nil
}

// TestKnownTruth checks trim's configurations on a suite whose warmup
// lengths and steady means are known (knownSuite), against the truth: the
// warmup W is 0 for the flat benchmark, 30–40 for the 40-iteration warmup
// (steady-state detection ends it where the segments become equivalent
// within ±5 %, a little before the curve's last slow iteration: 33 with
// fork starts 33, 29, 29, 32), exactly 100 for the slowdown at iteration
// 100; the estimate lies within 3 % of the true steady mean (0.8 %, 0.5 %,
// 0.1 %); the oscillating benchmark is flagged and keeps its
// configuration. Forks and iterations are this implementation's choices
// for seed 21 (a regression check).
func TestKnownTruth(t *testing.T) {
	rep, s := knownSuite(t)
	truth := truthOf(s)
	for _, tc := range []struct {
		method      string
		status      Status
		wLow, wHigh int
		forks, its  int // this implementation's choice (seed 21)
		maxChange   float64
	}{
		{"flat", StatusTrimmed, 0, 0, 4, 25, 0.03},
		{"warmup", StatusTrimmed, 30, 40, 3, 19, 0.03},
		{"slowdown", StatusTrimmed, 100, 100, 1, 197, 0.03},
	} {
		b := byMethod(t, rep, tc.method)
		tr := truth[[2]string{b.Key.Benchmark, b.Key.Params}]
		if b.Path != PathSteady || b.Status != tc.status {
			t.Errorf("%s: path %s, status %s (%s); want steady, %s", tc.method, b.Path, b.Status, b.Reason, tc.status)
			continue
		}
		w := b.Recommended.WarmupIterations
		if w < tc.wLow || w > tc.wHigh {
			t.Errorf("%s: W = %d (ends %v), want %d … %d (true steady start %d)", tc.method, w, b.WarmupEnds, tc.wLow, tc.wHigh, tr.SteadyStart)
		}
		if c := b.Recommended; c.Forks != tc.forks || c.Iterations != tc.its {
			t.Errorf("%s: %d forks × %d iterations, want %d × %d", tc.method, c.Forks, c.Iterations, tc.forks, tc.its)
		}
		if b.ChangeRate > tc.maxChange {
			t.Errorf("%s: change rate %.4f > %.2f", tc.method, b.ChangeRate, tc.maxChange)
		}
		if e := abs(b.Estimate-tr.FinalMean) / tr.FinalMean; e > 0.03 {
			t.Errorf("%s: estimate %.4g is %.1f %% from the true steady mean %.4g", tc.method, b.Estimate, 100*e, tr.FinalMean)
		}
		if !(b.Recommended.TimeNs < b.Recorded.TimeNs) || b.Recorded.TimeNs != int64(4*800)*1e9 {
			t.Errorf("%s: time %d → %d ns, want less than the recorded 4 × 800 s", tc.method, b.Recorded.TimeNs, b.Recommended.TimeNs)
		}
		t.Logf("%s: W %d (true %d), %d forks × %d iterations, estimate %.4g (true %.4g), change %.4f",
			tc.method, w, tr.SteadyStart, b.Recommended.Forks, b.Recommended.Iterations, b.Estimate, tr.FinalMean, b.ChangeRate)
	}
	osc := byMethod(t, rep, "oscillate")
	if !osc.Status.Unreliable() || osc.Recommended != osc.Recorded {
		t.Errorf("oscillate: status %s, recommended %v, recorded %v; want unreliable and kept", osc.Status, osc.Recommended, osc.Recorded)
	}
	if rep.Totals.Trimmed != 3 || rep.Totals.Unreliable != 1 {
		t.Errorf("totals %+v", rep.Totals)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestPaths: Go data takes the go path (no warmup), short JMH forks the
// reconfiguration path with its warning.
func TestPaths(t *testing.T) {
	cfg := synth.UOpTimeSuiteConfig()
	cfg.Benchmarks = 3
	tab, _ := suiteTable(t, cfg, synth.FormatUOpTime)
	rep, err := Run(tab, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range rep.Benchmarks {
		if b.Path != PathGo || b.Recommended.WarmupIterations != 0 || b.Tool != "go" {
			t.Errorf("%s: path %s, tool %q, W %d; want go, go, 0", b.Key.Benchmark, b.Path, b.Tool, b.Recommended.WarmupIterations)
		}
	}
	tab, _ = suiteTable(t, jmhSuite(3, 3, 120, 4), synth.FormatJMH)
	if rep, err = Run(tab, fastOptions()); err != nil {
		t.Fatal(err)
	}
	for _, b := range rep.Benchmarks {
		if b.Path != PathShort || len(b.Warnings) == 0 || len(b.WarmupEnds) == 0 {
			t.Errorf("%s: path %s, warnings %v, ends %v; want short with stop points", b.Key.Benchmark, b.Path, b.Warnings, b.WarmupEnds)
		}
	}
	if rep.Reconfigure == nil || rep.Steady != nil {
		t.Error("short path: want a reconfiguration report and no steady report")
	}
}

// TestWorkersDoNotMatter: the plan is byte-identical for 1 and 2 workers.
func TestWorkersDoNotMatter(t *testing.T) {
	tab, _ := suiteTable(t, jmhSuite(4, 3, 600, 9), synth.FormatJMH)
	var plans [2][]byte
	for i, w := range []int{1, 2} {
		opt := fastOptions()
		opt.Workers = w
		rep, err := Run(tab, opt)
		if err != nil {
			t.Fatal(err)
		}
		f, err := rep.Frame(FramePlan)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := f.WriteCSV(&buf); err != nil {
			t.Fatal(err)
		}
		plans[i] = buf.Bytes()
	}
	if !bytes.Equal(plans[0], plans[1]) {
		t.Error("plans differ between 1 and 2 workers")
	}
}

// TestVersions: with two versions of a project trim compares them; the
// known +30 % change of series 1 is found ("slower") and the unchanged
// series are not.
func TestVersions(t *testing.T) {
	cfg := jmhSuite(3, 3, 120, 8)
	cfg.Project = "proj"
	vs, err := synth.NewVersions(cfg, synth.VersionsConfig{Labels: []string{"v1", "v2"}, Changes: []synth.Change{{Benchmark: 1, Version: 1, Factor: 1.3}}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var paths []string
	for v := 0; v < vs.Len(); v++ {
		p := filepath.Join(dir, "proj-"+vs.Labels()[v]+".json")
		if err := atomicfile.Write(p, vs.Suite(v).WriteJMH); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	tab, _, _, err := ingest.ReadFiles(paths, ingest.ReadOptions{Formats: all.Formats()})
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Release()
	opt := fastOptions()
	opt.Compare.Bootstrap.Resamples = 2000
	rep, err := Run(tab, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Versions) != 1 || rep.Versions[0].Base != "v1" || rep.Versions[0].Test != "v2" {
		t.Fatalf("versions: %+v", rep.Versions)
	}
	changed := vs.Suite(1).Truth()[1].JMHName
	for _, x := range rep.Versions[0].Report.Results {
		p := x.Verdict.Percent
		if x.Benchmark == changed {
			if x.Verdict.Change != compare.Slower || p < 20 || p > 40 {
				t.Errorf("%s (+30 %% in truth): %s", x.Benchmark, x.Verdict)
			}
		} else if p < -10 || p > 10 {
			t.Errorf("%s (unchanged in truth): %s", x.Benchmark, x.Verdict)
		}
	}
	for _, b := range rep.Benchmarks {
		if b.Key.Version == "v2" && (!slices.Contains(b.Analyses, "compare") || !strings.HasPrefix(b.Change, "v1 → v2: ")) {
			t.Errorf("%s: analyses %v, change %q", b.Key.Benchmark, b.Analyses, b.Change)
		}
	}
}

// TestDuet: duet data (synth.GenerateDuet's seqn, syncduet and duet runs)
// is left to benchtrim duet: status duet, no configuration, out of the
// suite's time.
func TestDuet(t *testing.T) {
	d, err := synth.GenerateDuet(synth.DefaultDuetConfig())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "duet.csv")
	if err := atomicfile.Write(path, d.WriteCSV); err != nil {
		t.Fatal(err)
	}
	tab, _, _, err := ingest.ReadFiles([]string{path}, ingest.ReadOptions{Formats: all.Formats()})
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Release()
	rep, err := Run(tab, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range rep.Benchmarks {
		if b.Path != PathDuet || b.Status != StatusDuet || b.Reason != "duet data: see benchtrim duet" {
			t.Errorf("%s (%s): path %s, status %s", b.Key.Benchmark, b.Key.Mode, b.Path, b.Status)
		}
	}
	if rep.Totals.Duet != len(rep.Benchmarks) || rep.Totals.TimeBeforeNs != 0 || len(rep.Benchmarks) == 0 {
		t.Errorf("totals %+v", rep.Totals)
	}
}
