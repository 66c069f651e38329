package parquetio

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/compress"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

// readerTestSchema has a column of every type Column reads, required
// and optional.
var readerTestSchema = arrow.NewSchema([]arrow.Field{
	{Name: "b", Type: arrow.FixedWidthTypes.Boolean},
	{Name: "b_opt", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "i32", Type: arrow.PrimitiveTypes.Int32},
	{Name: "i32_opt", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "i64", Type: arrow.PrimitiveTypes.Int64},
	{Name: "i64_opt", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "f64", Type: arrow.PrimitiveTypes.Float64},
	{Name: "f64_opt", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "s", Type: arrow.BinaryTypes.String},
	{Name: "s_opt", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "dict", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}},
	{Name: "li", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true},
	{Name: "ls", Type: arrow.ListOfNonNullable(arrow.BinaryTypes.String)},
}, func() *arrow.Metadata { m := arrow.NewMetadata([]string{"k"}, []string{"v"}); return &m }())

// readerTestRecord builds n rows of readerTestSchema from rng: runs of
// repeated strings (as the canonical table has), about one null in five
// of each optional column, empty and null lists.
func readerTestRecord(rng *rand.Rand, n int) arrow.Record {
	b := array.NewRecordBuilder(memory.DefaultAllocator, readerTestSchema)
	defer b.Release()
	null := func() bool { return rng.IntN(5) == 0 }
	word := ""
	for i := 0; i < n; i++ {
		if i == 0 || rng.IntN(40) == 0 {
			word = fmt.Sprintf("bench%03d/%s", rng.IntN(300), strings.Repeat("x", rng.IntN(12)))
		}
		b.Field(0).(*array.BooleanBuilder).Append(rng.IntN(2) == 0)
		if null() {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.BooleanBuilder).Append(rng.IntN(3) == 0)
		}
		b.Field(2).(*array.Int32Builder).Append(int32(rng.Uint32()))
		if null() {
			b.Field(3).AppendNull()
		} else {
			b.Field(3).(*array.Int32Builder).Append(int32(rng.IntN(10)))
		}
		b.Field(4).(*array.Int64Builder).Append(int64(rng.Uint64()))
		if null() {
			b.Field(5).AppendNull()
		} else {
			b.Field(5).(*array.Int64Builder).Append(rng.Int64N(1e12))
		}
		b.Field(6).(*array.Float64Builder).Append(rng.NormFloat64())
		if null() {
			b.Field(7).AppendNull()
		} else {
			b.Field(7).(*array.Float64Builder).Append(rng.ExpFloat64())
		}
		b.Field(8).(*array.StringBuilder).Append(word)
		if null() {
			b.Field(9).AppendNull()
		} else {
			b.Field(9).(*array.StringBuilder).Append(fmt.Sprint(rng.IntN(1e6)))
		}
		if err := b.Field(10).(*array.BinaryDictionaryBuilder).AppendString(word + "!"); err != nil {
			panic(err)
		}
		li := b.Field(11).(*array.ListBuilder)
		switch k := rng.IntN(6); {
		case k == 0:
			li.AppendNull()
		default:
			li.Append(true)
			for j := 0; j < k-1; j++ {
				li.ValueBuilder().(*array.Int64Builder).Append(rng.Int64N(100))
			}
		}
		ls := b.Field(12).(*array.ListBuilder)
		ls.Append(true)
		for j := rng.IntN(4); j > 0; j-- {
			ls.ValueBuilder().(*array.StringBuilder).Append(word[:rng.IntN(len(word)+1)])
		}
	}
	return b.NewRecord()
}

// TestColumnMatchesPqarrow writes files of every column type with
// Arrow's pqarrow writer, in the layouts other writers use (dictionary
// and plain pages, data pages v1 and v2, several pages per chunk, several
// row groups, each codec), and checks that Column reads every value
// pqarrow reads back, batch by batch across row groups, and that
// Schema gives pqarrow's schema.
func TestColumnMatchesPqarrow(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	rec := readerTestRecord(rng, 5000)
	defer rec.Release()
	for _, tc := range []struct {
		name  string
		props []parquet.WriterProperty
	}{
		{"dictionary", nil},
		{"plain", []parquet.WriterProperty{parquet.WithDictionaryDefault(false)}},
		{"v2-snappy", []parquet.WriterProperty{parquet.WithDataPageVersion(parquet.DataPageV2), parquet.WithCompression(compress.Codecs.Snappy)}},
		{"small-pages-zstd", []parquet.WriterProperty{parquet.WithDataPageSize(512), parquet.WithDictionaryPageSizeLimit(256), parquet.WithCompression(compress.Codecs.Zstd)}},
		{"row-groups", []parquet.WriterProperty{parquet.WithMaxRowGroupLength(777), parquet.WithDataPageSize(2048)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			props := parquet.NewWriterProperties(tc.props...)
			w, err := pqarrow.NewFileWriter(readerTestSchema, &buf, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
			if err != nil {
				t.Fatal(err)
			}
			for _, part := range []arrow.Record{rec.NewSlice(0, 2500), rec.NewSlice(2500, 5000)} {
				if err := w.WriteBuffered(part); err != nil {
					t.Fatal(err)
				}
				part.Release()
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			pf, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			defer pf.Close()
			fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
			if err != nil {
				t.Fatal(err)
			}
			want, err := fr.ReadTable(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer want.Release()
			schema, err := Schema(pf)
			if err != nil {
				t.Fatal(err)
			}
			if !fieldsAlike(schema, want.Schema()) {
				t.Fatalf("schema\n%s\nwant pqarrow's\n%s", schema, want.Schema())
			}
			if v, _ := schema.Metadata().GetValue("k"); v != "v" {
				t.Errorf("schema metadata %v, want the stored schema's", schema.Metadata())
			}
			groups := make([]int, pf.NumRowGroups())
			for i := range groups {
				groups[i] = i
			}
			if tc.name == "row-groups" && len(groups) < 4 {
				t.Fatalf("%d row groups", len(groups))
			}
			for i, f := range schema.Fields() {
				c, err := NewColumn(pf, i, f.Type, groups)
				if err != nil {
					t.Fatal(err)
				}
				got := readColumn(t, c, 613)
				wantCol := array.NewChunkedSlice(want.Column(i).Data(), 0, want.NumRows())
				if g, w := columnStrings(t, got), columnStrings(t, wantCol.Chunks()); strings.Join(g, "|") != strings.Join(w, "|") {
					for r := range w {
						if r >= len(g) || g[r] != w[r] {
							t.Fatalf("column %s row %d: %q, pqarrow %q (%d rows, want %d)", f.Name, r, at(g, r), w[r], len(g), len(w))
						}
					}
					t.Fatalf("column %s: %d rows, want %d", f.Name, len(g), len(w))
				}
				wantCol.Release()
				for _, a := range got {
					a.Release()
				}
			}
		})
	}
}

// fieldsAlike reports whether a and b have fields of the same names,
// types and nullability (field metadata aside).
func fieldsAlike(a, b *arrow.Schema) bool {
	if len(a.Fields()) != len(b.Fields()) {
		return false
	}
	for i, f := range a.Fields() {
		g := b.Field(i)
		if f.Name != g.Name || f.Nullable != g.Nullable || !arrow.TypeEqual(f.Type, g.Type) {
			return false
		}
	}
	return true
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "(none)"
}

// readColumn reads c to its end, batch rows at a time, checking that
// each batch but the last is full and every array's type is c's.
func readColumn(t *testing.T, c *Column, batch int) []arrow.Array {
	t.Helper()
	var out []arrow.Array
	for {
		a, err := c.Next(batch)
		if err != nil {
			t.Fatal(err)
		}
		if a == nil {
			return out
		}
		if !arrow.TypeEqual(a.DataType(), c.typ) {
			t.Fatalf("type %s, want %s", a.DataType(), c.typ)
		}
		if len(out) > 0 && out[len(out)-1].Len() != batch {
			t.Fatalf("a batch of %d rows before the last, want %d", out[len(out)-1].Len(), batch)
		}
		out = append(out, a)
	}
}

// columnStrings formats every row of the arrays, nulls as "null".
func columnStrings(t *testing.T, arrays []arrow.Array) []string {
	t.Helper()
	var out []string
	for _, a := range arrays {
		for i := 0; i < a.Len(); i++ {
			if a.IsNull(i) {
				out = append(out, "null")
				continue
			}
			switch a := a.(type) {
			case *array.Dictionary:
				out = append(out, a.Dictionary().(*array.String).Value(a.GetValueIndex(i)))
			default:
				out = append(out, a.ValueStr(i))
			}
		}
	}
	return out
}

// TestColumnRefuses: a column read as a type of another physical
// type, or a list read as a flat column, is an error naming the column.
func TestColumnRefuses(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	rec := readerTestRecord(rng, 10)
	defer rec.Release()
	var buf bytes.Buffer
	if err := pqarrow.WriteTable(array.NewTableFromRecords(readerTestSchema, []arrow.Record{rec}), &buf, 10, nil, pqarrow.DefaultWriterProps()); err != nil {
		t.Fatal(err)
	}
	pf, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	for _, tc := range []struct {
		col int
		typ arrow.DataType
	}{
		{2, arrow.PrimitiveTypes.Int64},
		{6, arrow.BinaryTypes.String},
		{8, arrow.PrimitiveTypes.Float64},
		{11, arrow.PrimitiveTypes.Int64},
		{4, arrow.ListOf(arrow.PrimitiveTypes.Int64)},
		{0, arrow.PrimitiveTypes.Float32},
	} {
		name := readerTestSchema.Field(tc.col).Name
		if _, err := NewColumn(pf, tc.col, tc.typ, []int{0}); err == nil || !strings.Contains(err.Error(), "column "+name) {
			t.Errorf("column %s as %s: error %v, want one naming the column", name, tc.typ, err)
		}
	}
	c, err := NewColumn(pf, 0, arrow.FixedWidthTypes.Boolean, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if a, err := c.Next(10); err != nil || a.Len() != 10 {
		t.Fatalf("first batch: %v, %v", a, err)
	}
	if _, err := c.Next(10); err == nil || !strings.Contains(err.Error(), "no row group 2") {
		t.Errorf("a row group past the last: error %v", err)
	}
}
