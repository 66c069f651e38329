package parquetenc

import "math"

// parquet.thrift ConvertedType and LogicalType of annotated columns.
const (
	convertedUTF8  = 0
	convertedInt32 = 17
	convertedInt64 = 18
	convertedList  = 3
	logicalString  = 1
	logicalList    = 3
	logicalInteger = 10
	ctByte         = 3
)

// footer encodes the FileMetaData: format version 2 (its encodings
// include RLE_DICTIONARY and DELTA_BINARY_PACKED), the schema (a root
// and one element per column, annotated as Arrow's writer annotates
// them: strings UTF8, integers INT(32|64, signed)), the row groups and
// their column chunks' metadata, the key-value metadata, created_by, and
// the column orders (type-defined: what lets readers use min_value and
// max_value).
func (p *Writer) footer() []byte {
	// Sized up front: the metadata may hold large values (the canonical
	// table's setups), which growing by doubling would copy.
	size := 64 * len(p.cols) * (len(p.groups) + 1)
	for _, kv := range p.kv {
		size += len(kv[0]) + len(kv[1]) + 16
	}
	t := thriftWriter{b: make([]byte, 0, size+1024)}
	t.begin(0)
	t.i32(1, 2)
	elements := 1
	for _, c := range p.cols {
		elements++
		if c.List {
			elements += 2
		}
	}
	t.list(2, ctStruct, elements)
	t.begin(0)
	t.string(4, "schema")
	t.i32(5, int32(len(p.cols)))
	t.end()
	var rows int64
	for _, g := range p.groups {
		rows += g.rows
	}
	for _, c := range p.cols {
		if c.List {
			// A LIST group, its repeated group and the element
			// (parquet-format LogicalTypes.md, "Lists").
			t.begin(0)
			t.i32(3, repetition(c.Optional))
			t.string(4, c.Name)
			t.i32(5, 1)
			t.i32(6, convertedList)
			t.begin(10)
			t.begin(logicalList)
			t.end()
			t.end()
			t.end()
			t.begin(0)
			t.i32(3, 2) // REPEATED
			t.string(4, "list")
			t.i32(5, 1)
			t.end()
			leafElement(&t, Column{Name: "element", Type: c.Type, Optional: c.ElemOptional})
			continue
		}
		leafElement(&t, c)
	}
	t.i64(3, rows)
	t.list(4, ctStruct, len(p.groups))
	for gi, g := range p.groups {
		t.begin(0)
		t.list(1, ctStruct, len(g.chunks))
		var size, compressed int64
		for ci, c := range g.chunks {
			start := c.dataOffset
			if c.dictOffset >= 0 {
				start = c.dictOffset
			}
			size += c.uncompressed
			compressed += c.size
			t.begin(0)
			t.i64(2, start)
			t.begin(3)
			t.i32(1, physical[p.cols[ci].Type])
			t.listI32(2, c.encodings)
			t.listString(3, p.cols[ci].path())
			t.i32(4, int32(c.codec))
			t.i64(5, c.values)
			t.i64(6, c.uncompressed)
			t.i64(7, c.size)
			t.i64(9, c.dataOffset)
			if c.dictOffset >= 0 {
				t.i64(11, c.dictOffset)
			}
			if !c.stats.none {
				t.begin(12)
				t.i64(3, c.stats.nulls)
				if c.stats.ok {
					t.binary(5, c.stats.max)
					t.binary(6, c.stats.min)
				}
				t.end()
			}
			t.end()
			t.end()
		}
		t.i64(2, size)
		t.i64(3, g.rows)
		if len(g.chunks) > 0 {
			first := g.chunks[0].dataOffset
			if g.chunks[0].dictOffset >= 0 {
				first = g.chunks[0].dictOffset
			}
			t.i64(5, first)
		}
		t.i64(6, compressed)
		if gi <= math.MaxInt16 {
			t.field(7, 4) // ordinal, an i16 (optional: left out past 32,767)
			t.b = appendZigzag(t.b, int64(gi))
		}
		t.end()
	}
	if len(p.kv) > 0 {
		t.list(5, ctStruct, len(p.kv))
		for _, kv := range p.kv {
			t.begin(0)
			t.string(1, kv[0])
			t.string(2, kv[1])
			t.end()
		}
	}
	t.string(6, p.createdBy)
	t.list(7, ctStruct, len(p.cols))
	for range p.cols {
		t.begin(0)
		t.begin(1)
		t.end()
		t.end()
	}
	t.end()
	return t.b
}

// repetition is the FieldRepetitionType of a column: REQUIRED or OPTIONAL.
func repetition(optional bool) int32 {
	if optional {
		return 1
	}
	return 0
}

// leafElement writes the SchemaElement of the leaf column c, annotated as
// Arrow's writer annotates them: strings UTF8, integers INT(32|64,
// signed).
func leafElement(t *thriftWriter, c Column) {
	t.begin(0)
	t.i32(1, physical[c.Type])
	t.i32(3, repetition(c.Optional))
	t.string(4, c.Name)
	switch c.Type {
	case String:
		t.i32(6, convertedUTF8)
		t.begin(10)
		t.begin(logicalString)
		t.end()
		t.end()
	case Int32, Int64:
		width, conv := byte(32), int32(convertedInt32)
		if c.Type == Int64 {
			width, conv = 64, convertedInt64
		}
		t.i32(6, conv)
		t.begin(10)
		t.begin(logicalInteger)
		t.field(1, ctByte)
		t.b = append(t.b, width)
		t.bool(2, true)
		t.end()
		t.end()
	}
	t.end()
}
