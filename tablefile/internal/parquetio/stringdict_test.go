package parquetio

import (
	"slices"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// TestStringDictExtends: Extends holds exactly when the record's
// dictionary and d agree at every index both have, and then d holds the
// record's values at the record's indices; otherwise d is unchanged.
func TestStringDictExtends(t *testing.T) {
	for _, tc := range []struct {
		values []string
		want   bool
		after  []string // d's values afterwards
	}{
		{nil, true, []string{"a", "b", "c"}},
		{[]string{"a"}, true, []string{"a", "b", "c"}},
		{[]string{"a", "b", "c"}, true, []string{"a", "b", "c"}},
		{[]string{"a", "b", "c", "d", "e"}, true, []string{"a", "b", "c", "d", "e"}},
		{[]string{"b"}, false, []string{"a", "b", "c"}},
		{[]string{"a", "c"}, false, []string{"a", "b", "c"}},
		{[]string{"a", "c", "b", "d"}, false, []string{"a", "b", "c"}},
		{[]string{"a", "b", "c", "a"}, false, []string{"a", "b", "c"}},
		{[]string{"a", "b", "c", "d", "d"}, false, []string{"a", "b", "c", "d"}},
	} {
		var d StringDict
		for _, v := range []string{"a", "b", "c"} {
			d.Index(v)
		}
		b := array.NewStringBuilder(memory.DefaultAllocator)
		b.AppendValues(tc.values, nil)
		dict := b.NewStringArray()
		if got := d.Extends(dict); got != tc.want {
			t.Errorf("Extends(%q) = %v, want %v", tc.values, got, tc.want)
		}
		if !slices.Equal(d.values, tc.after) {
			t.Errorf("after Extends(%q): %q, want %q", tc.values, d.values, tc.after)
		}
		for j, v := range d.values {
			if d.Index(v) != int32(j) {
				t.Errorf("after Extends(%q): Index(%q) = %d, want %d", tc.values, v, d.Index(v), j)
			}
		}
		dict.Release()
		b.Release()
	}
}

// TestRunEnd: runEnd finds the end of every run, whatever its length
// and where it starts against the 4-value steps.
func TestRunEnd(t *testing.T) {
	var v []int32
	for n := 1; n <= 13; n++ {
		for range n {
			v = append(v, int32(n%3))
		}
	}
	for i := range v {
		want := i + 1
		for want < len(v) && v[want] == v[i] {
			want++
		}
		if got := runEnd(v, i); got != want {
			t.Fatalf("runEnd(v, %d) = %d, want %d", i, got, want)
		}
	}
}
