package thrift

import (
	"strings"
	"testing"
)

// TestRoundTrip: what Writer writes, Reader reads back, field by field
// (ids 1 to 20, so both field header forms), with a nested struct and
// lists; a length past the end is an *Error naming the field.
func TestRoundTrip(t *testing.T) {
	var w Writer
	w.Begin(0)
	w.I32(1, -7)
	w.I64(2, 1<<40)
	w.String(3, "benchtrim")
	w.Bool(4, true)
	w.ListI32(5, []int32{0, 3, -1})
	w.Begin(20)
	w.I64(1, 42)
	w.End()
	w.ListString(21, []string{"a", "bc"})
	w.End()
	r := &Reader{B: w.B}
	got := map[int16]any{}
	r.Struct("root", Struct, func(id int16, typ byte) {
		switch id {
		case 1, 2:
			got[id] = r.Int("n", typ)
		case 3:
			got[id] = string(r.Binary("s", typ))
		case 4:
			got[id] = typ == True
		case 20:
			r.Struct("inner", typ, func(id int16, typ byte) { got[100+id] = r.Int("m", typ) })
		default:
			got[id] = typ
			r.Skip("l", typ)
		}
	})
	if got[1] != int64(-7) || got[2] != int64(1<<40) || got[3] != "benchtrim" || got[4] != true || got[101] != int64(42) || got[5] != byte(List) || got[21] != byte(List) || r.Err != nil || r.Pos != len(w.B) {
		t.Errorf("read back %v", got)
	}
	trunc := &Reader{B: w.B[:12]}
	trunc.Struct("root", Struct, func(id int16, typ byte) { trunc.Skip("f", typ) })
	if e, ok := trunc.Err.(*Error); !ok || !strings.HasPrefix(e.Error(), "Parquet footer: root") {
		t.Errorf("truncated: err = %v", trunc.Err)
	}
}
