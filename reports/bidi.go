package reports

import (
	"fmt"
	"strings"
	"unicode"
)

// ShowBidi returns s with every bidi control (Unicode's Bidi_Control: the
// embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069, the
// marks U+200E, U+200F and U+061C) written as its Go escape \uNNNN, as
// ingest stores them: in a page, such a character would reorder how a
// name displays ("parse\u202eesrap" shows as "parseparse"), so one name
// could look like another. s without one is returned as it is.
func ShowBidi(s string) string {
	if !strings.ContainsFunc(s, isBidi) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isBidi(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isBidi(r rune) bool { return unicode.Is(unicode.Bidi_Control, r) }
