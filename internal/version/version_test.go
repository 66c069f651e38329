package version

import (
	"slices"
	"testing"
)

// TestCompare sorts labels as a person reads them.
func TestCompare(t *testing.T) {
	got := []string{"1.10.0", "1.9.0", "1.1.1", "1.2.0", "1.10.7", "v10", "v2", "01_10_07", "01_09_00", "1.0.0-rc1", "1.0.0", "1_2", "1_10"}
	slices.SortFunc(got, Compare)
	want := []string{"1.0.0", "1.0.0-rc1", "1.1.1", "1.2.0", "1.9.0", "1.10.0", "1.10.7", "1_2", "01_09_00", "1_10", "01_10_07", "v2", "v10"}
	if !slices.Equal(got, want) {
		t.Errorf("sorted %v, want %v", got, want)
	}
	for _, c := range [][2]string{{"a", "a"}, {"007", "7"}} {
		if Compare(c[0], c[1]) == 0 && c[0] != c[1] {
			t.Errorf("Compare(%q, %q) = 0 for different labels", c[0], c[1])
		}
	}
}
