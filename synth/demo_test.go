package synth

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteDemoData(t *testing.T) {
	dir1, dir2 := t.TempDir(), t.TempDir()
	files, err := WriteDemoData(dir1, 7)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{DemoJMHAvgt, demoJMHSample, demoGoBench, demoPA,
		DemoUOpTimeFile("v1.0.0"), DemoUOpTimeFile("v1.1.0"), DemoUOpTimeFile("v1.2.0"), DemoTruth}
	if len(files) != len(want) {
		t.Fatalf("files %v, want %v", files, want)
	}
	for j, f := range files {
		if filepath.Base(f) != want[j] || filepath.Dir(f) != dir1 {
			t.Errorf("file %d: %s, want %s in %s", j, f, want[j], dir1)
		}
	}
	entries, _ := os.ReadDir(dir1)
	if len(entries) != len(want) {
		t.Errorf("%d entries in the directory (temporary files left?)", len(entries))
	}
	if _, err := WriteDemoData(dir2, 7); err != nil {
		t.Fatal(err)
	}
	for _, name := range want {
		a, err1 := os.ReadFile(filepath.Join(dir1, name))
		b, err2 := os.ReadFile(filepath.Join(dir2, name))
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: not identical for the same seed (%v, %v)", name, err1, err2)
		}
	}

	data, _ := os.ReadFile(filepath.Join(dir1, DemoTruth))
	var truth DemoTruthFile
	if err := json.Unmarshal(data, &truth); err != nil {
		t.Fatalf("truth.json: %v", err)
	}
	if truth.Seed != 7 || len(truth.Files) != 7 || len(truth.UOpTimeVersions) != 3 || len(truth.UOpTimeChanges) != 2 {
		t.Errorf("truth: seed %d, %d files, versions %v, changes %+v", truth.Seed, len(truth.Files), truth.UOpTimeVersions, truth.UOpTimeChanges)
	}
	kinds := map[Kind]int{}
	shapes := map[NoSteadyShape]bool{}
	for _, tr := range truth.Files[DemoJMHAvgt] {
		kinds[tr.Kind]++
		shapes[tr.Shape] = true
	}
	if kinds[KindWarmup] != 4 || kinds[KindFlat] != 2 || kinds[KindSlowdown] != 2 || kinds[KindNoSteadyState] != 2 || !shapes[ShapeOscillation] {
		t.Errorf("avgt demo kinds %v", kinds)
	}
	// The avgt demo is a real JMH file recorded with -wi 0.
	raw, _ := os.ReadFile(filepath.Join(dir1, DemoJMHAvgt))
	recs := decodeJMH(t, raw)
	if len(recs) != 10 || recs[0].WarmupIterations != 0 || len(recs[0].PrimaryMetric.RawData) != 4 || len(recs[0].PrimaryMetric.RawData[0]) != 150 {
		t.Errorf("avgt demo: %d records", len(recs))
	}
	sample, _ := os.ReadFile(filepath.Join(dir1, demoJMHSample))
	for _, r := range decodeJMH(t, sample) {
		if r.Mode != "sample" || r.PrimaryMetric.RawDataHistogram == nil {
			t.Errorf("sample demo record %s: mode %s", r.Benchmark, r.Mode)
		}
	}
	// Ragged µOpTime: each version misses one iteration of 5 slices.
	for _, v := range truth.UOpTimeVersions {
		csvData, _ := os.ReadFile(filepath.Join(dir1, DemoUOpTimeFile(v)))
		lines := strings.Count(string(csvData), "\n")
		if want := 1 + 12*3*3*5*5 - 5; lines != want {
			t.Errorf("%s: %d lines, want %d", v, lines, want)
		}
	}
	if _, err := WriteDemoData(filepath.Join(dir1, "missing", "dir"), 1); err == nil {
		t.Error("missing directory accepted")
	}
}
