package cliapp

import (
	"strings"
	"testing"
)

// TestFitLinesReflows: a paragraph written wider than the width is
// reflowed (no short line between two long ones), indented items keep
// their indentation, and a blank line ends the paragraph.
func TestFitLinesReflows(t *testing.T) {
	in := "aaaa bbbb cccc dddd eeee\nffff gggg hhhh\n\n  iiii jjjj kkkk llll\n    mmmm"
	got := fitLines(in, 15)
	want := "aaaa bbbb cccc\ndddd eeee ffff\ngggg hhhh\n\n  iiii jjjj\n  kkkk llll\n    mmmm"
	if got != want {
		t.Errorf("fitLines:\n%s\nwant:\n%s", got, want)
	}
	for _, l := range strings.Split(got, "\n") {
		if len(l) > 15 {
			t.Errorf("line %q longer than 15", l)
		}
	}
}
