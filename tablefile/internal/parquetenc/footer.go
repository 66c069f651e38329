package parquetenc

import (
	"encoding/binary"
	"math"

	"github.com/benchtrim/benchtrim/tablefile/internal/thrift"
)

// parquet.thrift ConvertedType and LogicalType of annotated columns.
const (
	convertedUTF8  = 0
	convertedInt32 = 17
	convertedInt64 = 18
	convertedList  = 3
	logicalString  = 1
	logicalList    = 3
	logicalInteger = 10
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
	t := thrift.Writer{B: make([]byte, 0, size+1024)}
	t.Begin(0)
	t.I32(1, 2)
	elements := 1
	for _, c := range p.cols {
		elements++
		if c.List {
			elements += 2
		}
	}
	t.List(2, thrift.Struct, elements)
	t.Begin(0)
	t.String(4, "schema")
	t.I32(5, int32(len(p.cols)))
	t.End()
	var rows int64
	for _, g := range p.groups {
		rows += g.rows
	}
	for _, c := range p.cols {
		if c.List {
			// A LIST group, its repeated group and the element
			// (parquet-format LogicalTypes.md, "Lists").
			t.Begin(0)
			t.I32(3, repetition(c.Optional))
			t.String(4, c.Name)
			t.I32(5, 1)
			t.I32(6, convertedList)
			t.Begin(10)
			t.Begin(logicalList)
			t.End()
			t.End()
			t.End()
			t.Begin(0)
			t.I32(3, 2) // REPEATED
			t.String(4, "list")
			t.I32(5, 1)
			t.End()
			leafElement(&t, Column{Name: "element", Type: c.Type, Optional: c.ElemOptional})
			continue
		}
		leafElement(&t, c)
	}
	t.I64(3, rows)
	t.List(4, thrift.Struct, len(p.groups))
	for gi, g := range p.groups {
		t.Begin(0)
		t.List(1, thrift.Struct, len(g.chunks))
		var size, compressed int64
		for ci, c := range g.chunks {
			start := c.dataOffset
			if c.dictOffset >= 0 {
				start = c.dictOffset
			}
			size += c.uncompressed
			compressed += c.size
			t.Begin(0)
			t.I64(2, start)
			t.Begin(3)
			t.I32(1, physical[p.cols[ci].Type])
			t.ListI32(2, c.encodings)
			t.ListString(3, p.cols[ci].path())
			t.I32(4, int32(c.codec))
			t.I64(5, c.values)
			t.I64(6, c.uncompressed)
			t.I64(7, c.size)
			t.I64(9, c.dataOffset)
			if c.dictOffset >= 0 {
				t.I64(11, c.dictOffset)
			}
			if !c.stats.none {
				t.Begin(12)
				t.I64(3, c.stats.nulls)
				if c.stats.ok {
					t.Binary(5, c.stats.max)
					t.Binary(6, c.stats.min)
				}
				t.End()
			}
			t.End()
			t.End()
		}
		t.I64(2, size)
		t.I64(3, g.rows)
		if len(g.chunks) > 0 {
			first := g.chunks[0].dataOffset
			if g.chunks[0].dictOffset >= 0 {
				first = g.chunks[0].dictOffset
			}
			t.I64(5, first)
		}
		t.I64(6, compressed)
		if gi <= math.MaxInt16 {
			t.Field(7, thrift.I16)                    // ordinal, an i16 (optional: left out past 32,767)
			t.B = binary.AppendVarint(t.B, int64(gi)) // zigzag
		}
		t.End()
	}
	if len(p.kv) > 0 {
		t.List(5, thrift.Struct, len(p.kv))
		for _, kv := range p.kv {
			t.Begin(0)
			t.String(1, kv[0])
			t.String(2, kv[1])
			t.End()
		}
	}
	t.String(6, p.createdBy)
	t.List(7, thrift.Struct, len(p.cols))
	for range p.cols {
		t.Begin(0)
		t.Begin(1)
		t.End()
		t.End()
	}
	t.End()
	return t.B
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
func leafElement(t *thrift.Writer, c Column) {
	t.Begin(0)
	t.I32(1, physical[c.Type])
	t.I32(3, repetition(c.Optional))
	t.String(4, c.Name)
	switch c.Type {
	case String:
		t.I32(6, convertedUTF8)
		t.Begin(10)
		t.Begin(logicalString)
		t.End()
		t.End()
	case Int32, Int64:
		width, conv := byte(32), int32(convertedInt32)
		if c.Type == Int64 {
			width, conv = 64, convertedInt64
		}
		t.I32(6, conv)
		t.Begin(10)
		t.Begin(logicalInteger)
		t.Field(1, thrift.Byte)
		t.B = append(t.B, width)
		t.Bool(2, true)
		t.End()
		t.End()
	}
	t.End()
}
