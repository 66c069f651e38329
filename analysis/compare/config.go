package compare

import (
	"slices"
	"strings"

	"github.com/benchtrim/benchtrim/table"
)

// configLine is one configuration key of the compared go test runs: a
// "key: value" line of their output (goos, goarch, pkg, cpu, and any
// other, by golang.org/x/perf/benchfmt's rule), which benchstat prints
// above its table. format/gobench keeps them in each run's Setup.Env.
// Base and Test are the distinct values on each side, sorted; a side
// whose runs lack the key has none.
type configLine struct {
	Key        string
	Base, Test []string
}

// firstConfigKeys are printed first, in the order go test prints them;
// the other keys follow sorted.
var firstConfigKeys = []string{"goos", "goarch", "pkg", "cpu"}

// configLines collects the configuration keys of the go test runs (Tool
// "go") of base and test: every Env key but those format/gobench derives
// (gomaxprocs from the name's suffix, derivedEnv's, the "unit:"
// metadata of Unit lines).
func configLines(base, test []*table.Series) []configLine {
	vals := map[string]*[2][]string{}
	for side, ss := range [2][]*table.Series{base, test} {
		for _, s := range ss {
			if s.Setup == nil || s.Setup.Tool != "go" {
				continue
			}
			for k, v := range s.Setup.Env {
				if k == "gomaxprocs" || derivedEnv(k) || strings.HasPrefix(k, "unit:") {
					continue
				}
				if vals[k] == nil {
					vals[k] = &[2][]string{}
				}
				if p := &vals[k][side]; !slices.Contains(*p, v) {
					*p = append(*p, v)
				}
			}
		}
	}
	out := make([]configLine, 0, len(vals))
	for k, v := range vals {
		slices.Sort(v[0])
		slices.Sort(v[1])
		out = append(out, configLine{Key: k, Base: v[0], Test: v[1]})
	}
	slices.SortFunc(out, func(a, b configLine) int { return compareConfigKeys(a.Key, b.Key) })
	return out
}

func compareConfigKeys(a, b string) int {
	ia, ib := slices.Index(firstConfigKeys, a), slices.Index(firstConfigKeys, b)
	switch {
	case ia >= 0 && ib >= 0:
		return ia - ib
	case ia >= 0:
		return -1
	case ib >= 0:
		return 1
	}
	return strings.Compare(a, b)
}

// mergeConfig is the union of the configuration of parts of one run
// (Merge): per key, the values of each side.
func mergeConfig(a, b []configLine) []configLine {
	out := slices.Clone(a)
	for _, l := range b {
		i := slices.IndexFunc(out, func(o configLine) bool { return o.Key == l.Key })
		if i < 0 {
			out = append(out, l)
			continue
		}
		o := &out[i]
		o.Base = union(o.Base, l.Base)
		o.Test = union(o.Test, l.Test)
	}
	slices.SortFunc(out, func(a, b configLine) int { return compareConfigKeys(a.Key, b.Key) })
	return out
}

func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, v := range b {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// text is the header line of l, as benchstat prints a configuration
// shared by its inputs ("cpu: Apple M4"); when the sides differ it names
// each side's value ("cpu: Intel(R) Core(TM) i5 (base), Apple M4 (test)"),
// and a side whose runs disagree shows how many values it has.
func (l configLine) text() string {
	side := func(vs []string) string {
		switch len(vs) {
		case 0:
			return "none"
		case 1:
			return vs[0]
		}
		return plural(len(vs), "value")
	}
	if slices.Equal(l.Base, l.Test) {
		return l.Key + ": " + side(l.Base)
	}
	return l.Key + ": " + side(l.Base) + " (base), " + side(l.Test) + " (test)"
}

// derivedEnv reports whether Env key k is one the readers derive from the
// data (table.EnvHarnessNsPerLine, EnvStartupNs, EnvBenchmem, EnvProfilers)
// rather than read from the source's configuration.
func derivedEnv(k string) bool {
	switch k {
	case table.EnvHarnessNsPerLine, table.EnvStartupNs, table.EnvBenchmem, table.EnvProfilers:
		return true
	}
	return false
}
