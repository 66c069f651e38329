package ingest

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCleanName(t *testing.T) {
	for _, tc := range []struct {
		in, want      string
		badUTF8, ctrl bool
	}{
		{"org.example.Bench.parse", "org.example.Bench.parse", false, false},
		{"Größe=10µs", "Größe=10µs", false, false},
		{"a\nb", `a\nb`, false, true},
		{"tab\there\r", `tab\there\r`, false, true},
		{"esc\x1b[31m", `esc\x1b[31m`, false, true},
		{"del\x7f", `del\x7f`, false, true},
		{"nel\u0085x", `nel\u0085x`, false, true},
		{"bad\xff\xfeend", "bad\uFFFDend", true, false},
		{"\xffa\xff", "\uFFFDa\uFFFD", true, false},
		{"\uFFFD\xff", "\uFFFD\uFFFD", true, false},
		{"both\n\xc3", `both\n` + "\uFFFD", true, true},
		// Bidi controls: "parse\u202eesrap" displays as "parseparse".
		{"parse\u202eesrap", `parse\u202eesrap`, false, true},
		{"a\u202ab\u202bc\u202cd\u202de\u202ef", `a\u202ab\u202bc\u202cd\u202de\u202ef`, false, true},
		{"\u2066x\u2067y\u2068z\u2069", `\u2066x\u2067y\u2068z\u2069`, false, true},
		{"m\u200el\u200fa\u061c", `m\u200el\u200fa\u061c`, false, true},
		{"שלום=ערך", "שלום=ערך", false, false},               // right-to-left letters are kept
		{"zw\u200bj\u200d", "zw\u200bj\u200d", false, false}, // other format characters too
	} {
		got, bad, ctrl := CleanName(tc.in)
		if got != tc.want || bad != tc.badUTF8 || ctrl != tc.ctrl {
			t.Errorf("CleanName(%q) = %q, %v, %v; want %q, %v, %v", tc.in, got, bad, ctrl, tc.want, tc.badUTF8, tc.ctrl)
		}
		if !utf8.ValidString(got) || strings.ContainsAny(got, "\n\r\t\x00") {
			t.Errorf("CleanName(%q) = %q is not a clean name", tc.in, got)
		}
		if !tc.badUTF8 && !tc.ctrl && got != tc.in {
			t.Errorf("CleanName(%q) changed a clean name", tc.in)
		}
		if tc.badUTF8 && !tc.ctrl && got != strings.ToValidUTF8(tc.in, "\uFFFD") {
			t.Errorf("CleanName(%q) = %q differs from strings.ToValidUTF8", tc.in, got)
		}
	}
}

func TestNamesWarnOncePerName(t *testing.T) {
	var rep Summary
	n := Names{Rep: &rep}
	for line := 1; line <= 3; line++ {
		if got := n.Clean("x\ny", "benchmark", ParseError{File: "f.csv", Line: line}); got != `x\ny` {
			t.Fatalf("Clean = %q", got)
		}
	}
	n.Clean("z\xff", "param value", ParseError{File: "f.csv", Line: 4})
	n.Clean("fine", "benchmark", ParseError{File: "f.csv", Line: 5})
	if rep.Count(KindControlName) != 1 || rep.Count(KindInvalidUTF8Name) != 1 || rep.SkippedRows() != 0 {
		t.Errorf("report:\n%s", reportText(&rep))
	}
	text := reportText(&rep)
	for _, want := range []string{`f.csv:1: benchmark "x\ny" holds control characters; stored as "x\\ny"`, `f.csv:4: param value "z\xff" is not valid UTF-8; stored as "z�"`} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %s:\n%s", want, text)
		}
	}
}

// TestNamesWarnBidi: a name with a bidi control is warned about under its
// own kind, with the place, the name as read and as stored.
func TestNamesWarnBidi(t *testing.T) {
	var rep Summary
	n := Names{Rep: &rep}
	if got := n.Clean("Bench\u202eesrap", "benchmark", ParseError{File: "f.txt", Line: 2}); got != `Bench\u202eesrap` {
		t.Errorf("Clean = %q", got)
	}
	n.Clean("size=\u2067100\u2069", "param value", ParseError{File: "f.txt", Line: 3})
	n.Clean("c\x01\u200f", "benchmark", ParseError{File: "f.txt", Line: 4})
	if rep.Count(kindBidiName) != 3 || rep.Count(KindControlName) != 1 {
		t.Errorf("bidi %d, control %d; report:\n%s", rep.Count(kindBidiName), rep.Count(KindControlName), reportText(&rep))
	}
	text := reportText(&rep)
	for _, want := range []string{
		`f.txt:2: benchmark "Bench\u202eesrap" holds bidi controls, which change how names display; stored as "Bench\\u202eesrap"`,
		`f.txt:3: param value "size=\u2067100\u2069" holds bidi controls`,
		`f.txt:4: benchmark "c\x01\u200f" holds control characters; stored as "c\\x01\\u200f"`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %s:\n%s", want, text)
		}
	}
}

func TestMode(t *testing.T) {
	for in, want := range map[string]string{"avgt": "avgt", "thrpt": "thrpt", "sample": "sample", "ss": "ss", "go": "go",
		"Throughput": "thrpt", "AverageTime": "avgt", "SampleTime": "sample", "SingleShotTime": "ss"} {
		if got, ok := Mode(in); !ok || got != want {
			t.Errorf("Mode(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"bogus", "weird", "", "AVGT", "all", "avgt "} {
		if got, ok := Mode(in); ok {
			t.Errorf("Mode(%q) = %q, ok; want not ok", in, got)
		}
	}
}

func TestConflictMarker(t *testing.T) {
	for _, tc := range []struct {
		head string
		line int
		text string
	}{
		{"[\n<<<<<<< HEAD\n{}\n=======\n>>>>>>> b\n]", 2, "<<<<<<< HEAD"},
		{"<<<<<<<\r\nx", 1, "<<<<<<<"},
		{"a\n=======\n", 0, ""},         // a line of '=' alone is not a conflict
		{"x <<<<<<< HEAD\n", 0, ""},     // not at the start of a line
		{"<<<<<<<<<< not git\n", 0, ""}, // no space after seven '<'
		{"", 0, ""},
	} {
		line, text := conflictMarker([]byte(tc.head))
		if line != tc.line || text != tc.text {
			t.Errorf("ConflictMarker(%q) = %d, %q; want %d, %q", tc.head, line, text, tc.line, tc.text)
		}
	}
}

func reportText(r *Summary) string {
	var b strings.Builder
	r.WriteTo(&b)
	return b.String()
}
