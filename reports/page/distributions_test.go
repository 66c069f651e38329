package page

import (
	"bytes"
	"flag"
	"fmt"
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

var pageOut = flag.String("page-out", "", "TestRunDensities: also write its page (a two-version suite) to this file")

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
	series, err := tab.Select(table.Filter{})
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

// TestRunDensities: in the page of a two-version suite (6 benchmarks, 4
// forks × 160 iterations recorded with -wi 0) every run's section draws
// the density of its recorded observations after the warmup, v2's with
// v1's dashed beside it, with its mean and median marked, and its table's
// median is that of the data after the warmup (computed here from the
// values); the page rebuilt from the saved folder is the same.
func TestRunDensities(t *testing.T) {
	paths := suiteFiles(t, "v1", "v2")
	values := recordedValues(t, paths)
	if len(values) != 12 {
		t.Fatalf("%d runs, want 6 benchmarks × 2 versions", len(values))
	}
	rep := trimReportOn(t, 100, steady.PenaltyBarrett, nil, "v1", "v2")
	raw := page(t, rep)
	if *pageOut != "" {
		if err := os.WriteFile(*pageOut, raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	doc, err := html.Parse(bytes.NewReader(expand(t, raw)))
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*trim.Benchmark{}
	for i := range rep.Benchmarks {
		byID[fmt.Sprintf("run-%d", i+1)] = &rep.Benchmarks[i]
	}
	checked := 0
	walk(doc, func(n *html.Node) {
		if n.Data != "section" || attr(n, "class") != "run" {
			return
		}
		b := byID[attr(n, "id")]
		var curves, dashed, means, medians int
		var median string
		walk(n, func(x *html.Node) {
			switch {
			case x.Data == "path" && attr(x, "class") == "kde":
				curves++
				if strings.Contains(attr(x, "style"), "dasharray") {
					dashed++
				}
			case x.Data == "line" && attr(x, "class") == "mean":
				means++
			case x.Data == "line" && attr(x, "class") == "median":
				medians++
			case x.Data == "tr" && x.FirstChild != nil && text(x.FirstChild) == "median":
				median = text(x.FirstChild.NextSibling)
			}
		})
		wantCurves := len(b.Distributions)
		if b.Key.Version == "v2" {
			wantCurves++ // v1's recorded one
		}
		if curves != wantCurves || means != curves || medians != curves || (dashed == 1) != (b.Key.Version == "v2") {
			t.Errorf("%s %s: %d curves (%d dashed), %d means, %d medians; want %d curves", b.Key.Version, b.Key.Benchmark, curves, dashed, means, medians, wantCurves)
		}
		w := 0
		if b.Path == trim.PathSteady {
			w = b.Recommended.WarmupIterations
		}
		var after []float64
		for _, s := range seriesOf(t, paths, b.Key) {
			after = append(after, iterationValuesAfter(s, w)...)
		}
		num, unit, _ := strings.Cut(median, " ")
		got, err := strconv.ParseFloat(num, 64)
		want := medianOf(after)
		if unit == "us/op" {
			want /= 1e3
		}
		if err != nil || math.Abs(got-want) > 1e-3*want {
			t.Errorf("%s %s: median %q, the data after %d warmup iterations %g %s", b.Key.Version, b.Key.Benchmark, median, w, want, unit)
		}
		checked++
	})
	if checked != 12 {
		t.Errorf("%d run sections checked, want 12", checked)
	}
	// Saved and loaded: the same page.
	dir := t.TempDir()
	if err := WriteDir(dir, rep, nil); err != nil {
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
}

// seriesOf reads paths and returns the series of key.
func seriesOf(t *testing.T, paths []string, key table.Key) []*table.Series {
	t.Helper()
	tab, _, _, err := ingest.ReadFiles(paths, ingest.ReadOptions{Formats: all.Formats()})
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Release()
	series, err := tab.Select(table.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var out []*table.Series
	for _, s := range series {
		if s.Key == key {
			out = append(out, s)
		}
	}
	return out
}

// iterationValuesAfter is iterationValues of the iterations after the
// first w of each fork.
func iterationValuesAfter(s *table.Series, w int) []float64 {
	var out []float64
	for _, sp := range s.Units(table.LevelIteration) {
		if int(s.Levels[table.LevelIteration][sp.Start]) <= w || s.Warmup != nil && s.Warmup[sp.Start] {
			continue
		}
		if v := s.WeightedMean(sp); !math.IsNaN(v) && !math.IsInf(v, 0) {
			out = append(out, v)
		}
	}
	return out
}

// TestDensityTails: a density is drawn to where it reaches the axis (its
// first and last points at the bottom, kdeReach bandwidths beyond the
// extreme values), with a log axis labelled in one notation when the
// values span more than a factor of 3.
func TestDensityTails(t *testing.T) {
	var w []float64
	for i := 0; i < 50; i++ {
		w = append(w, math.Pow(10, 2+float64(i)/25)) // 100 … 9120
	}
	svg := densityPlot("wide", "ns/op", []density{{label: "recorded", color: colorRec, pts: w, n: 50, mean: 2000, median: 1000}})
	if !strings.Contains(svg, "ns/op, log scale") {
		t.Error("no log scale for values from 100 to 9120")
	}
	_, d, _ := strings.Cut(svg, `<path class="kde" d="M`)
	d, _, _ = strings.Cut(d, `"`)
	pts := strings.Split(strings.TrimSuffix(d, "Z"), "L")
	first, last := strings.Fields(pts[0]), strings.Fields(pts[len(pts)-3])
	if first[1] != "210" || last[1] != "210" {
		t.Errorf("the curve starts at y %s and ends at y %s, want both on the axis (210): the tails are cut", first[1], last[1])
	}
	for _, want := range []string{">100<", ">1000<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("log axis lacks the tick label %s", want)
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
