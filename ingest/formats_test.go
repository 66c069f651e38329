package ingest_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/format/pa"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/tablefile/tabletest"
)

// TestReadFilesUsesTheGivenFormats checks that ReadFiles reads with the
// formats ReadOptions.Formats lists and no others: none given is an error
// naming the file, a format left out is neither detected nor accepted by
// --format, and all.Formats() names the readers in the order the
// messages list them. A canonical table file needs no format.
func TestReadFilesUsesTheGivenFormats(t *testing.T) {
	jmhFile := filepath.Join("..", "testdata", "jmh", "small_avgt.json")

	var names []string
	for _, f := range all.Formats() {
		names = append(names, f.Name())
	}
	if got, want := strings.Join(names, ","), "duet,gobench,jmh,pa,uoptime,uoptime-jmh"; got != want {
		t.Errorf("all.Formats() names %s, want %s", got, want)
	}

	_, _, _, err := ingest.ReadFiles([]string{jmhFile}, ingest.ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), jmhFile) || !strings.Contains(err.Error(), "ReadOptions.Formats is empty") {
		t.Errorf("no formats: err %v, want one naming the file and the empty ReadOptions.Formats", err)
	}

	onlyPA := []ingest.Format{pa.Format()}
	_, _, _, err = ingest.ReadFiles([]string{jmhFile}, ingest.ReadOptions{Formats: onlyPA})
	if err == nil || !strings.Contains(err.Error(), "unrecognised format") {
		t.Errorf("pa only, JMH file: err %v, want unrecognised format", err)
	}
	_, _, _, err = ingest.ReadFiles([]string{jmhFile}, ingest.ReadOptions{Formats: onlyPA, Format: "jmh"})
	if err == nil || err.Error() != `unknown format "jmh" (known: pa)` {
		t.Errorf("pa only, --format jmh: err %v", err)
	}

	tab, _, files, err := ingest.ReadFiles([]string{jmhFile}, ingest.ReadOptions{Formats: all.Formats()})
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Release()
	if len(files) != 1 || files[0].Format != "jmh" || files[0].Rows == 0 || files[0].Rows != tab.NumRows() {
		t.Errorf("all formats: files %+v, %d rows", files, tab.NumRows())
	}

	// A canonical table file needs no format.
	arrowFile := filepath.Join(t.TempDir(), "t.arrow")
	if err := tabletest.WriteFile(arrowFile, tab); err != nil {
		t.Fatal(err)
	}
	back, _, files, err := ingest.ReadFiles([]string{arrowFile}, ingest.ReadOptions{})
	if err != nil {
		t.Fatalf("table file without formats: %v", err)
	}
	defer back.Release()
	if files[0].Format != "table" || back.NumRows() != tab.NumRows() {
		t.Errorf("table file without formats: %+v, %d rows, want %d", files, back.NumRows(), tab.NumRows())
	}
}
