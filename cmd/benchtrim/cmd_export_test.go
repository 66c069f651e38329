package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/internal/cliapp"
)

// TestExportGoBenchCLI exports JMH and Go results to Go benchmark text: the
// JMH runs are counted and named as not written, a JMH-only input is an
// error, --labels writes the labelled form and is a usage error with pa.
func TestExportGoBenchCLI(t *testing.T) {
	dir := t.TempDir()
	jmh, gobench := repoFile("testdata", "jmh", "small_avgt.json"), repoFile("testdata", "gobench", "small.txt")
	out := filepath.Join(dir, "x.txt")
	stdout, _, err := runCLI(t, "--quiet", "export", "--to", "gobench", "-o", out, jmh, gobench)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "wrote "+out+"\n4 benchmark runs without Go benchmark names not written (") {
		t.Errorf("stdout:\n%s", stdout)
	}
	text, _ := os.ReadFile(out)
	if strings.Contains(string(text), ":") || strings.Count(string(text), "\nBenchmarkJsonEncodeSmall/size=64-8\t") != 3 {
		t.Errorf("default form:\n%s", text)
	}
	if _, _, err := runCLI(t, "--quiet", "export", "--to", "gobench", "-o", filepath.Join(dir, "j.txt"), jmh); err == nil || !strings.Contains(err.Error(), "no Go benchmarks") {
		t.Errorf("JMH only: err %v", err)
	}
	if _, _, err := runCLI(t, "--quiet", "export", "--to", "gobench", "--labels", "-o", out, gobench); err != nil {
		t.Fatal(err)
	}
	if text, _ := os.ReadFile(out); !strings.Contains(string(text), "instance: 1\ntrial: 1\nBenchmark") {
		t.Errorf("labelled form:\n%s", text)
	}
	_, _, err = runCLI(t, "--quiet", "export", "--to", "pa", "--labels", "-o", filepath.Join(dir, "x.csv"), jmh)
	if u, ok := cliapp.IsUsage(err); !ok || !strings.Contains(u.Error(), "--labels applies to --to gobench only") {
		t.Errorf("--labels with pa: err %v, want a usage error", err)
	}
}
