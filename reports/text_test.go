package reports

import "testing"

func TestWrapAndListSummary(t *testing.T) {
	got := Wrap("aaa bbb ccc dddddddddd e", 8, "  ")
	if want := "aaa bbb\n  ccc\n  dddddddddd\n  e"; got != want {
		t.Errorf("Wrap = %q, want %q", got, want)
	}
	if got := ListSummary([]string{"a", "b", "c", "d"}, 2); got != "a, b … and 2 more" {
		t.Errorf("ListSummary = %q", got)
	}
	if got := ListSummary([]string{"a", "b"}, 2); got != "a, b" {
		t.Errorf("ListSummary = %q", got)
	}
}
