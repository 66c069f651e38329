package trim

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/analysis/compare"
	"github.com/benchtrim/benchtrim/analysis/duet"
	"github.com/benchtrim/benchtrim/analysis/reconfigure"
	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/atomicfile"

	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/table"
)

// knownSuite is a JMH avgt suite recorded with -wi 0, 4 forks × 800
// iterations of 1 s, seed 21, whose four methods have fixed kinds: flat,
// warming up for 40 iterations (first iteration 3× slower), slowing down
// by 20 % from iteration 100 on, and oscillating (no steady state),
// analysed with opt.
func knownSuite(t *testing.T, opt Options) (*Report, *synth.Suite) {
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
	rep, err := Run(tab, opt)
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

// TestKnownTruth checks trim's rule on a suite whose warmup lengths and
// steady means are known (knownSuite: forks differ by 1 %), against the
// truth: the warmup W is 0 for the flat benchmark, 30–40 for the
// 40-iteration warmup (steady-state detection ends it where the segments
// become equivalent within ±5 %, a little before the curve's last slow
// iteration), exactly 100 for the slowdown at iteration 100; every
// recommendation costs less than the recording, detects at most
// Options.Keep times the slowdown the recording detects under the U test
// (the target), and its estimate lies within 3 % of the true steady mean.
// The oscillating benchmark has no steady state; its forks pass the
// equivalence test, so it is trimmed under the same target.
func TestKnownTruth(t *testing.T) {
	opt := fastOptions()
	rep, s := knownSuite(t, opt)
	truth := truthOf(s)
	for _, tc := range []struct {
		method      string
		wLow, wHigh int
	}{
		{"flat", 0, 0},
		{"warmup", 30, 40},
		{"slowdown", 100, 100},
	} {
		b := byMethod(t, rep, tc.method)
		tr := truth[[2]string{b.Key.Benchmark, b.Key.Params}]
		if b.Path != PathSteady || !b.Status.reduced() {
			t.Errorf("%s: path %s, status %s (%s); want steady, reduced", tc.method, b.Path, b.Status, b.Reason)
			continue
		}
		w := b.Recommended.WarmupIterations
		if w < tc.wLow || w > tc.wHigh {
			t.Errorf("%s: W = %d (ends %v), want %d … %d (true steady start %d)", tc.method, w, b.WarmupEnds, tc.wLow, tc.wHigh, tr.SteadyStart)
		}
		if !(b.Detectable <= opt.Keep*b.DetectableRecorded) || !(b.DetectableRecorded > 0) || b.Target != opt.Keep*b.DetectableRecorded {
			t.Errorf("%s: detects %.4f recorded, %.4f recommended, target %.4f: want at most %g×", tc.method, b.DetectableRecorded, b.Detectable, b.Target, opt.Keep)
		}
		if e := abs(b.Estimate-tr.FinalMean) / tr.FinalMean; e > 0.03 {
			t.Errorf("%s: estimate %.4g is %.1f %% from the true steady mean %.4g", tc.method, b.Estimate, 100*e, tr.FinalMean)
		}
		// 4 forks of 800 s, each started (a JVM), in one java -jar run.
		if rec := int64(4*800)*1e9 + int64(4*DefaultJMHForkStartup+DefaultJMHHostStartup); !(b.Recommended.TimeNs < b.Recorded.TimeNs) || b.Recorded.TimeNs != rec {
			t.Errorf("%s: time %d → %d ns, want less than the recorded 4 × (800 s + a fork's start) + the host's start, %d", tc.method, b.Recorded.TimeNs, b.Recommended.TimeNs, rec)
		}
		// The report's violins: every observation after the warmup, and
		// the forks × iterations the recommendation keeps, with their mean
		// the in-sample estimate.
		if ds := b.Distributions; len(ds) != 2 || ds[0].Configuration != "recorded" || ds[0].Iterations != int64(4*(800-w)) ||
			ds[1].Configuration != "recommended" || ds[1].Iterations != int64(b.Recommended.Forks*b.Recommended.Iterations) ||
			abs(ds[1].Mean-b.Estimate) > 1e-9*b.Estimate {
			t.Errorf("%s: distributions %+v (estimate %v)", tc.method, ds, b.Estimate)
		}
		t.Logf("%s: W %d (true %d), %d forks × %d iterations, detects %.4f → %.4f, ±%.4f → ±%.4f, estimate %.4g (true %.4g)",
			tc.method, w, tr.SteadyStart, b.Recommended.Forks, b.Recommended.Iterations, b.DetectableRecorded, b.Detectable, b.Precision, b.RecommendedPrecision, b.Estimate, tr.FinalMean)
	}
	if osc := byMethod(t, rep, "oscillate"); !osc.Status.reduced() || !(osc.Detectable <= opt.Keep*osc.DetectableRecorded) {
		t.Errorf("oscillate: status %s, detects %.4f recorded, %.4f recommended: want reduced within %g×", osc.Status, osc.DetectableRecorded, osc.Detectable, opt.Keep)
	}
	if rep.Totals.OutOfSample.Splits != 4*opt.Splits {
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
// reconfiguration path with its warning; dynamic reconfiguration replays
// CV, RCIW and KLD, and the warmup ends are CV's stop points.
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
		t.Fatal("short path: want a reconfiguration report and no steady report")
	}
	for i, r := range rep.Reconfigure.Results {
		var crit []reconfigure.Criterion
		for _, c := range r.Criteria {
			crit = append(crit, c.Criterion)
		}
		if !slices.Equal(crit, reconfigure.AllCriteria) {
			t.Errorf("%s: criteria %v, want CV, RCIW, KLD", r.Key.Benchmark, crit)
			continue
		}
		var cv []int
		for _, f := range r.Criteria[0].Forks {
			cv = append(cv, f.WarmupIterations)
		}
		if b := rep.Benchmarks[i]; b.Key != r.Key || !slices.Equal(b.WarmupEnds, cv) {
			t.Errorf("%s: warmup ends %v, CV stop points %v", b.Key.Benchmark, b.WarmupEnds, cv)
		}
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "\ndynamic reconfiguration (3 short-fork runs, W from CV's stop points): CV saves ") ||
		!strings.Contains(text.String(), "%, RCIW saves ") || !strings.Contains(text.String(), "%, KLD saves ") {
		t.Errorf("text does not name the criteria:\n%s", text.String())
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
	for _, x := range rep.Versions[0].Report.Rows {
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

// TestDuet: duet data (synth.GenerateDuet's preset: two A/A benchmarks
// and two A/B ones with B 5 % slower, seqn, syncduet and duet runs) gets
// no configuration, stays out of the suite's time, and carries the duet
// analysis' verdict: every A/B run finds B slower, (B − A)/A between 2
// and 9 % (the interference episodes and 10 runs move the estimate; the
// generated truth is 5 %), every A/A run finds no difference within
// ±2 %; the verdicts are those duet.Run gives on the same table with
// trim's duet options, and the duet frames hold the report's rows.
func TestDuet(t *testing.T) {
	cfg := synth.DefaultDuetConfig()
	d, err := synth.GenerateDuet(cfg)
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
	opt := fastOptions()
	rep, err := Run(tab, opt)
	if err != nil {
		t.Fatal(err)
	}
	truth := map[string]float64{}
	for _, b := range cfg.Benchmarks {
		truth[b.Name] = b.Slowdown
	}
	if len(rep.Benchmarks) != len(cfg.Benchmarks)*len(cfg.Types) {
		t.Fatalf("%d benchmark runs, want %d", len(rep.Benchmarks), len(cfg.Benchmarks)*len(cfg.Types))
	}
	for _, b := range rep.Benchmarks {
		name := b.Key.Benchmark + " " + b.Key.Mode
		if b.Path != PathDuet || b.Status != StatusDuet || !slices.Equal(b.Analyses, []string{"duet"}) {
			t.Errorf("%s: path %s, status %s, analyses %v", name, b.Path, b.Status, b.Analyses)
		}
		if len(b.Duet) != 1 {
			t.Fatalf("%s: %d duet verdicts, want 1", name, len(b.Duet))
		}
		v := b.Duet[0]
		switch slow := truth[b.Key.Benchmark]; {
		case slow > 0:
			if v.Verdict != duet.VerdictAFaster || v.BvsA < 0.02 || v.BvsA > 0.09 || !(v.Lower > 0 && v.Lower <= v.BvsA && v.BvsA <= v.Upper) {
				t.Errorf("%s (B %g %% slower in truth): %s", name, 100*slow, v)
			}
			if !strings.HasPrefix(v.String(), "B ") || !strings.Contains(v.String(), "slower (A faster; 95 % CI of (B − A)/A [+") {
				t.Errorf("%s: verdict text %q", name, v)
			}
		default:
			if v.Verdict != duet.VerdictSame || math.Abs(v.BvsA) > 0.02 || !(v.Lower <= 0 && 0 <= v.Upper) {
				t.Errorf("%s (A/A in truth): %s", name, v)
			}
		}
		if v.Runs != cfg.Runs || v.Pairs == 0 || v.Confidence != 0.95 {
			t.Errorf("%s: %d runs, %d pairs at %g", name, v.Runs, v.Pairs, v.Confidence)
		}
		// docs/trim.md quotes this one.
		if want := "B 6.7 % slower (A faster; 95 % CI of (B − A)/A [+4.9 %, +9.9 %], 10 runs, 210 pairs)"; name == "fop seqn" && v.String() != want {
			t.Errorf("fop seqn: %q, docs/trim.md shows %q", v, want)
		}
	}
	if rep.Totals.Duet != len(rep.Benchmarks) || rep.Totals.TimeBeforeNs != 0 {
		t.Errorf("totals %+v", rep.Totals)
	}
	if a := rep.answer(); a != "trim: 12 duet runs and nothing else, so no configuration to recommend; the duet analysis compares A and B" {
		t.Errorf("answer %q", a)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "\nduet A/B (95 % CI of mean(A − B) over runs): 12 benchmark-env keys, B slower 6 (by ") ||
		!strings.Contains(text.String(), "%), no difference 6\n") || !strings.Contains(text.String(), "| fop (seqn) ") {
		t.Errorf("text:\n%s", text.String())
	}

	// trim's verdicts are duet.Run's with trim's duet options and seed.
	dopt := opt.Duet
	dopt.Seed = opt.Seed
	direct, err := duet.Run(tab, dopt)
	if err != nil {
		t.Fatal(err)
	}
	if len(direct.Benchmarks) != len(rep.Duet.Benchmarks) {
		t.Fatalf("duet.Run: %d keys, trim: %d", len(direct.Benchmarks), len(rep.Duet.Benchmarks))
	}
	for i, x := range direct.Benchmarks {
		y := rep.Duet.Benchmarks[i]
		if x.Key != y.Key || x.Verdict != y.Verdict || x.CI != y.CI {
			t.Errorf("%s: duet.Run %s %+v, trim %s %+v", x.Key, x.Verdict, x.CI, y.Verdict, y.CI)
		}
	}

	// Frames: the plan names the verdict; the duet tables hold every key;
	// the timelines are the duet keys' first runs with their pairs.
	plan := frameRows(t, rep, FramePlan)
	for _, row := range plan {
		if !strings.HasPrefix(row["duet_verdict"], "B ") && !strings.HasPrefix(row["duet_verdict"], "no difference (B against A ") {
			t.Errorf("%s %s: duet_verdict %q", row["benchmark"], row["mode"], row["duet_verdict"])
		}
	}
	keys := frameRows(t, rep, FrameDuetBenchmarks)
	if len(keys) != len(rep.Duet.Benchmarks) {
		t.Errorf("duet-benchmarks: %d rows, want %d", len(keys), len(rep.Duet.Benchmarks))
	}
	for _, row := range keys {
		bva, _ := strconv.ParseFloat(row["b_vs_a"], 64)
		if slow := truth[row["benchmark"]]; slow > 0 && !(bva > 0.02 && bva < 0.09) || slow == 0 && !(math.Abs(bva) < 0.02) || row["confidence"] != "0.95" {
			t.Errorf("duet-benchmarks %s %s: b_vs_a %s, confidence %s", row["benchmark"], row["type"], row["b_vs_a"], row["confidence"])
		}
	}
	// Two suites (renaissance, dacapo), one environment.
	if n := len(frameRows(t, rep, FrameDuetMatch)); n != 2*len(cfg.Types)*len(opt.Duet.Slowdowns) {
		t.Errorf("duet-match: %d rows, want one per suite, type and slowdown (%d)", n, 2*len(cfg.Types)*len(opt.Duet.Slowdowns))
	}
	tl := frameRows(t, rep, FrameDuetTimeline)
	perKey := map[string]int{}
	iters := map[string]bool{}
	for _, row := range tl {
		if row["type"] != duet.TypeDuet || row["run"] != "0" {
			t.Errorf("timeline row of %s %s run %s: want the duet type's first run", row["benchmark"], row["type"], row["run"])
		}
		perKey[row["benchmark"]]++
		iters[row["benchmark"]+" "+row["pair"]+" "+row["iteration"]] = true
	}
	if len(perKey) != len(cfg.Benchmarks) {
		t.Errorf("timelines of %d benchmarks, want %d", len(perKey), len(cfg.Benchmarks))
	}
	pairs := frameRows(t, rep, FrameDuetPairs)
	if len(pairs) == 0 {
		t.Error("no pairs in the timelines")
	}
	for _, row := range pairs {
		rate, _ := strconv.ParseFloat(row["rate"], 64)
		if !iters[row["benchmark"]+" A "+row["a_iteration"]] || !iters[row["benchmark"]+" B "+row["b_iteration"]] || !(rate > 0.4 && rate <= 1) {
			t.Errorf("pair %v: iterations not in the timeline, or rate not above m = 0.4", row)
		}
	}
}

// TestDuetFailureKeepsTrim: duet rows without timestamps cannot be
// analysed; trim still answers, and their warnings say why.
func TestDuetFailureKeepsTrim(t *testing.T) {
	b := table.NewBuilder(memory.DefaultAllocator, table.DefaultBatchRows)
	defer b.Release()
	for run := int32(1); run <= 3; run++ {
		for it := int32(1); it <= 5; it++ {
			for _, pair := range []string{"A", "B"} {
				row := table.Row{Project: "renaissance", Benchmark: "chi-square", Mode: "seqn", Metric: table.Primary, Unit: "ns",
					Value: 1e9, NsPerOp: 1e9, Count: 1, Instance: 1, Trial: 1, Fork: run, Iteration: it, Slice: 1, Pair: pair}
				if err := b.Append(&row); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	tab := b.Finish()
	defer tab.Release()
	rep, err := Run(tab, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Duet != nil || len(rep.Benchmarks) != 1 {
		t.Fatalf("duet report %v, %d benchmark runs", rep.Duet, len(rep.Benchmarks))
	}
	w := strings.Join(rep.Benchmarks[0].Warnings, " | ")
	if !strings.Contains(w, "duet analysis could not run: duet: the table holds no duet rows") || !strings.Contains(w, "without timestamps") {
		t.Errorf("warnings %q", w)
	}
}

// frameRows returns frame name of rep as maps from column to CSV cell.
func frameRows(t *testing.T, rep *Report, name string) []map[string]string {
	t.Helper()
	f, err := rep.Frame(name)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for j, h := range recs[0] {
			m[h] = r[j]
		}
		out = append(out, m)
	}
	return out
}

// TestDuetTimelineFixture: on the real duet fixture (two async duet runs
// of Renaissance chi-square, analysis/duet/testdata), the plotted run is
// run 0 after the warm-up filter and its pairs are the reference's: the
// iterations the reference keeps (expected/…after_warmup_filter.csv) and
// its overlaps with rate above m = 0.4 (expected/…overlaps_after_warmup.csv,
// duet/process.py at fb202dd), each at its recorded rate (to 1e-12) and
// start (overlap_start_ns − the run's first kept start, to 1 ns).
func TestDuetTimelineFixture(t *testing.T) {
	dir := filepath.Join("..", "duet", "testdata")
	tab, _, _, err := ingest.ReadFiles([]string{filepath.Join(dir, "fixtures", "chi-square_duet_2runs.csv")}, ingest.ReadOptions{Formats: all.Formats()})
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Release()
	rep, err := Run(tab, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	read := func(name string) []map[string]string {
		f, err := os.Open(filepath.Join(dir, "expected", name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		recs, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		var out []map[string]string
		for _, r := range recs[1:] {
			m := map[string]string{}
			for j, h := range recs[0] {
				m[h] = r[j]
			}
			out = append(out, m)
		}
		return out
	}
	var kept []string
	for _, r := range read("chi-square_duet_2runs.after_warmup_filter.csv") {
		if r["type"] == "duet" && r["runid"] == "0" {
			kept = append(kept, r["pair"]+r["iteration"])
		}
	}
	var got []string
	for _, r := range frameRows(t, rep, FrameDuetTimeline) {
		if r["run"] != "0" {
			t.Errorf("timeline row of run %s, want run 0", r["run"])
		}
		got = append(got, r["pair"]+r["iteration"])
	}
	slices.Sort(kept)
	slices.Sort(got)
	if !slices.Equal(got, kept) {
		t.Errorf("timeline iterations %v, the reference keeps %v", got, kept)
	}
	// The run's first kept start: the earliest start among the iterations
	// of the reference's overlaps (every kept iteration of run 0 overlaps).
	t0 := int64(math.MaxInt64)
	for _, r := range read("chi-square_duet_2runs.overlaps_after_warmup.csv") {
		if r["runid"] == "0" {
			for _, c := range []string{"iteration_start_ns_A", "iteration_start_ns_B"} {
				v, _ := strconv.ParseInt(r[c], 10, 64)
				t0 = min(t0, v)
			}
		}
	}
	var want []map[string]string
	for _, r := range read("chi-square_duet_2runs.overlaps_after_warmup.csv") {
		if rate, _ := strconv.ParseFloat(r["overlap_rate"], 64); r["runid"] == "0" && rate > 0.4 {
			want = append(want, r)
		}
	}
	pairs := frameRows(t, rep, FrameDuetPairs)
	if len(pairs) != len(want) || len(want) == 0 {
		t.Fatalf("%d pairs, the reference has %d above m = 0.4 in run 0", len(pairs), len(want))
	}
	for i, p := range pairs {
		w := want[i]
		rate, _ := strconv.ParseFloat(p["rate"], 64)
		wrate, _ := strconv.ParseFloat(w["overlap_rate"], 64)
		start, _ := strconv.ParseFloat(p["start_s"], 64)
		ws, _ := strconv.ParseInt(w["overlap_start_ns"], 10, 64)
		if p["a_iteration"] != w["iteration_A"] || p["b_iteration"] != w["iteration_B"] || math.Abs(rate-wrate) > 1e-12 || math.Abs(start-float64(ws-t0)/1e9) > 1e-9 {
			t.Errorf("pair %d: A %s B %s rate %g start %g s; reference A %s B %s rate %g start %g s", i, p["a_iteration"], p["b_iteration"], rate, start,
				w["iteration_A"], w["iteration_B"], wrate, float64(ws-t0)/1e9)
		}
	}
}
