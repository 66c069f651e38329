package compare

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/table"
)

// The projections of Options.Row and Options.Col, in benchstat's spelling
// (golang.org/x/perf/cmd/benchstat: -row, -col). The canonical table has no
// file column: a file's runs carry its project@version label (ingest's
// PROJECT-VERSION.ext names, NAME=FILE, or the commit: configuration line
// of go test output), and every other configuration line of a file
// (goos, goarch, pkg, cpu, …) is kept in the run's setup (table.Setup.Env)
// without taking part in matching. So colConfig and a Row element .file or
// .config stand for that label.
const (
	// colFile compares the two sides named by the caller (files or label
	// selectors): benchstat's default -col .file.
	colFile = ".file"
	// colConfig compares the two project@version labels of one input:
	// benchstat's -col .config (the file configuration: here the run
	// labels, which the commit: line sets in go test output).
	colConfig = ".config"
)

// rowSpec is a parsed Options.Row: which parts of a benchmark run's key
// name its row (see Options.Row).
type rowSpec struct {
	fullname, name, config bool
	keys                   []string // /KEY elements, in order
}

// parseRow parses a projection: comma-separated .fullname, .name, .file,
// .config and /KEY elements; "" is .fullname.
func parseRow(s string) (rowSpec, error) {
	var r rowSpec
	if strings.TrimSpace(s) == "" {
		r.fullname = true
		return r, nil
	}
	for _, e := range strings.Split(s, ",") {
		switch e = strings.TrimSpace(e); {
		case e == ".fullname":
			r.fullname = true
		case e == ".name":
			r.name = true
		case e == ".file" || e == colConfig:
			r.config = true
		case strings.HasPrefix(e, "/") && len(e) > 1 && !strings.ContainsAny(e[1:], "/,="):
			if !slices.Contains(r.keys, e[1:]) {
				r.keys = append(r.keys, e[1:])
			}
		default:
			return r, fmt.Errorf("row %q: element %q is not .fullname, .name, .file, .config or /KEY", s, e)
		}
	}
	return r, nil
}

// colKey is the parameter key of a "/KEY" Col ("" for any other).
func colKey(col string) string {
	if strings.HasPrefix(col, "/") {
		return col[1:]
	}
	return ""
}

// checkProjections reports a Row or Col (Options) that cannot be used, and
// a Row that would put the two sides in different rows.
func checkProjections(row, col string) error {
	r, err := parseRow(row)
	if err != nil {
		return err
	}
	switch {
	case col == "" || col == colFile || col == colConfig:
		if r.config {
			return fmt.Errorf("row %q splits rows by the runs' project@version labels, which are the sides of col %s: compare two values of a parameter (col /KEY) instead", row, cmp.Or(col, colFile))
		}
	case strings.HasPrefix(col, "/") && len(col) > 1 && !strings.ContainsAny(col[1:], "/,="):
		if slices.Contains(r.keys, col[1:]) {
			return fmt.Errorf("row %q and col %s both split by %s: a row would hold one side", row, col, col)
		}
	default:
		return fmt.Errorf("col %q: want %s, %s or /KEY (a parameter, e.g. /size)", col, colFile, colConfig)
	}
	return nil
}

// baseName is benchstat's .name of a benchmark: the name without its
// sub-benchmark parts (everything from the first '/').
func baseName(b string) string {
	if i := strings.IndexByte(b, '/'); i > 0 {
		return b[:i]
	}
	return b
}

// keyFunc maps a benchmark run's key to the name of its row: the runs of
// one side with the same row name are pooled, and the sides are matched by
// it.
type keyFunc func(table.Key) Name

// rowKey returns the row name function of opt's Row and Col (Validate has
// checked them): by default the run's name with the Col parameter left out.
func (o *Options) rowKey() keyFunc {
	r, _ := parseRow(o.Row)
	col := colKey(o.Col)
	return func(k table.Key) Name {
		n := Name{Mode: k.Mode}
		if r.fullname {
			n.Benchmark, n.Params = k.Benchmark, withoutParam(k.Params, col)
		} else {
			if r.name {
				n.Benchmark = baseName(k.Benchmark)
			}
			n.Params = onlyParams(k.Params, r.keys)
		}
		if r.config {
			n.Config = runLabel(k)
		}
		return n
	}
}

// onlyParams is params (k=v pairs joined with ',') keeping the pairs of
// keys, in the params' (canonical) order.
func onlyParams(params string, keys []string) string {
	if len(keys) == 0 || params == "" {
		return ""
	}
	var keep []string
	for _, kv := range strings.Split(params, ",") {
		k, _, _ := strings.Cut(kv, "=")
		if slices.Contains(keys, k) {
			keep = append(keep, kv)
		}
	}
	return strings.Join(keep, ",")
}

// colSides returns the two sides of opt.Col in t: for colConfig the two
// project@version labels of its runs, in the order they first appear in t
// (the order of the files read); for /KEY the runs with each of the two
// values of parameter KEY, numbers in numeric order, other values as
// text. Only the runs that opt.Filter keeps count, and there must be
// exactly two; the error otherwise lists what there is.
func colSides(t *table.Table, opt Options) (base, test Side, err error) {
	kept := opt.Filter.selectSeries(t.Collect(table.Filter{Metric: table.Primary}))
	if opt.Col == colConfig {
		var two [][2]string
		var names []string
		for _, l := range t.Labels() {
			if slices.ContainsFunc(kept, func(s *table.Series) bool { return s.Project == l[0] && s.Version == l[1] }) {
				two = append(two, l)
				names = append(names, runLabel(table.Key{Project: l[0], Version: l[1]}))
			}
		}
		if len(two) != 2 {
			return base, test, fmt.Errorf("col %s: the runs have %d project@version labels (%s); it compares two: choose them with version (or project) selectors",
				colConfig, len(two), strings.Join(names, ", "))
		}
		side := func(i int) Side {
			return Side{Label: names[i], Table: t, Select: Selector{Project: two[i][0], Version: two[i][1]}}
		}
		return side(0), side(1), nil
	}
	key := colKey(opt.Col)
	if key == "" {
		return base, test, fmt.Errorf("col %q: want %s or /KEY", opt.Col, colConfig)
	}
	var values []string
	for _, s := range kept {
		for _, kv := range strings.Split(s.Params, ",") {
			if v, ok := strings.CutPrefix(kv, key+"="); ok && !slices.Contains(values, v) {
				values = append(values, v)
			}
		}
	}
	slices.SortFunc(values, func(a, b string) int {
		x, errA := strconv.ParseFloat(a, 64)
		y, errB := strconv.ParseFloat(b, 64)
		if errA == nil && errB == nil && x != y {
			return cmp.Compare(x, y)
		}
		return strings.Compare(a, b)
	})
	if len(values) != 2 {
		return base, test, fmt.Errorf("col /%s: the benchmarks hold %d values of %s (%s); it compares two: keep two with the filter '%s:/^(A|B)$/'",
			key, len(values), key, strings.Join(values, ", "), key)
	}
	side := func(v string) Side {
		return Side{Label: key + "=" + v, Table: t, Select: Selector{Param: key + "=" + v}}
	}
	return side(values[0]), side(values[1]), nil
}
