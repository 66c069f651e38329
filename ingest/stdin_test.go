package ingest_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/ingest"
	_ "github.com/benchtrim/benchtrim/ingest/formats"
)

func TestReadFilesFromStandardInput(t *testing.T) {
	path := filepath.Join("..", "testdata", "jmh", "small_avgt.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fromFile, _, _, err := ingest.ReadFiles([]string{path}, ingest.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer fromFile.Release()
	tab, _, files, err := ingest.ReadFiles([]string{"-"}, ingest.ReadOptions{Stdin: bytes.NewReader(data)})
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Release()
	if tab.NumRows() != fromFile.NumRows() || tab.NumRows() == 0 || files[0].Format != "jmh" {
		t.Errorf("stdin: %d rows (%v), file: %d rows", tab.NumRows(), files, fromFile.NumRows())
	}
	_, _, _, err = ingest.ReadFiles([]string{"-", "-"}, ingest.ReadOptions{Stdin: bytes.NewReader(data)})
	if err == nil || !strings.Contains(err.Error(), "standard input (-) given twice") {
		t.Errorf("- twice: err %v", err)
	}
}

func TestReadFilesRefusesTheSameFileTwice(t *testing.T) {
	path := filepath.Join("..", "testdata", "jmh", "small_avgt.json")
	again := filepath.Join("..", "testdata", "jmh", "..", "jmh", "small_avgt.json")
	_, _, _, err := ingest.ReadFiles([]string{path, again}, ingest.ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "same file as "+path) {
		t.Errorf("err %v, want same file", err)
	}
}
