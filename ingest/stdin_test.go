package ingest_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
)

func TestReadFilesFromStandardInput(t *testing.T) {
	path := filepath.Join("..", "testdata", "jmh", "small_avgt.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fromFile, _, _, err := ingest.ReadFiles([]string{path}, ingest.ReadOptions{Formats: all.Formats()})
	if err != nil {
		t.Fatal(err)
	}
	defer fromFile.Release()
	tab, _, files, err := ingest.ReadFiles([]string{"-"}, ingest.ReadOptions{Formats: all.Formats(), Stdin: bytes.NewReader(data)})
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Release()
	if tab.NumRows() != fromFile.NumRows() || tab.NumRows() == 0 || files[0].Format != "jmh" {
		t.Errorf("stdin: %d rows (%v), file: %d rows", tab.NumRows(), files, fromFile.NumRows())
	}
	_, _, _, err = ingest.ReadFiles([]string{"-", "-"}, ingest.ReadOptions{Formats: all.Formats(), Stdin: bytes.NewReader(data)})
	if err == nil || !strings.Contains(err.Error(), "standard input (-) given twice") {
		t.Errorf("- twice: err %v", err)
	}
}

func TestReadFilesRefusesTheSameFileTwice(t *testing.T) {
	path := filepath.Join("..", "testdata", "jmh", "small_avgt.json")
	again := filepath.Join("..", "testdata", "jmh", "..", "jmh", "small_avgt.json")
	_, _, _, err := ingest.ReadFiles([]string{path, again}, ingest.ReadOptions{Formats: all.Formats()})
	if err == nil || !strings.Contains(err.Error(), "same file as "+path) {
		t.Errorf("err %v, want same file", err)
	}
}

// TestReadFilesWarnsOfPooledRuns: two files whose runs get the same labels
// and fork numbers (here one version label for both) are pooled; the
// report says so once per run, naming both files.
func TestReadFilesWarnsOfPooledRuns(t *testing.T) {
	a := filepath.Join("..", "testdata", "uoptime", "small.csv")
	b := filepath.Join("..", "testdata", "uoptime", "small_ragged.csv")
	tab, rep, _, err := ingest.ReadFiles([]string{a, b}, ingest.ReadOptions{Formats: all.Formats(), Project: "p", Version: "v2"})
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Release()
	if n := rep.Count(ingest.KindPooledRuns); n == 0 {
		t.Fatalf("no %q warning", ingest.KindPooledRuns)
	}
	var buf bytes.Buffer
	rep.WriteTo(&buf)
	if !strings.Contains(buf.String(), b+": p@v2 ") || !strings.Contains(buf.String(), "is also in "+a) {
		t.Errorf("warning does not name both files:\n%s", buf.String())
	}
	// The same files under their own labels are not pooled.
	tab2, rep2, _, err := ingest.ReadFiles([]string{a, b}, ingest.ReadOptions{Formats: all.Formats()})
	if err != nil {
		t.Fatal(err)
	}
	defer tab2.Release()
	if n := rep2.Count(ingest.KindPooledRuns); n != 0 {
		t.Errorf("%d pooled-run warnings for files with their own labels", n)
	}
}
