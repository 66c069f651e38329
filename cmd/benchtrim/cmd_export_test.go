package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportGoBenchCLI exports JMH and Go results to Go benchmark text: the
// JMH runs are written under Go names (pkg: their package, BenchmarkClass/
// method/mode=…), so benchstat compares JMH runs; --labels writes the
// labelled form and is a usage error with pa.
func TestExportGoBenchCLI(t *testing.T) {
	dir := t.TempDir()
	jmh, gobench := repoFile("testdata", "jmh", "small_avgt.json"), repoFile("testdata", "gobench", "small.txt")
	out := filepath.Join(dir, "x.txt")
	stdout, _, err := runCLI(t, "--quiet", "export", "--to", "gobench", "-o", out, jmh, gobench)
	if err != nil {
		t.Fatal(err)
	}
	if stdout != "wrote "+out+"\n" {
		t.Errorf("stdout:\n%s", stdout)
	}
	text, _ := os.ReadFile(out)
	if strings.Count(string(text), "\nBenchmarkJsonEncodeSmall/size=64-8\t") != 3 || !strings.Contains(string(text), "pkg: org.example.small\nBenchmarkJsonBenchmark/") {
		t.Errorf("default form:\n%s", text)
	}
	j := filepath.Join(dir, "j.txt")
	if _, _, err := runCLI(t, "--quiet", "export", "--to", "gobench", "-o", j, jmh); err != nil {
		t.Errorf("JMH only: err %v", err)
	}
	if text, _ := os.ReadFile(j); !strings.Contains(string(text), "/mode=avgt") {
		t.Errorf("JMH only:\n%s", text)
	}
	if _, _, err := runCLI(t, "--quiet", "export", "--to", "gobench", "--labels", "-o", out, gobench); err != nil {
		t.Fatal(err)
	}
	if text, _ := os.ReadFile(out); !strings.Contains(string(text), "instance: 1\ntrial: 1\nBenchmark") {
		t.Errorf("labelled form:\n%s", text)
	}
	_, _, err = runCLI(t, "--quiet", "export", "--to", "pa", "--labels", "-o", filepath.Join(dir, "x.csv"), jmh)
	if !isUsageError(err) || !strings.Contains(err.Error(), "--labels applies to --to gobench only") {
		t.Errorf("--labels with pa: err %v, want a usage error", err)
	}
}
