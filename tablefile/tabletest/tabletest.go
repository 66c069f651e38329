// Package tabletest has test helpers for packages that read tables.
package tabletest

import (
	"os"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/ipc"

	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile"
)

// WriteFile writes tab to path (format by extension: .arrow, .parquet,
// .csv with its setups sidecar) through tablefile.Stream with default
// options, as the CLI's ingest writes a table: the file every reader of
// tables meets.
func WriteFile(path string, tab *table.Table) error {
	return tablefile.Stream(path, tablefile.WriteOptions{}, func(write func(arrow.Record) error) ([]table.Setup, error) {
		for _, r := range tab.Records {
			if err := write(r); err != nil {
				return nil, err
			}
		}
		return tab.Setups, nil
	})
}

// Spooled spools tab (a tablefile.Spool in a test temporary directory, closed
// when the test ends) and cuts it into chunks of at most NumRows/n rows,
// failing the test when that gives fewer than n chunks: the parts of a
// chunked run for tests that compare Merge of the chunks' reports with
// the whole run.
func Spooled(tb testing.TB, tab *table.Table, n int) (*tablefile.Spool, [][]int) {
	tb.Helper()
	sp, err := tablefile.NewSpool(tb.TempDir(), nil)
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

// RunChunks reads each chunk of sp (with the setups of tab) and runs run
// on it with all, the runs of the whole spool (what an analysis of one
// chunk is told of the input), returning the chunks' reports in order.
func RunChunks[R any](tb testing.TB, sp *tablefile.Spool, chunks [][]int, tab *table.Table, run func(sub *table.Table, all []table.Key) (R, error)) []R {
	tb.Helper()
	var parts []R
	for i, ch := range chunks {
		sub, err := sp.Read(ch, tab.Setups)
		if err != nil {
			tb.Fatal(err)
		}
		r, err := run(sub, sp.Runs())
		sub.Release()
		if err != nil {
			tb.Fatalf("chunk %d: %v", i+1, err)
		}
		parts = append(parts, r)
	}
	return parts
}

// Column is a column of an Arrow IPC file: its name and type, "string"
// for utf8 and dictionary-encoded utf8, list<T> for a list of T, else
// Arrow's name of the type (int32, float64, …).
type Column struct {
	Name, Type string
}

// IPCColumns reads the schema of the Arrow IPC file at path, failing the
// test when it does not open.
func IPCColumns(tb testing.TB, path string) []Column {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	defer r.Close()
	var cols []Column
	for _, fl := range r.Schema().Fields() {
		cols = append(cols, Column{fl.Name, typeName(fl.Type)})
	}
	return cols
}

// typeName is Column.Type of dt.
func typeName(dt arrow.DataType) string {
	switch t := dt.(type) {
	case *arrow.ListType:
		return "list<" + typeName(t.Elem()) + ">"
	case *arrow.DictionaryType:
		return typeName(t.ValueType)
	case *arrow.StringType:
		return "string"
	}
	return dt.String()
}
