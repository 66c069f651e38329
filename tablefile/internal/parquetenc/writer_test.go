package parquetenc

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/metadata"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

// group is one row group of the test file, column by column.
type group struct {
	names    []string // dictionary of s
	nameIdx  []int32  // nil: all names[0]
	levels   []int32  // dictionary of lv
	levelIdx []int32
	f        []float64
	fValid   []bool // nil: all valid
	i64      []int64
	delta    []int64
	b        []bool
	s32      []int32
	opt      []string
	optValid []bool
}

var testCols = []Column{
	{Name: "name", Type: String},
	{Name: "level", Type: Int32},
	{Name: "value", Type: Double, Optional: true},
	{Name: "i64", Type: Int64},
	{Name: "delta", Type: Int64},
	{Name: "flag", Type: Boolean},
	{Name: "i32", Type: Int32},
	{Name: "note", Type: String, Optional: true},
	{Name: "maybe", Type: Boolean, Optional: true},
}

// randomGroup is a row group of n rows whose dictionary indices come in
// runs of random lengths (1 to maxRun) over dictionaries of nd values.
func randomGroup(r *rand.Rand, n, nd, maxRun int, nulls bool) group {
	g := group{}
	for j := range nd {
		g.names = append(g.names, fmt.Sprintf("bench-%03d", (j*7919)%1000))
		g.levels = append(g.levels, int32(j*3-5))
	}
	runs := func() []int32 {
		var v []int32
		for len(v) < n {
			x := int32(r.IntN(nd))
			for range min(n-len(v), 1+r.IntN(maxRun)) {
				v = append(v, x)
			}
		}
		return v
	}
	g.nameIdx, g.levelIdx = runs(), runs()
	var acc int64
	for j := range n {
		x := r.NormFloat64() * 100
		switch j % 97 {
		case 3:
			x = math.NaN()
		case 5:
			x = math.Copysign(0, -1)
		}
		g.f = append(g.f, x)
		g.i64 = append(g.i64, r.Int64()-math.MaxInt64/2)
		acc += int64(r.IntN(2000)) - 500
		if j%1000 == 999 {
			acc = math.MinInt64 + int64(j)
		}
		if j%1000 == 500 {
			acc = math.MaxInt64 - int64(j)
		}
		g.delta = append(g.delta, acc)
		g.b = append(g.b, r.IntN(3) == 0)
		g.s32 = append(g.s32, r.Int32N(1<<20)-1<<19)
		g.opt = append(g.opt, fmt.Sprintf("note %d", r.IntN(50)))
		if nulls {
			g.fValid = append(g.fValid, r.IntN(4) > 0)
			g.optValid = append(g.optValid, r.IntN(2) > 0)
		}
	}
	return g
}

// writeFile writes groups with codec and returns the file.
func writeFile(t *testing.T, codecs []Codec, groups []group) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, testCols, codecs, [][2]string{{"k", "v"}})
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.NewGoAllocator()
	for _, g := range groups {
		n := len(g.f)
		must(t, w.BeginRowGroup(int64(n)))
		names := runsOf(nil, g.nameIdx)
		if g.nameIdx == nil {
			names = []Run{{Index: 0, Len: int32(n)}}
		}
		must(t, w.WriteStringDict(g.names, names))
		must(t, w.WriteInt32Dict(g.levels, runsOf(nil, g.levelIdx)))
		// Split in two arrays, to cross array boundaries.
		h := n / 3
		fb := array.NewFloat64Builder(mem)
		fb.AppendValues(g.f, g.fValid)
		fa := fb.NewFloat64Array()
		must(t, w.WriteArrays([]arrow.Array{array.NewSlice(fa, 0, int64(h)), array.NewSlice(fa, int64(h), int64(n))}, false))
		ib := array.NewInt64Builder(mem)
		ib.AppendValues(g.i64, nil)
		must(t, w.WriteArrays([]arrow.Array{ib.NewArray()}, false))
		ib.AppendValues(g.delta, nil)
		da := ib.NewArray()
		must(t, w.WriteArrays([]arrow.Array{array.NewSlice(da, 0, int64(h)), array.NewSlice(da, int64(h), int64(n))}, true))
		bb := array.NewBooleanBuilder(mem)
		bb.AppendValues(g.b, nil)
		must(t, w.WriteArrays([]arrow.Array{bb.NewArray()}, false))
		i32 := array.NewInt32Builder(mem)
		i32.AppendValues(g.s32, nil)
		must(t, w.WriteArrays([]arrow.Array{i32.NewArray()}, false))
		sb := array.NewStringBuilder(mem)
		sb.AppendValues(g.opt, g.optValid)
		must(t, w.WriteArrays([]arrow.Array{sb.NewArray()}, false))
		bb.AppendValues(g.b, g.optValid)
		ba := bb.NewArray()
		must(t, w.WriteArrays([]arrow.Array{array.NewSlice(ba, 0, int64(h)), array.NewSlice(ba, int64(h), int64(n))}, false))
		must(t, w.EndRowGroup())
	}
	w.SetMetadata("late", "value")
	must(t, w.Close())
	return buf.Bytes()
}

// runsOf returns the runs of indices, appended to dst.
func runsOf(dst []Run, indices []int32) []Run {
	for _, j := range indices {
		if n := len(dst); n > 0 && dst[n-1].Index == j {
			dst[n-1].Len++
			continue
		}
		dst = append(dst, Run{Index: j, Len: 1})
	}
	return dst
}

// readTable reads a whole Parquet file with Arrow's reader; the caller
// releases the table.
func readTable(t *testing.T, data []byte) (arrow.Table, *file.Reader) {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	must(t, err)
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.NewGoAllocator())
	must(t, err)
	tbl, err := fr.ReadTable(context.Background())
	must(t, err)
	return tbl, pf
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestWriterReadBack writes row groups of every column kind (dictionary
// indices in runs of various lengths and bit widths, nulls, NaN, -0,
// int64 differences that overflow) with each codec and reads them back
// with Arrow's Parquet reader: every value, the row groups' statistics
// and the key-value metadata must come back.
func TestWriterReadBack(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	// One codec for all columns, and one per column (the uncompressed
	// pages between compressed ones are the arrays' own buffers).
	mixed := []Codec{Snappy, Uncompressed, Zstd, Uncompressed, Snappy, Uncompressed, Uncompressed, Snappy, Zstd}
	for _, codecs := range [][]Codec{{Uncompressed}, {Snappy}, {Zstd}, mixed} {
		groups := []group{
			randomGroup(r, 5000, 1, 1, false),
			randomGroup(r, 3001, 3, 20, true),
			randomGroup(r, 777, 300, 3, true),
			randomGroup(r, maxPageRows+1000, 70000, 12, false),
			randomGroup(r, 1, 1, 1, true),
		}
		groups[0].nameIdx = nil // one value: a single run
		data := writeFile(t, codecs, groups)
		checkFile(t, data, groups)
	}
}

func checkFile(t *testing.T, data []byte, groups []group) {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	if got := pf.NumRowGroups(); got != len(groups) {
		t.Fatalf("%d row groups, want %d", got, len(groups))
	}
	// parquet-java's VersionParser.FORMAT, anchored as Matcher.matches is:
	// files whose created_by it cannot parse get their string statistics
	// ignored.
	parquetJava := regexp.MustCompile(`^(.*?)\s+version\s*(?:([^(]*?)\s*(?:\(\s*build\s*([^)]*?)\s*\))?)?$`)
	if m := parquetJava.FindStringSubmatch(pf.MetaData().GetCreatedBy()); m == nil || m[1] != "benchtrim" {
		t.Errorf("created_by %q does not parse as parquet-java's APP version VERSION (got %q)", pf.MetaData().GetCreatedBy(), m)
	}
	kv := pf.MetaData().KeyValueMetadata()
	if v := kv.FindValue("k"); v == nil || *v != "v" {
		t.Errorf("metadata k = %v", v)
	}
	if v := kv.FindValue("late"); v == nil || *v != "value" {
		t.Errorf("metadata late = %v", v)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	for gi, g := range groups {
		tbl, err := fr.ReadRowGroups(context.Background(), []int{0, 1, 2, 3, 4, 5, 6, 7, 8}, []int{gi})
		if err != nil {
			t.Fatalf("row group %d: %v", gi, err)
		}
		n := len(g.f)
		if tbl.NumRows() != int64(n) {
			t.Fatalf("row group %d: %d rows, want %d", gi, tbl.NumRows(), n)
		}
		col := func(c int) []arrow.Array { return tbl.Column(c).Data().Chunks() }
		row := func(chunks []arrow.Array, j int) (arrow.Array, int) {
			for _, a := range chunks {
				if j < a.Len() {
					return a, j
				}
				j -= a.Len()
			}
			t.Fatalf("row %d past the column", j)
			return nil, 0
		}
		// Each column's value at row j, as read (a's row k) and as written.
		valid := func(v []bool, j int) bool { return v == nil || v[j] }
		checks := []struct {
			name      string
			got, want func(a arrow.Array, k, j int) any
		}{
			{"name", func(a arrow.Array, k, _ int) any { return stringAt(a, k) }, func(_ arrow.Array, _, j int) any {
				if g.nameIdx == nil {
					return g.names[0]
				}
				return g.names[g.nameIdx[j]]
			}},
			{"level", func(a arrow.Array, k, _ int) any { return int32At(a, k) }, func(_ arrow.Array, _, j int) any { return g.levels[g.levelIdx[j]] }},
			{"value", func(a arrow.Array, k, _ int) any { return nullOr(a, k, math.Float64bits(a.(*array.Float64).Value(k))) },
				func(_ arrow.Array, _, j int) any { return nullOr2(valid(g.fValid, j), math.Float64bits(g.f[j])) }},
			{"i64", func(a arrow.Array, k, _ int) any { return a.(*array.Int64).Value(k) }, func(_ arrow.Array, _, j int) any { return g.i64[j] }},
			{"delta", func(a arrow.Array, k, _ int) any { return a.(*array.Int64).Value(k) }, func(_ arrow.Array, _, j int) any { return g.delta[j] }},
			{"flag", func(a arrow.Array, k, _ int) any { return a.(*array.Boolean).Value(k) }, func(_ arrow.Array, _, j int) any { return g.b[j] }},
			{"i32", func(a arrow.Array, k, _ int) any { return a.(*array.Int32).Value(k) }, func(_ arrow.Array, _, j int) any { return g.s32[j] }},
			{"note", func(a arrow.Array, k, _ int) any { return nullOr(a, k, a.(*array.String).Value(k)) },
				func(_ arrow.Array, _, j int) any { return nullOr2(valid(g.optValid, j), g.opt[j]) }},
			{"maybe", func(a arrow.Array, k, _ int) any { return nullOr(a, k, a.(*array.Boolean).Value(k)) },
				func(_ arrow.Array, _, j int) any { return nullOr2(valid(g.optValid, j), g.b[j]) }},
		}
		for c, ch := range checks {
			for j := 0; j < n; j++ {
				a, k := row(col(c), j)
				if got, want := ch.got(a, k, j), ch.want(a, k, j); got != want {
					t.Fatalf("group %d row %d: %s %v, want %v", gi, j, ch.name, got, want)
				}
			}
		}
		tbl.Release()
		checkStats(t, pf.MetaData().RowGroup(gi), g)
	}
}

// nullOr is v, or "null" when a's row k is null.
func nullOr(a arrow.Array, k int, v any) any { return nullOr2(a.IsValid(k), v) }

// nullOr2 is v when valid, else "null".
func nullOr2(valid bool, v any) any {
	if !valid {
		return "null"
	}
	return v
}

func stringAt(a arrow.Array, k int) string {
	if d, ok := a.(*array.Dictionary); ok {
		return d.Dictionary().(*array.String).Value(d.GetValueIndex(k))
	}
	return a.(*array.String).Value(k)
}

func int32At(a arrow.Array, k int) int32 {
	if d, ok := a.(*array.Dictionary); ok {
		return d.Dictionary().(*array.Int32).Value(d.GetValueIndex(k))
	}
	return a.(*array.Int32).Value(k)
}

// checkStats compares row group rg's statistics with g's values.
func checkStats(t *testing.T, rg *metadata.RowGroupMetaData, g group) {
	t.Helper()
	minMax := func(c int) ([]byte, []byte, int64) {
		cc, err := rg.ColumnChunk(c)
		if err != nil {
			t.Fatal(err)
		}
		st, err := cc.Statistics()
		if err != nil || st == nil {
			t.Fatalf("column %d: statistics %v, %v", c, st, err)
		}
		if !st.HasMinMax() {
			return nil, nil, st.NullCount()
		}
		return st.EncodeMin(), st.EncodeMax(), st.NullCount()
	}
	// name: the least and greatest name used.
	lo, hi := "", ""
	for j := range len(g.f) {
		v := g.names[0]
		if g.nameIdx != nil {
			v = g.names[g.nameIdx[j]]
		}
		if j == 0 || v < lo {
			lo = v
		}
		if j == 0 || v > hi {
			hi = v
		}
	}
	if mn, mx, _ := minMax(0); string(mn) != lo || string(mx) != hi {
		t.Errorf("name statistics [%q, %q], want [%q, %q]", mn, mx, lo, hi)
	}
	// value: NaN left out, nulls counted.
	flo, fhi, nulls := math.Inf(1), math.Inf(-1), int64(0)
	for j, x := range g.f {
		if g.fValid != nil && !g.fValid[j] {
			nulls++
			continue
		}
		if x == x {
			flo, fhi = min(flo, x), max(fhi, x)
		}
	}
	mn, mx, nn := minMax(2)
	if nn != nulls {
		t.Errorf("value null count %d, want %d", nn, nulls)
	}
	if math.IsInf(flo, 1) {
		if mn != nil {
			t.Errorf("value statistics of NaN and nulls only: %v", mn)
		}
	} else {
		gotLo := math.Float64frombits(binary.LittleEndian.Uint64(mn))
		gotHi := math.Float64frombits(binary.LittleEndian.Uint64(mx))
		if gotLo != flo || gotHi != fhi || flo == 0 && !math.Signbit(gotLo) || fhi == 0 && math.Signbit(gotHi) {
			t.Errorf("value statistics [%v, %v], want [%v, %v]", gotLo, gotHi, flo, fhi)
		}
	}
	// delta column: int64 min and max.
	dlo, dhi := g.delta[0], g.delta[0]
	for _, x := range g.delta {
		dlo, dhi = min(dlo, x), max(dhi, x)
	}
	mn, mx, _ = minMax(4)
	if int64(binary.LittleEndian.Uint64(mn)) != dlo || int64(binary.LittleEndian.Uint64(mx)) != dhi {
		t.Errorf("delta statistics [%d, %d], want [%d, %d]", int64(binary.LittleEndian.Uint64(mn)), int64(binary.LittleEndian.Uint64(mx)), dlo, dhi)
	}
}

// TestWriterErrors: calls out of order and values that do not fit the
// schema are errors, not files.
func TestWriterErrors(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, testCols[:2], []Codec{Snappy}, nil)
	must(t, err)
	two := []Run{{Index: 0, Len: 2}}
	if err := w.WriteStringDict([]string{"a"}, two); err == nil {
		t.Error("a column written before BeginRowGroup")
	}
	must(t, w.BeginRowGroup(2))
	if err := w.WriteInt32Dict([]int32{1}, two); err == nil {
		t.Error("an int32 column written where a string column is due")
	}
	if err := w.WriteStringDict([]string{"a"}, runsOf(nil, []int32{0, 1})); err == nil {
		t.Error("an index outside the dictionary")
	}
	if err := w.WriteStringDict([]string{"a"}, runsOf(nil, []int32{0})); err == nil {
		t.Error("1 index in a row group of 2 rows")
	}
	if err := w.WriteStringDict([]string{"a"}, []Run{{Index: 0, Len: 3}, {Index: 0, Len: -1}}); err == nil {
		t.Error("a run of -1 rows")
	}
	if err := w.EndRowGroup(); err == nil {
		t.Error("a row group ended before its columns")
	}
	if _, err := NewWriter(&buf, testCols, []Codec{Snappy, Zstd}, nil); err == nil {
		t.Error("2 codecs for 8 columns")
	}
	mem := memory.NewGoAllocator()
	w, err = NewWriter(&buf, []Column{{Name: "x", Type: Int32}}, []Codec{Snappy}, nil)
	must(t, err)
	must(t, w.BeginRowGroup(2))
	b := array.NewInt32Builder(mem)
	b.AppendValues([]int32{1, 2}, []bool{true, false})
	if err := w.WriteArrays([]arrow.Array{b.NewArray()}, false); err == nil {
		t.Error("a null in a required column")
	}
	b.AppendValues([]int32{1, 2}, nil)
	if err := w.WriteArrays([]arrow.Array{b.NewArray()}, true); err == nil {
		t.Error("DELTA_BINARY_PACKED on an int32 column")
	}
	fb := array.NewFloat64Builder(mem)
	fb.AppendValues([]float64{1, 2}, nil)
	if err := w.WriteArrays([]arrow.Array{fb.NewArray()}, false); err == nil {
		t.Error("a double array in an int32 column")
	}
}

// TestWriterNoRows: a file without row groups, and one with a row group
// of no rows, read back as empty tables with their columns.
func TestWriterNoRows(t *testing.T) {
	for _, groups := range []int{0, 1} {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, testCols[:2], []Codec{Snappy}, nil)
		must(t, err)
		for range groups {
			must(t, w.BeginRowGroup(0))
			must(t, w.WriteStringDict(nil, nil))
			must(t, w.WriteInt32Dict(nil, nil))
			must(t, w.EndRowGroup())
		}
		must(t, w.Close())
		tbl, pf := readTable(t, buf.Bytes())
		if tbl.NumRows() != 0 || tbl.NumCols() != 2 || pf.NumRowGroups() != groups {
			t.Errorf("%d row groups: read %d rows, %d columns, %d row groups", groups, tbl.NumRows(), tbl.NumCols(), pf.NumRowGroups())
		}
		tbl.Release()
	}
}

// TestWriterLists: list columns (required lists of optional int64s,
// optional lists of strings) with empty lists, null lists and null
// elements, in two row groups, read back by Arrow's Parquet reader.
func TestWriterLists(t *testing.T) {
	cols := []Column{
		{Name: "ints", Type: Int64, List: true, ElemOptional: true},
		{Name: "names", Type: String, List: true, Optional: true},
		{Name: "n", Type: Int32},
	}
	mem := memory.NewGoAllocator()
	type row struct {
		ints     []int64
		intNull  []bool // per element: null
		names    []string
		nullList bool
	}
	groups := [][]row{
		{{ints: []int64{1, 2, 3}, intNull: []bool{false, true, false}, names: []string{"a", "b"}},
			{ints: []int64{}, names: []string{}},
			{ints: []int64{7}, intNull: []bool{false}, nullList: true}},
		{{ints: []int64{-5, 1 << 40}, intNull: []bool{false, false}, names: []string{"c"}}},
	}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, cols, []Codec{Snappy}, nil)
	must(t, err)
	for _, g := range groups {
		ib := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int64)
		sb := array.NewListBuilder(mem, arrow.BinaryTypes.String)
		nb := array.NewInt32Builder(mem)
		for k, r := range g {
			ib.Append(true)
			for j, x := range r.ints {
				if r.intNull[j] {
					ib.ValueBuilder().AppendNull()
				} else {
					ib.ValueBuilder().(*array.Int64Builder).Append(x)
				}
			}
			if r.nullList {
				sb.AppendNull()
			} else {
				sb.Append(true)
				for _, s := range r.names {
					sb.ValueBuilder().(*array.StringBuilder).Append(s)
				}
			}
			nb.Append(int32(k))
		}
		must(t, w.BeginRowGroup(int64(len(g))))
		must(t, w.WriteArrays([]arrow.Array{ib.NewArray()}, false))
		must(t, w.WriteArrays([]arrow.Array{sb.NewArray()}, false))
		must(t, w.WriteArrays([]arrow.Array{nb.NewArray()}, false))
		must(t, w.EndRowGroup())
	}
	must(t, w.Close())
	tbl, _ := readTable(t, buf.Bytes())
	defer tbl.Release()
	var got, want []string
	for _, g := range groups {
		for _, r := range g {
			s := "["
			for j, x := range r.ints {
				if r.intNull[j] {
					s += "(null) "
				} else {
					s += fmt.Sprint(x, " ")
				}
			}
			s += "] "
			if r.nullList {
				s += "(null)"
			} else {
				s += fmt.Sprint(r.names)
			}
			want = append(want, s)
		}
	}
	ints, names := tbl.Column(0).Data().Chunks(), tbl.Column(1).Data().Chunks()
	for c := range ints {
		li, ln := ints[c].(*array.List), names[c].(*array.List)
		for r := 0; r < li.Len(); r++ {
			s := "["
			a, b := li.ValueOffsets(r)
			for k := a; k < b; k++ {
				if li.ListValues().IsNull(int(k)) {
					s += "(null) "
				} else {
					s += fmt.Sprint(li.ListValues().(*array.Int64).Value(int(k)), " ")
				}
			}
			s += "] "
			if ln.IsNull(r) {
				s += "(null)"
			} else {
				var v []string
				a, b := ln.ValueOffsets(r)
				for k := a; k < b; k++ {
					v = append(v, ln.ListValues().(*array.String).Value(int(k)))
				}
				s += fmt.Sprint(v)
			}
			got = append(got, s)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("read back\n  %q\nwant\n  %q", got, want)
	}
}

// TestWriterManyRowGroups: past 32,767 row groups the footer leaves out
// the row groups' ordinals (an i16); the file still reads, every row.
func TestWriterManyRowGroups(t *testing.T) {
	const groups = 1<<15 + 10
	var buf bytes.Buffer
	w, err := NewWriter(&buf, []Column{{Name: "x", Type: Int32}}, []Codec{Uncompressed}, nil)
	must(t, err)
	for g := range groups {
		must(t, w.BeginRowGroup(1))
		must(t, w.WriteInt32Dict([]int32{int32(g)}, []Run{{Index: 0, Len: 1}}))
		must(t, w.EndRowGroup())
	}
	must(t, w.Close())
	tbl, pf := readTable(t, buf.Bytes())
	defer tbl.Release()
	if pf.NumRowGroups() != groups || tbl.NumRows() != groups {
		t.Fatalf("%d row groups, %d rows, want %d", pf.NumRowGroups(), tbl.NumRows(), groups)
	}
	var sum int64
	for _, c := range tbl.Column(0).Data().Chunks() {
		for k := 0; k < c.Len(); k++ {
			sum += int64(int32At(c, k))
		}
	}
	if want := int64(groups) * (groups - 1) / 2; sum != want {
		t.Errorf("sum of the rows %d, want %d", sum, want)
	}
	// Row group g has ordinal g up to 32,767 (what an i16 holds), and none
	// (read as 0) after: not a wrapped negative number.
	for _, g := range []int{0, 1, 1<<15 - 1, 1 << 15, groups - 1} {
		want := int16(0)
		if g < 1<<15 {
			want = int16(g)
		}
		if got := pf.MetaData().RowGroup(g).Ordinal(); got != want {
			t.Errorf("row group %d: ordinal %d, want %d", g, got, want)
		}
	}
}
