package report

import (
	"bytes"
	"flag"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/benchtrim/benchtrim/analysis/steady"
	"github.com/benchtrim/benchtrim/analysis/trim"
	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

var pageOut = flag.String("page-out", "", "TestDistributions: also write its page (every section, distributions included) to this file, for .ci/report/check.sh")

// withFrames is a Source: rep's frames and extra ones by name.
type withFrames struct {
	*trim.Report
	extra map[string]*reports.Frame
}

func (w withFrames) Frame(name string) (*reports.Frame, error) {
	if f, ok := w.extra[name]; ok {
		return f, nil
	}
	return w.Report.Frame(name)
}

// recordedValues reads paths and returns per benchmark run the measured
// iteration values (iterationValues), by key.
func recordedValues(t *testing.T, paths []string) map[table.Key][]float64 {
	t.Helper()
	tab, _, _, err := ingest.ReadFiles(paths, ingest.ReadOptions{Formats: all.Formats()})
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Release()
	series, err := table.Select(tab, table.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[table.Key][]float64{}
	for _, s := range series {
		out[s.Key] = iterationValues(s)
	}
	return out
}

func medianOf(x []float64) float64 {
	y := slices.Clone(x)
	slices.Sort(y)
	n := len(y)
	if n%2 == 1 {
		return y[n/2]
	}
	return (y[n/2-1] + y[n/2]) / 2
}

// TestDistributions: the page of a two-version suite with the recorded
// iteration values of each run shows one folded violin plot per benchmark
// (6 benchmarks, more than fit unfolded), each with a violin per version,
// and a table whose iteration counts and medians are those of the data
// (4 forks × 160 iterations; the median computed here from the values).
// The page rebuilt from the saved folder (distributions.csv) is the same.
func TestDistributions(t *testing.T) {
	paths := suiteFiles(t, "v1", "v2")
	values := recordedValues(t, paths)
	if len(values) != 12 {
		t.Fatalf("%d runs, want 6 benchmarks × 2 versions", len(values))
	}
	var ds []reports.Distribution
	for k, v := range values {
		ds = append(ds, reports.Distribution{Key: k, Configuration: "recorded", Values: v})
	}
	rep := trimReportOn(t, 100, steady.PenaltyBarrett, nil, "v1", "v2")
	src := withFrames{rep, map[string]*reports.Frame{frameDistributions: reports.DistributionFrame(ds)}}
	raw := page(t, src)
	if *pageOut != "" {
		if err := os.WriteFile(*pageOut, raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	doc, err := html.Parse(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var sec *html.Node
	var order []string
	walk(doc, func(n *html.Node) {
		if n.Data == "section" {
			order = append(order, attr(n, "id"))
			if attr(n, "id") == "distributions" {
				sec = n
			}
		}
	})
	if sec == nil {
		t.Fatal("no distributions section")
	}
	if strings.Join(order, " ") != "answer trim steady compare distributions" {
		t.Errorf("sections %v: the distributions come after the comparison", order)
	}
	var folds, open, buttons int
	walk(sec, func(n *html.Node) {
		switch n.Data {
		case "details":
			folds++
			for _, a := range n.Attr {
				if a.Key == "open" {
					open++
				}
			}
		case "button":
			buttons++
		}
	})
	if folds != 7 || open != 0 || buttons != 1 {
		t.Errorf("%d <details> (%d open) and %d buttons, want 6 benchmarks and the table folded, one unfold button", folds, open, buttons)
	}
	plots := 0
	walk(sec, func(n *html.Node) {
		if n.Data != "svg" || !strings.Contains(attr(n, "class"), "violin") {
			return
		}
		plots++
		var labels []string
		shapes := 0
		walk(n, func(x *html.Node) {
			switch {
			case x.Data == "path" && attr(x, "class") == "violin":
				shapes++
			case x.Data == "text" && attr(x, "class") == "ylab":
				labels = append(labels, x.FirstChild.Data)
			}
		})
		if shapes != 2 || strings.Join(labels, ",") != "v1 · recorded,v2 · recorded" {
			t.Errorf("violin plot with %d shapes labelled %q, want v1 and v2", shapes, labels)
		}
	})
	if plots != 6 {
		t.Errorf("%d violin plots, want 6", plots)
	}
	cells, vals := rowsOf(t, sec, "dist")
	if len(cells) != 12 {
		t.Fatalf("%d distribution rows, want 12", len(cells))
	}
	for i, r := range cells {
		var key table.Key
		for k := range values {
			if k.Version == r[1] && strings.HasPrefix(r[0], k.Benchmark) {
				key = k
			}
		}
		want := values[key]
		n, _ := strconv.Atoi(vals[i][3])
		med, _ := strconv.ParseFloat(vals[i][6], 64)
		if n != 640 || n != len(want) || math.Abs(med-medianOf(want)) > 1e-9*medianOf(want) {
			t.Errorf("%s %s: %d iterations, median %g; the data has %d, median %g", r[0], r[1], n, med, len(want), medianOf(want))
		}
	}
	// Saved and loaded: the same page.
	dir := t.TempDir()
	if err := WriteDir(dir, src, nil); err != nil {
		t.Fatal(err)
	}
	d, err := loadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := writeData(&buf, d); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), raw) {
		t.Error("the page rebuilt from the folder differs")
	}
	// analysis/trim's Report alone has the frame too (its observations,
	// recorded and recommended): a section.
	if !bytes.Contains(page(t, rep), []byte(`id="distributions"`)) {
		t.Error("no distributions section from trim's own frame")
	}
}

// TestDistributionsSmall: with at most 3 benchmarks the violins show
// unfolded, one per configuration, and a range over more than a factor of
// 10 gets a log axis.
func TestDistributionsSmall(t *testing.T) {
	k := table.Key{Project: "p", Version: "v1", Benchmark: "BenchmarkA", Mode: "go"}
	var rec, rcm []float64
	for i := 0; i < 200; i++ {
		rec = append(rec, 100+float64(i%20))
		rcm = append(rcm, 100+float64(i%10))
	}
	wide := table.Key{Project: "p", Version: "v1", Benchmark: "BenchmarkWide", Mode: "go"}
	var w []float64
	for i := 0; i < 50; i++ {
		w = append(w, math.Pow(10, 2+float64(i)/25)) // 100 ns … 9.1 µs: ticks 100, 200, 500 … 10000 ns
	}
	f := reports.DistributionFrame([]reports.Distribution{{Key: k, Configuration: "recorded", Values: rec}, {Key: k, Configuration: "recommended", Values: rcm},
		{Key: wide, Configuration: "recorded", Values: w}})
	rep := &trim.Report{Options: trim.DefaultOptions}
	for _, key := range []table.Key{k, wide} {
		c := trim.Config{Instances: 1, Trials: 1, Forks: 1, Iterations: 3, Slices: 1, IterationTimeNs: 1e9, TimeNs: 3e9}
		rep.Benchmarks = append(rep.Benchmarks, trim.Benchmark{Key: key, Tool: "go", Path: trim.PathGo, Status: trim.StatusKept, Recorded: c, Recommended: c})
	}
	var buf bytes.Buffer
	if err := WritePage(&buf, withFrames{rep, map[string]*reports.Frame{frameDistributions: f}}); err != nil {
		t.Fatal(err)
	}
	s := buf.String()
	_, sec, ok := strings.Cut(s, `<section id="distributions">`)
	if !ok {
		t.Fatal("no distributions section")
	}
	if n := strings.Count(sec, `<details class="dist" open>`); n != 2 {
		t.Errorf("%d unfolded benchmarks, want 2", n)
	}
	if strings.Contains(sec, `class="unfold"`) {
		t.Error("an unfold button for 2 benchmarks")
	}
	for _, want := range []string{"v1 · recorded", "v1 · recommended", "median v1 · recorded 109.5 ns, v1 · recommended 104.5 ns",
		"iteration value (ns/op)<", "iteration value (ns/op), log scale<", ">10000<"} {
		if !strings.Contains(sec, want) {
			t.Errorf("the section lacks %q", want)
		}
	}
}

// iterationValues returns the measured iterations of s: per iteration
// (Units(LevelIteration)) its count-weighted mean ns/op, warmup iterations
// and non-finite values left out, in row order.
func iterationValues(s *table.Series) []float64 {
	var out []float64
	for _, sp := range s.Units(table.LevelIteration) {
		if s.Warmup != nil && s.Warmup[sp.Start] {
			continue
		}
		if v := s.WeightedMean(sp); !math.IsNaN(v) && !math.IsInf(v, 0) {
			out = append(out, v)
		}
	}
	return out
}

// TestIterationValues: one value per measured iteration (the
// count-weighted mean of its slices), warmup iterations and non-finite
// values left out.
func TestIterationValues(t *testing.T) {
	s := &table.Series{}
	add := func(fork, it int32, warm bool, ns float64, count int64) {
		s.Levels[table.LevelInstance] = append(s.Levels[table.LevelInstance], 1)
		s.Levels[table.LevelTrial] = append(s.Levels[table.LevelTrial], 1)
		s.Levels[table.LevelFork] = append(s.Levels[table.LevelFork], fork)
		s.Levels[table.LevelIteration] = append(s.Levels[table.LevelIteration], it)
		s.Levels[table.LevelSlice] = append(s.Levels[table.LevelSlice], int32(len(s.NsPerOp)+1))
		s.Warmup = append(s.Warmup, warm)
		s.NsPerOp = append(s.NsPerOp, ns)
		s.Value = append(s.Value, ns)
		s.Count = append(s.Count, count)
	}
	add(1, 1, true, 900, 1)
	add(1, 2, false, 100, 1)
	add(1, 2, false, 200, 3) // iteration 2: (100 + 600) / 4
	add(1, 3, false, math.NaN(), 1)
	add(2, 1, false, 120, 1)
	got := iterationValues(s)
	if len(got) != 2 || got[0] != 175 || got[1] != 120 {
		t.Errorf("values %v, want [175 120]", got)
	}
}
