package ingest_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
)

// FuzzReadFiles reads arbitrary bytes through ReadFiles with format
// detection (standard input, so no file is written per input). It must not
// panic, must fail only with a *ingest.ParseError naming the input (bytes in
// memory have no I/O errors) and never with "unrecognised format" when one
// format alone has the highest Likely score; a table it returns holds only
// clean names.
//
//	go test -run '^$' -fuzz FuzzReadFiles -fuzztime 60s ./ingest/
func FuzzReadFiles(f *testing.F) {
	for _, pattern := range []string{"../format/jmh/testdata/*.json", "../format/pa/testdata/*.csv", "../format/uoptime/testdata/*.csv", "../format/gobench/testdata/*", "../format/duet/testdata/*.csv"} {
		files, _ := filepath.Glob(pattern)
		for _, p := range files {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	for _, s := range []string{
		"", "<<<<<<< HEAD\n[]\n=======\n>>>>>>> b\n", "{\"benchmark\":1}", "[\n<<<<<<< HEAD\n{}]",
		"m_id;n;ns_per_op;b_name\n", "1,2,3,4,5,6,7,8,9,10,11,BenchmarkX\n",
		"project,commit,benchmark,params,instance\n", "p;c;b;;m;1;1;1;avgt;ns/op;1;5\n", "BenchmarkX-8 x 1 ns/op\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, _, _, err := ingest.ReadFiles([]string{"-"}, ingest.ReadOptions{Formats: all.Formats(), Stdin: bytes.NewReader(data)})
		if err != nil {
			var pe *ingest.ParseError
			if !errors.As(err, &pe) || pe.File != "-" || pe.Msg == "" {
				t.Fatalf("error %v (%T) is not a *ingest.ParseError naming the input", err, err)
			}
			if strings.Contains(pe.Msg, "unrecognised format (") {
				head := data[:min(len(data), 64<<10)]
				best, n := 0, 0
				for _, fm := range all.Formats() {
					switch score := fm.Likely(head); {
					case score > best:
						best, n = score, 1
					case score == best:
						n++
					}
				}
				if best > 0 && n == 1 {
					t.Fatalf("%q: one format is likeliest, but the error is %v", data, err)
				}
			}
			return
		}
		defer tab.Release()
		ingesttest.CheckClean(t, tab)
	})
}
