// Package ingesttest holds what the format readers' tests share: reading a
// file or bytes into a table with a leak-checked allocator, listing rows,
// report examples, and the fuzzing harness. Only tests import it.
package ingesttest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile"
	"github.com/benchtrim/benchtrim/tablefile/tabletest"
)

// Read runs f.Read on r into a fresh table built in batches of 16 rows (so
// batch boundaries are exercised) with a checked allocator; at the end of
// the test the table is released and the allocator must be empty.
func Read(t testing.TB, f ingest.Format, r io.Reader, src ingest.Source) (*table.Table, *ingest.Summary, error) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	b := table.NewBuilder(mem, 16)
	var rep ingest.Summary
	err := f.Read(r, src, b, &rep)
	tab := b.Finish()
	b.Release()
	t.Cleanup(func() {
		tab.Release()
		mem.AssertSize(t, 0)
	})
	return tab, &rep, err
}

// ReadFile is Read on the file at path, with src.File set to path.
func ReadFile(t testing.TB, f ingest.Format, path string, src ingest.Source) (*table.Table, *ingest.Summary, error) {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	src.File = path
	return Read(t, f, fh, src)
}

// Rows lists the table's rows.
func Rows(t testing.TB, tab *table.Table) []table.Row {
	t.Helper()
	var out []table.Row
	if err := tab.Rows(func(r *table.Row) error { out = append(out, *r); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// Examples joins the report's examples of kind, one per line.
func Examples(rep *ingest.Summary, kind string) string {
	var s []string
	for _, k := range rep.Kinds() {
		if k.Kind == kind {
			for _, e := range k.Examples {
				s = append(s, e.Error())
			}
		}
	}
	return strings.Join(s, "\n")
}

// ReportText is what rep.WriteTo prints.
func ReportText(rep *ingest.Summary) string {
	var sb strings.Builder
	rep.WriteTo(&sb)
	return sb.String()
}

// AddSeeds adds every file matching pattern to the fuzz corpus.
func AddSeeds(f *testing.F, pattern string) {
	files, _ := filepath.Glob(pattern)
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// FuzzOnce reads data with format and fails the test when Read returns an
// error that is not a *ingest.ParseError (in-memory input has no I/O
// errors), rows that break a rule of the table (table.Check) other than
// the level index rule, or a row whose run has no setup. It returns the table (nil after a ParseError) for the caller's
// invariant checks; the table is released when the test ends.
func FuzzOnce(t *testing.T, format ingest.Format, data []byte, file string) *table.Table {
	b := table.NewBuilder(memory.NewGoAllocator(), 256)
	defer b.Release()
	var rep ingest.Summary
	err := format.Read(bytes.NewReader(data), ingest.Source{File: file}, b, &rep)
	if err != nil {
		var pe *ingest.ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("error %v (%T) is not a *ingest.ParseError", err, err)
		}
		return nil
	}
	tab := b.Finish()
	t.Cleanup(tab.Release)
	CheckClean(t, tab)
	// Rows that break a rule of the table must have been skipped; only
	// the level index rule, which needs whole runs, is left to
	// ingest.ReadFiles (as a ParseError).
	if err := tab.Check(); err != nil {
		var ie *table.InvalidError
		if !errors.As(err, &ie) || !strings.Contains(ie.Msg, " is far beyond the ") {
			t.Fatalf("the rows read break a rule of the table: %.300v", err)
		}
	}
	setups := map[table.Key]bool{}
	for _, s := range tab.Setups {
		setups[s.Key] = true
	}
	tab.Rows(func(r *table.Row) error {
		if !setups[table.Key{Project: r.Project, Version: r.Version, Benchmark: r.Benchmark, Params: r.Params, Mode: r.Mode}] {
			t.Fatalf("row without setup: %+v", r)
		}
		return nil
	})
	return tab
}

// ErrReader returns a reader that yields data, then fails with err: a
// read that breaks off partway.
func ErrReader(data string, err error) io.Reader {
	return io.MultiReader(strings.NewReader(data), errReader{err})
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// BenchRead measures f.Read on data (named file), which must give rows
// rows: it reports rows/s, and rows and MB of input per CPU-second
// (cpu-rows/s, cpu-MB/s; see testenv.CPUSeconds).
func BenchRead(b *testing.B, f ingest.Format, data []byte, file string, rows int) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu0 := testenv.CPUSeconds()
	for i := 0; i < b.N; i++ {
		tb := table.NewBuilder(memory.NewGoAllocator(), 0)
		var rep ingest.Summary
		if err := f.Read(bytes.NewReader(data), ingest.Source{File: file}, tb, &rep); err != nil {
			b.Fatal(err)
		}
		tab := tb.Finish()
		if tab.NumRows() != int64(rows) {
			b.Fatalf("%d rows, want %d", tab.NumRows(), rows)
		}
		tab.Release()
		tb.Release()
	}
	cpu := testenv.CPUSeconds() - cpu0
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(rows)*float64(b.N)/cpu, "cpu-rows/s")
	b.ReportMetric(float64(len(data))*float64(b.N)/cpu/1e6, "cpu-MB/s")
}

// CheckClean fails t when a row or setup of tab holds a name that
// ingest.CleanName would change (invalid UTF-8, a control character such
// as a line break) or a mode that is neither "" nor canonical (ingest.Mode
// or one of the modes table.Row.Check accepts).
func CheckClean(t testing.TB, tab *table.Table) {
	t.Helper()
	check := func(what, s string) {
		if c, _, _ := ingest.CleanName(s); c != s {
			t.Fatalf("%s %q is not a clean name", what, s)
		}
	}
	checkKey := func(k table.Key) {
		for _, f := range [...]struct{ what, s string }{{"project", k.Project}, {"version", k.Version},
			{"benchmark", k.Benchmark}, {"params", k.Params}, {"mode", k.Mode}} {
			check(f.what, f.s)
		}
		if m, ok := ingest.Mode(k.Mode); k.Mode != "" && (!ok || m != k.Mode) && (&table.Row{Mode: k.Mode}).Check() != nil {
			t.Fatalf("mode %q is not canonical", k.Mode)
		}
	}
	for _, s := range tab.Setups {
		checkKey(s.Key)
		check("tool version", s.ToolVersion)
		for k, v := range s.Env {
			check("env key", k)
			check("env "+k, v)
		}
	}
	if tab.NumRows() == 0 {
		return
	}
	tab.Rows(func(r *table.Row) error {
		checkKey(table.Key{Project: r.Project, Version: r.Version, Benchmark: r.Benchmark, Params: r.Params, Mode: r.Mode})
		check("metric", r.Metric)
		check("unit", r.Unit)
		return nil
	})
}

// Skipped is an expected kind of skipped rows: one per line listed, each
// example naming file:line, and at least one example containing Msg.
type Skipped struct {
	Kind  string
	Lines []int
	Msg   string
}

// CheckSkipped asserts that rep counts exactly the expected skipped rows of
// every kind, that the examples give their places in file, and that nothing
// else was skipped.
func CheckSkipped(t testing.TB, rep *ingest.Summary, file string, want []Skipped) {
	t.Helper()
	total := 0
	for _, w := range want {
		if got := rep.Count(w.Kind); got != len(w.Lines) {
			t.Errorf("%s: count %d, want %d", w.Kind, got, len(w.Lines))
		}
		ex := Examples(rep, w.Kind)
		for _, l := range w.Lines {
			if place := fmt.Sprintf("%s:%d: ", file, l); !strings.Contains(ex, place) {
				t.Errorf("%s: examples lack %q:\n%s", w.Kind, place, ex)
			}
		}
		if !strings.Contains(ex, w.Msg) {
			t.Errorf("%s: examples lack %q:\n%s", w.Kind, w.Msg, ex)
		}
		total += len(w.Lines)
	}
	if rep.SkippedRows() != total {
		t.Errorf("skipped %d rows, want %d:\n%s", rep.SkippedRows(), total, ReportText(rep))
	}
}

// DiffRows returns "" when want and got hold the same rows in the same
// order, every column equal (NaN equals NaN, so secondary metrics' NaN
// ns_per_op compare), or else the count or the first row that differs.
func DiffRows(want, got []table.Row) string {
	if len(want) != len(got) {
		return fmt.Sprintf("%d rows, want %d", len(got), len(want))
	}
	same := func(a, b float64) bool { return a == b || a != a && b != b }
	for i := range want {
		w, g := want[i], got[i]
		if !same(w.Value, g.Value) || !same(w.NsPerOp, g.NsPerOp) {
			return fmt.Sprintf("row %d: %+v\nwant %+v", i, g, w)
		}
		w.Value, w.NsPerOp, g.Value, g.NsPerOp = 0, 0, 0, 0
		if w != g {
			return fmt.Sprintf("row %d: %+v\nwant %+v", i, g, w)
		}
	}
	return ""
}

// CheckTableFiles writes tab as each canonical table file (.arrow,
// .parquet, and .csv with its .setups.csv sidecar) with tabletest.WriteFile,
// reads it back with tablefile.ReadFile and fails the test unless every row
// (all columns, DiffRows) and every setup (reflect.DeepEqual) is the same.
func CheckTableFiles(t *testing.T, tab *table.Table) {
	t.Helper()
	want := Rows(t, tab)
	if len(want) == 0 {
		t.Fatal("CheckTableFiles: the table holds no rows")
	}
	for _, ext := range []string{".arrow", ".parquet", ".csv"} {
		path := filepath.Join(t.TempDir(), "table"+ext)
		if err := tabletest.WriteFile(path, tab); err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		back, err := tablefile.ReadFile(path, mem)
		if err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		if d := DiffRows(want, Rows(t, back)); d != "" {
			t.Errorf("%s: rows differ after the round trip: %s", ext, d)
		}
		if !reflect.DeepEqual(tab.Setups, back.Setups) {
			t.Errorf("%s: setups differ after the round trip\ngot  %+v\nwant %+v", ext, back.Setups, tab.Setups)
		}
		back.Release()
		mem.AssertSize(t, 0)
	}
}
