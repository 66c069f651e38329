package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileCase is one malformed, hostile or degenerate input tried as a user
// would: the command line (HOSTILE stands for testdata/hostile, TMP for a
// scratch directory), the exit status and what the output must say, with
// the place (file:line or file:$.path) where there is one.
type hostileCase struct {
	name string
	args []string
	exit int
	want []string
}

var hostileCases = []hostileCase{
	{"empty file", []string{"ingest", "-o", "TMP/t.csv", "HOSTILE/empty.json"}, 1,
		[]string{"HOSTILE/empty.json: empty file"}},
	{"git conflict markers", []string{"ingest", "-o", "TMP/t.csv", "HOSTILE/jmh_conflict.json"}, 1,
		[]string{`HOSTILE/jmh_conflict.json:6: $[0]: git merge conflict marker "<<<<<<< HEAD"`}},
	{"top-level object", []string{"ingest", "-o", "TMP/t.csv", "HOSTILE/jmh_object.json"}, 1,
		[]string{"HOSTILE/jmh_object.json:1: $: the top level is an object; a JMH result file (-rf json) is an array of runs"}},
	{"truncated JSON", []string{"ingest", "-o", "TMP/t.csv", "HOSTILE/jmh_truncated.json"}, 1,
		[]string{"HOSTILE/jmh_truncated.json:128: $[1]: unexpected end of file inside a string (truncated file?)"}},
	{"wrong delimiter", []string{"ingest", "-o", "TMP/t.csv", "HOSTILE/uoptime_semicolon.csv"}, 1,
		[]string{"HOSTILE/uoptime_semicolon.csv:1: header separated by ';', not ','"}},
	{"µOpTime Java CSV with holes", []string{"ingest", "-o", "TMP/t.csv", "HOSTILE/uoptime_jmh_holes.csv"}, 0,
		[]string{"HOSTILE/uoptime_jmh_holes.csv: uoptime-jmh, 2 rows", "HOSTILE/uoptime_jmh_holes.csv:4: benchmark zipkin#zipkin2.B.decode#size=10&&size=20 fork 1 iteration 2 already read at line 3",
			"HOSTILE/uoptime_jmh_holes.csv:5: column n = 0, want ≥ 1",
			`HOSTILE/uoptime_jmh_holes.csv:2: benchmark zipkin#zipkin2.B.decode#size=10&&size=20: params "size=10&&size=20": "", "size=20" not key=value with a new key; kept as "=,size=20"`,
			"HOSTILE/uoptime_jmh_holes.csv:2: benchmark zipkin#zipkin2.B.decode#size=10&&size=20: 2 of 4 iterations missing from the setup grid (2 forks × 2 iterations): missing fork 2"}},
	{"µOpTime Java CSV read as Go", []string{"ingest", "--format", "uoptime", "-o", "TMP/t.csv", "HOSTILE/uoptime_jmh_holes.csv"}, 1,
		[]string{"HOSTILE/uoptime_jmh_holes.csv:1: header names fork_setup: this is the µOpTime Java CSV layout (read it with --format uoptime-jmh)"}},
	{"pa without header", []string{"ingest", "-o", "TMP/t.csv", "HOSTILE/pa_no_header.csv"}, 1,
		[]string{"HOSTILE/pa_no_header.csv:1: no header line: line 1 is a data row"}},
	{"JMH mode bogus", []string{"ingest", "-o", "TMP/t.csv", "HOSTILE/jmh_bogus_mode.json"}, 1,
		[]string{"unknown mode", `HOSTILE/jmh_bogus_mode.json:5: $[0].mode: mode "bogus" is not a JMH mode`}},
	{"pa mode weird", []string{"ingest", "-o", "TMP/t.csv", "HOSTILE/pa_weird_mode.csv"}, 0,
		[]string{"skipped 1: unknown mode", `HOSTILE/pa_weird_mode.csv:2: column mode "weird" is not a JMH mode`}},
	{"threads 0, forks -5", []string{"ingest", "-o", "TMP/t.csv", "HOSTILE/jmh_bad_config.json"}, 0,
		[]string{"HOSTILE/jmh_bad_config.json:6: $[0].threads: threads = 0", "HOSTILE/jmh_bad_config.json:7: $[0].forks: forks = -5"}},
	{"newline in a name", []string{"ingest", "-o", "TMP/t.csv", "HOSTILE/jmh_newline_name.json"}, 0,
		[]string{`HOSTILE/jmh_newline_name.json:4: $[0].benchmark: benchmark "org.example.Bad\nName" holds control characters; stored as "org.example.Bad\\nName"`}},
	{"invalid UTF-8 in a name", []string{"ingest", "-o", "TMP/t.csv", "HOSTILE/pa_bad_utf8.csv"}, 0,
		[]string{`HOSTILE/pa_bad_utf8.csv:2: benchmark "org.example.B\xff\xfe" is not valid UTF-8; stored as "org.example.B` + "\uFFFD"}},
	{"duet CSV with bad rows", []string{"ingest", "-o", "TMP/t.csv", "HOSTILE/duet_bad_rows.csv"}, 0,
		[]string{"skipped 1: iteration ends before it starts", "HOSTILE/duet_bad_rows.csv:3: iteration_end_ns 1700000000000001000 is before iteration_start_ns 1700000000000002000",
			`HOSTILE/duet_bad_rows.csv:4: column iteration_start_ns is "": missing`, `HOSTILE/duet_bad_rows.csv:5: pair "C" is not A or B`,
			"HOSTILE/duet_bad_rows.csv:6: renaissance als run 0 pair A iteration 0 already read at HOSTILE/duet_bad_rows.csv:2",
			`HOSTILE/duet_bad_rows.csv:7: type "aduet" is not seqn, syncduet or duet`, `HOSTILE/duet_bad_rows.csv:8: column iteration_time_ns: "1e3x" is not a number`,
			`HOSTILE/duet_bad_rows.csv:9: artifact lscpu is "NA", which pandas reads as missing; stored as ""`,
			"warning 2: run with only one pair", "HOSTILE/duet_bad_rows.csv:9: renaissance als (duet) run 1 of instance 2 has pair A only"}},
	{"duet CSV separated by ';'", []string{"ingest", "-o", "TMP/t.csv", "HOSTILE/duet_semicolon.csv"}, 1,
		[]string{"HOSTILE/duet_semicolon.csv:1: header separated by ';', not ','"}},
	{"duetbench directory with a truncated result", []string{"ingest", "-o", "TMP/t.csv", "HOSTILE/duetbench_bad"}, 0,
		[]string{"HOSTILE/duetbench_bad: duet, 1 rows", "skipped 1: unreadable result file (left out)",
			"HOSTILE/duetbench_bad/renaissance.als.0.duet.AB.A.results.json: not a Renaissance JSON result: unexpected EOF",
			"HOSTILE/duetbench_bad/renaissance.als.0.duet.AB.B.results.json:$.data[\"als\"].results[0]: renaissance als (duet) run 0 of instance 1 has pair B only"}},
	{"directory with --format pa", []string{"ingest", "--format", "pa", "-o", "TMP/t.csv", "HOSTILE/duetbench_bad"}, 1,
		[]string{"HOSTILE/duetbench_bad: is a directory; format pa reads files (give the result files)"}},
	{"missing file", []string{"ingest", "-o", "TMP/t.csv", "HOSTILE/nothing.json"}, 1,
		[]string{"HOSTILE/nothing.json: no such file or directory"}},
	{"directory as input", []string{"ingest", "-o", "TMP/t.csv", "HOSTILE"}, 1,
		[]string{"HOSTILE: is a directory"}},
	{"same file twice", []string{"ingest", "-o", "TMP/t.csv", "HOSTILE/jmh_bad_config.json", "HOSTILE/../hostile/jmh_bad_config.json"}, 1,
		[]string{"same file as HOSTILE/jmh_bad_config.json"}},
	{"output is the input", []string{"ingest", "-o", "HOSTILE/pa_weird_mode.csv", "HOSTILE/pa_weird_mode.csv"}, 1,
		[]string{"-o HOSTILE/pa_weird_mode.csv: is the input HOSTILE/pa_weird_mode.csv; refusing to overwrite an input"}},
	{"missing output directory", []string{"optimize", "-o", "TMP/ok.csv", "--summary-out", "/missing/s.csv", "HOSTILE/pa_weird_mode.csv"}, 1,
		[]string{"--summary-out /missing/s.csv: directory /missing does not exist"}},
	{"unsupported output extension", []string{"optimize", "--metric", "all", "-o", "TMP/out.xlsx", "HOSTILE/pa_weird_mode.csv"}, 1,
		[]string{`-o TMP/out.xlsx: unsupported extension ".xlsx" (want .csv, .arrow or .parquet)`}},
	{"negative workers", []string{"--workers", "-3", "ingest", "-o", "TMP/t.csv", "HOSTILE/pa_weird_mode.csv"}, 2,
		[]string{"benchtrim: --workers -3: must be at least 0", "see 'benchtrim --help'"}},
	{"negative benchmarks", []string{"generate", "--benchmarks", "-1", "-o", "TMP/g.json"}, 2,
		[]string{"benchtrim generate: --benchmarks -1: must be at least 1"}},
	{"reversed penalty range", []string{"changepoint", "--pen-range", "5,1", "../changepoint/warmup.txt"}, 1,
		[]string{`--pen-range: penalty range 5,1: want 0 <= a < b`}},
	{"unknown flag", []string{"optimize", "--metrc", "cv", "HOSTILE/pa_weird_mode.csv"}, 2,
		[]string{"benchtrim optimize: unknown flag --metrc; did you mean --metric?", "see 'benchtrim optimize --help'"}},
	{"unknown command", []string{"optimise"}, 2,
		[]string{`benchtrim: unknown command "optimise"; did you mean "optimize"?`}},
}

// TestHostileInputs runs every hostileCase from testdata/hostile and
// checks the exit status, that the output names the problem and its place,
// that nothing panicked, and that the inputs are unchanged.
func TestHostileInputs(t *testing.T) {
	hostile := repoFile("testdata", "hostile")
	before := snapshot(t, hostile)
	for _, tc := range hostileCases {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			sub := func(s string) string {
				s = strings.ReplaceAll(s, "HOSTILE", hostile)
				return strings.ReplaceAll(s, "TMP", tmp)
			}
			args := make([]string, len(tc.args))
			for i, a := range tc.args {
				args[i] = sub(a)
				if strings.HasPrefix(a, "../") {
					args[i] = filepath.Join(hostile, a)
				}
			}
			var out bytes.Buffer
			err := run(append([]string{"benchtrim"}, args...), &out, &out)
			code := exitCode(err, &out)
			if code != tc.exit {
				t.Errorf("exit status %d, want %d\n%s", code, tc.exit, out.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), sub(w)) {
					t.Errorf("output lacks %q:\n%s", sub(w), out.String())
				}
			}
			if strings.Contains(out.String(), "panic") || strings.Contains(out.String(), "goroutine ") {
				t.Errorf("output mentions a panic:\n%s", out.String())
			}
		})
	}
	if after := snapshot(t, hostile); after != before {
		t.Error("the hostile inputs were changed by a command")
	}
}

// snapshot is the names, sizes and contents of the files in dir.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		b.WriteString(e.Name() + "\x00" + string(data) + "\x00")
	}
	return b.String()
}

// TestCorruptTableFiles overwrites 6 bytes at offsets across a table file
// written by ingest and runs every command that reads tables on it: no
// command panics, each exits 0 or 1, and where it fails the message starts
// with the file's name. Some offsets must fail for each command.
func TestCorruptTableFiles(t *testing.T) {
	dir := t.TempDir()
	in := repoFile("testdata", "jmh", "small_avgt.json")
	for _, ext := range []string{".arrow", ".parquet"} {
		good := filepath.Join(dir, "good"+ext)
		if _, _, err := runCLI(t, "-q", "ingest", "-o", good, in); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(good)
		if err != nil {
			t.Fatal(err)
		}
		bad := filepath.Join(dir, "bad"+ext)
		for _, cmd := range [][]string{{"compare", "--aa", "--resamples", "200"}, {"optimize", "--metric", "cv", "--resamples", "200"},
			{"export", "--to", "pa", "-o", filepath.Join(dir, "x.csv")}, {"ingest", "-o", filepath.Join(dir, "y.csv")}} {
			failed := 0
			for pct := 20; pct <= 80; pct += 5 {
				b := append([]byte(nil), data...)
				copy(b[len(b)*pct/100:], "ZZZZZZ")
				if err := os.WriteFile(bad, b, 0o644); err != nil {
					t.Fatal(err)
				}
				var out bytes.Buffer
				err := run(append(append([]string{"benchtrim", "-q"}, cmd...), bad), &out, &out)
				code := exitCode(err, &out)
				if code != 0 && code != 1 {
					t.Errorf("%s %v at %d %%: exit %d\n%s", ext, cmd, pct, code, out.String())
				}
				if code == 1 {
					failed++
					if !strings.Contains(out.String(), "benchtrim: "+bad+": ") {
						t.Errorf("%s %v at %d %%: the message does not start with the file:\n%s", ext, cmd, pct, out.String())
					}
				}
				if strings.Contains(out.String(), "panic") {
					t.Errorf("%s %v at %d %%: panic\n%s", ext, cmd, pct, out.String())
				}
			}
			if failed == 0 {
				t.Errorf("%s %v: no corrupted file gave an error", ext, cmd)
			}
		}
	}
}

// TestHostileBuiltInputs: inputs too large to keep in testdata, built here:
// a JMH benchmark name of 400 KB (the record is skipped with its place, the
// rest is read), and pa and µOpTime level indices far beyond the rows
// (an error at the line, before any grid is built).
func TestHostileBuiltInputs(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(repoFile("testdata", "jmh", "small_avgt.json"))
	if err != nil {
		t.Fatal(err)
	}
	long := filepath.Join(dir, "long.json")
	name := "org.example." + strings.Repeat("x", 400_000)
	os.WriteFile(long, bytes.Replace(src, []byte("org.example.small.JsonBenchmark.encodeSmall"), []byte(name), 1), 0o644)
	paHead := "project;commit;benchmark;params;instance;trial;fork;iteration;mode;unit;value_count;value\n"
	pa := filepath.Join(dir, "far.csv")
	os.WriteFile(pa, []byte(paHead+"p;v1;org.ex.B;;1;1;1;1;avgt;ns/op;1;10\np;v1;org.ex.B;;1;1;1;2;avgt;ns/op;1;11\n"+
		"p;v1;org.ex.B;;1;1;1000000000;1000000000;avgt;ns/op;1;12\n"), 0o644)
	uopt := filepath.Join(dir, "far-v1.csv")
	os.WriteFile(uopt, []byte("m_id,n,ns_per_op,bed_setup,it_setup,sr_setup,ir_setup,bed_pos,it_pos,sr_pos,ir_pos,b_name\n"+
		"1,100,5.0,1,1,1,1,1,1,1,1,BenchmarkX\n2,100,5.1,1,1,1,1,1,2,1,1,BenchmarkX\n3,100,5.2,1,1000000,1,1,1,1000000,1,1,BenchmarkX\n"), 0o644)
	for _, tc := range []struct {
		args []string
		exit int
		want string
	}{
		{[]string{"ingest", "-o", filepath.Join(dir, "t.csv"), long}, 0,
			long + ":2: $[0]: column benchmark: value of 400012 bytes is longer than the table's limit of 65536 bytes"},
		{[]string{"optimize", pa}, 1, pa + ":4: fork 1000000000 is far beyond the 3 rows"},
		{[]string{"optimize", uopt}, 1, uopt + ":4: "},
	} {
		var out bytes.Buffer
		err := run(append([]string{"benchtrim", "-q"}, tc.args...), &out, &out)
		code := exitCode(err, &out)
		if code != tc.exit || !strings.Contains(out.String(), tc.want) {
			t.Errorf("%v: exit %d, want %d and %q in\n%.2000s", tc.args[:2], code, tc.exit, tc.want, out.String())
		}
	}
}
