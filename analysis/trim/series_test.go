package trim

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

// TestJMHScoreAsJMH: jmhScore gives, for every benchmark of the real JMH
// files of ../shared/data/jmh (avgt, thrpt with 1 and 12 threads, sample
// mode histograms in s/op, ss), the Score and Score Error JMH itself
// wrote into the file (primaryMetric.score and scoreError: the mean of
// the iterations' scores, or of the samples, and t(0.9995, n − 1)·sd/√n)
// within 1e-6 relative, and scoreScale converts the table's ns_per_op
// back to the file's unit.
func TestJMHScoreAsJMH(t *testing.T) {
	dir := testenv.Shared(t, "data", "jmh")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	checked := 0
	modes := map[string]bool{}
	for _, path := range paths {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var recs []struct {
			Benchmark, Mode string
			Threads         int
			Params          map[string]string
			PrimaryMetric   struct {
				Score, ScoreError any
				ScoreUnit         string
			}
		}
		if err := json.Unmarshal(raw, &recs); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		tab, _, _, err := ingest.ReadFiles([]string{path}, ingest.ReadOptions{Formats: all.Formats()})
		if err != nil {
			t.Fatal(err)
		}
		series, err := tab.Select(table.Filter{})
		tab.Release()
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]*table.Series{}
		for _, s := range series {
			byName[s.Benchmark+"|"+s.Params+"|"+s.Mode] = s
		}
		for _, r := range recs {
			var kv []string
			for k, v := range r.Params {
				kv = append(kv, k+"="+v)
			}
			params := canonicalParams(kv)
			s := byName[r.Benchmark+"|"+params+"|"+r.Mode]
			score, ok1 := r.PrimaryMetric.Score.(float64)
			serr, ok2 := r.PrimaryMetric.ScoreError.(float64)
			if s == nil || !ok1 || !ok2 || math.IsNaN(serr) {
				continue // NaN in the file, or a record the reader left out (it says why)
			}
			got, gotErr := jmhScore(s, 0, nil)
			if math.Abs(got-score) > 1e-6*math.Abs(score) || math.Abs(gotErr-serr) > 1e-6*math.Abs(serr)+1e-12 {
				t.Errorf("%s %s[%s] (%s): score %v ± %v, JMH wrote %v ± %v", filepath.Base(path), r.Benchmark, params, r.Mode, got, gotErr, score, serr)
			}
			unit, k := scoreScale(s)
			if unit != r.PrimaryMetric.ScoreUnit {
				t.Errorf("%s %s: unit %q, want %q", filepath.Base(path), r.Benchmark, unit, r.PrimaryMetric.ScoreUnit)
			}
			// The first value back in the file's unit.
			back := s.NsPerOp[0] / k
			if strings.HasPrefix(unit, "ops/") {
				back = k / s.NsPerOp[0]
			}
			if s.Mode != "sample" && math.Abs(back-s.Value[0]) > 1e-9*math.Abs(s.Value[0]) {
				t.Errorf("%s %s: ns_per_op %v back in %s is %v, recorded %v", filepath.Base(path), r.Benchmark, s.NsPerOp[0], unit, back, s.Value[0])
			}
			checked++
			modes[r.Mode] = true
		}
	}
	if checked < 100 || len(modes) < 4 {
		t.Errorf("checked %d benchmarks in modes %v, want more than 100 in avgt, thrpt, sample and ss", checked, modes)
	}
	t.Logf("%d benchmarks' scores as JMH wrote them, modes %v", checked, modes)
}

// canonicalParams joins k=v pairs sorted by key, as the table stores params.
func canonicalParams(kv []string) string {
	for i := 1; i < len(kv); i++ {
		for j := i; j > 0 && kv[j] < kv[j-1]; j-- {
			kv[j], kv[j-1] = kv[j-1], kv[j]
		}
	}
	return strings.Join(kv, ",")
}

// TestRunSeriesPhases: a run of 2 forks × 6 iterations with a warmup of 2
// and a recommendation of 1 fork × 3 iterations marks per fork the first
// 2 iterations warmup, then fork 1's next 3 kept and everything else cut,
// with the file's 1-based iteration numbers; a fork longer than
// reports.SeriesPoints keeps every k-th point and its last.
func TestRunSeriesPhases(t *testing.T) {
	s := &table.Series{Key: table.Key{Benchmark: "b", Mode: "avgt"}, Unit: "ns/op"}
	add := func(fork, it int32, v float64) {
		for l, x := range []int32{1, 1, fork, it, 1} {
			s.Levels[l] = append(s.Levels[l], x)
		}
		s.Warmup = append(s.Warmup, false)
		s.Value, s.NsPerOp, s.Count = append(s.Value, v), append(s.NsPerOp, v), append(s.Count, 1)
	}
	for f := int32(1); f <= 2; f++ {
		for it := int32(1); it <= 6; it++ {
			add(f, it, float64(100*f+it))
		}
	}
	d := newDesign(s, 2)
	mask := d.keptMask([]float64{1, 3})
	got := runSeries(s, 2, mask)
	want := []string{"warmup", "warmup", "kept", "kept", "kept", "cut", "warmup", "warmup", "cut", "cut", "cut", "cut"}
	if len(got.Points) != len(want) {
		t.Fatalf("%d points, want %d", len(got.Points), len(want))
	}
	for i, p := range got.Points {
		if p.Phase != want[i] || p.Iteration != int32(i%6+1) || p.ValueNs != float64(100*(i/6+1)+i%6+1) {
			t.Errorf("point %d: %+v, want phase %s, iteration %d", i, p, want[i], i%6+1)
		}
	}
	if n := len(d.kept([]float64{1, 3})); n != 3 {
		t.Errorf("kept holds %d observations, want 3 (keptMask and kept disagree)", n)
	}
	long := make([]reports.SeriesPoint, 1001)
	for i := range long {
		long[i] = reports.SeriesPoint{Fork: 1, Iteration: int32(i + 1)}
	}
	thin := reports.ThinSeries(long)
	if len(thin) > reports.SeriesPoints+1 || thin[0].Iteration != 1 || thin[len(thin)-1].Iteration != 1001 || thin[1].Iteration != 4 {
		t.Errorf("thinned to %d points, first %d, second %d, last %d", len(thin), thin[0].Iteration, thin[1].Iteration, thin[len(thin)-1].Iteration)
	}
}
