package page

import (
	"math"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/ingest"
)

// scoreUnit is how the page shows one benchmark run's values: for a JMH
// run the unit its file recorded (JMH's scoreUnit: ops/ms for thrpt,
// us/op for avgt), so JMH users read their own scores; for anything else
// a time per operation scaled to the values (ns/op … s/op), as benchstat
// scales them. The frames hold times per operation in ns (value_ns); the
// distributions frame says per run how its file recorded them (unit,
// score_scale: score = ns / k for a time unit, k / ns for a throughput).
type scoreUnit struct {
	// unit is the unit's name ("" before autoFor: ns/op); file says it
	// is the one the file recorded.
	unit string
	file bool
	// k converts ns: ns/k for a time unit, k/ns for a throughput.
	k     float64
	thrpt bool
}

// jmhModes are the modes of JMH benchmarks.
var jmhModes = map[string]bool{"avgt": true, "thrpt": true, "sample": true, "ss": true}

// recordedUnit is the score unit of a run recorded in unit with scale k
// (the distributions frame's unit and score_scale) in mode: the file's
// unit for a JMH mode whose unit is a time or a throughput, else none.
func recordedUnit(mode, unit string, k float64) scoreUnit {
	if !jmhModes[mode] || !(k > 0) {
		return scoreUnit{}
	}
	switch kind, _ := ingest.ClassifyUnit(unit); kind {
	case ingest.UnitTimePerOp:
		return scoreUnit{unit: unit, k: k, file: true}
	case ingest.UnitOpsPerTime:
		return scoreUnit{unit: unit, k: k, thrpt: true, file: true}
	}
	return scoreUnit{}
}

// fixed reports whether the unit is the file's (not chosen by magnitude).
func (u scoreUnit) fixed() bool { return u.file }

// autoFor is u, or when u has no recorded unit the time unit (ns/op …
// s/op) that suits values around typical ns.
func (u scoreUnit) autoFor(typical float64) scoreUnit {
	if u.fixed() {
		return u
	}
	name, scale := durationUnit(math.Abs(typical))
	return scoreUnit{unit: name + "/op", k: scale}
}

// of converts a time per operation in ns to the unit.
func (u scoreUnit) of(ns float64) float64 {
	k := u.k
	if k == 0 {
		k = 1
	}
	if u.thrpt {
		return k / ns
	}
	return ns / k
}

// name is the unit's label (ns/op when none was chosen).
func (u scoreUnit) name() string {
	if u.unit == "" {
		return "ns/op"
	}
	return u.unit
}

// better says which way is better in the unit: "higher is better" for a
// throughput, "lower is better" for a time.
func (u scoreUnit) better() string {
	if u.thrpt {
		return "higher is better"
	}
	return "lower is better"
}

// num formats a value in the unit with 4 significant digits, without
// exponent between 0.001 and 10⁹ (JMH prints 123456.789 ops/s).
func num(v float64) string {
	switch {
	case math.IsNaN(v):
		return "–"
	case math.IsInf(v, 1):
		return "∞"
	case math.IsInf(v, -1):
		return "−∞"
	case v == 0:
		return "0"
	}
	a := math.Abs(v)
	if a >= 1e-3 && a < 1e9 {
		digits := max(0, 3-int(math.Floor(math.Log10(a))))
		return strconv.FormatFloat(v, 'f', digits, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// scoreText is "123.4 ± 5.6 ops/ms": a score with its error (none when
// NaN) and the unit.
func scoreText(score, err float64, unit string) string {
	if math.IsNaN(score) {
		return ""
	}
	s := num(score)
	if !math.IsNaN(err) {
		s += " ± " + num(err)
	}
	return s + " " + unit
}

// nameParts splits a benchmark run's name as the page writes it
// ("org.example.Class.method[p=1,q=2] @v1") into its package, class,
// method, params and version (without brackets or "@"). A name without
// dots (Go's BenchmarkX/sub) is all method.
type nameParts struct{ pkg, class, method, params, version string }

func splitName(s string) nameParts {
	var p nameParts
	s, p.version, _ = strings.Cut(s, " @")
	if i := strings.Index(s, "["); i >= 0 && strings.HasSuffix(s, "]") {
		s, p.params = s[:i], s[i+1:len(s)-1]
	}
	// A Go name may hold dots in its sub-benchmarks (BenchmarkX/v1.2):
	// only the part before the first '/' is split at dots.
	head, tail, slash := strings.Cut(s, "/")
	parts := strings.Split(head, ".")
	switch {
	case len(parts) >= 3:
		p.pkg, p.class, p.method = strings.Join(parts[:len(parts)-2], "."), parts[len(parts)-2], parts[len(parts)-1]
	case len(parts) == 2:
		p.class, p.method = parts[0], parts[1]
	default:
		p.method = head
	}
	if slash {
		p.method += "/" + tail
	}
	return p
}

// join is the name without its package: Class.method[params] @version.
func (p nameParts) join(class, params string) string {
	s := p.method
	if class != "" {
		s = class + "." + s
	}
	if params != "" {
		s += "[" + params + "]"
	}
	if p.version != "" {
		s += " @" + p.version
	}
	return s
}

// abbrevClass shortens a class name of more than 16 runes to its camel
// humps, each cut to 3 runes (ManySamplesNoRepetitions → ManSamNoRep),
// and to their initials when that is still longer than 20.
func abbrevClass(c string) string {
	if len([]rune(c)) <= 16 {
		return c
	}
	var humps []string
	start := 0
	r := []rune(c)
	for i := 1; i <= len(r); i++ {
		if i == len(r) || r[i] >= 'A' && r[i] <= 'Z' && r[i-1] >= 'a' && r[i-1] <= 'z' {
			humps = append(humps, string(r[start:i]))
			start = i
		}
	}
	var b strings.Builder
	for _, h := range humps {
		hr := []rune(h)
		b.WriteString(string(hr[:min(3, len(hr))]))
	}
	if len([]rune(b.String())) <= 20 {
		return b.String()
	}
	b.Reset()
	for _, h := range humps {
		b.WriteRune([]rune(h)[0])
	}
	return b.String()
}

// runLabels are the labels of the names shown side by side (bars, index
// rows, legends), each at most n runes where it can be: the class-relative
// name (Class.method[params] @version), then without the params every
// name shares, then with the class shortened to its humps (abbrevClass),
// then the params cut in the middle; names that would still read alike
// show a window around where they differ (distinctLabels). The method,
// the varying params and the version are what tell runs apart, so they
// are kept longest; the full name goes in each label's tooltip.
func runLabels(names []string, n int) []string {
	parts := make([]nameParts, len(names))
	for i, s := range names {
		parts[i] = splitName(s)
	}
	// The k=v pairs every name has are dropped when names are too long.
	common := map[string]int{}
	for _, p := range parts {
		seen := map[string]bool{}
		for _, kv := range strings.Split(p.params, ",") {
			if kv != "" && !seen[kv] {
				seen[kv] = true
				common[kv]++
			}
		}
	}
	varying := func(params string) string {
		if len(names) < 2 {
			return params
		}
		var keep []string
		for _, kv := range strings.Split(params, ",") {
			if kv != "" && common[kv] < len(names) {
				keep = append(keep, kv)
			}
		}
		return strings.Join(keep, ",")
	}
	out := make([]string, len(names))
	for i, p := range parts {
		l := p.join(p.class, p.params)
		if len([]rune(l)) > n {
			l = p.join(p.class, varying(p.params))
		}
		if len([]rune(l)) > n {
			l = p.join(abbrevClass(p.class), varying(p.params))
		}
		if len([]rune(l)) > n {
			rest := len([]rune(p.join(abbrevClass(p.class), "")))
			if params := varying(p.params); params != "" && rest+3 < n {
				l = p.join(abbrevClass(p.class), shorten(params, n-rest-2))
			} else {
				l = shorten(l, n)
			}
		}
		out[i] = l
	}
	// Names that still read alike: a window around where they differ.
	seen := map[string][]int{}
	for i, l := range out {
		seen[l] = append(seen[l], i)
	}
	for l, idx := range seen {
		if len(idx) < 2 {
			continue
		}
		var same []string
		for _, i := range idx {
			same = append(same, names[i])
		}
		alike := true
		for _, s := range same {
			alike = alike && s == same[0]
		}
		if alike {
			continue
		}
		d := distinctLabels(same, n)
		for j, i := range idx {
			out[i] = d[j]
		}
		_ = l
	}
	return out
}
