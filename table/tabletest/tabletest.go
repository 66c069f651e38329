// Package tabletest has test helpers for packages that read tables.
package tabletest

import (
	"testing"

	"github.com/benchtrim/benchtrim/table"
)

// Spooled spools tab (a table.Spool in a test temporary directory, closed
// when the test ends) and cuts it into chunks of at most NumRows/n rows,
// failing the test when that gives fewer than n chunks: the parts of a
// chunked run for tests that compare Merge of the chunks' reports with
// the whole run.
func Spooled(tb testing.TB, tab *table.Table, n int) (*table.Spool, [][]int) {
	tb.Helper()
	sp, err := table.NewSpool(tb.TempDir(), nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { sp.Close() })
	for _, rec := range tab.Records {
		if err := sp.Add(rec); err != nil {
			tb.Fatal(err)
		}
	}
	chunks := sp.Chunks(tab.NumRows()/int64(n), nil)
	if len(chunks) < n {
		tb.Fatalf("%d chunks, want at least %d", len(chunks), n)
	}
	return sp, chunks
}
