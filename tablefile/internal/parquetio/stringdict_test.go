package parquetio

import "testing"

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
