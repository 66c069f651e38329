package duet

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
)

const header = "suite,benchmark,type,order,pair,runid,iteration,iteration_time_ns,iteration_start_ns,iteration_end_ns,date,hostname,lscpu,meminfo,uname\n"

// TestBadRows: every kind of bad row is skipped and counted at its line,
// the good rows are kept, and the suspicious ones are kept and warned about.
func TestBadRows(t *testing.T) {
	const art = ",d,cirrus1,c,m,u\n"
	doc := header +
		"dacapo,h2,duet,AB,A,0,1,10,100,110" + art + // 2 good
		"dacapo,h2,duet,AB,B,0,1,10,105,115" + art + // 3 good
		"dacapo,h2,duet,AB,A,0,2,10,120,110" + art + // 4 end before start
		"dacapo,h2,duet,AB,B,0,2,10,,130" + art + // 5 missing timestamp
		"dacapo,h2,duet,AB,C,0,2,10,120,130" + art + // 6 pair C
		"dacapo,h2,duet,AB,A,0,1,11,100,111" + art + // 7 duplicate of line 2
		"dacapo,h2,aduet,AB,A,0,3,10,140,150" + art + // 8 unknown type
		"dacapo,h2,duet,AB,A,0,3,fast,140,150" + art + // 9 non-numeric time
		"dacapo,h2,duet,AB,A,0,NA,10,140,150" + art + // 10 pandas NA token in a number
		"dacapo,h2,duet,AB,A,1,1,10,200,210,d,cirrus1,NaN,m,u\n" + // 11 NA artifact (kept as ""), and run 1 has pair A only
		"dacapo,h2,duet,AB,A,0,3,10,140\n" + // 12 field count
		"dacapo,h2,duet,AB,A,-1,3,10,140,150" + art + // 13 negative runid
		"dacapo,h2,duet,AB,A,0,3,0,140,140" + art + // 14 zero time
		"dacapo,h2,duet,AB,A,0,1.5,10,140,150" + art + // 15 fractional iteration
		"dacapo,,duet,AB,A,0,4,10,140,150" + art + // 16 empty benchmark
		"dacapo,h2,duet,XY,B,0,5,10,160,170" + art + // 17 order XY (kept, warned)
		"dacapo,h2,duet,AB,A,0,5,10,160,170" + art + // 18 good
		"dacapo,h2,duet,AB,A,0,6,10,180,195" + art // 19 kept: 15 ≠ 10 but within 1 µs
	tab, rep, err := readCSV(t, doc)
	if err != nil {
		t.Fatal(err)
	}
	ingesttest.CheckSkipped(t, rep, "d.csv", []ingesttest.Skipped{
		{Kind: kindEndBeforeStart, Lines: []int{4}, Msg: "iteration_end_ns 110 is before iteration_start_ns 120"},
		{Kind: kindMissingValue, Lines: []int{5, 10}, Msg: `column iteration_start_ns is "": missing`},
		{Kind: kindBadPair, Lines: []int{6}, Msg: `pair "C" is not A or B`},
		{Kind: kindDuplicate, Lines: []int{7}, Msg: "dacapo h2 run 0 pair A iteration 1 already read at d.csv:2"},
		{Kind: ingest.KindUnknownMode, Lines: []int{8}, Msg: `type "aduet" is not seqn, syncduet or duet`},
		{Kind: kindBadNumber, Lines: []int{9, 15}, Msg: `column iteration_time_ns: "fast" is not a number`},
		{Kind: kindFieldCount, Lines: []int{12}, Msg: "row has 9 fields, want 15"},
		{Kind: kindOutOfRange, Lines: []int{13}, Msg: "runid -1"},
		{Kind: "zero time", Lines: []int{14}, Msg: "iteration_time_ns 0"},
		{Kind: kindEmptyName, Lines: []int{16}, Msg: `benchmark ""`},
	})
	if ex := ingesttest.Examples(rep, kindBadNumber); !strings.Contains(ex, `d.csv:15: column iteration: "1.5" is not an integer`) {
		t.Errorf("fractional iteration: %s", ex)
	}
	if ex := ingesttest.Examples(rep, kindMissingValue); !strings.Contains(ex, `d.csv:10: column iteration is "NA": missing`) {
		t.Errorf("NA token: %s", ex)
	}
	for kind, want := range map[string]string{
		kindNAArtifact: `d.csv:11: artifact lscpu is "NaN", which pandas reads as missing; stored as ""`,
		kindOnePair:    "d.csv:11: dacapo h2 (duet) run 1 of instance 2 has pair A only",
		kindOrder:      `d.csv:17: order "XY" is not AB, BA or None`,
	} {
		if ex := ingesttest.Examples(rep, kind); rep.Count(kind) != 1 || !strings.Contains(ex, want) {
			t.Errorf("%s: %d, %q; want 1, %q", kind, rep.Count(kind), ex, want)
		}
	}
	if rep.Count(kindTimeMismatch) != 0 {
		t.Errorf("a 5 ns difference is within 1 µs:\n%s", ingesttest.ReportText(rep))
	}
	var lines []int64
	for _, r := range ingesttest.Rows(t, tab) {
		lines = append(lines, r.Line)
	}
	if want := []int64{2, 3, 11, 17, 18, 19}; len(lines) != len(want) || lines[0] != 2 || lines[2] != 11 || lines[5] != 19 {
		t.Errorf("kept lines %v, want %v", lines, want)
	}
	if env := tab.Setups[0].Env; env["instance.2.lscpu"] != "" || env["instance.2.hostname"] != "cirrus1" {
		t.Errorf("NA artifact: env %v", env)
	}
}

// TestTimeMismatch: iteration_time_ns and end − start more than 1 µs
// apart is kept and warned about.
func TestTimeMismatch(t *testing.T) {
	_, rep, err := readCSV(t, header+"speccpu,x,seqn,None,A,0,0,1000,0,5000,d,h,c,m,u\nspeccpu,x,seqn,None,B,0,0,1000,0,1000,d,h,c,m,u\n")
	if err != nil {
		t.Fatal(err)
	}
	if ex := ingesttest.Examples(rep, kindTimeMismatch); rep.Count(kindTimeMismatch) != 1 || !strings.Contains(ex, "d.csv:2: end − start = 5000 ns, iteration_time_ns = 1000") {
		t.Errorf("report:\n%s", ingesttest.ReportText(rep))
	}
}

// TestBadHeaders: what stops the reader, at line 1.
func TestBadHeaders(t *testing.T) {
	for _, tc := range []struct{ doc, msg string }{
		{"", "d.csv: empty file: no header line"},
		{"suite,benchmark,type,pair,runid,iteration,iteration_time_ns\n", "d.csv:1: header: missing columns iteration_start_ns, iteration_end_ns"},
		{strings.ReplaceAll(header, ",", ";"), "d.csv:1: header separated by ';', not ','"},
		{strings.TrimSuffix(header, "\n") + ",pair\n", `d.csv:1: header: column "pair" appears twice (fields 5 and 16)`},
		{"\"suite,benchmark\n", "d.csv:1: header: extraneous or missing \" in quoted-field"},
	} {
		_, _, err := readCSV(t, tc.doc)
		var pe *ingest.ParseError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: error %v, want a ParseError %q", tc.doc, err, tc.msg)
		}
	}
	// No artifact columns: read, one instance, warned once.
	tab, rep, err := readCSV(t, "suite,benchmark,type,pair,runid,iteration,iteration_time_ns,iteration_start_ns,iteration_end_ns\n"+
		"renaissance,als,duet,A,0,0,5,10,15\nrenaissance,als,duet,B,0,0,5,11,16\n")
	if err != nil || tab.NumRows() != 2 || rep.Count(kindNoArtifacts) != 1 || len(rep.Kinds()) != 1 {
		t.Errorf("no artifacts: %v, %d rows\n%s", err, tab.NumRows(), ingesttest.ReportText(rep))
	}
	if o := tab.Setups[0].Env["run.1.1.order"]; o != "None" {
		t.Errorf("no order column: order %q, want None", o)
	}
}

// TestBadDirectory: in a duetbench directory, a result that cannot be read
// is left out and counted with its place; results of unknown suites and
// other files are ignored with a warning; old DaCapo results without a
// date artifact cannot be placed in time and are skipped.
func TestBadDirectory(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "artifacts", "hostname"), "cirrus1\n")
	write(t, filepath.Join(dir, "renaissance.als.0.duet.AB.A.results.json"), `{"data": {"als": {"results": [`)
	write(t, filepath.Join(dir, "renaissance.als.0.duet.AB.B.results.json"), renaissanceJSON("als", 1e12, [][2]int64{{5, 10}}))
	write(t, filepath.Join(dir, "renaissance.als.1.duet.AB.A.results.json"), `{"data": {"als": {"results": [{"duration_ns": 5, "uptime_ns": 1}]}}}`)
	write(t, filepath.Join(dir, "speccpu.505_mcf_r.0.seqn.None.A.result", "notes.txt"), "no log\n")
	write(t, filepath.Join(dir, "debug.x.0.seqn.None.A.out"), "")
	write(t, filepath.Join(dir, "dacapo.fop.0.seqn.None.A.results.csv"), "iteration_time_ns,total_ms\n100,5\n")
	write(t, filepath.Join(dir, "scalabench.kiama.0.seqn.None.A.results.csv"), "iteration_time_ns,total_ms,start_unix\n100,5,abc\n")

	tab, rep := readDir(t, dir, 0)
	if tab.NumRows() != 1 {
		t.Errorf("%d rows, want the one iteration of run 0 pair B", tab.NumRows())
	}
	for kind, want := range map[string]string{
		kindBadResult:    "renaissance.als.0.duet.AB.A.results.json: not a Renaissance JSON result: unexpected EOF",
		kindUnknownSuite: `debug.x.0.seqn.None.A.out: suite "debug" has no reader`,
		kindOldDaCapo:    "dacapo.fop.0.seqn.None.A.results.csv:2: start total_ms = 5 ms is harness time, and the date artifact is missing or unreadable",
		kindBadNumber:    `scalabench.kiama.0.seqn.None.A.results.csv:2: start_unix: "abc" is not a number`,
		kindOnePair:      "renaissance als (duet) run 0 of instance 1 has pair B only",
	} {
		if ex := ingesttest.Examples(rep, kind); !strings.Contains(ex, want) {
			t.Errorf("%s: examples %q lack %q", kind, ex, want)
		}
	}
	if n := rep.Count(kindBadResult); n != 3 {
		t.Errorf("%d unreadable results, want 3 (bad JSON, no start_unix_ms, no *002.log):\n%s", n, ingesttest.ReportText(rep))
	}
	ex := ingesttest.Examples(rep, kindBadResult)
	for _, want := range []string{"renaissance.als.1.duet.AB.A.results.json:$.environment.vm.start_unix_ms: missing",
		"speccpu.505_mcf_r.0.seqn.None.A.result: a SPEC CPU result directory holds one *002.log, found 0"} {
		if !strings.Contains(ex, want) {
			t.Errorf("examples lack %q:\n%s", want, ex)
		}
	}
}
