// Package export writes the canonical table in other tools' formats, so
// results benchtrim read can be handed to them: the pa/bencher CSV that
// Laaber's pa tool reads (WritePA), and Go benchmark text that benchstat
// reads (WriteGoBench).
//
// Flow: ingest → table → export. The writers read the table through
// table.Collect.
//
// Both writers promise that what they write, their format's reader in
// ingest/ reads back as the same rows (benchmark, params, mode, version,
// levels the format has, count and value). A label a format cannot carry
// that way is not written in a form another reader would misread: the
// writer returns a *NameError naming the benchmark instead. The rules of
// each format are in WritePA and WriteGoBench.
package export

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/benchtrim/benchtrim/table"
)

// NameError is a label a format cannot carry (a benchmark name with a
// space in Go benchmark text, a carriage return in pa CSV, …): the writer
// stops with it rather than write a line its reader would read differently.
type NameError struct {
	// Format is "pa" or "gobench".
	Format string
	// Key is the benchmark run the label belongs to.
	Key table.Key
	// Field names the label: benchmark, params, project, version, mode, unit
	// or metric.
	Field string
	// Value is the offending label and Reason why it cannot be written.
	Value, Reason string
}

func (e *NameError) Error() string {
	return fmt.Sprintf("export %s: %s: %s %q %s", e.Format, e.Key, e.Field, e.Value, e.Reason)
}

// badRune returns a description of the first rune of s that is invalid
// UTF-8, white space (when noSpace) or not printable, or "".
func badRune(s string, noSpace bool) string {
	if !utf8.ValidString(s) {
		return "is not valid UTF-8"
	}
	for _, r := range s {
		switch {
		case noSpace && unicode.IsSpace(r):
			return fmt.Sprintf("holds white space (%U)", r)
		case r != ' ' && !unicode.IsPrint(r) && !unicode.IsSpace(r):
			return fmt.Sprintf("holds the non-printable character %U", r)
		}
	}
	return ""
}

// endsWithProcs reports whether name ends like a go test GOMAXPROCS
// suffix ("-8"), which the gobench reader strips from a name.
func endsWithProcs(name string) bool {
	i := strings.LastIndexByte(name, '-')
	if i < 0 || i+1 == len(name) {
		return false
	}
	for _, c := range name[i+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	_, err := strconv.ParseInt(name[i+1:], 10, 32)
	return err == nil
}
