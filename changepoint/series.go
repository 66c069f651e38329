package changepoint

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// ReadSeries reads the numeric series the changepoint command segments
// from r: one value per line, or, when column is not "", the values of the
// CSV column of that name under a header line. name is the input's name in
// errors, which give the line ("name:3: "oops" is not a number").
//
// One value per line: a first line that is not a number is taken as a
// header, and blank lines are skipped; any other line that is not a finite
// number is an error. CSV: rows may have any number of fields, an empty
// field in the column is skipped, a non-finite or non-numeric one is an
// error. note says what was skipped ("" when nothing was).
func ReadSeries(name string, r io.Reader, column string) (x []float64, note string, err error) {
	if column != "" {
		return readCSVColumn(name, r, column)
	}
	var notes []string
	blank := 0
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for line := 1; sc.Scan(); line++ {
		t := strings.TrimSpace(sc.Text())
		if t == "" {
			blank++
			continue
		}
		v, err := strconv.ParseFloat(t, 64)
		if err != nil {
			if line == 1 {
				notes = append(notes, fmt.Sprintf("line 1 (%q) is not a number: taken as a header", t))
				continue
			}
			return nil, "", fmt.Errorf("%s:%d: %q is not a number", name, line, t)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, "", fmt.Errorf("%s:%d: value %v is not finite", name, line, v)
		}
		x = append(x, v)
	}
	if err := sc.Err(); err != nil {
		return nil, "", fmt.Errorf("%s: %w", name, err)
	}
	if blank > 0 {
		notes = append(notes, fmt.Sprintf("%d blank line(s) skipped", blank))
	}
	return x, strings.Join(notes, "; "), nil
}

// readCSVColumn is ReadSeries for CSV input.
func readCSVColumn(name string, r io.Reader, column string) ([]float64, string, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		return nil, "", fmt.Errorf("%s:1: reading the header: %w", name, err)
	}
	col := -1
	for i, h := range header {
		if strings.TrimSpace(h) == column {
			col = i
			break
		}
	}
	if col < 0 {
		return nil, "", fmt.Errorf("%s:1: no column %q (columns: %s)", name, column, strings.Join(header, ", "))
	}
	var x []float64
	empty := 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", name, err) // a *csv.ParseError, which gives the line
		}
		line, _ := cr.FieldPos(0)
		if col >= len(rec) {
			return nil, "", fmt.Errorf("%s:%d: %d fields, no column %q", name, line, len(rec), column)
		}
		t := strings.TrimSpace(rec[col])
		if t == "" {
			empty++
			continue
		}
		v, err := strconv.ParseFloat(t, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, "", fmt.Errorf("%s:%d: column %q: %q is not a finite number", name, line, column, t)
		}
		x = append(x, v)
	}
	note := ""
	if empty > 0 {
		note = fmt.Sprintf("%d row(s) with an empty %q skipped", empty, column)
	}
	return x, note, nil
}
