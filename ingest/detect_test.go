package ingest_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
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

const uoptimeJMHHeader = "m_id,n,ns_per_op,it_setup,fork_setup,it_pos,fork_pos,b_name"

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
		{"µOpTime Java CSV separated by ';'", "x.csv",
			strings.ReplaceAll(uoptimeJMHHeader, ",", ";") + "\n0;10.0;5.5;1;1;1;1;a.B.c\n", "uoptime-jmh",
			1, "header separated by ';', not ','"},
		{"µOpTime Java CSV without header", "x.csv", "0,21133.0,42.5,20,3,1,1,net.bytebuddy.B.baseline\n", "uoptime-jmh",
			1, "no header line: line 1 is a data row (a µOpTime Java CSV starts with the header " + uoptimeJMHHeader + ")"},
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

// TestDetectionReadsPastTheHead reads go test output whose first result
// line comes after more than 64 KiB of test output (as in a real release
// file, where it is line 6,317), from a file, from standard input and as
// versions of one suite: detection reads on until a line shows the format,
// and the reader then reads the whole file from its first line. A line
// longer than the read buffer on the way is stepped over.
func TestDetectionReadsPastTheHead(t *testing.T) {
	var b strings.Builder
	b.WriteString("PASS\nok  \texample.com/p\t0.198s\n")
	b.WriteString("log: " + strings.Repeat("x", 100<<10) + "\n") // one line longer than 64 KiB
	for i := 0; b.Len() < 200<<10; i++ {
		b.WriteString("=== RUN   TestSomething\n    usage: tool [flags] <file>\n")
	}
	lines := strings.Count(b.String(), "\n")
	b.WriteString("Benchmark_Parse-8 \t1000\t 120 ns/op\nBenchmark_Parse-8 \t1000\t 125 ns/op\nok  \texample.com/p\t1.5s\n")
	dir := t.TempDir()
	var paths []string
	for i, name := range []string{"old.txt", "new.txt"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(b.String()+strings.Repeat("\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	for _, tc := range []struct {
		name  string
		paths []string
		stdin io.Reader
		rows  int64
	}{
		{"file", paths[:1], nil, 2},
		{"stdin", []string{"-"}, strings.NewReader(b.String()), 2},
		{"versions of one suite", paths, nil, 4},
	} {
		tab, rep, files, err := ingest.ReadFiles(tc.paths, ingest.ReadOptions{Formats: all.Formats(), Stdin: tc.stdin})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if tab.NumRows() != tc.rows || files[0].Format != "gobench" || !rep.Empty() {
			t.Errorf("%s: %d rows as %v, want %d as gobench; report %v", tc.name, tab.NumRows(), files, tc.rows, rep.Kinds())
		}
		rows := ingesttest.Rows(t, tab)
		if tc.name == "versions of one suite" && (rows[0].Version != "old" || rows[3].Version != "new") {
			t.Errorf("versions %q, %q, want old, new (the files are versions of one suite)", rows[0].Version, rows[3].Version)
		}
		if rows[0].Line != int64(lines+1) {
			t.Errorf("%s: first row at line %d, want %d", tc.name, rows[0].Line, lines+1)
		}
		tab.Release()
	}
	// Past the head, text that no format writes stays unrecognised.
	p := filepath.Join(dir, "log.txt")
	if err := os.WriteFile(p, []byte(strings.Repeat("just a log line\n", 10000)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := ingest.ReadFiles([]string{p}, ingest.ReadOptions{Formats: all.Formats()}); err == nil || !strings.Contains(err.Error(), "unrecognised format") {
		t.Errorf("log file: err %v, want unrecognised format", err)
	}
}

// TestEquallyLikelyFormatsAreNamed: when no format sniffs a file and two
// are equally likely, the error names both and how to pick one.
func TestEquallyLikelyFormatsAreNamed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.txt")
	// Likely 1 for µOpTime (a headerless data row) and for gobench (a
	// Benchmark line without an iteration count).
	if err := os.WriteFile(path, []byte("1,10,5.5,1,1,1,1,1,1,1,1,BenchmarkX\nBenchmarkX-8 many 5 ns/op\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, _, err := ingest.ReadFiles([]string{path}, ingest.ReadOptions{Formats: all.Formats()})
	const want = "unrecognised format; it looks equally like gobench and uoptime (use --format gobench or --format uoptime)"
	if err == nil || err.Error() != path+": "+want {
		t.Errorf("err %v, want %q", err, want)
	}
}

// TestDetectsEachFormat reads each format's ordinary test files with
// detection and checks that the right reader took each, whole.
func TestDetectsEachFormat(t *testing.T) {
	for file, want := range map[string]string{
		"../testdata/jmh/small_avgt.json":                            "jmh",
		"../testdata/jmh/small_sample.json":                          "jmh",
		"../testdata/uoptime/small.csv":                              "uoptime",
		"../format/uoptime/testdata/good.csv":                        "uoptime",
		"../format/uoptime/testdata/jmh_good.csv":                    "uoptime-jmh",
		"../format/uoptime/testdata/laaber_demo-01_10_07-jmh121.csv": "uoptime-jmh",
		"../testdata/gobench/small.txt":                              "gobench",
		"../testdata/pa/small.csv":                                   "pa",
		"../format/duet/testdata/mixed.csv":                          "duet",
	} {
		tab, _, files, err := ingest.ReadFiles([]string{file}, ingest.ReadOptions{Formats: all.Formats()})
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if len(files) != 1 || files[0].Format != want || files[0].Rows == 0 {
			t.Errorf("%s: read as %+v, want format %s", file, files, want)
		}
		tab.Release()
	}
}
