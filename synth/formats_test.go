package synth

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

func readCSV(t *testing.T, data []byte, sep rune) [][]string {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = sep
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatalf("CSV: %v", err)
	}
	return rows
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("not an integer: %q", s)
	}
	return n
}

func TestWriteUOpTimeCSV(t *testing.T) {
	c := UOpTimeSuiteConfig()
	c.Benchmarks = 6
	c.Params = []ParamAxis{{Name: "size", Values: []string{"8", "64"}}}
	c.ragged = raggedConfig{dropIterations: 3, dropSlices: 4}
	s := mustSuite(t, c)
	rows := readCSV(t, render(t, s, FormatUOpTime), ',')
	if strings.Join(rows[0], ",") != uOpTimeHeader {
		t.Fatalf("header %q", rows[0])
	}
	rows = rows[1:]
	truth := s.Truth()
	full := len(truth) * c.Instances * c.Trials * c.Iterations * c.slices
	if want := full - (3*c.slices + 4); len(rows) != want || s.droppedRows() != 3*c.slices+4 {
		t.Fatalf("%d rows, want %d − %d dropped = %d", len(rows), full, s.droppedRows(), want)
	}
	byName := map[string]*BenchmarkTruth{}
	for i := range truth {
		byName[truth[i].GoName] = &truth[i]
	}
	seen := map[string]map[Position]int{}
	prevInstance := 1
	for j, row := range rows {
		if len(row) != 12 || atoi(t, row[0]) != j+1 {
			t.Fatalf("row %d: %q (m_id must be consecutive)", j+1, row)
		}
		if row[3] != "5" || row[4] != "5" || row[5] != "3" || row[6] != "3" {
			t.Fatalf("row %d: setup columns %q", j+1, row[3:7])
		}
		tr := byName[row[11]]
		if tr == nil {
			t.Fatalf("row %d: unknown benchmark %q", j+1, row[11])
		}
		p := Position{Instance: atoi(t, row[10]), Trial: atoi(t, row[9]), Fork: 1, Iteration: atoi(t, row[8]), Slice: atoi(t, row[7])}
		if p.Instance < prevInstance {
			t.Fatalf("row %d: instance %d after %d (instances are outermost)", j+1, p.Instance, prevInstance)
		}
		prevInstance = p.Instance
		if seen[row[11]] == nil {
			seen[row[11]] = map[Position]int{}
		}
		seen[row[11]][p]++
		n := atoi(t, row[1])
		ns, err := strconv.ParseFloat(row[2], 64)
		if err != nil || ns <= 0 {
			t.Fatalf("row %d: ns_per_op %q", j+1, row[2])
		}
		if goRounded(ns) != ns {
			t.Errorf("row %d: ns_per_op %v has more digits than Go prints", j+1, ns)
		}
		// Go's launch loop overshoots the 1 s benchtime by about 20 %.
		if total := float64(n) * ns; n < 1e9 && (total < 0.95e9 || total > 1.5e9) {
			t.Errorf("row %d: n·ns_per_op = %.3g ns, want ≈ 1–1.3 s", j+1, total)
		}
	}
	for _, tr := range truth {
		dropped := map[Position]bool{}
		for _, p := range tr.Dropped {
			dropped[p] = true
		}
		for a := 1; a <= c.Instances; a++ {
			for r := 1; r <= c.Trials; r++ {
				for k := 1; k <= c.Iterations; k++ {
					for sl := 1; sl <= c.slices; sl++ {
						p := Position{a, r, 1, k, sl}
						it := p
						it.Slice = 0
						want := 1
						if dropped[p] || dropped[it] {
							want = 0
						}
						if got := seen[tr.GoName][p]; got != want {
							t.Errorf("%s %+v: %d rows, want %d", tr.GoName, p, got, want)
						}
					}
				}
			}
		}
	}
}

func TestWritePA(t *testing.T) {
	c := DefaultSuiteConfig()
	c.Benchmarks, c.Iterations, c.Forks, c.Instances, c.Trials = 2, 6, 2, 2, 3
	c.Unit = "us/op"
	s := mustSuite(t, c)
	rows := readCSV(t, render(t, s, formatPA), ';')
	if strings.Join(rows[0], ";") != paHeader {
		t.Fatalf("header %q", rows[0])
	}
	rows = rows[1:]
	truth := s.Truth()
	if want := len(truth) * 2 * 3 * 2 * 6; len(rows) != want {
		t.Fatalf("%d rows, want %d", len(rows), want)
	}
	pat := regexp.MustCompile(`^-?[0-9]\.[0-9]{6}e[-+][0-9]{2,3}$`)
	for j, row := range rows {
		i := j / (2 * 3 * 2 * 6)
		if len(row) != 12 || row[0] != "demo" || row[1] != "v1" || row[2] != truth[i].JMHName || row[3] != truth[i].ParamsKey ||
			row[8] != "avgt" || row[9] != "us/op" || row[10] != "1" || !pat.MatchString(row[11]) {
			t.Fatalf("row %d: %q", j+1, row)
		}
		a, r, f, k := atoi(t, row[4]), atoi(t, row[5]), atoi(t, row[6]), atoi(t, row[7])
		want := s.ForkValues(i, a, r, f)[k-1] * 1e-3
		got, _ := strconv.ParseFloat(row[11], 64)
		if !closeRel(got, want, 5e-7) {
			t.Fatalf("row %d: value %v, model %v", j+1, got, want)
		}
	}

	c.Mode, c.Instances, c.Trials = modeSampleTime, 1, 1
	c.MinMean, c.MaxMean = 1e4, 1e5
	c.Sample.MaxPerIteration = 40
	s = mustSuite(t, c)
	rows = readCSV(t, render(t, s, formatPA), ';')[1:]
	counts := map[string]int{}
	for _, row := range rows {
		if row[8] != "sample" {
			t.Fatalf("mode %q", row[8])
		}
		counts[strings.Join(row[2:8], ";")] += atoi(t, row[10])
	}
	if len(counts) != s.Len()*2*6 {
		t.Errorf("%d iterations, want %d", len(counts), s.Len()*2*6)
	}
	for k, n := range counts {
		if n != 40 {
			t.Errorf("%s: %d samples, want 40", k, n)
		}
	}
}

func TestWriteGoBench(t *testing.T) {
	c := UOpTimeSuiteConfig()
	c.Benchmarks, c.Iterations, c.Forks = 5, 4, 2
	c.Params = []ParamAxis{{Name: "size", Values: []string{"64", "4096"}}}
	c.goBench.customMetric = "p99-ns"
	c.goPackage = "example.com/mod/pkg"
	s := mustSuite(t, c)
	text := string(render(t, s, FormatGoBench))
	line := regexp.MustCompile(`^(Benchmark[A-Z][^\s]*)-8\s+(\d+)\s+([0-9.]+) ns/op\s+([0-9.]+) p99-ns\s+(\d+) B/op\s+(\d+) allocs/op$`)
	var results, configs, pass, ok int
	perName := map[string]int{}
	truth := s.Truth()
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "Benchmark"):
			m := line.FindStringSubmatch(l)
			if m == nil {
				t.Fatalf("result line does not parse: %q", l)
			}
			results++
			perName[m[1]]++
			n, _ := strconv.ParseInt(m[2], 10, 64)
			ns, _ := strconv.ParseFloat(m[3], 64)
			// The line is what testing.BenchmarkResult prints for these values.
			bytesOp, _ := strconv.ParseInt(m[5], 10, 64)
			allocs, _ := strconv.ParseInt(m[6], 10, 64)
			r := testing.BenchmarkResult{N: int(n), T: time.Duration(ns * float64(n)),
				MemAllocs: uint64(allocs * n), MemBytes: uint64(bytesOp * n), Extra: map[string]float64{"ns/op": ns}}
			fields := strings.SplitN(l, "\t", 2)
			rest := fields[1]
			want := r.String()
			if !strings.HasPrefix(rest, want) || !strings.HasSuffix(rest, "\t"+r.MemString()) {
				t.Errorf("line %q\nwant N/ns %q and mem %q", l, want, r.MemString())
			}
			if total := float64(n) * ns; n < 1e9 && (total < 0.95e9 || total > 1.5e9) {
				t.Errorf("%q: N·ns/op = %.3g ns, want ≈ 1–1.3 s", l, total)
			}
		case l == "PASS":
			pass++
		case strings.HasPrefix(l, "ok  \texample.com/mod/pkg\t") && strings.HasSuffix(l, "s"):
			ok++
		case l == "goos: linux", l == "goarch: amd64", l == "pkg: example.com/mod/pkg", l == "cpu: Intel(R) Xeon(R) CPU @ 2.20GHz":
			configs++
		default:
			t.Errorf("unexpected line %q", l)
		}
	}
	if results != len(truth)*4*2 || pass != 2 || ok != 2 || configs != 8 {
		t.Errorf("%d results, %d PASS, %d ok, %d config lines", results, pass, ok, configs)
	}
	for _, tr := range truth {
		if perName[tr.GoName] != 8 {
			t.Errorf("%s: %d lines, want count 4 × 2 runs", tr.GoName, perName[tr.GoName])
		}
	}
	// Lines of one name are consecutive (-count repeats) and names are padded alike.
	idx := strings.Index(text, "BenchmarkJsonEncodeSmall/size=64-8")
	if idx < 0 {
		t.Fatalf("no BenchmarkJsonEncodeSmall/size=64-8 in\n%s", text)
	}
	block := strings.Split(text[idx:], "\n")[:4]
	for _, l := range block {
		if !strings.HasPrefix(l, "BenchmarkJsonEncodeSmall/size=64-8 ") {
			t.Errorf("-count repeats not consecutive: %q", block)
		}
	}

	// setBytes adds MB/s in Go's %7.2f format.
	c.goBench.setBytes, c.goBench.customMetric, c.goBench.benchmem, c.goBench.procs = 1024, "", false, 1
	s = mustSuite(t, c)
	mbs := regexp.MustCompile(`^Benchmark[A-Z]\S*\s+\d+\s+[0-9.]+ ns/op\s+[0-9]+\.[0-9]{2} MB/s$`)
	for _, l := range strings.Split(string(render(t, s, FormatGoBench)), "\n") {
		if strings.HasPrefix(l, "Benchmark") && !mbs.MatchString(l) {
			t.Errorf("line %q does not match %v", l, mbs)
		}
		if strings.HasPrefix(l, "Benchmark") && regexp.MustCompile(`-\d+\s`).MatchString(l) {
			t.Errorf("GOMAXPROCS 1 but suffix in %q", l)
		}
	}
}

func TestVersions(t *testing.T) {
	c := UOpTimeSuiteConfig()
	c.Benchmarks = 8
	vc := defaultVersionsConfig()
	vc.Changes = []Change{{Benchmark: 3, Version: 1, Factor: 1.5}}
	vs, err := NewVersions(c, vc)
	if err != nil {
		t.Fatal(err)
	}
	changes := vs.changeList()
	if len(changes) != 3 {
		t.Fatalf("changes %+v, want 1 explicit + 2 random", changes)
	}
	pairs := vs.PairTruth()
	if len(pairs) != 8*2 {
		t.Fatalf("%d pair truths, want 16", len(pairs))
	}
	changed := 0
	for _, p := range pairs {
		v := 1
		if p.From == "v2" {
			v = 2
		}
		prev, cur := vs.Suite(v - 1).Truth()[p.Benchmark], vs.Suite(v).Truth()[p.Benchmark]
		if !closeRel(cur.Mean/prev.Mean, p.Ratio, 1e-12) {
			t.Errorf("%+v: true mean ratio %v", p, cur.Mean/prev.Mean)
		}
		if p.Changed {
			changed++
			if size := math.Abs(p.Ratio - 1); p.Ratio != 1.5 && (size < 0.1 || size > 0.3) {
				t.Errorf("%+v: random change size outside [10 %%, 30 %%]", p)
			}
		} else if p.Ratio != 1 {
			t.Errorf("%+v: unchanged with ratio ≠ 1", p)
		}
		if cur.Kind != prev.Kind || cur.GoName != prev.GoName || cur.WarmupIterations != prev.WarmupIterations {
			t.Errorf("series %d: truth differs between versions apart from the mean", p.Benchmark)
		}
	}
	if changed != 3 {
		t.Errorf("%d changed pairs, want 3", changed)
	}
	// The measured data show the change: mean over all rows of series 3.
	measured := func(v int, series int) float64 {
		s := vs.Suite(v)
		var sum float64
		var n int
		for a := 1; a <= c.Instances; a++ {
			for r := 1; r <= c.Trials; r++ {
				x := s.ForkValues(series, a, r, 1)
				for _, y := range x {
					sum += y
					n++
				}
			}
		}
		return sum / float64(n)
	}
	wantRatio := 1.5
	for _, ch := range changes {
		if ch.Benchmark == 3 && ch.Version == 2 {
			wantRatio *= ch.Factor
		}
	}
	// Instance factors (3 %) differ per version: the mean over 3 instances
	// has ≈ 1.8 % sd, a ratio of two ≈ 2.5 %; 10 % is 4 sd.
	if r := measured(2, 3) / measured(0, 3); math.Abs(r/wantRatio-1) > 0.1 {
		t.Errorf("series 3: measured v3/v1 = %.3f, want %.3f", r, wantRatio)
	}
	// Unchanged series get independent noise per version.
	if a, b := vs.Suite(0).ForkValues(0, 1, 1, 1), vs.Suite(1).ForkValues(0, 1, 1, 1); a[0] == b[0] {
		t.Error("versions share measurement noise")
	}
	if _, err := NewVersions(c, VersionsConfig{Labels: []string{"a"}}); err == nil {
		t.Error("one version accepted")
	}
	if _, err := NewVersions(c, VersionsConfig{Labels: []string{"a", "b"}, Changes: []Change{{Benchmark: 99, Version: 1, Factor: 2}}}); err == nil {
		t.Error("change of a missing series accepted")
	}
}

func TestGenerateUnknownFormat(t *testing.T) {
	var buf bytes.Buffer
	if err := generate("xml", &buf, DefaultSuiteConfig()); err == nil {
		t.Error("unknown format accepted")
	}
	if err := generate(FormatJMH, &buf, DefaultSuiteConfig()); err != nil || buf.Len() == 0 {
		t.Errorf("generate(FormatJMH): %v, %d bytes", err, buf.Len())
	}
}

type failWriter struct{ after int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.after <= 0 {
		return 0, fmt.Errorf("disk full")
	}
	w.after--
	return len(p), nil
}

func TestWriteErrorsPropagate(t *testing.T) {
	c := DefaultSuiteConfig()
	c.Mode, c.Sample.MaxPerIteration = modeSampleTime, 200
	c.Benchmarks = 20
	s := mustSuite(t, c)
	for _, format := range []string{FormatJMH, formatPA, FormatUOpTime, FormatGoBench} {
		for _, after := range []int{0, 1} {
			if err := s.Write(format, &failWriter{after: after}); err == nil || !strings.Contains(err.Error(), "disk full") {
				t.Errorf("%s, failing after %d writes: error %v, want disk full", format, after, err)
			}
		}
	}
}
