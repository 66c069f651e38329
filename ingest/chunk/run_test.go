package chunk

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile"
	"github.com/benchtrim/benchtrim/tablefile/tabletest"
)

// call is what one run of Run's analysis saw.
type call struct {
	ch   Chunk
	rows []int64
}

// runCalls runs Run on in with an analysis recording its calls, merged
// by concatenation.
func runCalls(t *testing.T, in Inputs, maxRows int64) []call {
	t.Helper()
	got, release, err := Run(in, maxRows, func(tabs []*table.Table, ch Chunk) ([]call, error) {
		c := call{ch: ch}
		for _, tab := range tabs {
			c.rows = append(c.rows, tab.NumRows())
		}
		return []call{c}, nil
	}, func(parts [][]call) ([]call, error) {
		var all []call
		for _, p := range parts {
			all = append(all, p...)
		}
		return all, nil
	})
	defer release()
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestRun: an input within the bound is one run on the whole table; a
// larger one runs per chunk of whole benchmarks, told the input's runs;
// two sources past the bound together are cut jointly, a table each.
func TestRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in.parquet")
	if err := tabletest.WriteFile(path, testTable(t, 25)); err != nil {
		t.Fatal(err)
	}
	one := []Source{{Files: []string{path}}}

	if got := runCalls(t, Inputs{Sources: one}, 0); len(got) != 1 || got[0].ch.N != 0 || got[0].ch.All != nil || got[0].rows[0] != 100 {
		t.Errorf("no bound: calls %+v, want one on the 100 rows", got)
	}
	keep := &table.Filter{}
	if got := runCalls(t, Inputs{Sources: one, Keep: keep}, 50); len(got) != 1 || got[0].ch.N != 0 || got[0].rows[0] != 50 {
		t.Errorf("Keep, bound 50: calls %+v, want one on the 50 primary rows", got)
	}
	var log strings.Builder
	got := runCalls(t, Inputs{Sources: one, Keep: keep, Log: &log, Name: "x"}, 30)
	said := "x: the input's 50 rows are more than --max-rows 30: analysing 2 chunks of benchmarks one at a time (scratch file in $TMPDIR)\n"
	if len(got) != 2 || log.String() != said {
		t.Fatalf("Keep, bound 30: calls %+v, Log %q; want 2 chunks of the 50 rows, Log %q", got, log.String(), said)
	}
	for i, c := range got {
		if c.ch.I != i+1 || c.ch.N != 2 || len(c.ch.All) != 2 || c.rows[0] != 25 {
			t.Errorf("Keep, bound 30: call %d %+v, want chunk %d/2 of 25 rows told of 2 runs", i, c, i+1)
		}
	}

	two := []Source{{Files: []string{path}}, {Files: []string{path}}}
	if got := runCalls(t, Inputs{Sources: two, Group: tablefile.NameGroupOf}, 200); len(got) != 1 || len(got[0].rows) != 2 || got[0].ch.N != 0 {
		t.Errorf("two sources, bound 200: calls %+v, want one on both tables", got)
	}
	// Each source is held (100 rows), the two are over the bound.
	log.Reset()
	got = runCalls(t, Inputs{Sources: two, Group: tablefile.NameGroupOf, Log: &log, Name: "x"}, 150)
	said = "x: the inputs' 200 rows are more than --max-rows 150: analysing 2 chunks of benchmarks one at a time (scratch files in $TMPDIR)\n"
	if len(got) != 2 || log.String() != said {
		t.Fatalf("two sources, bound 150: calls %+v, Log %q; want 2 chunks, Log %q", got, log.String(), said)
	}
	for i, c := range got {
		if c.ch.N != 2 || len(c.rows) != 2 || c.rows[0] != 50 || c.rows[1] != 50 {
			t.Errorf("two sources, bound 150: call %d %+v, want a benchmark's 50 rows of each", i, c)
		}
	}
}
