package ingest_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
)

const jmhRecord = `  {
    "jmhVersion" : "1.37",
    "benchmark" : "org.example.Bench.parse",
    "mode" : "avgt",
    "threads" : 1,
    "forks" : 1,
    "primaryMetric" : {
      "score" : 1.5,
      "scoreUnit" : "us/op",
      "rawData" : [ [ 1.5, 1.5 ] ]
    }
  }
`

const uoptimeHeader = "m_id,n,ns_per_op,bed_setup,it_setup,sr_setup,ir_setup,bed_pos,it_pos,sr_pos,ir_pos,b_name"

const paHeader = "project;commit;benchmark;params;instance;trial;fork;iteration;mode;unit;value_count;value"

// TestDetectionFailureNamesTheProblem reads files that no format's Sniff
// accepts through ReadFiles with auto-detection. Each must fail with the
// likeliest format's precise error at its place, not "unrecognised format";
// with --format the same reader gives the same message.
func TestDetectionFailureNamesTheProblem(t *testing.T) {
	cases := []struct {
		name, file, content string
		format              string // the format --format gives the same message with ("" when none)
		line                int
		msg                 string
	}{
		{"conflict markers around a JMH file", "r.json",
			"<<<<<<< HEAD\n[\n" + jmhRecord + "]\n=======\n[]\n>>>>>>> theirs\n", "",
			1, `git merge conflict marker "<<<<<<< HEAD"`},
		{"conflict markers inside the JSON array", "r.json",
			"[\n<<<<<<< HEAD\n" + jmhRecord + "=======\n" + jmhRecord + ">>>>>>> theirs\n]\n", "",
			2, `git merge conflict marker "<<<<<<< HEAD"`},
		{"top-level JSON object", "r.json", strings.TrimSpace(jmhRecord) + "\n", "jmh",
			1, "the top level is an object; a JMH result file (-rf json) is an array of runs"},
		{"µOpTime CSV separated by ';'", "x.csv",
			strings.ReplaceAll(uoptimeHeader, ",", ";") + "\n1;10;5.5;1;1;1;1;1;1;1;1;BenchmarkX\n", "uoptime",
			1, "header separated by ';', not ','"},
		{"µOpTime CSV separated by tabs", "x.csv",
			strings.ReplaceAll(uoptimeHeader, ",", "\t") + "\n1\t10\t5.5\t1\t1\t1\t1\t1\t1\t1\t1\tBenchmarkX\n", "uoptime",
			1, "header separated by tab, not ','"},
		{"µOpTime CSV without header", "x.csv", "1,10,5.5,1,1,1,1,1,1,1,1,BenchmarkX\n", "uoptime",
			1, "no header line: line 1 is a data row"},
		{"pa CSV separated by ','", "p.csv",
			strings.ReplaceAll(paHeader, ";", ",") + "\np,c,b.B.x,,m1,1,1,1,avgt,ns/op,1,5\n", "pa",
			1, "header separated by ',', not ';'"},
		{"pa CSV without header", "p.csv", "hollow;6d75aa9;b.B.x;;m1;1;1;1;thrpt;ops/ms;1;4.789633e+01\n", "pa",
			1, "no header line: line 1 is a data row"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.file)
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, _, err := ingest.ReadFiles([]string{path}, ingest.ReadOptions{Formats: all.Formats()})
			checkPlace(t, err, path, tc.line, tc.msg)
			if err != nil && strings.Contains(err.Error(), "unrecognised") {
				t.Errorf("error still says unrecognised: %v", err)
			}
			if tc.format != "" {
				_, _, _, err := ingest.ReadFiles([]string{path}, ingest.ReadOptions{Formats: all.Formats(), Format: tc.format})
				checkPlace(t, err, path, tc.line, tc.msg)
			}
		})
	}
}

// checkPlace asserts that err is a *ingest.ParseError at path:line whose
// text holds msg.
func checkPlace(t *testing.T, err error, path string, line int, msg string) {
	t.Helper()
	var pe *ingest.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v (%T), want a *ingest.ParseError", err, err)
	}
	if pe.File != path || pe.Line != line || !strings.HasPrefix(err.Error(), path+":"+strconv.Itoa(line)+":") || !strings.Contains(pe.Msg, msg) {
		t.Errorf("err = %q (line %d), want %s:%d: …%s…", err, pe.Line, path, line, msg)
	}
}

// TestDetectionFailureWithoutLikelyFormat keeps "unrecognised format" for
// files that resemble no format, and names the likeliest format when its
// reader reads the file without a fatal error.
func TestDetectionFailureWithoutLikelyFormat(t *testing.T) {
	for _, tc := range []struct{ content, msg string }{
		{"hello world\nnothing to see\n", "unrecognised format (not JMH JSON"},
		{"BenchmarkFoo-8 many 12 ns/op\n", "unrecognised format; it looks most like gobench (use --format gobench"},
	} {
		path := filepath.Join(t.TempDir(), "x.txt")
		if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, _, err := ingest.ReadFiles([]string{path}, ingest.ReadOptions{Formats: all.Formats()})
		if err == nil || !strings.Contains(err.Error(), path+": "+tc.msg) {
			t.Errorf("%q: err %v, want %q", tc.content, err, tc.msg)
		}
	}
}
