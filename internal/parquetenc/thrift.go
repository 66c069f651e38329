package parquetenc

import "encoding/binary"

// Thrift compact protocol type codes (Thrift's
// doc/specs/thrift-compact-protocol.md), the encoding of Parquet's page
// headers and footer (parquet-format's parquet.thrift).
const (
	ctTrue   = 1
	ctFalse  = 2
	ctI32    = 5
	ctI64    = 6
	ctBinary = 8
	ctList   = 9
	ctStruct = 12
)

// thriftWriter appends Thrift compact-protocol values to b. Field headers
// carry the difference to the previous field id of the same struct, so
// the writer keeps the last id of every open struct.
type thriftWriter struct {
	b    []byte
	last int16   // last field id of the innermost open struct
	outs []int16 // last ids of the enclosing structs
}

// field writes the header of field id of type typ: one byte when the id
// is 1 to 15 above the previous one, else the type and the zigzag id.
func (t *thriftWriter) field(id int16, typ byte) {
	if d := id - t.last; d > 0 && d <= 15 {
		t.b = append(t.b, byte(d)<<4|typ)
	} else {
		t.b = append(t.b, typ)
		t.b = binary.AppendVarint(t.b, int64(id))
	}
	t.last = id
}

func (t *thriftWriter) i32(id int16, v int32) {
	t.field(id, ctI32)
	t.b = binary.AppendVarint(t.b, int64(v))
}

func (t *thriftWriter) i64(id int16, v int64) {
	t.field(id, ctI64)
	t.b = binary.AppendVarint(t.b, v)
}

func (t *thriftWriter) binary(id int16, v []byte) {
	t.field(id, ctBinary)
	t.b = binary.AppendUvarint(t.b, uint64(len(v)))
	t.b = append(t.b, v...)
}

func (t *thriftWriter) string(id int16, v string) {
	t.field(id, ctBinary)
	t.b = binary.AppendUvarint(t.b, uint64(len(v)))
	t.b = append(t.b, v...)
}

func (t *thriftWriter) bool(id int16, v bool) {
	if v {
		t.field(id, ctTrue)
	} else {
		t.field(id, ctFalse)
	}
}

// begin opens a struct: as field id of the enclosing struct when id > 0,
// else as an element of a list.
func (t *thriftWriter) begin(id int16) {
	if id > 0 {
		t.field(id, ctStruct)
	}
	t.outs = append(t.outs, t.last)
	t.last = 0
}

// end closes the innermost struct with the stop byte.
func (t *thriftWriter) end() {
	t.b = append(t.b, 0)
	t.last = t.outs[len(t.outs)-1]
	t.outs = t.outs[:len(t.outs)-1]
}

// list writes the header of field id, a list of n elements of type elem.
func (t *thriftWriter) list(id int16, elem byte, n int) {
	t.field(id, ctList)
	if n < 15 {
		t.b = append(t.b, byte(n)<<4|elem)
		return
	}
	t.b = append(t.b, 0xf0|elem)
	t.b = binary.AppendUvarint(t.b, uint64(n))
}

// listI32 writes field id, a list of i32 values (enums).
func (t *thriftWriter) listI32(id int16, v []int32) {
	t.list(id, ctI32, len(v))
	for _, x := range v {
		t.b = binary.AppendVarint(t.b, int64(x))
	}
}

// listString writes field id, a list of strings.
func (t *thriftWriter) listString(id int16, v []string) {
	t.list(id, ctBinary, len(v))
	for _, x := range v {
		t.b = binary.AppendUvarint(t.b, uint64(len(x)))
		t.b = append(t.b, x...)
	}
}

// appendZigzag appends v as a zigzag varint (Thrift's i16, i32 and i64).
func appendZigzag(b []byte, v int64) []byte { return binary.AppendVarint(b, v) }
