package reports

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Width is the widest line benchtrim prints for people.
const Width = 100

// Wrap breaks text into lines of at most width runes at spaces; lines after
// the first start with indent. Words longer than a line stay whole.
func Wrap(text string, width int, indent string) string {
	var b strings.Builder
	line := 0
	for i, word := range strings.Fields(text) {
		w := utf8.RuneCountInString(word)
		switch {
		case i == 0:
		case line+1+w > width:
			b.WriteString("\n" + indent)
			line = utf8.RuneCountInString(indent)
		default:
			b.WriteByte(' ')
			line++
		}
		b.WriteString(word)
		line += w
	}
	return b.String()
}

// ListSummary lists the first max names and counts the rest:
// "a, b, c, d, e … and 12 more".
func ListSummary(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:max], ", ") + fmt.Sprintf(" … and %d more", len(names)-max)
}
