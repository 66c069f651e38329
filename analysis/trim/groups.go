package trim

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/analysis/optimize"
)

// commandGroup is one command of the script: the benchmark runs members
// (indices into Report.Benchmarks, in key order) and the command lines
// that run them (several when one -bench pattern would be longer than
// maxPatternBytes; none for benchmarks without a runnable form), each run
// repeat times on each of instances machines. startupNs is the start-up
// of one run of a go test command (Benchmark.CommandStartupNs; 0 for
// JMH, whose start-up is in the benchmark's time); launcher says a
// command runs optimize.ParamsLauncherClass.
type commandGroup struct {
	members           []int
	args              [][]string
	repeat, instances int
	startupNs         int64
	launcher          bool
}

// runs is how many command runs g's start-up is paid for: repeats ×
// command lines × instances (instances once when they run side by side).
func (g *commandGroup) runs(parallel bool) int {
	n := g.repeat * len(g.args)
	if !parallel {
		n *= max(1, g.instances)
	}
	return n
}

// maxPatternBytes bounds one -bench pattern: Linux takes at most 128 KiB
// in one argument (MAX_ARG_STRLEN); a larger group runs as several
// commands.
const maxPatternBytes = 32 << 10

// commandGroups groups the commands of the benchmark runs in (all when in
// is nil) into the script's commands, in the order of their first run:
// Go commands that agree in everything but the benchmark they select
// (groupKey: the same project, version, package, -count, -benchtime,
// -cpu, -benchmem, repeats and instances) become one go test process
// whose -bench pattern selects exactly their benchmarks (goPattern);
// every other run is a group of its own.
func commandGroups(bs []Benchmark, in func(*Benchmark) bool) []commandGroup {
	return groupCommands(bs, in, func(b *Benchmark) *optimize.Command { return &b.Command })
}

func groupCommands(bs []Benchmark, in func(*Benchmark) bool, pick func(*Benchmark) *optimize.Command) []commandGroup {
	var out []commandGroup
	byKey := map[string]int{}
	for i := range bs {
		b := &bs[i]
		if in != nil && !in(b) {
			continue
		}
		c := pick(b)
		g := commandGroup{members: []int{i}, repeat: max(1, c.Repeat), instances: c.Instances, launcher: c.Launcher != ""}
		switch {
		case c.Args == nil:
		case c.Tool == "go" && c.Name != nil:
			k := groupKey(b, c, false)
			if j, ok := byKey[k]; ok {
				out[j].members = append(out[j].members, i)
				out[j].startupNs = max(out[j].startupNs, b.CommandStartupNs)
				continue
			}
			byKey[k] = len(out)
			g.startupNs = b.CommandStartupNs
			g.args = [][]string{nil} // the pattern comes below
		default:
			g.args = [][]string{c.Args}
		}
		out = append(out, g)
	}
	for j := range out {
		g := &out[j]
		if len(g.args) != 1 || g.args[0] != nil {
			continue
		}
		c := pick(&bs[g.members[0]])
		names := make([][]string, len(g.members))
		for m, i := range g.members {
			names[m] = pick(&bs[i]).Name
		}
		g.args = nil
		for _, p := range goPatterns(boxes(names), maxPatternBytes) {
			a := append(append(append([]string{}, c.Args[:c.Select[0]]...), p), c.Args[c.Select[1]:]...)
			g.args = append(g.args, a)
		}
	}
	return out
}

// groupKey is what a Go command's run shares with the others of its
// group: project, version, its arguments but the -bench pattern, repeats
// and instances; with minimum, without -count's value, repeats and
// instances (the fixed minimum's commands, one run of -count 3 each).
func groupKey(b *Benchmark, c *optimize.Command, minimum bool) string {
	parts := []string{b.Key.Project, b.Key.Version}
	if !minimum {
		parts = append(parts, strconv.Itoa(c.Repeat), strconv.Itoa(c.Instances))
	}
	parts = append(parts, c.Args[:c.Select[0]]...)
	parts = append(parts, "")
	for i := c.Select[1]; i < len(c.Args); i++ {
		parts = append(parts, c.Args[i])
		if minimum && c.Args[i] == "-count" {
			i++
		}
	}
	return strings.Join(parts, "\x00")
}

// A box is a set of names, the cross product of one set of values per
// name level: level l holds box[l] (sorted, distinct).
type box [][]string

// boxes partitions names (each a list of levels; no name twice) into
// boxes whose cross products are exactly the names: every name in one
// box, and every combination of a box's level values one of the names.
// A -bench pattern of such boxes runs no benchmark outside names. It
// starts from one box per name and merges, level by level from the last
// and until nothing changes, the boxes that agree on every other level
// (their union is then a box of names too); the boxes come in order of
// their smallest name.
func boxes(names [][]string) []box {
	out := make([]box, len(names))
	for i, n := range names {
		b := make(box, len(n))
		for l, v := range n {
			b[l] = []string{v}
		}
		out[i] = b
	}
	for changed := true; changed; {
		changed = false
		maxLevels := 0
		for _, b := range out {
			maxLevels = max(maxLevels, len(b))
		}
		for l := maxLevels - 1; l >= 0; l-- {
			merged := map[string]int{}
			var next []box
			for _, b := range out {
				if l >= len(b) {
					next = append(next, b)
					continue
				}
				k := boxKey(b, l)
				if j, ok := merged[k]; ok {
					next[j][l] = append(next[j][l], b[l]...)
					changed = true
					continue
				}
				merged[k] = len(next)
				c := make(box, len(b))
				copy(c, b)
				c[l] = append([]string{}, b[l]...)
				next = append(next, c)
			}
			out = next
		}
	}
	for _, b := range out {
		for l := range b {
			sort.Strings(b[l])
		}
	}
	sort.Slice(out, func(i, j int) bool { return lessNames(out[i].first(), out[j].first()) })
	return out
}

// boxKey encodes b's levels but l (and its depth).
func boxKey(b box, l int) string {
	var s strings.Builder
	s.WriteString(strconv.Itoa(len(b)))
	for m, vs := range b {
		s.WriteByte(0)
		if m == l {
			continue
		}
		for _, v := range vs {
			s.WriteString(strconv.Quote(v))
		}
	}
	return s.String()
}

// first is b's smallest name.
func (b box) first() []string {
	n := make([]string, len(b))
	for l, vs := range b {
		n[l] = vs[0]
	}
	return n
}

func lessNames(a, b []string) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return len(a) < len(b)
}

// goPatterns writes boxes as go test -bench patterns of at most max
// bytes each (a box longer than that alone is one pattern): the boxes
// of a pattern joined by '|' and each box's levels by '/', a level
// `^value$` or `^(v1|v2|…)$` with every value regexp.QuoteMeta'd. go test
// (testing.splitRegexp, Go 1.18 and later) splits a pattern at the '|'
// and '/' outside brackets and parentheses into alternatives of one
// pattern per level, and runs a benchmark when an alternative's level
// patterns match its name's levels: the parentheses keep a level's
// alternation in its level, QuoteMeta escapes every '|', '(' and '['
// of a name with a backslash (which splitRegexp skips), and the anchors
// keep n=100 from matching n=1000. So the pattern runs exactly the
// boxes' names.
func goPatterns(bs []box, max int) []string {
	var out []string
	var cur strings.Builder
	for _, b := range bs {
		levels := make([]string, len(b))
		for l, vs := range b {
			q := make([]string, len(vs))
			for i, v := range vs {
				q[i] = regexp.QuoteMeta(v)
			}
			if len(q) == 1 {
				levels[l] = "^" + q[0] + "$"
			} else {
				levels[l] = "^(" + strings.Join(q, "|") + ")$"
			}
		}
		p := strings.Join(levels, "/")
		if cur.Len() > 0 && cur.Len()+1+len(p) > max {
			out = append(out, cur.String())
			cur.Reset()
		}
		if cur.Len() > 0 {
			cur.WriteByte('|')
		}
		cur.WriteString(p)
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// lastVersions returns whether a benchmark run is of its project's last
// version: a version that is not the base of a comparison of
// consecutive versions (Report.Versions, in the versions' given order).
func lastVersions(r *Report) func(*Benchmark) bool {
	older := map[[2]string]bool{}
	for _, v := range r.Versions {
		older[[2]string{v.Project, v.Base}] = true
	}
	return func(b *Benchmark) bool { return !older[[2]string{b.Key.Project, b.Key.Version}] }
}

// addCommandStartups adds to t the start-up of the go test commands of
// bs: per group of the recorded commands (RecordedCommand, grouped as
// WriteCommands groups: the recording's processes) and of the
// recommended ones (Command) its runs × its start-up, and one start-up
// per group of the fixed minimum's commands (one run of -count 3 of the
// recorded commands' other arguments). Every version counts.
func (t *SuiteTotals) addCommandStartups(bs []Benchmark, parallel bool) {
	sum := func(gs []commandGroup) (ns int64, runs int) {
		for i := range gs {
			if gs[i].startupNs > 0 {
				n := gs[i].runs(parallel)
				ns += int64(n) * gs[i].startupNs
				runs += n
			}
		}
		return ns, runs
	}
	counted := func(b *Benchmark) bool { return b.Status != StatusDuet && b.Status != StatusSkipped }
	before := groupCommands(bs, counted, func(b *Benchmark) *optimize.Command { return &b.RecordedCommand })
	after := groupCommands(bs, counted, func(b *Benchmark) *optimize.Command { return &b.Command })
	t.StartupBeforeNs, t.CommandRunsBefore = sum(before)
	t.StartupAfterNs, t.CommandRunsAfter = sum(after)
	minimum := map[string]int64{}
	for i := range bs {
		b := &bs[i]
		if c := &b.RecordedCommand; counted(b) && c.Tool == "go" && c.Name != nil && b.CommandStartupNs > 0 {
			k := groupKey(b, c, true)
			minimum[k] = max(minimum[k], b.CommandStartupNs)
		}
	}
	for _, ns := range minimum {
		t.StartupMinimumNs += ns
	}
	t.TimeBeforeNs += t.StartupBeforeNs
	t.TimeAfterNs += t.StartupAfterNs
	t.MinimumTimeNs += t.StartupMinimumNs
}
