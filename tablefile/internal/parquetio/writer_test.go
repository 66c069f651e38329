package parquetio

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

// TestParquetOneValueColumns: string and Runs columns whose rows hold one
// value for a while (written from shared zeros) and then others read back
// with every row's value, in each row group.
func TestParquetOneValueColumns(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: stringDict}, {Name: "r", Type: arrow.PrimitiveTypes.Int32}}, nil)
	var buf bytes.Buffer
	pw, err := NewWriter(&buf, schema, Options{Runs: []string{"r"}, Codec: Snappy})
	if err != nil {
		t.Fatal(err)
	}
	var wantS []string
	var wantR []int32
	for k, vals := range [][]string{{"a", "a"}, {"a"}, {"b", "a"}, {"c"}} {
		db := array.NewDictionaryBuilder(memory.DefaultAllocator, stringDict).(*array.BinaryDictionaryBuilder)
		rb := array.NewInt32Builder(memory.DefaultAllocator)
		for _, v := range vals {
			db.AppendString(v)
			r := int32(7)
			if k >= 2 {
				r = int32(k)
			}
			rb.Append(r)
			wantS, wantR = append(wantS, v), append(wantR, r)
		}
		rec := array.NewRecord(schema, []arrow.Array{db.NewArray(), rb.NewArray()}, int64(len(vals)))
		if err := pw.Write(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
		if k == 1 {
			if err := pw.flush(); err != nil { // a row group of one-value columns only
				t.Fatal(err)
			}
		}
	}
	if err := pw.Close(); err != nil {
		t.Fatal(err)
	}
	rdr, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Release()
	var gotS []string
	var gotR []int32
	for _, c := range tab.Column(0).Data().Chunks() {
		for i := 0; i < c.Len(); i++ {
			gotS = append(gotS, c.ValueStr(i))
		}
	}
	for _, c := range tab.Column(1).Data().Chunks() {
		gotR = append(gotR, c.(*array.Int32).Int32Values()...)
	}
	if !slices.Equal(gotS, wantS) || !slices.Equal(gotR, wantR) || rdr.NumRowGroups() != 2 {
		t.Errorf("read back %q %v in %d row groups, want %q %v in 2", gotS, gotR, rdr.NumRowGroups(), wantS, wantR)
	}
}
