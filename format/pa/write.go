package pa

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/benchtrim/benchtrim/format"
	"github.com/benchtrim/benchtrim/table"
)

// Write writes the primary measurements as pa/bencher CSV: one row per
// table row (a histogram bucket keeps its count in value_count), values as
// recorded in their unit with full precision, the instance as its number.
// Rows are grouped by benchmark and params, as pa requires. pa has no slice
// level: the slices of an iteration (µOpTime data) are written as one row,
// their count-weighted mean with value_count = Σ count.
//
// Labels are written with RFC 4180 quoting (encoding/csv with ';'): a label
// holding ';', '"', a newline or a leading space is quoted, '"' doubled,
// which pa and Format read back unchanged. Params are written as pa
// writes them, "k1=v1,k2=v2" with keys and values unescaped (a ',' inside a
// value is read as part of it). A *format.NameError is returned for what the pa
// reader cannot read back as written:
//
//	a label that is not valid UTF-8 or holds a carriage return ("\r\n" inside
//	a quoted field reads back as "\n")
//	a label, or the params field, starting or ending with white space (the
//	reader trims fields)
//	an empty benchmark name
//	a params key that is empty or holds ',' or '=', and a value holding ','
//	followed by "k=…" (read as another parameter)
func Write(w io.Writer, t *table.Table) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(Header + "\n")
	cw := csv.NewWriter(bw)
	cw.Comma = ';'
	rec := make([]string, 12)
	for _, s := range t.Collect(table.Filter{}) {
		params, err := paParams(s)
		if err != nil {
			return err
		}
		for _, f := range []struct{ name, v string }{{"project", s.Project}, {"version", s.Version},
			{"benchmark", s.Benchmark}, {"params", params}, {"mode", s.Mode}, {"unit", s.Unit}} {
			if err := checkPAField(s.Key, f.name, f.v); err != nil {
				return err
			}
		}
		if s.Benchmark == "" {
			return &format.NameError{Format: "pa", Key: s.Key, Field: "benchmark", Reason: "is empty; the pa reader skips rows without a benchmark"}
		}
		rec[0], rec[1], rec[2], rec[3] = s.Project, s.Version, s.Benchmark, params
		rec[8], rec[9] = s.Mode, s.Unit
		write := func(i int, count int64, value float64) {
			rec[4] = strconv.Itoa(int(s.Levels[table.LevelInstance][i]))
			rec[5] = strconv.Itoa(int(s.Levels[table.LevelTrial][i]))
			rec[6] = strconv.Itoa(int(s.Levels[table.LevelFork][i]))
			rec[7] = strconv.Itoa(int(s.Levels[table.LevelIteration][i]))
			rec[10] = strconv.FormatInt(count, 10)
			rec[11] = strconv.FormatFloat(value, 'g', -1, 64)
			cw.Write(rec)
		}
		if s.Sizes()[table.LevelSlice] <= 1 {
			for i := 0; i < s.Len(); i++ {
				write(i, s.Count[i], s.Value[i])
			}
			continue
		}
		// pa has no slice level: an iteration's slices become one row, the
		// count-weighted mean of their values with value_count = Σ count
		// (what pa's -is 0 computes from them anyway).
		for _, sp := range s.Units(table.LevelIteration) {
			n, mean := format.MergeSpan(s.Value, s.Count, sp)
			write(sp.Start, n, mean)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// checkPAField returns a *format.NameError when the pa reader would not read v
// back unchanged.
func checkPAField(k table.Key, field, v string) error {
	var reason string
	switch {
	case !utf8.ValidString(v):
		reason = "is not valid UTF-8"
	case strings.ContainsRune(v, '\r'):
		reason = "holds a carriage return, which CSV readers turn into a line break"
	case strings.IndexFunc(v, unicode.IsControl) >= 0:
		r, _ := utf8.DecodeRuneInString(v[strings.IndexFunc(v, unicode.IsControl):])
		reason = fmt.Sprintf("holds the control character %U, which the readers escape", r)
	case strings.TrimSpace(v) != v:
		reason = "starts or ends with white space, which the pa reader trims"
	default:
		return nil
	}
	return &format.NameError{Format: "pa", Key: k, Field: field, Value: v, Reason: reason}
}

// paParams formats the run's params as pa writes them, "k1=v1,k2=v2",
// unescaped and sorted by key, or returns a *format.NameError when Format would
// split them differently.
func paParams(s *table.Series) (string, error) {
	if s.Params == "" {
		return "", nil
	}
	m, err := table.ParseParams(s.Params)
	if err != nil {
		return "", &format.NameError{Format: "pa", Key: s.Key, Field: "params", Value: s.Params, Reason: "are not canonical: " + err.Error()}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		v := m[k]
		bad := func(what, why string) error {
			return &format.NameError{Format: "pa", Key: s.Key, Field: "params", Value: s.Params, Reason: what + " " + why}
		}
		if k == "" || strings.ContainsAny(k, ",=") {
			return "", bad("key "+strconv.Quote(k), "is empty or holds ',' or '=', which pa cannot separate")
		}
		pieces := strings.Split(v, ",")
		for _, p := range pieces[1:] {
			if pk, _, ok := strings.Cut(p, "="); ok && pk != "" {
				return "", bad("value "+strconv.Quote(v), "holds ',' followed by "+strconv.Quote(p)+", which pa reads as another parameter")
			}
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(v)
	}
	return b.String(), nil
}
