package gobench

import (
	"bufio"
	"errors"
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

// WriteOptions configures WriteWith. The zero value is the
// default: text benchstat compares as it is.
type WriteOptions struct {
	// Labels writes the labelled form: "project:", "commit:", "instance:"
	// and "trial:" configuration lines before every run. Format
	// reads instance and trial back as levels; benchstat splits its tables
	// by them unless told -ignore project,commit,instance,trial.
	Labels bool
}

// ErrNoGoBenchmarks is returned by WriteWith when the table holds no
// benchmark with a Go benchmark name.
var ErrNoGoBenchmarks = errors.New("export gobench: no Go or JMH benchmarks to write")

// WriteWith writes the measurements as Go benchmark text (the format
// of go test -bench, design doc 14313), so that benchstat compares two
// exported files as they are, and Format reads them back:
//
//   - One result line per iteration, "BenchmarkName/k=v-P  N  x ns/op
//     [v unit]…", with N = Σ count and x the count-weighted mean over the
//     iteration's slices (a µOpTime iteration of 1-s slices becomes one
//     line, as if one b.N loop had run them; pa export does the same).
//     benchstat counts every line as one sample, so its n is the number of
//     iterations, as benchtrim compare's is. Secondary metrics of the same
//     iteration (B/op, allocs/op, MB/s, custom units) follow the time,
//     merged over slices the same way.
//   - Each (instance, trial, fork) is one run of lines ending in "PASS", as
//     concatenated go test runs are; Format reads each run as a fork.
//   - No configuration line varies within a run set of one version: a
//     "commit:" line (and "project:" when projects differ) is written only
//     when the table holds several versions, before each version's runs, so
//     `benchstat -col commit FILE` compares them. Two files exported from
//     one version each have no such line, so `benchstat old.txt new.txt`
//     prints one table per unit. Labels (WriteOptions) writes them anyway,
//     with instance: and trial:, before every run.
//   - A benchmark named "pkg.BenchmarkX" (Format's name for the
//     same benchmark in two packages) is written as BenchmarkX after a
//     "pkg: pkg" line.
//
// Names: params follow the benchmark as /k=v in key order (before the
// positional sub-benchmark parts when one of those looks like k=v too, so
// the reader takes the same key as a parameter), and the GOMAXPROCS suffix
// "-P" recorded by Format (Setup.Env["gomaxprocs"]) is appended. JMH
// results are written under the names jmhGoName gives them
// ("org.example.Parser.parse" avgt → "pkg: org.example",
// "BenchmarkParser/parse/mode=avgt"), their times in ns/op.
// A name that ends like a suffix itself ("BenchmarkX/n-8") gets "-1" so
// the reader strips that instead. Benchmarks whose names do not start with
// "Benchmark" (JMH) are not written; they are returned as skipped, and a
// table with none to write gives ErrNoGoBenchmarks. A *format.NameError is
// returned for a name the reader would not read back as written (go test
// itself never prints such names: it writes '_' for spaces):
//
//	not valid UTF-8, white space or non-printable characters in the name,
//	a params key or value, or a secondary unit
//	a params key that is empty or holds '/' or '=', a value holding '/'
//	a positional part "k=v" whose key is not a parameter of the run
//	a secondary metric recorded in ns/op (the reader would take it as the time)
func WriteWith(w io.Writer, t *table.Table, opt WriteOptions) (skipped []table.Key, err error) {
	written := 0 // benchmark runs
	type block struct {
		project, version      string
		instance, trial, fork int32
	}
	type line struct {
		pkg   string
		order int // series order
		iter  int32
		text  string
	}
	extras, err := goBenchExtras(t)
	if err != nil {
		return skipped, err
	}
	blocks := map[block][]line{}
	labels := map[[2]string]bool{}
	projects := map[string]bool{}
	for order, s := range t.Collect(table.Filter{}) {
		pkg, name, err := goBenchName(s)
		if err == errNotGo {
			skipped = append(skipped, s.Key)
			continue
		}
		if err != nil {
			return skipped, err
		}
		written++
		labels[[2]string{s.Project, s.Version}] = true
		projects[s.Project] = true
		for _, sp := range s.Units(table.LevelIteration) {
			i := sp.Start
			lv := [4]int32{s.Levels[table.LevelInstance][i], s.Levels[table.LevelTrial][i], s.Levels[table.LevelFork][i], s.Levels[table.LevelIteration][i]}
			n, ns := format.MergeSpan(s.NsPerOp, s.Count, sp)
			text := name + "\t" + strconv.FormatInt(n, 10) + "\t" + strconv.FormatFloat(ns, 'g', -1, 64) + " ns/op"
			for _, e := range extras[iterKey{s.Key, lv}] {
				text += "\t" + strconv.FormatFloat(e.value, 'g', -1, 64) + " " + e.unit
			}
			b := block{s.Project, s.Version, lv[0], lv[1], lv[2]}
			blocks[b] = append(blocks[b], line{pkg, order, lv[3], text})
		}
	}
	if written == 0 {
		return skipped, ErrNoGoBenchmarks
	}
	keys := make([]block, 0, len(blocks))
	for k := range blocks {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.project != b.project {
			return a.project < b.project
		}
		if a.version != b.version {
			return a.version < b.version
		}
		if a.instance != b.instance {
			return a.instance < b.instance
		}
		if a.trial != b.trial {
			return a.trial < b.trial
		}
		return a.fork < b.fork
	})
	writeCommit := opt.Labels || len(labels) > 1
	writeProject := opt.Labels || len(projects) > 1
	bw := bufio.NewWriter(w)
	var cur struct {
		set              bool
		project, version string
		pkg              string
	}
	for _, k := range keys {
		if writeProject && (!cur.set || k.project != cur.project) {
			fmt.Fprintf(bw, "project: %s\n", k.project)
		}
		if writeCommit && (!cur.set || k.version != cur.version) {
			fmt.Fprintf(bw, "commit: %s\n", k.version)
		}
		if opt.Labels {
			fmt.Fprintf(bw, "instance: %d\ntrial: %d\n", k.instance, k.trial)
		}
		cur.set, cur.project, cur.version = true, k.project, k.version
		lines := blocks[k]
		sort.SliceStable(lines, func(i, j int) bool {
			a, b := lines[i], lines[j]
			if a.pkg != b.pkg {
				return a.pkg < b.pkg
			}
			if a.order != b.order {
				return a.order < b.order
			}
			return a.iter < b.iter
		})
		for _, l := range lines {
			if l.pkg != cur.pkg {
				if l.pkg == "" {
					bw.WriteString("pkg:\n") // an empty value unsets the key
				} else {
					fmt.Fprintf(bw, "pkg: %s\n", l.pkg)
				}
				cur.pkg = l.pkg
			}
			bw.WriteString(l.text)
			bw.WriteByte('\n')
		}
		bw.WriteString("PASS\n")
	}
	return skipped, bw.Flush()
}

var errNotGo = errors.New("not a Go benchmark name")

// jmhModes are the modes of JMH results.
var jmhModes = map[string]bool{"avgt": true, "thrpt": true, "sample": true, "ss": true}

// jmhGoName maps a JMH benchmark "pkg.Class.method" to the name and
// package go test would print for it, so that benchstat compares JMH runs:
// package "pkg", name "BenchmarkClass/method", and the mode becomes the
// parameter mode=avgt (thrpt, sample, ss) so that the modes of one method
// stay apart. The time is written as ns/op whatever the JMH unit (a
// thrpt score of x ops/s is 1e9/x ns/op: lower is better, as benchstat
// assumes). ok is false for series that are not JMH results.
func jmhGoName(s *table.Series) (pkg, name string, ok bool) {
	if !jmhModes[s.Mode] || strings.HasPrefix(s.Benchmark, "Benchmark") {
		return "", "", false
	}
	parts := strings.Split(s.Benchmark, ".")
	if len(parts) < 2 || parts[len(parts)-1] == "" || parts[len(parts)-2] == "" {
		return "", "", false
	}
	method, class := parts[len(parts)-1], parts[len(parts)-2]
	return strings.Join(parts[:len(parts)-2], "."), "Benchmark" + class + "/" + method, true
}

// withParam adds key=value to canonical params (table.CanonicalParams).
func withParam(params, key, value string) string {
	m, err := table.ParseParams(params)
	if err != nil {
		return params
	}
	m[key] = value
	return table.CanonicalParams(m)
}

// goBenchName returns the package (for "pkg.BenchmarkX" names) and the
// name as go test prints it, errNotGo for names that are not Go benchmark
// names, or a *format.NameError.
func goBenchName(s *table.Series) (pkg, name string, err error) {
	bad := func(field, value, reason string) error {
		return &format.NameError{Format: "gobench", Key: s.Key, Field: field, Value: value, Reason: reason}
	}
	b := s.Benchmark
	sparams := s.Params
	if jmhPkg, jmhName, ok := jmhGoName(s); ok {
		pkg, b = jmhPkg, jmhName
		sparams = withParam(s.Params, "mode", s.Mode)
		if why := badRune(pkg, true); why != "" {
			return "", "", bad("benchmark", s.Benchmark, "has a package part that "+why)
		}
	} else if !strings.HasPrefix(b, "Benchmark") {
		i := strings.Index(b, ".Benchmark")
		if i <= 0 {
			return "", "", errNotGo
		}
		pkg, b = b[:i], b[i+1:]
		if why := badRune(pkg, true); why != "" {
			return "", "", bad("benchmark", s.Benchmark, "has a package part that "+why)
		}
	}
	if why := badRune(b, true); why != "" {
		return "", "", bad("benchmark", s.Benchmark, why+"; go test -bench names have none")
	}
	params, err := table.ParseParams(sparams)
	if err != nil {
		return "", "", bad("params", s.Params, "are not canonical: "+err.Error())
	}
	parts := strings.Split(b, "/")
	paramsFirst := false
	for _, p := range parts[1:] {
		if k, _, ok := strings.Cut(p, "="); ok && k != "" {
			if _, isParam := params[k]; !isParam {
				return "", "", bad("benchmark", s.Benchmark, fmt.Sprintf("has the part %q, which Go benchmark readers take for a parameter", p))
			}
			paramsFirst = true
		}
	}
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var ps []string
	for _, k := range keys {
		v := params[k]
		for _, kv := range [2][2]string{{"key", k}, {"value", v}} {
			if why := badRune(kv[1], true); why != "" {
				return "", "", bad("params", s.Params, kv[0]+" "+strconv.Quote(kv[1])+" "+why)
			}
		}
		if k == "" || strings.ContainsAny(k, "/=") {
			return "", "", bad("params", s.Params, "key "+strconv.Quote(k)+" is empty or holds '/' or '='")
		}
		if strings.Contains(v, "/") {
			return "", "", bad("params", s.Params, "value "+strconv.Quote(v)+" holds '/', which splits a Go benchmark name")
		}
		ps = append(ps, k+"="+v)
	}
	all := parts[:1:1]
	if paramsFirst {
		all = append(append(all, ps...), parts[1:]...)
	} else {
		all = append(append(all, parts[1:]...), ps...)
	}
	name = strings.Join(all, "/")
	procs := ""
	if _, has := params["gomaxprocs"]; !has && s.Setup != nil {
		if p, err := strconv.ParseInt(s.Setup.Env["gomaxprocs"], 10, 32); err == nil && p > 0 {
			procs = strconv.Itoa(int(p))
		}
	}
	if procs == "" && endsWithProcs(name) {
		procs = "1"
	}
	if procs != "" {
		name += "-" + procs
	}
	return pkg, name, nil
}

// iterKey is one iteration of a benchmark run.
type iterKey struct {
	key table.Key
	lv  [4]int32 // instance, trial, fork, iteration
}

// extra is a secondary metric of one iteration, merged over its slices.
type extra struct {
	unit  string
	value float64
}

// goBenchExtras collects the secondary metrics of Go benchmarks per
// iteration, in metric order.
func goBenchExtras(t *table.Table) (map[iterKey][]extra, error) {
	out := map[iterKey][]extra{}
	for _, m := range t.Metrics() {
		if m == table.Primary {
			continue
		}
		for _, s := range t.Collect(table.Filter{Metric: m}) {
			if _, _, err := goBenchName(s); err != nil {
				continue // reported (or skipped) with the primary series
			}
			if why := badRune(s.Unit, true); why != "" || s.Unit == "" || s.Unit == "ns/op" {
				if why == "" {
					why = "is empty or ns/op, which Go benchmark readers take for the time"
				}
				return nil, &format.NameError{Format: "gobench", Key: s.Key, Field: "unit", Value: s.Unit, Reason: why}
			}
			for _, sp := range s.Units(table.LevelIteration) {
				i := sp.Start
				k := iterKey{s.Key, [4]int32{s.Levels[table.LevelInstance][i], s.Levels[table.LevelTrial][i], s.Levels[table.LevelFork][i], s.Levels[table.LevelIteration][i]}}
				_, mean := format.MergeSpan(s.Value, s.Count, sp)
				out[k] = append(out[k], extra{unit: s.Unit, value: mean})
			}
		}
	}
	return out, nil
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
