package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/synth"
)

// TestDuetGenerateCompare generates the duet preset (seed 1), reads it
// back, and compares pair B against pair A of every benchmark and type
// with the first 12 iterations (the longest warm-up of the preset)
// discarded. The truth JSON says which benchmarks are A/B (B 5 % slower):
// all six of their (benchmark, type) runs must be found slower with a
// ratio estimate between 1.02 and 1.09 and the six A/A runs unchanged
// (99 % CI, 2000 resamples).
func TestDuetGenerateCompare(t *testing.T) {
	dir := t.TempDir()
	data, truthPath := filepath.Join(dir, "duet.csv"), filepath.Join(dir, "duet-truth.json")
	if out, _, err := runCLI(t, "generate", "--preset", "duet", "-o", data); err != nil || !strings.Contains(out, "(duet, preset duet, seed 1)") {
		t.Fatalf("generate: %v %s", err, out)
	}
	if _, _, err := runCLI(t, "generate", "--preset", "duet", "--format", "truth", "-o", truthPath); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(truthPath)
	if err != nil {
		t.Fatal(err)
	}
	var truth struct{ Benchmarks []synth.DuetBenchmark }
	if err := json.Unmarshal(b, &truth); err != nil {
		t.Fatal(err)
	}
	slowdown := map[string]float64{}
	for _, bm := range truth.Benchmarks {
		slowdown[bm.Name] = bm.Slowdown
	}
	out, _, err := runCLI(t, "-q", "ingest", "-o", filepath.Join(dir, "duet.arrow"), data)
	if err != nil || !strings.Contains(out, data+": duet, 9600 rows") || !strings.Contains(out, "modes: duet 4, seqn 4, syncduet 4") ||
		!strings.Contains(out, "nothing skipped, nothing suspicious") {
		t.Fatalf("ingest: %v\n%s", err, out)
	}
	res := filepath.Join(dir, "cmp.csv")
	out, _, err = runCLI(t, "-q", "compare", "--statistic", "mean", "--base-pair", "A", "--test-pair", "B", "--discard-warmup", "12", "--resamples", "2000", "-o", res, data)
	if err != nil {
		t.Fatalf("compare: %v\n%s", err, out)
	}
	if !strings.Contains(out, "base: pair A") || !strings.Contains(out, "test: pair B") {
		t.Errorf("compare output:\n%s", out)
	}
	rows := compareCSV(t, res)
	bench, mode, verdict, ratio := compareColumn(t, rows, "benchmark"), compareColumn(t, rows, "mode"),
		compareColumn(t, rows, "verdict"), compareColumn(t, rows, "ratio")
	if len(bench) != 12 {
		t.Fatalf("%d comparisons, want 12 (4 benchmarks × 3 types):\n%s", len(bench), out)
	}
	for i := range bench {
		r, _ := strconv.ParseFloat(ratio[i], 64)
		s, ok := slowdown[bench[i]]
		switch {
		case !ok:
			t.Errorf("benchmark %s not in the truth", bench[i])
		case s == 0.05 && (!strings.HasSuffix(verdict[i], "% slower") || r < 1.02 || r > 1.09):
			t.Errorf("%s (%s), B 5 %% slower: verdict %q, ratio %.4f", bench[i], mode[i], verdict[i], r)
		case s == 0 && verdict[i] != "no change":
			t.Errorf("%s (%s), A/A: verdict %q, ratio %.4f", bench[i], mode[i], verdict[i], r)
		}
	}
}

// TestDuetGenerateUsage: the duet preset writes a .csv (or the truth as
// .json); flags of the JMH presets are usage errors with it.
func TestDuetGenerateUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range [][]string{
		{"--preset", "duet", "-o", filepath.Join(dir, "x.json")},
		{"--preset", "duet", "--mode", "avgt", "-o", filepath.Join(dir, "x.csv")},
		{"--preset", "duet", "--format", "pa", "-o", filepath.Join(dir, "x.csv")},
	} {
		_, _, err := runCLI(t, append([]string{"generate"}, tc...)...)
		if !isUsageError(err) {
			t.Errorf("generate %v: err %v, want a usage error", tc, err)
		}
	}
	f := filepath.Join(dir, "small.csv")
	if _, _, err := runCLI(t, "--seed", "4", "generate", "--preset", "duet", "--benchmarks", "6", "--forks", "3", "--iterations", "5", "-o", f); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "-q", "ingest", "-o", filepath.Join(dir, "small.arrow"), f)
	if err != nil || !strings.Contains(out, "duet, 540 rows") || !strings.Contains(out, "benchmarks: 6 (18 runs") {
		t.Errorf("6 benchmarks × 3 types × 3 runs × 2 pairs × 5 iterations: %v\n%s", err, out)
	}
}
