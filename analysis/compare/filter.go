package compare

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/benchtrim/benchtrim/table"
)

// fullName renders a benchmark's name with its params the way go test
// prints sub-benchmarks: the benchmark, then "/k=v" per parameter in key
// order ("BenchmarkSort/n=16", "org.example.Sort.quick/size=100"). Filters
// match it, and the text tables show it (labeler.label).
func fullName(n Name) string {
	if n.Params == "" {
		return n.Benchmark
	}
	m, err := table.ParseParams(n.Params)
	if err != nil {
		return strings.TrimPrefix(n.Benchmark+"/"+n.Params, "/")
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(n.Benchmark)
	for _, k := range keys {
		b.WriteString("/" + k + "=" + m[k])
	}
	// A row named by parameters only (Options.Row /KEY) has no benchmark.
	return strings.TrimPrefix(b.String(), "/")
}

// Filter selects benchmarks by name and params, after benchstat's -filter.
// The expression is a list of terms separated by white space; a benchmark
// is kept when every term matches it (juxtaposition is AND), and a term
// prefixed by '-' matches when its term does not:
//
//	name:RE, .name:RE, .fullname:RE   the Go regexp RE (unanchored) matches
//	                 fullName, or fullName without a leading "Benchmark"
//	                 (so "^Sort" finds BenchmarkSort, as benchstat's .name)
//	mode:M           the mode is M (avgt, thrpt, sample, ss, go, seqn, syncduet, duet)
//	KEY:VALUE        parameter KEY equals VALUE
//	KEY:/RE/         parameter KEY exists and matches RE
//	RE               anything else: name:RE
//
// The zero Filter (and a nil *Filter) keeps everything.
type Filter struct {
	expr  string
	terms []term
}

type term struct {
	negate bool
	key    string // "" for the name
	value  string // exact value when re is nil
	re     *regexp.Regexp
}

// ParseFilter parses a filter expression (see Filter).
func ParseFilter(expr string) (*Filter, error) {
	f := &Filter{expr: expr}
	for _, word := range strings.Fields(expr) {
		var t term
		if strings.HasPrefix(word, "-") && len(word) > 1 {
			t.negate, word = true, word[1:]
		}
		key, val, hasKey := strings.Cut(word, ":")
		if !hasKey || key == "" || strings.ContainsAny(key, `\^$.*+?()[]{}|`) && key != ".name" && key != ".fullname" {
			key, val = "name", word
		}
		switch key {
		case "name", ".name", ".fullname":
			re, err := regexp.Compile(val)
			if err != nil {
				return nil, fmt.Errorf("filter %q: %w", word, err)
			}
			t.re = re
		default:
			t.key = key
			if len(val) >= 2 && strings.HasPrefix(val, "/") && strings.HasSuffix(val, "/") {
				re, err := regexp.Compile(val[1 : len(val)-1])
				if err != nil {
					return nil, fmt.Errorf("filter %q: %w", word, err)
				}
				t.re = re
			} else {
				t.value = val
			}
		}
		f.terms = append(f.terms, t)
	}
	return f, nil
}

// String returns the expression the filter was parsed from.
func (f *Filter) String() string {
	if f == nil {
		return ""
	}
	return f.expr
}

// match reports whether the filter keeps benchmark n.
func (f *Filter) match(n Name) bool {
	if f == nil {
		return true
	}
	var params map[string]string
	for _, t := range f.terms {
		var ok bool
		switch t.key {
		case "":
			full := fullName(n)
			ok = t.re.MatchString(full) || strings.HasPrefix(full, "Benchmark") && t.re.MatchString(strings.TrimPrefix(full, "Benchmark"))
		case "mode":
			ok = t.matchValue(n.Mode, true)
		default:
			if params == nil {
				params, _ = table.ParseParams(n.Params)
			}
			v, has := params[t.key]
			ok = t.matchValue(v, has)
		}
		if ok == t.negate {
			return false
		}
	}
	return true
}

func (t *term) matchValue(v string, has bool) bool {
	if !has {
		return false
	}
	if t.re != nil {
		return t.re.MatchString(v)
	}
	return v == t.value
}

// selectSeries returns the series whose names f keeps; the input is not modified.
func (f *Filter) selectSeries(ss []*table.Series) []*table.Series {
	if f == nil || len(f.terms) == 0 {
		return ss
	}
	var out []*table.Series
	for _, s := range ss {
		if f.match(nameOf(s.Key)) {
			out = append(out, s)
		}
	}
	return out
}

// GobEncode writes f as its expression (a shard's report written by
// benchtrim --partial-out holds its options' filter; the parsed terms
// have no exported fields gob could write).
func (f Filter) GobEncode() ([]byte, error) { return []byte(f.expr), nil }

// GobDecode parses the expression GobEncode wrote.
func (f *Filter) GobDecode(b []byte) error {
	g, err := ParseFilter(string(b))
	if err != nil {
		return err
	}
	*f = *g
	return nil
}
