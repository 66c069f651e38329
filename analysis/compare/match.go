package compare

import (
	"errors"
	"slices"
	"sort"
	"strings"

	"github.com/benchtrim/benchtrim/table"
)

// Name identifies a benchmark across result sets: the key without project
// and version. With Options.Row it names a row, the runs a projection of
// their keys maps to alike (Benchmark, Params and Config hold what the
// projection keeps).
type Name struct {
	Benchmark, Params, Mode string
	// Config is the runs' project@version label when the rows are split by
	// it (Options.Row .file or .config), else "".
	Config string
}

// nameOf returns the name of a benchmark run.
func nameOf(k table.Key) Name { return Name{Benchmark: k.Benchmark, Params: k.Params, Mode: k.Mode} }

// String formats the name as benchmark[params] (mode), after the Config
// label when there is one.
func (n Name) String() string {
	s := table.Key{Benchmark: n.Benchmark, Params: n.Params, Mode: n.Mode}.String()
	if n.Config != "" {
		s = n.Config + " " + s
	}
	return s
}

// less orders names by benchmark, params, mode and Config.
func (n Name) less(o Name) bool {
	if n.Benchmark != o.Benchmark {
		return n.Benchmark < o.Benchmark
	}
	if n.Params != o.Params {
		return n.Params < o.Params
	}
	if n.Mode != o.Mode {
		return n.Mode < o.Mode
	}
	return n.Config < o.Config
}

// Selector picks benchmark runs of a table by their labels; empty fields
// match anything.
type Selector struct {
	Project, Version string
	// Pair keeps only rows of this duet pair label (the table's pair column).
	Pair string
	// Shard and Shards keep only the runs of shard Shard of a run split
	// Shards ways (table.Key.Shard; Shards 0 or 1 keeps all).
	Shard, Shards int
	// Param, "key=value", keeps only runs with that parameter (a side of
	// benchstat's -col /key; Options.Col /key drops the key when matching).
	Param string
}

// matches reports whether the run k has the selector's project and
// version and is in its shard.
func (sel Selector) matches(k table.Key) bool {
	return (sel.Project == "" || k.Project == sel.Project) && (sel.Version == "" || k.Version == sel.Version) &&
		(sel.Shards <= 1 || k.Shard(sel.Shards) == sel.Shard) &&
		(sel.Param == "" || slices.Contains(strings.Split(k.Params, ","), sel.Param))
}

// withoutParam is params (k=v pairs joined with ',') without key's pair.
func withoutParam(params, key string) string {
	if key == "" {
		return params
	}
	var keep []string
	for _, kv := range strings.Split(params, ",") {
		if !strings.HasPrefix(kv, key+"=") {
			keep = append(keep, kv)
		}
	}
	return strings.Join(keep, ",")
}

// runSet is one side of a comparison: benchmark runs (usually from
// table.Table.Collect) and a label for reports. Several runs of one benchmark (for
// example two files of the same version with different labels) are pooled:
// each becomes a top-level unit of the bootstrap, above instances.
type runSet struct {
	Label  string
	Series []*table.Series
	// Pair, when not empty, keeps only rows of this duet pair label.
	Pair string
	// rank orders the sides' input positions (position): 0 for the base,
	// and for a test side read from the base's table; 1 for a test side
	// read from files of its own, whose rows come after the base's.
	rank int
}

// position is where the input first shows a row: the rank of its side
// (runSet.rank) and the input position of its first row there
// (table.Series.First). Rows in position order are in the order in which
// benchstat prints them: by first appearance, the base files before the
// test files.
type position struct {
	rank int
	at   int64
}

func (p position) less(o position) bool {
	if p.rank != o.rank {
		return p.rank < o.rank
	}
	return p.at < o.at
}

// firstPos is the position of a row whose runs are base and test (either
// may be empty): the earliest first row of its base runs (rank 0) or of
// its test runs (testRank).
func firstPos(base, test []*table.Series, testRank int) position {
	var p position
	found := false
	for i, ss := range [][]*table.Series{base, test} {
		for _, s := range ss {
			q := position{rank: i * testRank, at: s.First}
			if !found || q.less(p) {
				p, found = q, true
			}
		}
	}
	return p
}

// procsOf is the GOMAXPROCS every run of sides ran with (its setup's
// gomaxprocs, the -N suffix of a go test name), "" when they differ or
// one is unknown.
func procsOf(sides ...[]*table.Series) string {
	procs, first := "", true
	for _, ss := range sides {
		for _, s := range ss {
			p := ""
			if s.Setup != nil {
				p = s.Setup.Env["gomaxprocs"]
			}
			if !first && p != procs {
				return ""
			}
			procs, first = p, false
		}
	}
	return procs
}

// newSet returns the runs of series that sel matches, as a runSet labelled
// label; sel.Pair becomes the set's Pair.
func newSet(label string, series []*table.Series, sel Selector) runSet {
	set := runSet{Label: label, Pair: sel.Pair}
	for _, s := range series {
		if sel.matches(s.Key) {
			set.Series = append(set.Series, s)
		}
	}
	return set
}

// pairing is a benchmark present in both sets, with its runs on each side.
type pairing struct {
	Name
	Base, Test []*table.Series
}

// matchBy pairs the runs of base and test by the row names key gives
// (nameOf, or Options.rowKey): runs of one side with the same row name are
// pooled. Pairings and unmatched benchmarks are sorted by name (unmatched
// base ones first for equal names, which cannot happen). Neither input is
// modified.
func matchBy(base, test []*table.Series, key keyFunc) (pairs, unmatched []pairing) {
	byName := map[Name]*pairing{}
	var names []Name
	get := func(n Name) *pairing {
		p := byName[n]
		if p == nil {
			p = &pairing{Name: n}
			byName[n] = p
			names = append(names, n)
		}
		return p
	}
	for _, s := range base {
		p := get(key(s.Key))
		p.Base = append(p.Base, s)
	}
	for _, s := range test {
		p := get(key(s.Key))
		p.Test = append(p.Test, s)
	}
	sort.Slice(names, func(i, j int) bool { return names[i].less(names[j]) })
	for _, n := range names {
		if p := byName[n]; len(p.Base) == 0 || len(p.Test) == 0 {
			unmatched = append(unmatched, *p)
		} else {
			pairs = append(pairs, *p)
		}
	}
	return pairs, unmatched
}

func keys(ss []*table.Series) []table.Key {
	if len(ss) == 0 {
		return nil
	}
	out := make([]table.Key, len(ss))
	for i, s := range ss {
		out[i] = s.Key
	}
	return out
}

var errNoIterations = errors.New("no iterations left (after skipping warmup iterations or filtering pairs)")
