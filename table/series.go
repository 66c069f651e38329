package table

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"sort"
	"strings"
)

// Level is a repetition level of the canonical table, outermost first.
type Level int

const (
	LevelInstance Level = iota
	LevelTrial
	LevelFork
	LevelIteration
	LevelSlice
	NumLevels
)

var levelNames = [NumLevels]string{"instance", "trial", "fork", "iteration", "slice"}

// String is the level's column name.
func (l Level) String() string {
	if l < 0 || l >= NumLevels {
		return "level?"
	}
	return levelNames[l]
}

// ParseLevel maps a column name (instance, trial, fork, iteration, slice) to its Level.
func ParseLevel(s string) (Level, bool) {
	for i, n := range levelNames {
		if n == s {
			return Level(i), true
		}
	}
	return 0, false
}

// Series holds the rows of one benchmark run (Key) and one metric, as
// parallel columns sorted by (pair, instance, trial, fork, iteration, slice);
// rows with equal indices (histogram buckets of one iteration) keep their
// source order. Analyzers read a Series; they never see result files.
type Series struct {
	Key
	Metric string
	// Unit is the unit as recorded (the first row's, see MixedUnits).
	Unit string
	// mixedUnits is true when rows of this series were recorded in more than
	// one unit (NsPerOp is still comparable; Value is not).
	mixedUnits bool
	// Setup is the run's setup, nil when the source stated none.
	Setup *Setup
	// First is the input position of the run's first row (of this metric):
	// its index among all rows of the table, or of the input a table of
	// Offsets is part of. Runs ordered by First are in the order in which
	// the input first shows them, the order benchstat prints rows in.
	First int64

	// Level indices, 1-based, indexed by Level: Levels[LevelFork][i] is row i's fork.
	Levels  [NumLevels][]int32
	Warmup  []bool
	Value   []float64
	NsPerOp []float64
	Count   []int64
	// StartNs and EndNs are nil when no row has timestamps; otherwise rows
	// without them hold math.MinInt64.
	StartNs, EndNs []int64
	// Pair is nil when no row has a pair label.
	Pair []string
}

// Len is the number of rows.
func (s *Series) Len() int { return len(s.NsPerOp) }

// MixedUnits reports whether the series' rows were recorded in more than
// one unit (NsPerOp is still comparable; Value is not).
func (s *Series) MixedUnits() bool { return s.mixedUnits }

// Sizes is the largest index seen at each level.
func (s *Series) Sizes() [NumLevels]int32 {
	var m [NumLevels]int32
	for l := range m {
		for _, v := range s.Levels[l] {
			if v > m[l] {
				m[l] = v
			}
		}
	}
	return m
}

// Span is a run of consecutive rows [Start, End) of a Series sharing their
// indices down to some level.
type Span struct {
	Start, End int
}

// Units splits the rows into spans that share pair and all level indices
// from the outermost down to and including level. For example
// Units(LevelIteration) gives one span per iteration (holding its slices or
// histogram buckets), Units(LevelFork) one span per fork.
func (s *Series) Units(level Level) []Span {
	n := s.Len()
	if n == 0 {
		return nil
	}
	var spans []Span
	start := 0
	for i := 1; i < n; i++ {
		if s.differs(i-1, i, level) {
			spans = append(spans, Span{start, i})
			start = i
		}
	}
	return append(spans, Span{start, n})
}

func (s *Series) differs(i, j int, level Level) bool {
	if s.Pair != nil && s.Pair[i] != s.Pair[j] {
		return true
	}
	for l := Level(0); l <= level; l++ {
		if s.Levels[l][i] != s.Levels[l][j] {
			return true
		}
	}
	return false
}

// WeightedMean is the count-weighted mean of NsPerOp over the span,
//
//	Σ nsPerOp_i·count_i / Σ count_i,
//
// i.e. total time over total operations for slices and histogram buckets.
// Rows with count <= 0 weigh 1. Non-finite values propagate. A span of one
// row gives its NsPerOp exactly (nsPerOp·count/count can differ from it in
// the last place, which makes equal values look unequal).
func (s *Series) WeightedMean(sp Span) float64 {
	if sp.End-sp.Start == 1 {
		return s.NsPerOp[sp.Start]
	}
	var sum, w float64
	for i := sp.Start; i < sp.End; i++ {
		c := float64(s.Count[i])
		if c <= 0 {
			c = 1
		}
		sum += s.NsPerOp[i] * c
		w += c
	}
	if w == 0 {
		return math.NaN()
	}
	return sum / w
}

// TotalCount is Σ count over the span (rows with count <= 0 count 1).
func (s *Series) TotalCount(sp Span) int64 {
	var n int64
	for i := sp.Start; i < sp.End; i++ {
		if s.Count[i] > 0 {
			n += s.Count[i]
		} else {
			n++
		}
	}
	return n
}

// Filter selects what Collect returns. The zero value selects the primary
// metric of every benchmark run.
type Filter struct {
	// Metric selects rows of this metric; "" means Primary.
	Metric string
	// Benchmark, when set, keeps only benchmarks whose name matches.
	Benchmark *regexp.Regexp
	// project and Version, when set, keep only those.
	project, Version string
	// IncludeWarmup keeps warmup rows (they are dropped by default).
	IncludeWarmup bool
	// Shard and Shards keep only the benchmark runs of shard Shard
	// (0 … Shards−1) when the work is split Shards ways (see Key.Shard);
	// Shards 0 or 1 keeps all.
	Shard, Shards int
	// Only, when set, keeps only the benchmark runs it holds (an analyzer
	// handing another a subset of its runs).
	Only *RunSet
}

// RunSet is a set of benchmark runs (for Filter.Only).
type RunSet struct{ m map[Key]bool }

// NewRunSet returns the set of keys.
func NewRunSet(keys []Key) *RunSet {
	s := &RunSet{m: make(map[Key]bool, len(keys))}
	for _, k := range keys {
		s.m[k] = true
	}
	return s
}

// has reports whether k is in the set.
func (s *RunSet) has(k Key) bool { return s.m[k] }

// Collect groups the table's rows into one Series per key for the filter's
// metric, sorted by key. Setups are attached by key.
func (t *Table) Collect(f Filter) []*Series {
	var order []*Series
	t.EachSeries(f, func(s *Series) { order = append(order, s) })
	sort.Slice(order, func(i, j int) bool { return order[i].Key.Less(order[j].Key) })
	return order
}

// EachSeries calls fn with the Series of every key the filter selects, as
// Collect builds them, in the order in which their last row appears in the
// table: a caller that turns each into its own data and drops it holds
// the rows of about one Series at a time instead of all of them.
//
// It reads the table twice: once to count each key's rows, once to fill
// slices allocated to those counts (so a Series holds no spare capacity)
// and to hand each Series over as soon as its last row is in.
func (t *Table) EachSeries(f Filter, fn func(*Series)) {
	metric := f.Metric
	if metric == "" {
		metric = Primary
	}
	counts := map[Key]int{}
	eachRow(t, f, metric, func(_ *columns, _ int, k Key, n int, _ int64) { counts[k] += n })
	open := map[Key]*Series{}
	var last *Series
	var lastKey Key
	eachRow(t, f, metric, func(c *columns, i int, k Key, n int, pos int64) {
		s := last
		if s == nil || k != lastKey {
			s = open[k]
			if s == nil {
				// Copies of the strings: results keep keys, and must
				// not keep the table's buffers alive (or refer to them
				// once the table is released).
				s = &Series{Key: cloneKey(k), Metric: metric, Unit: strings.Clone(c.unit.Value(i)), Setup: t.Setup(k), First: pos}
				s.alloc(counts[k])
				open[k] = s
			}
			last, lastKey = s, k
		}
		for j := i; j < i+n; j++ {
			s.appendRow(c, j)
		}
		if s.Len() == counts[k] {
			delete(open, k)
			last = nil
			s.sortRows()
			fn(s)
		}
	})
}

// eachRow calls fn for every run of consecutive rows of one record that the
// filter accepts for metric and that share key k: rows i … i+n−1 of the
// record whose columns are c, row i at input position pos (Series.First).
// Keys refer to the table's buffers.
func eachRow(t *Table, f Filter, metric string, fn func(c *columns, i int, k Key, n int, pos int64)) {
	var shardKey Key
	shardSet, inShard := false, false
	accept := func(c *columns, i int) (Key, bool) {
		if c.metric.Value(i) != metric {
			return Key{}, false
		}
		if !f.IncludeWarmup && c.warmup.Value(i) {
			return Key{}, false
		}
		k := c.key(i)
		if f.project != "" && k.Project != f.project || f.Version != "" && k.Version != f.Version {
			return k, false
		}
		if f.Benchmark != nil && !f.Benchmark.MatchString(k.Benchmark) {
			return k, false
		}
		if f.Shards > 1 {
			if !shardSet || k != shardKey {
				shardKey, shardSet, inShard = k, true, k.Shard(f.Shards) == f.Shard
			}
			if !inShard {
				return k, false
			}
		}
		if f.Only != nil && !f.Only.has(k) {
			return k, false
		}
		return k, true
	}
	var next int64
	for r, rec := range t.Records {
		c := columnsOf(rec)
		rows := int(rec.NumRows())
		off := t.offset(r, next)
		next = off + int64(rows)
		start, n := 0, 0
		var runKey Key
		for i := 0; i < rows; i++ {
			k, ok := accept(c, i)
			if ok && n > 0 && k == runKey {
				n++
				continue
			}
			if n > 0 {
				fn(c, start, runKey, n, off+int64(start))
			}
			n = 0
			if ok {
				start, n, runKey = i, 1, k
			}
		}
		if n > 0 {
			fn(c, start, runKey, n, off+int64(start))
		}
	}
}

// alloc gives the series' columns room for n rows.
func (s *Series) alloc(n int) {
	for l := range s.Levels {
		s.Levels[l] = make([]int32, 0, n)
	}
	s.Warmup = make([]bool, 0, n)
	s.Value = make([]float64, 0, n)
	s.NsPerOp = make([]float64, 0, n)
	s.Count = make([]int64, 0, n)
}

func (s *Series) appendRow(c *columns, i int) {
	if u := c.unit.Value(i); u != s.Unit {
		s.mixedUnits = true
	}
	s.Levels[LevelInstance] = append(s.Levels[LevelInstance], c.instance.Value(i))
	s.Levels[LevelTrial] = append(s.Levels[LevelTrial], c.trial.Value(i))
	s.Levels[LevelFork] = append(s.Levels[LevelFork], c.fork.Value(i))
	s.Levels[LevelIteration] = append(s.Levels[LevelIteration], c.iteration.Value(i))
	s.Levels[LevelSlice] = append(s.Levels[LevelSlice], c.slice.Value(i))
	s.Warmup = append(s.Warmup, c.warmup.Value(i))
	s.Value = append(s.Value, c.value.Value(i))
	s.NsPerOp = append(s.NsPerOp, c.nsPerOp.Value(i))
	s.Count = append(s.Count, c.count.Value(i))
	hasTime := c.startNs.IsValid(i) && c.endNs.IsValid(i)
	if hasTime && s.StartNs == nil {
		s.StartNs = make([]int64, len(s.NsPerOp)-1, cap(s.NsPerOp))
		s.EndNs = make([]int64, len(s.NsPerOp)-1, cap(s.NsPerOp))
		for j := range s.StartNs {
			s.StartNs[j], s.EndNs[j] = math.MinInt64, math.MinInt64
		}
	}
	if s.StartNs != nil {
		if hasTime {
			s.StartNs = append(s.StartNs, c.startNs.Value(i))
			s.EndNs = append(s.EndNs, c.endNs.Value(i))
		} else {
			s.StartNs = append(s.StartNs, math.MinInt64)
			s.EndNs = append(s.EndNs, math.MinInt64)
		}
	}
	p := c.pair.Value(i)
	if n := len(s.Pair); n > 0 && s.Pair[n-1] == p {
		p = s.Pair[n-1] // one copy per run of equal pairs
	} else if p != "" {
		p = strings.Clone(p)
	}
	if p != "" && s.Pair == nil {
		s.Pair = make([]string, len(s.NsPerOp)-1, cap(s.NsPerOp))
	}
	if s.Pair != nil {
		s.Pair = append(s.Pair, p)
	}
}

// sortRows orders rows by (pair, instance, trial, fork, iteration, slice),
// stably, unless they already are in that order (the usual case).
func (s *Series) sortRows() {
	n := s.Len()
	less := func(i, j int) bool {
		if s.Pair != nil && s.Pair[i] != s.Pair[j] {
			return s.Pair[i] < s.Pair[j]
		}
		for l := range s.Levels {
			if a, b := s.Levels[l][i], s.Levels[l][j]; a != b {
				return a < b
			}
		}
		return false
	}
	sorted := true
	for i := 1; i < n; i++ {
		if less(i, i-1) {
			sorted = false
			break
		}
	}
	if sorted {
		return
	}
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	sort.SliceStable(perm, func(a, b int) bool { return less(perm[a], perm[b]) })
	for l := range s.Levels {
		s.Levels[l] = permute(s.Levels[l], perm)
	}
	s.Warmup = permute(s.Warmup, perm)
	s.Value = permute(s.Value, perm)
	s.NsPerOp = permute(s.NsPerOp, perm)
	s.Count = permute(s.Count, perm)
	if s.StartNs != nil {
		s.StartNs = permute(s.StartNs, perm)
		s.EndNs = permute(s.EndNs, perm)
	}
	if s.Pair != nil {
		s.Pair = permute(s.Pair, perm)
	}
}

func permute[T any](x []T, perm []int) []T {
	out := make([]T, len(x))
	for i, p := range perm {
		out[i] = x[p]
	}
	return out
}

// Select is Collect that fails when it selects nothing: when f.Benchmark
// matches none of the table's benchmarks (the error lists a few that
// exist), or when the table holds no rows of the metric at all.
func (t *Table) Select(f Filter) ([]*Series, error) {
	series := t.Collect(f)
	if len(series) > 0 {
		return series, nil
	}
	if f.Shards > 1 {
		// The shard is checked first: with --bench, a shard may hold none
		// of the benchmarks the expression matches in the others.
		if all := t.Collect(f.Unsharded()); len(all) > 0 {
			return nil, &EmptyShardError{Shard: f.Shard, Shards: f.Shards, Runs: len(all)}
		}
	}
	if f.Benchmark != nil {
		all := t.Collect(Filter{Metric: f.Metric, project: f.project, Version: f.Version, IncludeWarmup: f.IncludeWarmup})
		if names := distinctBenchmarks(all); len(names) > 0 {
			list := strings.Join(names, ", ")
			if len(names) > 3 {
				list = strings.Join(names[:3], ", ") + fmt.Sprintf(" … and %d more", len(names)-3)
			}
			return nil, fmt.Errorf("%q matches none of the %d benchmarks (%s); the regular expression is matched against the benchmark name without params",
				f.Benchmark, len(names), list)
		}
	}
	if f.Metric == "" || f.Metric == Primary {
		return nil, fmt.Errorf("no benchmark with primary time measurements in the input")
	}
	return nil, fmt.Errorf("no benchmark with %s measurements in the input", f.Metric)
}

// EmptyShardError is Select's error when the filter's shard holds none of
// the benchmark runs the rest of the filter selects: that shard of a split
// run has nothing to do (its part of the run is empty), which callers tell
// from other failures with errors.As.
type EmptyShardError struct {
	// Shard and Shards are the filter's; Runs is the number of benchmark
	// runs the filter selects without its shard.
	Shard, Shards, Runs int
}

func (e *EmptyShardError) Error() string {
	return fmt.Sprintf("shard %d/%d holds none of the %d benchmark runs selected", e.Shard, e.Shards, e.Runs)
}

// distinctBenchmarks lists the benchmark names of series once each, in order.
func distinctBenchmarks(series []*Series) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range series {
		if !seen[s.Benchmark] {
			seen[s.Benchmark] = true
			out = append(out, s.Benchmark)
		}
	}
	return out
}

// Matches reports whether f keeps benchmark run k: its project, version,
// benchmark name and shard (the metric and warmup flag are per row and not
// checked here).
func (f *Filter) Matches(k Key) bool {
	if f.project != "" && k.Project != f.project || f.Version != "" && k.Version != f.Version {
		return false
	}
	if f.Benchmark != nil && !f.Benchmark.MatchString(k.Benchmark) {
		return false
	}
	if f.Only != nil && !f.Only.has(k) {
		return false
	}
	return f.Shards <= 1 || k.Shard(f.Shards) == f.Shard
}

// Unsharded is f without its shard: the selection of the whole run f is
// a shard of.
func (f Filter) Unsharded() Filter {
	f.Shard, f.Shards = 0, 0
	return f
}

// equal reports whether f and o are the same selection: equal fields,
// regular expressions compared by their source text.
func (f Filter) equal(o Filter) bool {
	re := func(f Filter) string {
		if f.Benchmark == nil {
			return "\x00"
		}
		return f.Benchmark.String()
	}
	if re(f) != re(o) {
		return false
	}
	if (f.Only == nil) != (o.Only == nil) || f.Only != nil && !maps.Equal(f.Only.m, o.Only.m) {
		return false
	}
	f.Benchmark, o.Benchmark, f.Only, o.Only = nil, nil, nil, nil
	return f == o
}

// Runs lists the benchmark runs with primary rows in t (warmup rows
// included), in key order.
func (t *Table) Runs() []Key {
	seen := map[Key]bool{}
	for _, rec := range t.Records {
		c := columnsOf(rec)
		var last Key
		have := false
		for i := 0; i < int(rec.NumRows()); i++ {
			if c.metric.Value(i) != Primary {
				continue
			}
			if k := c.key(i); !have || k != last {
				last, have = k, true
				if !seen[k] {
					seen[cloneKey(k)] = true
				}
			}
		}
	}
	out := make([]Key, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Less(out[j]) })
	return out
}
