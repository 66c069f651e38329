package reports

import (
	"bytes"
	"strings"
	"testing"
)

func TestShowBidi(t *testing.T) {
	for in, want := range map[string]string{
		"parse":                                "parse",
		"parse\u202eesrap":                     `parse\u202eesrap`,
		"\u202a\u202b\u202c\u202d\u202e":       `\u202a\u202b\u202c\u202d\u202e`,
		"\u2066a\u2067b\u2068c\u2069":          `\u2066a\u2067b\u2068c\u2069`,
		"x\u200ey\u200fz\u061c":                `x\u200ey\u200fz\u061c`,
		"שלום size=10 \u200b\u200d zero-width": "שלום size=10 \u200b\u200d zero-width", // letters and other format characters stay
	} {
		if got := ShowBidi(in); got != want {
			t.Errorf("ShowBidi(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWriteHTMLIsolatesNames: every text cell of an HTML table is a <bdi>
// that wraps anywhere, and a bidi control in it is shown as an escape.
func TestWriteHTMLIsolatesNames(t *testing.T) {
	long := "Benchmark" + strings.Repeat("x", 20000)
	tab := &Table{Title: "t\u202e", Columns: []string{"benchmark", "n"}}
	tab.AddRow("parse\u202eesrap", 1)
	tab.AddRow("שלום", 2)
	tab.AddRow(long, 3)
	var b bytes.Buffer
	if err := tab.writeHTML(&b); err != nil {
		t.Fatal(err)
	}
	h := b.String()
	for _, want := range []string{
		"<caption>t\\u202e</caption>",
		`<td style="overflow-wrap:anywhere"><bdi>parse\u202eesrap</bdi></td><td style="text-align:right">1</td>`,
		`<td style="overflow-wrap:anywhere"><bdi>שלום</bdi></td>`,
		`<td style="overflow-wrap:anywhere"><bdi>` + long + `</bdi></td>`,
	} {
		if !strings.Contains(h, want) {
			t.Errorf("html lacks %.120q:\n%.600s", want, h)
		}
	}
	if strings.ContainsFunc(h, isBidi) {
		t.Errorf("html holds a bidi control")
	}
}
