package duet

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/table"
)

func readCSV(t *testing.T, doc string) (*table.Table, *ingest.Summary, error) {
	t.Helper()
	return ingesttest.Read(t, format{}, strings.NewReader(doc), ingest.Source{File: "d.csv"})
}

// rowKey is what identifies a row for the comparisons below.
func rowKey(r *table.Row) string {
	return fmt.Sprintf("%s/%s/%s %s inst %d fork %d it %d", r.Project, r.Benchmark, r.Mode, r.Pair, r.Instance, r.Fork, r.Iteration)
}

// TestMapping reads testdata/mixed.csv (columns in another order than
// duetprocess writes them, no environment column, three hosts, DaCapo
// 1-based and Renaissance 0-based) and checks every mapped column and the
// setups' Env.
func TestMapping(t *testing.T) {
	tab, rep, err := ingesttest.ReadFile(t, format{}, "testdata/mixed.csv", ingest.Source{})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Empty() {
		t.Errorf("report:\n%s", ingesttest.ReportText(rep))
	}
	rows := ingesttest.Rows(t, tab)
	if len(rows) != 10 {
		t.Fatalf("%d rows, want 10", len(rows))
	}
	want := []struct {
		key        string
		value      float64
		start, end int64
		line       int64
	}{
		{"dacapo/h2/duet A inst 1 fork 1 it 1", 1000, 1700000000000000000, 1700000000000001000, 2},
		{"dacapo/h2/duet B inst 1 fork 1 it 1", 1100, 1700000000000000100, 1700000000000001200, 3},
		{"dacapo/h2/duet A inst 1 fork 1 it 2", 900, 1700000000000001100, 1700000000000002000, 4},
		{"dacapo/h2/duet B inst 1 fork 1 it 2", 1000, 1700000000000001300, 1700000000000002300, 5},
		// 1.7e+18 and 1.700000000000002e+18 as pandas writes floats: the
		// nearest float64 is rounded to int64 (2048 = 8·256, the float spacing).
		{"renaissance/als/seqn A inst 2 fork 1 it 1", 2000.4, 1700000000000000000, 1700000000000002048, 6},
		{"renaissance/als/seqn B inst 2 fork 1 it 1", 2100, 1700000000000010000, 1700000000000012100, 7},
		{"renaissance/als/syncduet A inst 2 fork 2 it 1", 2000, 1700000000000020000, 1700000000000022000, 8},
		{"renaissance/als/syncduet B inst 2 fork 2 it 1", 2050, 1700000000000020000, 1700000000000022050, 9},
		{"dacapo/h2/duet A inst 3 fork 1 it 1", 1000, 1700000000000100000, 1700000000000101000, 10},
		{"dacapo/h2/duet B inst 3 fork 1 it 1", 1000, 1700000000000100000, 1700000000000101000, 11},
	}
	for i, w := range want {
		r := &rows[i]
		if got := rowKey(r); got != w.key {
			t.Errorf("row %d: %s, want %s", i, got, w.key)
		}
		if r.Value != w.value || r.NsPerOp != w.value || !r.HasTime || r.StartNs != w.start || r.EndNs != w.end || r.Line != w.line {
			t.Errorf("row %d: value %v ns_per_op %v time %v %d–%d line %d, want %v, %d–%d line %d",
				i, r.Value, r.NsPerOp, r.HasTime, r.StartNs, r.EndNs, r.Line, w.value, w.start, w.end, w.line)
		}
		if r.Version != "" || r.Params != "" || r.Metric != table.Primary || r.Unit != "ns" || r.Count != 1 || r.Trial != 1 || r.Slice != 1 || r.Source != "testdata/mixed.csv" {
			t.Errorf("row %d: %+v", i, r)
		}
	}
	env := func(project, mode string) map[string]string {
		s := tab.Setup(table.Key{Project: project, Benchmark: map[string]string{"dacapo": "h2", "renaissance": "als"}[project], Mode: mode})
		if s == nil || s.Tool != "duet" {
			t.Fatalf("setup of %s %s: %+v", project, mode, s)
		}
		return s.Env
	}
	checkEnv := func(got map[string]string, want map[string]string) {
		t.Helper()
		if len(got) != len(want) {
			t.Errorf("env has %d keys, want %d: %v", len(got), len(want), got)
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("env %s = %q, want %q", k, got[k], v)
			}
		}
	}
	checkEnv(env("dacapo", "duet"), map[string]string{
		"iteration_offset":    "0",
		"instance.1.date":     "Mon Jun 6 10:00:00 UTC 2022",
		"instance.1.hostname": "cirrus03", "instance.1.lscpu": "Xeon", "instance.1.meminfo": "64 GB",
		"instance.1.uname": "Linux cirrus03", "instance.1.environment": "bare-metal",
		"instance.3.date": "", "instance.3.hostname": "teaching-vm", "instance.3.lscpu": "", "instance.3.meminfo": "",
		"instance.3.uname": "", "instance.3.environment": "shared-vm",
		"run.1.1.order": "AB", "run.3.1.order": "BA",
	})
	inst2 := map[string]string{
		"instance.2.date": "Tue Jul 12 08:00:00 UTC 2022", "instance.2.hostname": "ip-172-31-1-1", "instance.2.lscpu": "EPYC",
		"instance.2.meminfo": "4 GB", "instance.2.uname": "Linux ip-172-31-1-1", "instance.2.environment": "AWS t3.medium",
	}
	seqn := map[string]string{"iteration_offset": "1", "run.2.1.order": "None"}
	sync := map[string]string{"iteration_offset": "1", "run.2.2.order": "BA"}
	for k, v := range inst2 {
		seqn[k], sync[k] = v, v
	}
	checkEnv(env("renaissance", "seqn"), seqn)
	checkEnv(env("renaissance", "syncduet"), sync)
	if err := tab.Check(); err != nil {
		t.Error(err)
	}
}

// TestEnvironmentColumn: a CSV with an environment column uses it, even
// empty, instead of deriving one from the hostname; an iteration index 0
// in a dacapo key makes its offset 1.
func TestEnvironmentColumn(t *testing.T) {
	const doc = "suite,benchmark,type,order,pair,runid,iteration,iteration_time_ns,iteration_start_ns,iteration_end_ns,date,hostname,lscpu,meminfo,uname,environment\n" +
		"dacapo,fop,seqn,None,A,0,0,10,100,110,d,cirrus1,c,m,u,laptop-test\n" +
		"dacapo,fop,seqn,None,B,0,0,10,200,210,d,cirrus1,c,m,u,laptop-test\n" +
		"dacapo,fop,seqn,None,A,0,1,10,300,310,d,cirrus2,c,m,u,\n" +
		"dacapo,fop,seqn,None,B,0,1,10,400,410,d,cirrus2,c,m,u,\n"
	tab, rep, err := readCSV(t, doc)
	if err != nil || !rep.Empty() {
		t.Fatalf("%v\n%s", err, ingesttest.ReportText(rep))
	}
	s := tab.Setups[0]
	for k, v := range map[string]string{"iteration_offset": "1", "instance.1.environment": "laptop-test", "instance.2.environment": ""} {
		if s.Env[k] != v {
			t.Errorf("%s = %q, want %q", k, s.Env[k], v)
		}
	}
	var its []int32
	for _, r := range ingesttest.Rows(t, tab) {
		its = append(its, r.Iteration)
	}
	if fmt.Sprint(its) != "[1 1 2 2]" {
		t.Errorf("iterations %v, want [1 1 2 2] (recorded 0, 0, 1, 1 + offset 1)", its)
	}
}

// TestSniff checks detection on the header as duetprocess writes it and
// reordered, and that other formats' headers are not taken.
func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		head   string
		sniff  bool
		likely int
	}{
		{"suite,benchmark,type,order,pair,runid,iteration,iteration_time_ns,iteration_start_ns,iteration_end_ns,date\n", true, 2},
		{"\ufeffpair,suite,benchmark,runid,iteration,type,iteration_time_ns,iteration_start_ns,iteration_end_ns\r\n", true, 2},
		{"suite;benchmark;type;pair;runid;iteration;iteration_time_ns;iteration_start_ns;iteration_end_ns\n", false, 2},
		{"benchmark,runid,pair,iteration,epoch_start_ms,iteration_time_ns,machine,provider,jdk,jdk_version\n", false, 2},
		{"project;commit;benchmark;params;instance;trial;fork;iteration;mode;unit;value_count;value\n", false, 0},
	} {
		if got := (format{}).Sniff([]byte(tc.head)); got != tc.sniff {
			t.Errorf("Sniff(%q) = %v", tc.head, got)
		}
		if got := (format{}).Likely([]byte(tc.head)); got != tc.likely {
			t.Errorf("Likely(%q) = %d, want %d", tc.head, got, tc.likely)
		}
	}
}

// TestReadFilesDirectory: ingest.ReadFiles reads a duetbench directory
// given as a path (detected, and with --format duet), numbers instances
// across the paths of one call, and refuses a directory that is not one.
func TestReadFilesDirectory(t *testing.T) {
	dir := t.TempDir()
	a := writeInvocation(t, filepath.Join(dir, "runs", "a"), "cirrus01", "Sun May 15 07:32:04 PM CEST 2022")
	b := writeInvocation(t, filepath.Join(dir, "runs", "b"), "ip-10-0-0-1", "Mon Jun  6 10:00:00 UTC 2022")
	for _, format := range []string{"", "duet"} {
		tab, rep, files, err := ingest.ReadFiles([]string{a, b}, ingest.ReadOptions{Formats: alone, Format: format})
		if err != nil {
			t.Fatal(err)
		}
		if files[0].Format != "duet" || files[0].Rows != 12 || files[1].Rows != 12 {
			t.Errorf("files %+v", files)
		}
		if rep.Count(ingest.KindPooledRuns) != 0 {
			t.Errorf("pooled runs:\n%s", ingesttest.ReportText(rep))
		}
		insts := map[int32]int{}
		tab.Rows(func(r *table.Row) error { insts[r.Instance]++; return nil })
		if insts[1] != 12 || insts[2] != 12 {
			t.Errorf("rows per instance %v, want 12 of instance 1 (a) and 12 of 2 (b)", insts)
		}
		s := tab.Setup(table.Key{Project: "renaissance", Benchmark: "chi-square", Mode: "duet"})
		if s == nil || s.Env["instance.1.environment"] != "bare-metal" || s.Env["instance.2.environment"] != "AWS t3.medium" {
			t.Errorf("setup %+v", s)
		}
		tab.Release()
	}
	// The parent of both directories reads as one input, instances 1 and 2.
	tab, _, _, err := ingest.ReadFiles([]string{filepath.Join(dir, "runs")}, ingest.ReadOptions{Formats: alone})
	if err != nil {
		t.Fatal(err)
	}
	if n := tab.NumRows(); n != 24 {
		t.Errorf("parent directory: %d rows, want 24", n)
	}
	tab.Release()

	// A folder holding a duetbench directory and anything else is not one.
	os.WriteFile(filepath.Join(dir, "runs", "notes.json"), []byte("[]"), 0o644)
	if (format{}).SniffDir(filepath.Join(dir, "runs")) {
		t.Error("a folder with a duetbench directory and a file is taken for a duet data set")
	}

	other := filepath.Join(dir, "other")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, "x.json"), []byte("[]"), 0o644)
	_, _, _, err = ingest.ReadFiles([]string{other}, ingest.ReadOptions{Formats: alone})
	if err == nil || !strings.Contains(err.Error(), other+": is a directory, not an output directory of duet") {
		t.Errorf("plain directory: %v", err)
	}
	_, _, _, err = ingest.ReadFiles([]string{other}, ingest.ReadOptions{Formats: alone, Format: "duet"})
	if err == nil || !strings.Contains(err.Error(), other+": not a duetbench output directory") {
		t.Errorf("plain directory with --format duet: %v", err)
	}
}

// alone is the format list of this package's ReadFiles tests: duet only.
var alone = []ingest.Format{format{}}

// TestEnvHelpers reads the setups of testdata/mixed.csv through the
// exported Env accessors.
func TestEnvHelpers(t *testing.T) {
	tab, _, err := ingesttest.ReadFile(t, format{}, "testdata/mixed.csv", ingest.Source{})
	if err != nil {
		t.Fatal(err)
	}
	dacapo := tab.Setup(table.Key{Project: "dacapo", Benchmark: "h2", Mode: "duet"})
	seqn := tab.Setup(table.Key{Project: "renaissance", Benchmark: "als", Mode: "seqn"})
	if o, ok := iterationOffset(dacapo); o != 0 || !ok {
		t.Errorf("dacapo offset %d %v", o, ok)
	}
	if o, ok := iterationOffset(seqn); o != 1 || !ok {
		t.Errorf("renaissance offset %d %v", o, ok)
	}
	if _, ok := iterationOffset(&table.Setup{}); ok {
		t.Error("offset of a setup without one")
	}
	if e := instanceEnvironment(dacapo, 3); e != "shared-vm" {
		t.Errorf("instance 3 environment %q", e)
	}
	if o := dacapo.Env[runOrderEnvKey(1, 1)]; o != "AB" {
		t.Errorf("run 1 of instance 1 order %q", o)
	}
	if h := seqn.Env[instanceEnvKey(2, "hostname")]; h != "ip-172-31-1-1" {
		t.Errorf("hostname %q", h)
	}
}
