package csvfile

import (
	"bytes"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/ingest"
)

func TestParseInt(t *testing.T) {
	for _, tc := range []struct {
		s    string
		bits int
		want int64
		ok   bool
	}{
		{"5", 32, 5, true}, {" 5 ", 32, 5, true}, {"5.0", 32, 5, true}, {"1e3", 32, 1000, true},
		{"5.5", 32, 0, false}, {"", 32, 0, false}, {"NaN", 32, 0, false}, {"2147483648", 32, 0, false},
		{"2147483648", 64, 2147483648, true}, {"1e300", 64, 0, false}, {"-7", 64, -7, true},
	} {
		got, err := ParseInt(TrimSpace(tc.s), tc.bits)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseInt(TrimSpace(%q), %d) = %d, %v; want %d, ok %v", tc.s, tc.bits, got, err, tc.want, tc.ok)
		}
	}
}

func TestOtherDelimiter(t *testing.T) {
	for _, tc := range []struct {
		head  []string
		comma rune
		want  string
	}{
		{[]string{"b_name;ns_per_op;n"}, ',', "';'"},
		{[]string{"\ufeffB_NAME\tNS_PER_OP"}, ',', "tab"},
		{[]string{"benchmark,params,instance"}, ';', "','"},
		{[]string{"benchmark;params"}, ';', ""}, // its own delimiter
		{[]string{"b_name", "ns_per_op"}, ',', ""},
		{[]string{"b_name;x"}, ',', ""}, // one known name
	} {
		if got := OtherDelimiter(tc.head, tc.comma, "b_name", "ns_per_op", "n", "benchmark", "params", "instance"); got != tc.want {
			t.Errorf("OtherDelimiter(%q, %q) = %q, want %q", tc.head, tc.comma, got, tc.want)
		}
	}
}

// TestReader checks the header, the records with their lines, a
// malformed record counted with the lines it spans, and the warning for a
// header without records.
func TestReader(t *testing.T) {
	var rep ingest.Summary
	if _, err := NewReader(strings.NewReader(""), "", ',', &rep, "bad"); err == nil || err.Error() != "<input>: empty file: no header line" {
		t.Errorf("empty: %v", err)
	}
	r, err := NewReader(strings.NewReader("\ufeffA, b\n1,2\n\"x\n3,4\n"), "f.csv", ',', &rep, "bad")
	if err != nil {
		t.Fatal(err)
	}
	if names, index := Names(r.Head); strings.Join(names, "|") != "a|b" || index["b"] != 1 || r.HeadLine != 1 {
		t.Errorf("header %q (line %d): names %q", r.Head, r.HeadLine, names)
	}
	var got []string
	for r.Scan() {
		rec, line := r.Record()
		got = append(got, strings.Join(rec, "|")+"@"+string(rune('0'+line)))
	}
	if r.Err() != nil || strings.Join(got, " ") != "1|2@2" || rep.Count("bad") != 2 {
		t.Errorf("records %q, err %v, malformed %d", got, r.Err(), rep.Count("bad"))
	}
	r, _ = NewReader(strings.NewReader("a,b\n"), "h.csv", ',', &rep, "bad")
	for r.Scan() {
	}
	r.WarnIfEmpty("empty")
	if rep.Count("empty") != 1 {
		t.Error("no warning for a header without rows")
	}
	if got := FirstLine([]byte("\ufeffa,b\r\nc")); !bytes.Equal(got, []byte("a,b")) {
		t.Errorf("FirstLine: %q", got)
	}
}
