// Package reports renders analyzer results for people: tables as Markdown,
// CSV, LaTeX and HTML, and plots (see plot.go). Analyzers build a Table of
// typed cells; the renderer decides how to print each cell, so CSV keeps
// full precision while Markdown stays readable.
package reports

import (
	"encoding/csv"
	"fmt"
	"html"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
)

// Table is a titled grid of cells. Cells may be string, int, int64, int32,
// float64, bool, Percent, Seconds or nil (empty).
type Table struct {
	Title   string
	Columns []string
	rows    [][]any
	// Notes are printed under the table (Markdown, LaTeX, HTML) and skipped in CSV.
	Notes []string
}

// Percent is a fraction shown as a percentage (0.153 → "15.3 %"); CSV keeps the fraction.
type Percent float64

// Seconds is a duration in seconds shown with a unit (s, min, h).
type Seconds float64

// AddRow appends a row; it panics when the cell count differs from the columns.
func (t *Table) AddRow(cells ...any) {
	if len(cells) != len(t.Columns) {
		panic(fmt.Sprintf("reports: row has %d cells, table %q has %d columns", len(cells), t.Title, len(t.Columns)))
	}
	t.rows = append(t.rows, cells)
}

// Human formats a cell for reading: 4 significant digits for floats.
func Human(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return formatSig(x, 4)
	case Percent:
		if math.IsNaN(float64(x)) {
			return "NaN"
		}
		return strconv.FormatFloat(float64(x)*100, 'f', 1, 64) + " %"
	case Seconds:
		s := float64(x)
		switch {
		case math.IsNaN(s):
			return "NaN"
		case math.Abs(s) >= 7200:
			return formatSig(s/3600, 3) + " h"
		case math.Abs(s) >= 120:
			return formatSig(s/60, 3) + " min"
		}
		return formatSig(s, 3) + " s"
	case bool:
		if x {
			return "yes"
		}
		return "no"
	}
	return fmt.Sprint(v)
}

// exact formats a cell for machines: floats round-trip, percents stay fractions.
func exact(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case Percent:
		return strconv.FormatFloat(float64(x), 'g', -1, 64)
	case Seconds:
		return strconv.FormatFloat(float64(x), 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

func formatSig(x float64, sig int) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	if x != 0 && (math.Abs(x) >= 1e7 || math.Abs(x) < 1e-4) {
		return strconv.FormatFloat(x, 'e', sig-1, 64)
	}
	s := strconv.FormatFloat(x, 'g', sig, 64)
	if strings.Contains(s, "e") {
		// |x| ≥ 10^sig: the integer part already has sig digits or more.
		s = strconv.FormatFloat(x, 'f', 0, 64)
	}
	return s
}

func isNumeric(v any) bool {
	switch v.(type) {
	case int, int32, int64, float64, Percent, Seconds:
		return true
	}
	return false
}

// WriteMarkdown renders the table as a GitHub-flavoured Markdown table,
// numbers right-aligned.
func (t *Table) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	if t.Title != "" {
		fmt.Fprintf(&b, "### %s\n\n", t.Title)
	}
	cells := make([][]string, len(t.rows))
	width := make([]int, len(t.Columns))
	for j, c := range t.Columns {
		width[j] = max(3, len([]rune(c)))
	}
	numeric := make([]bool, len(t.Columns))
	for i, r := range t.rows {
		cells[i] = make([]string, len(r))
		for j, v := range r {
			s := strings.ReplaceAll(Human(v), "|", `\|`)
			cells[i][j] = s
			width[j] = max(width[j], len([]rune(s)))
			if isNumeric(v) {
				numeric[j] = true
			}
		}
	}
	pad := func(s string, n int, right bool) string {
		fill := strings.Repeat(" ", n-len([]rune(s)))
		if right {
			return fill + s
		}
		return s + fill
	}
	b.WriteString("|")
	for j, c := range t.Columns {
		fmt.Fprintf(&b, " %s |", pad(c, width[j], numeric[j]))
	}
	b.WriteString("\n|")
	for j := range t.Columns {
		if numeric[j] {
			fmt.Fprintf(&b, " %s: |", strings.Repeat("-", width[j]-1))
		} else {
			fmt.Fprintf(&b, " %s |", strings.Repeat("-", width[j]))
		}
	}
	b.WriteString("\n")
	for _, r := range cells {
		b.WriteString("|")
		for j, s := range r {
			fmt.Fprintf(&b, " %s |", pad(s, width[j], numeric[j]))
		}
		b.WriteString("\n")
	}
	for _, n := range t.Notes {
		fmt.Fprintf(&b, "\n%s\n", n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeCSV renders the table as CSV with exact values (no title or notes).
func (t *Table) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(t.Columns)
	rec := make([]string, len(t.Columns))
	for _, r := range t.rows {
		for j, v := range r {
			rec[j] = exact(v)
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

var latexEscaper = strings.NewReplacer(`\`, `\textbackslash{}`, "&", `\&`, "%", `\%`, "$", `\$`, "#", `\#`, "_", `\_`, "{", `\{`, "}", `\}`, "~", `\textasciitilde{}`, "^", `\textasciicircum{}`)

// writeLaTeX renders the table as a booktabs tabular inside a table float.
func (t *Table) writeLaTeX(w io.Writer) error {
	var b strings.Builder
	align := make([]string, len(t.Columns))
	for j := range t.Columns {
		align[j] = "l"
		for _, r := range t.rows {
			if isNumeric(r[j]) {
				align[j] = "r"
				break
			}
		}
	}
	b.WriteString("\\begin{table}\n\\centering\n")
	if t.Title != "" {
		fmt.Fprintf(&b, "\\caption{%s}\n", latexEscaper.Replace(t.Title))
	}
	fmt.Fprintf(&b, "\\begin{tabular}{%s}\n\\toprule\n", strings.Join(align, ""))
	head := make([]string, len(t.Columns))
	for j, c := range t.Columns {
		head[j] = latexEscaper.Replace(c)
	}
	b.WriteString(strings.Join(head, " & ") + " \\\\\n\\midrule\n")
	for _, r := range t.rows {
		row := make([]string, len(r))
		for j, v := range r {
			row[j] = latexEscaper.Replace(Human(v))
		}
		b.WriteString(strings.Join(row, " & ") + " \\\\\n")
	}
	b.WriteString("\\bottomrule\n\\end{tabular}\n")
	for _, n := range t.Notes {
		fmt.Fprintf(&b, "\\par\\smallskip{\\footnotesize %s}\n", latexEscaper.Replace(n))
	}
	b.WriteString("\\end{table}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeHTML renders the table as a standalone HTML fragment with a <table>.
// Text cells (names) are isolated (<bdi>), show bidi controls as escapes
// (ShowBidi) and wrap anywhere, so a name cannot change how its
// neighbours display nor widen the page beyond the table's container.
func (t *Table) writeHTML(w io.Writer) error {
	var b strings.Builder
	esc := func(s string) string { return html.EscapeString(ShowBidi(s)) }
	b.WriteString("<table class=\"benchtrim\">\n")
	if t.Title != "" {
		fmt.Fprintf(&b, "<caption>%s</caption>\n", esc(t.Title))
	}
	b.WriteString("<thead><tr>")
	for _, c := range t.Columns {
		fmt.Fprintf(&b, "<th>%s</th>", esc(c))
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, r := range t.rows {
		b.WriteString("<tr>")
		for _, v := range r {
			if isNumeric(v) {
				fmt.Fprintf(&b, `<td style="text-align:right">%s</td>`, esc(Human(v)))
				continue
			}
			fmt.Fprintf(&b, `<td style="overflow-wrap:anywhere"><bdi>%s</bdi></td>`, esc(Human(v)))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table>\n")
	for _, n := range t.Notes {
		fmt.Fprintf(&b, "<p>%s</p>\n", esc(n))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteFile writes the table atomically, in the format named by the
// extension: .md, .csv, .tex, .html, or .arrow/.parquet for notebooks.
func (t *Table) WriteFile(path string) error {
	var fn func(io.Writer) error
	switch strings.ToLower(filepath.Ext(path)) {
	case ".md", ".markdown":
		fn = t.WriteMarkdown
	case ".csv":
		fn = t.writeCSV
	case ".tex":
		fn = t.writeLaTeX
	case ".html", ".htm":
		fn = t.writeHTML
	case ".arrow", ".ipc", ".feather":
		fn = t.writeArrow
	case ".parquet", ".pq":
		fn = t.writeParquet
	default:
		return fmt.Errorf("%s: unknown report extension (want .md, .csv, .tex, .html, .arrow or .parquet)", path)
	}
	return atomicfile.Write(path, fn)
}

// Select returns a table with only the named columns, in that order, and
// no notes. It panics when a column does not exist.
func (t *Table) Select(columns ...string) *Table {
	idx := make([]int, len(columns))
	for i, c := range columns {
		idx[i] = -1
		for j, d := range t.Columns {
			if d == c {
				idx[i] = j
			}
		}
		if idx[i] < 0 {
			panic(fmt.Sprintf("reports: table %q has no column %q", t.Title, c))
		}
	}
	out := &Table{Title: t.Title, Columns: append([]string(nil), columns...)}
	for _, r := range t.rows {
		row := make([]any, len(idx))
		for i, j := range idx {
			row[i] = r[j]
		}
		out.rows = append(out.rows, row)
	}
	return out
}
