package arrowio

import (
	"testing"

	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// TestStringDictMaps: Maps holds exactly when each value of the record's
// dictionary is already at its own index, and adds nothing.
func TestStringDictMaps(t *testing.T) {
	var d StringDict
	for _, v := range []string{"a", "b", "c"} {
		d.Index(v)
	}
	for _, tc := range []struct {
		values []string
		want   bool
	}{
		{nil, true},
		{[]string{"a"}, true},
		{[]string{"a", "b", "c"}, true},
		{[]string{"b"}, false},
		{[]string{"a", "c"}, false},
		{[]string{"a", "b", "c", "d"}, false},
	} {
		b := array.NewStringBuilder(memory.DefaultAllocator)
		b.AppendValues(tc.values, nil)
		dict := b.NewStringArray()
		if got := d.Maps(dict); got != tc.want {
			t.Errorf("Maps(%q) = %v, want %v", tc.values, got, tc.want)
		}
		dict.Release()
		b.Release()
	}
	if d.Len() != 3 {
		t.Errorf("Maps added values: %d in the dictionary", d.Len())
	}
}
