package trim

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile/tabletest"
)

// mergeSuite is a table with every path Merge combines: project "long"
// in two versions with forks longer than the steady window (steady-state
// detection, plotted forks, a version comparison with one +30 % change)
// and project "short" with short forks (dynamic reconfiguration), and
// synth's duet preset (the duet analysis: A/A match ratios and speedups
// pool keys of several shards).
func mergeSuite(t *testing.T) *table.Table {
	t.Helper()
	dir := t.TempDir()
	cfg := jmhSuite(4, 2, 520, 21)
	cfg.Project = "long"
	vs, err := synth.NewVersions(cfg, synth.VersionsConfig{Labels: []string{"v1", "v2"}, Changes: []synth.Change{{Benchmark: 1, Version: 1, Factor: 1.3}}})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for v := 0; v < vs.Len(); v++ {
		p := filepath.Join(dir, "long-"+vs.Labels()[v]+".json")
		if err := atomicfile.Write(p, vs.Suite(v).WriteJMH); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	short := jmhSuite(5, 3, 60, 22)
	short.Project = "short"
	s, err := synth.NewSuite(short)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "short-v1.json")
	if err := atomicfile.Write(p, s.WriteJMH); err != nil {
		t.Fatal(err)
	}
	d, err := synth.GenerateDuet(synth.DefaultDuetConfig())
	if err != nil {
		t.Fatal(err)
	}
	dp := filepath.Join(dir, "duet.csv")
	if err := atomicfile.Write(dp, d.WriteCSV); err != nil {
		t.Fatal(err)
	}
	tab, _, _, err := ingest.ReadFiles(append(paths, p, dp), ingest.ReadOptions{Formats: all.Formats()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tab.Release)
	return tab
}

// outputs is every byte a trim report writes: text, details, commands,
// annotations and every frame as CSV.
func outputs(t *testing.T, r *Report) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, w := range map[string]func(io.Writer) error{"text": r.WriteText, "details": r.WriteDetails, "commands": r.WriteCommands, "annotations": r.WriteAnnotations} {
		var b bytes.Buffer
		if err := w(&b); err != nil {
			t.Fatal(err)
		}
		out[name] = b.String()
	}
	for _, name := range []string{FramePlan, FrameSteadyForks, FrameReconfigure, FrameForkSeries, FrameForkSegments, FrameForkCROPS, FrameCompare,
		FrameDuetBenchmarks, FrameDuetOverlaps, FrameDuetMDS, FrameDuetMatch, FrameDuetSpeedup, FrameDuetTimeline, FrameDuetPairs} {
		f, err := r.Frame(name)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := f.WriteCSV(&b); err != nil {
			t.Fatal(err)
		}
		out[name] = b.String()
	}
	return out
}

func sameOutputs(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	for name, w := range want {
		if g := got[name]; g != w {
			gl, wl := strings.Split(g, "\n"), strings.Split(w, "\n")
			for i := range min(len(gl), len(wl)) {
				if gl[i] != wl[i] {
					t.Errorf("%s: %s differs from the unsplit run's at line %d:\n got %q\nwant %q", what, name, i+1, gl[i], wl[i])
					break
				}
			}
			if len(gl) != len(wl) {
				t.Errorf("%s: %s has %d lines, the unsplit run's %d", what, name, len(gl), len(wl))
			}
		}
	}
}

// TestMergeEqualsRun: Merge of the shards of a run (N = 1, 3, 7), and of
// the runs over the chunks of a spooled table (Options.AllRuns set),
// writes every output byte for byte as the unsplit run does.
func TestMergeEqualsRun(t *testing.T) {
	tab := mergeSuite(t)
	opt := fastOptions()
	opt.Compare.Bootstrap.Resamples = 1000
	whole, err := Run(tab, opt)
	if err != nil {
		t.Fatal(err)
	}
	if whole.Steady == nil || whole.Reconfigure == nil || whole.Duet == nil || len(whole.Duet.Speedups) == 0 || len(whole.Versions) != 1 || len(whole.Forks) == 0 {
		t.Fatalf("the suite should exercise every part: steady %v, reconfigure %v, duet %v, %d version pairs, %d forks",
			whole.Steady != nil, whole.Reconfigure != nil, whole.Duet != nil, len(whole.Versions), len(whole.Forks))
	}
	want := outputs(t, whole)
	for _, n := range []int{1, 3, 7} {
		var parts []*Report
		for k := 0; k < n; k++ {
			o := opt
			o.Select.Shard, o.Select.Shards = k, n
			r, err := Run(tab, o)
			if err != nil && !strings.Contains(err.Error(), "holds none") {
				t.Fatalf("shard %d/%d: %v", k, n, err)
			}
			parts = append(parts, r)
		}
		merged, err := Merge(parts)
		if err != nil {
			t.Fatal(err)
		}
		sameOutputs(t, fmt.Sprintf("%d shards", n), outputs(t, merged), want)
	}

	sp, chunks := tabletest.Spooled(t, tab, 4)
	parts := tabletest.RunChunks(t, sp, chunks, tab, func(sub *table.Table, all []table.Key) (*Report, error) {
		o := opt
		o.AllRuns = all
		return Run(sub, o)
	})
	merged, err := Merge(parts)
	if err != nil {
		t.Fatal(err)
	}
	sameOutputs(t, fmt.Sprintf("%d chunks", len(chunks)), outputs(t, merged), want)

	if _, err := Merge([]*Report{parts[0], parts[0]}); err == nil || !strings.Contains(err.Error(), "disjoint") {
		t.Errorf("a part given twice: err = %v, want a disjointness error", err)
	}
	other := *parts[1]
	other.Options.WarmupQuantile = 0.5
	if _, err := Merge([]*Report{parts[0], &other}); err == nil || !strings.Contains(err.Error(), "other options") {
		t.Errorf("parts with other options: err = %v", err)
	}
}
