package compare

import (
	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/reports"

	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/benchtrim/benchtrim/table"
)

// width is the number of columns the text reports keep within: long
// names get lines of their own (textTable.fit), notes are wrapped and
// long lists cut to fit.
const width = reports.Width

// listNames is how many names a text report lists before "… and N more".
const listNames = 5

func runeLen(s string) int { return utf8.RuneCountInString(s) }

// plural is "1 benchmark", "2 benchmarks".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// abbreviate shortens s to at most n runes by replacing its middle with
// "…", keeping a third of the room for the start and the rest for the end
// (where params are).
func abbreviate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n || n < 3 {
		return s
	}
	head := (n - 1) / 3
	tail := n - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

// goMode is the mode of go test benchmarks in the canonical table.
const goMode = "go"

// labeler shortens benchmark names for the text tables: it drops the
// longest common dotted or slashed prefix of all names (JMH package names)
// or a "Benchmark" all Go names share, renders params as "/k=v" (fullName),
// shows the mode only when the rows have several, and project@version only
// when they have several.
type labeler struct {
	prefix       string
	showMode     bool
	showVersions bool
}

func newLabeler(ks []table.Key) labeler {
	var lb labeler
	if len(ks) == 0 {
		return lb
	}
	modes, versions := map[string]bool{}, map[[2]string]bool{}
	prefix := ks[0].Benchmark
	allGo := true
	for _, k := range ks {
		modes[k.Mode] = true
		versions[[2]string{k.Project, k.Version}] = true
		for !strings.HasPrefix(k.Benchmark, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
		allGo = allGo && strings.HasPrefix(k.Benchmark, "Benchmark") && len(k.Benchmark) > len("Benchmark")
	}
	// Cut after the last separator, and never swallow a whole name.
	if i := strings.LastIndexAny(prefix, "./"); i >= 0 {
		prefix = prefix[:i+1]
	} else {
		prefix = ""
	}
	for _, k := range ks {
		if len(k.Benchmark) == len(prefix) {
			prefix = ""
		}
	}
	if prefix == "" && allGo {
		prefix = "Benchmark"
	}
	lb.prefix = prefix
	lb.showMode = len(modes) > 1
	lb.showVersions = len(versions) > 1
	return lb
}

// label is the row name of k: its full name (fullName) without the
// labeler's prefix and, for a go test benchmark that ran with GOMAXPROCS
// procs ("" unknown) or has a gomaxprocs param (go test -cpu), benchstat's
// "-N" suffix: BenchmarkDecode/size=64 with procs 8 is "Decode/size=64-8".
func (lb labeler) label(k table.Key, procs string) string {
	if k.Mode == goMode && k.Benchmark != "" {
		if m, err := table.ParseParams(k.Params); err == nil && m["gomaxprocs"] != "" {
			procs = m["gomaxprocs"]
			k.Params = withoutParam(k.Params, "gomaxprocs")
		}
	}
	s := strings.TrimPrefix(fullName(nameOf(k)), lb.prefix)
	if procs != "" && k.Mode == goMode && s != "" {
		s += "-" + procs
	}
	if lb.showMode {
		s += " (" + k.Mode + ")"
	}
	if lb.showVersions || s == "" { // a row named by its run label alone (Options.Row .file)
		run := k.Project
		if k.Version != "" {
			run += "@" + k.Version
		}
		s = strings.TrimSpace(run + " " + s)
	}
	return s
}

// nameKey is the key the labeler shows for a name: a row split by
// project@version (Name.Config) shows its label as the project.
func nameKey(n Name) table.Key {
	return table.Key{Project: n.Config, Benchmark: n.Benchmark, Params: n.Params, Mode: n.Mode}
}

// formatNs formats a time in ns with 4 significant digits and a unit:
// "12.11ns", "1.718µs", "3.066ms", "1.234s".
func formatNs(ns float64) string {
	if math.IsNaN(ns) || math.IsInf(ns, 0) {
		return fmt.Sprint(ns)
	}
	units := []struct {
		scale float64
		name  string
	}{{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}}
	for _, u := range units {
		if math.Abs(ns) >= u.scale || u.scale == 1 {
			return strconv.FormatFloat(roundSig(ns/u.scale, 4), 'f', -1, 64) + u.name
		}
	}
	return ""
}

// formatValue formats a value of a metric other than time with 4
// significant digits and an SI prefix from 10⁴ on: "43", "7120", "306.4k",
// "1.2M" (the unit is in the column header).
func formatValue(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Sprint(v)
	}
	for _, u := range []struct {
		scale float64
		name  string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e4, "k"}} {
		if math.Abs(v) >= u.scale {
			if u.name == "k" {
				u.scale = 1e3
			}
			return strconv.FormatFloat(roundSig(v/u.scale, 4), 'f', -1, 64) + u.name
		}
	}
	return strconv.FormatFloat(roundSig(v, 4), 'f', -1, 64)
}

// roundSig rounds x to sig significant digits.
func roundSig(x float64, sig int) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', sig, 64), 64)
	return v
}

// formatSpread formats the half-width of an interval relative to its
// estimate, as benchstat does: the larger distance from the estimate to a
// bound, "±0.4%" below 1 % and "±12%" above.
func formatSpread(est, lo, hi float64) string {
	h := 100 * math.Max(est-lo, hi-est) / est
	switch {
	case math.IsNaN(h) || math.IsInf(h, 0):
		return ""
	case h == 0:
		return "±0%"
	case h < 0.95:
		return "±" + strconv.FormatFloat(h, 'f', 1, 64) + "%"
	}
	return "±" + strconv.FormatFloat(h, 'f', 0, 64) + "%"
}

// ratioDigits returns the decimals that show an interval's width with at
// least two significant digits (3 to 5).
func ratioDigits(lo, hi float64) int {
	d := 3
	for d < 5 && (hi-lo) < 10*math.Pow(10, -float64(d)) {
		d++
	}
	return d
}

// formatChange formats a ratio interval as a percent change with its
// interval, "+26.9 [+23.4, +30.4]", with the decimals ratioDigits gives
// the ratio less two.
func formatChange(r estimate.Interval) string {
	if math.IsNaN(r.Estimate) {
		return "n/a"
	}
	d := ratioDigits(r.Lower, r.Upper) - 2
	p := func(x float64) string {
		s := strconv.FormatFloat(100*(x-1), 'f', d, 64)
		if x >= 1 {
			s = "+" + s
		}
		return s
	}
	return p(r.Estimate) + " [" + p(r.Lower) + ", " + p(r.Upper) + "]"
}

func formatP(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return strconv.FormatFloat(p, 'f', 3, 64)
}

func formatDelta(d float64) string {
	return strconv.FormatFloat(d, 'f', 2, 64)
}

func confidenceLabel(c float64) string {
	return strconv.FormatFloat(100*c, 'f', -1, 64) + " %"
}

func formatRate(x float64) string {
	if math.IsNaN(x) {
		return "n/a"
	}
	return strconv.FormatFloat(roundSig(100*x, 3), 'f', -1, 64) + " %"
}

// textTable aligns columns: text left, numbers right. Column 0 holds the
// benchmark names; fit moves a name too long for the row onto a line of
// its own, so names are printed whole and rows stay within a width.
type textTable struct {
	header []string
	right  []bool
	rows   [][]string
	// own marks the rows whose name fit put on a line of its own (the
	// row's cells follow on the next line, under an empty name); a name
	// wider than total is broken over lines (breakName).
	own   map[int]bool
	total int
}

func (t *textTable) add(cells ...string) { t.rows = append(t.rows, cells) }

// widths are the columns' widths, leaving out the names printed on lines
// of their own.
func (t *textTable) widths() []int {
	width := make([]int, len(t.header))
	for i, r := range append([][]string{t.header}, t.rows...) {
		for j, c := range r {
			if j == 0 && t.own[i-1] {
				continue
			}
			width[j] = max(width[j], runeLen(c))
		}
	}
	return width
}

// fit puts on a line of its own every name that would make its row wider
// than total runes: the names' column is as wide as the longest name that
// fits beside the other columns (at least the header's).
func (t *textTable) fit(total int) {
	w := t.widths()
	rest := 0
	for _, x := range w[1:] {
		rest += x + 2
	}
	room := max(total-rest, runeLen(t.header[0]))
	t.total = total
	for i, r := range t.rows {
		if runeLen(r[0]) > room {
			if t.own == nil {
				t.own = map[int]bool{}
			}
			t.own[i] = true
		}
	}
}

func (t *textTable) write(w io.Writer) error {
	width := t.widths()
	var b strings.Builder
	for i, r := range append([][]string{t.header}, t.rows...) {
		if t.own[i-1] {
			for _, l := range breakName(r[0], t.total) {
				b.WriteString(l + "\n")
			}
			r = append([]string{""}, r[1:]...)
		}
		line := make([]string, len(r))
		for j, c := range r {
			pad := strings.Repeat(" ", max(0, width[j]-runeLen(c)))
			if t.right[j] {
				line[j] = pad + c
			} else {
				line[j] = c + pad
			}
		}
		b.WriteString(strings.TrimRight(strings.Join(line, "  "), " "))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// breakName splits a name wider than total runes into lines of at most
// total, each but the first indented by two spaces, breaking after the
// last '.', '/' or ',' that fits and leaves more than 3 runes to go (else
// at total): the name stays whole, read across the lines. A name that fits
// is one line.
func breakName(name string, total int) []string {
	r := []rune(name)
	var lines []string
	indent := ""
	for total > 3 && len(r)+len([]rune(indent)) > total {
		room := total - len([]rune(indent))
		cut := room
		for j := room - 1; j > 0; j-- {
			if (r[j] == '.' || r[j] == '/' || r[j] == ',') && len(r)-j-1 > 3 { // not a stub of a last line
				cut = j + 1
				break
			}
		}
		lines = append(lines, indent+string(r[:cut]))
		r, indent = r[cut:], "  "
	}
	return append(lines, indent+string(r))
}

func writeString(w io.Writer, s string) error {
	_, err := io.WriteString(w, s)
	return err
}

// runLabel is "project@version", "project" or "" for a run key.
func runLabel(k table.Key) string {
	s := k.Project
	if k.Version != "" {
		s += "@" + k.Version
	}
	return s
}

// groupByRun splits [0, n) into ranges of equal project and version (the
// items are sorted by key).
func groupByRun(n int, key func(int) table.Key) [][2]int {
	var out [][2]int
	for i := 0; i < n; {
		j := i + 1
		for j < n && key(j).Project == key(i).Project && key(j).Version == key(i).Version {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

// writeFailed lists the lines of what could not be compared or described
// under "\nLABEL (N):", the first 2·listNames and a count of the rest.
func writeFailed(b *strings.Builder, label string, failed []string) {
	if len(failed) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s (%d):\n", label, len(failed))
	if len(failed) > 2*listNames {
		failed = append(failed[:2*listNames:2*listNames], fmt.Sprintf("  … and %d more", len(failed)-2*listNames))
	}
	b.WriteString(strings.Join(failed, "\n") + "\n")
}
