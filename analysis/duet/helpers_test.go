package duet

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/table"
)

// readCSV reads a CSV file with a header into maps keyed by column name.
func readCSV(t testing.TB, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []map[string]string
	for _, r := range rows[1:] {
		m := map[string]string{}
		for j, h := range rows[0] {
			m[h] = r[j]
		}
		out = append(out, m)
	}
	return out
}

func num(t testing.TB, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("number %q: %v", s, err)
	}
	return v
}

// ns parses an integer or float nanosecond value.
func ns(t testing.TB, s string) int64 {
	t.Helper()
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v
	}
	return int64(math.Round(num(t, s)))
}

// loadFixture builds a canonical table from a duetprocess per-iteration CSV
// (FORMAT.md §A3) with the table mapping of format/duet: project = suite,
// mode = type, pair, ns_per_op = iteration_time_ns, instance = index of the
// distinct (date, hostname, lscpu, meminfo, uname, environment) in order of
// appearance, fork = runid + 1, iteration = recorded + offset (1 for the
// 0-based renaissance and speccpu), Setup.Env iteration_offset and
// instance.N.environment. It is the test-only stand-in for the reader.
func loadFixture(t testing.TB, path string) *table.Table {
	t.Helper()
	rows := readCSV(t, path)
	b := table.NewBuilder(memory.DefaultAllocator, 0)
	defer b.Release()
	instances := map[string]int{}
	setups := map[table.Key]*table.Setup{}
	for i, r := range rows {
		art := r["date"] + "\x00" + r["hostname"] + "\x00" + r["lscpu"] + "\x00" + r["meminfo"] + "\x00" + r["uname"] + "\x00" + r["environment"]
		inst, ok := instances[art]
		if !ok {
			inst = len(instances) + 1
			instances[art] = inst
		}
		offset := 0
		if r["suite"] == "renaissance" || r["suite"] == "speccpu" {
			offset = 1
		}
		k := table.Key{Project: r["suite"], Benchmark: r["benchmark"], Mode: r["type"]}
		s := setups[k]
		if s == nil {
			s = &table.Setup{Key: k, Tool: "duet", Env: map[string]string{"iteration_offset": strconv.Itoa(offset)}}
			setups[k] = s
		}
		s.Env["instance."+strconv.Itoa(inst)+".environment"] = r["environment"]
		s.Env["instance."+strconv.Itoa(inst)+".hostname"] = r["hostname"]
		it, _ := strconv.Atoi(r["iteration"])
		run, _ := strconv.Atoi(r["runid"])
		v := num(t, r["iteration_time_ns"])
		row := table.Row{
			Project: r["suite"], Benchmark: r["benchmark"], Mode: r["type"], Unit: "ns",
			Value: v, NsPerOp: v, Count: 1,
			Instance: int32(inst), Trial: 1, Fork: int32(run + 1), Iteration: int32(it + offset), Slice: 1,
			StartNs: ns(t, r["iteration_start_ns"]), EndNs: ns(t, r["iteration_end_ns"]), HasTime: true,
			Pair: r["pair"], Source: filepath.Base(path), Line: int64(i + 2),
		}
		if err := b.Append(&row); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range setups {
		if err := b.AddSetup(*s); err != nil {
			t.Fatal(err)
		}
	}
	tb := b.Finish()
	t.Cleanup(tb.Release)
	return tb
}

// checkClose fails t unless got is within tol of want, relatively
// (|got − want| <= tol·max(1, |want|)).
func checkClose(t testing.TB, name string, got, want, tol float64) {
	t.Helper()
	if math.IsNaN(want) {
		if !math.IsNaN(got) {
			t.Errorf("%s = %v, want NaN", name, got)
		}
		return
	}
	if d := math.Abs(got - want); !(d <= tol*math.Max(1, math.Abs(want))) {
		t.Errorf("%s = %.17g, want %.17g (diff %.3g, tol %.3g)", name, got, want, d, tol)
	}
}

// checkNs fails t unless the timestamps differ by at most 1 µs.
func checkNs(t testing.TB, name string, got int64, want float64) {
	t.Helper()
	if d := math.Abs(float64(got) - want); !(d <= 1000) {
		t.Errorf("%s = %d, want %.0f (diff %.0f ns > 1 µs)", name, got, want, d)
	}
}

var fixtures = []string{"chi-square_duet_2runs", "chi-square_duet_seqn_2runs_2022-05-15"}

// loadGroups reads a fixture through fromTable with the default options.
func loadGroups(t testing.TB, name string) []group {
	t.Helper()
	ld, err := fromTable(loadFixture(t, filepath.Join("testdata", "fixtures", name+".csv")), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(ld.warnings) > 0 {
		t.Fatalf("%s: %v", name, ld.warnings)
	}
	return ld.groups
}

func groupOf(t testing.TB, gs []group, typ string) *group {
	t.Helper()
	for i := range gs {
		if gs[i].key.Type == typ {
			return &gs[i]
		}
	}
	t.Fatalf("no %s group", typ)
	return nil
}

func expected(t testing.TB, fixture, what string) []map[string]string {
	return readCSV(t, filepath.Join("testdata", "expected", fixture+"."+what+".csv"))
}
