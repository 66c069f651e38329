// Package ingest holds what every result-file reader shares: the bad-input
// error type (ParseError), the Summary of skipped and suspicious items, the
// Format interface the readers in format/<name> implement, labels taken
// from file names, and unit normalisation to nanoseconds per operation.
//
// Flow: format/<name> parses a file and appends canonical rows to a
// table.Builder; ReadFiles detects each file's format among the formats the
// caller passes in ReadOptions.Formats (all.Formats() of package format/all
// lists the readers; ingest imports none of them) and drives them, and hands
// a directory to the DirFormat that reads it (a duetbench output directory);
// analyzers then read the table (package table), never the files.
package ingest

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/benchtrim/benchtrim/table"
)

// ParseError is bad input at a place in a file. It prints as
// "file:line: msg", "file:$.json.path: msg" or "file: msg".
type ParseError struct {
	File string
	// Line is 1-based; 0 when unknown.
	Line int
	// Path is a JSON path such as $[3].primaryMetric.rawData[0][2]; "" when not JSON.
	Path string
	Msg  string
}

func (e *ParseError) Error() string {
	switch {
	case e.Path != "" && e.Line > 0:
		return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Path, e.Msg)
	case e.Path != "":
		return fmt.Sprintf("%s:%s: %s", e.File, e.Path, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Summary kinds of rows a reader left out because the table cannot hold
// them (see table.Row.Check).
const (
	KindUnknownMode = "unknown mode"
	KindTooLong     = "string longer than table.MaxStringBytes"
	kindRejected    = "row the table cannot hold"
)

// RejectKind is the Summary kind for an error of table.Row.Check or
// table.Builder.Append: KindUnknownMode, KindTooLong or kindRejected.
func RejectKind(err error) string {
	var re *table.InvalidError
	switch {
	case !errors.As(err, &re):
		return kindRejected
	case re.Column == table.ColMode:
		return KindUnknownMode
	case re.Column == table.ColCount:
		return kindRejected
	}
	return KindTooLong
}

// Source describes the file being read and the labels its rows get.
type Source struct {
	// File is the name used in row locators and error messages.
	File string
	// Project and Version label every row (see labelsFromFileName).
	Project, Version string
	// ProjectFromUser and VersionFromUser are true when that label was given
	// by the user (flags) rather than taken from the file name; formats that
	// carry their own labels (pa's project and commit columns, a go test
	// "commit:" line) prefer those over file-name labels but not over the
	// user's.
	ProjectFromUser, VersionFromUser bool
	// Instance and Trial stamp rows of formats that have no such level
	// (JMH JSON, go test text); 0 means 1.
	Instance, Trial int32
	// Instances, when not nil, numbers the named instances of formats that
	// identify them by name (duet artifacts) across the files of one
	// ReadFiles call; nil numbers them per file.
	Instances *Instances
}

// Format is one result-file format.
type Format interface {
	// Name is the --format name (format/all.Formats lists every format).
	Name() string
	// Sniff reports whether head (the first bytes of a file, up to 64 KiB)
	// looks like this format. A format whose marks may come later in a
	// file also implements LineSniffer.
	Sniff(head []byte) bool
	// Likely scores how much a head that no format's Sniff accepted
	// resembles this format: 0 not at all, 1 it has the format's shape (a
	// JSON document, lines of the right field count), 2 it names the
	// format's own fields or columns. When no format sniffs a file,
	// ReadFiles reads it with the single likeliest format so that the error
	// is that reader's precise one (file:line: what is wrong) instead of
	// "unrecognised format".
	Likely(head []byte) int
	// Read parses r and appends canonical rows and setups to dst. Bad items
	// it can step over go to rep (counted, with their place); it returns a
	// *ParseError when the input cannot be read on (truncated or invalid
	// syntax), and wraps I/O errors with %w.
	Read(r io.Reader, src Source, dst *table.Builder, rep *Summary) error
}

// Summary collects the items a read skipped or found suspicious, counted by
// kind, keeping the first few examples of each kind with their places.
type Summary struct {
	kinds map[string]*SummaryKind
}

// SummaryKind is one kind of skipped, suspicious or ignored item.
type SummaryKind struct {
	Kind string
	// state says what became of such items: left out of the table (rows
	// dropped), kept and warned about, or ignored (lines that hold no
	// data, such as go test's other output).
	state itemState
	// count is how many items (rows, for skipped items; lines, for ignored
	// ones) of this kind there were (Summary.Count sums it by kind).
	count int
	// Examples are the first MaxExamples occurrences.
	Examples []*ParseError
}

// itemState is what became of a ReportKind's items, in the order Kinds
// lists them.
type itemState uint8

const (
	stateSkipped itemState = iota
	stateWarned
	stateIgnored
)

// Skipped reports whether the items of k were left out of the table
// (rows dropped) rather than kept and warned about, or ignored.
func (k *SummaryKind) Skipped() bool { return k.state == stateSkipped }

// Ignored reports whether the items of k are lines a reader did not take
// because they hold no data (Summary.Ignore).
func (k *SummaryKind) Ignored() bool { return k.state == stateIgnored }

// N is how many items (rows, for skipped items) of kind k there were.
func (k *SummaryKind) N() int { return k.count }

// MaxExamples is how many examples of each kind a Summary keeps.
const MaxExamples = 5

// Skip records n rows left out of the table for reason kind at place err.
func (r *Summary) Skip(kind string, n int, err *ParseError) { r.add(kind, stateSkipped, n, err) }

// Warn records a suspicious item that was kept.
func (r *Summary) Warn(kind string, err *ParseError) { r.add(kind, stateWarned, 1, err) }

// Ignore records n lines of the input that a reader did not take because
// they hold no data, as the format's own tool ignores them (go test's
// output besides its results, which benchfmt skips): counted with their
// reason, neither rows skipped nor suspicious.
func (r *Summary) Ignore(kind string, n int, err *ParseError) { r.add(kind, stateIgnored, n, err) }

func (r *Summary) add(kind string, state itemState, n int, err *ParseError) {
	if r.kinds == nil {
		r.kinds = map[string]*SummaryKind{}
	}
	id := [...]string{"skip:", "", "ignore:"}[state] + kind
	k := r.kinds[id]
	if k == nil {
		k = &SummaryKind{Kind: kind, state: state}
		r.kinds[id] = k
	}
	k.count += n
	if len(k.Examples) < MaxExamples && err != nil {
		k.Examples = append(k.Examples, err)
	}
}

// merge adds o's counts and examples to r.
func (r *Summary) merge(o *Summary) {
	for _, k := range o.Kinds() {
		for i, ex := range k.Examples {
			n := 0
			if i == 0 {
				n = k.count - len(k.Examples) + 1
			} else {
				n = 1
			}
			r.add(k.Kind, k.state, n, ex)
		}
		if len(k.Examples) == 0 {
			r.add(k.Kind, k.state, k.count, nil)
		}
	}
}

// Kinds lists the kinds, skipped ones first, then warnings, then ignored
// lines, each by kind name.
func (r *Summary) Kinds() []*SummaryKind {
	out := make([]*SummaryKind, 0, len(r.kinds))
	for _, k := range r.kinds {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].state != out[j].state {
			return out[i].state < out[j].state
		}
		return out[i].Kind < out[j].Kind
	})
	return out
}

// Count is the count recorded for kind (skipped, kept and ignored items
// together).
func (r *Summary) Count(kind string) int {
	n := 0
	for _, k := range r.kinds {
		if k.Kind == kind {
			n += k.count
		}
	}
	return n
}

// SkippedRows is the total number of rows left out.
func (r *Summary) SkippedRows() int { return r.total(stateSkipped) }

// IgnoredLines is the total number of lines ignored (Ignore).
func (r *Summary) IgnoredLines() int { return r.total(stateIgnored) }

func (r *Summary) total(state itemState) int {
	n := 0
	for _, k := range r.kinds {
		if k.state == state {
			n += k.count
		}
	}
	return n
}

// Empty reports whether nothing was skipped or found suspicious (ignored
// lines aside).
func (r *Summary) Empty() bool { return len(r.kinds) == 0 || len(r.kinds) == r.ignoredKinds() }

func (r *Summary) ignoredKinds() int {
	n := 0
	for _, k := range r.kinds {
		if k.state == stateIgnored {
			n++
		}
	}
	return n
}

// WriteTo prints one line per kind ("skipped 5: NaN value", "warning 1: …",
// "ignored 12: …") followed by its examples, indented.
func (r *Summary) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	for _, k := range r.Kinds() {
		fmt.Fprintf(&b, "%s %d: %s\n", [...]string{"skipped", "warning", "ignored"}[k.state], k.count, k.Kind)
		for _, ex := range k.Examples {
			fmt.Fprintf(&b, "    %s\n", ex)
		}
		if k.count > len(k.Examples) && len(k.Examples) > 0 {
			fmt.Fprintf(&b, "    … and %d more\n", k.count-len(k.Examples))
		}
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// versionSuffix matches PROJECT-VERSION; compiled on first use, not at
// start-up.
var versionSuffix = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(.+?)[-_@]((?:v\d+(?:\.\d+)*|\d+(?:\.\d+)+)(?:[-+.][0-9A-Za-z.\-]+)?)$`)
})

// labelsFromFileName derives a project and version label from a file name
// of the form PROJECT-VERSION.ext (for example prometheus-v0.35.0.csv gives
// "prometheus", "v0.35.0"; '_' and '@' also separate; a version is v1,
// v1.2, 1.2 or 1.2.3 with an optional -rc1/+meta suffix). Other names give the
// name without extension as project and an empty version.
func labelsFromFileName(path string) (project, version string) {
	if path == "-" {
		return "stdin", ""
	}
	base := filepath.Base(path)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	if m := versionSuffix().FindStringSubmatch(stem); m != nil {
		return m[1], m[2]
	}
	return stem, ""
}
