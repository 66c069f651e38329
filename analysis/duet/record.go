package duet

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/benchtrim/benchtrim/table"
)

// The duet benchmarking types (table mode column).
const (
	typeSeqn     = "seqn"     // A and B one after the other
	typeSyncDuet = "syncduet" // in parallel, iteration starts synchronised
	TypeDuet     = "duet"     // in parallel, unsynchronised (asynchronous duet)
)

// types lists the types in report order.
var types = []string{typeSeqn, typeSyncDuet, TypeDuet}

// Key is a benchmark-env key (SPEC §1, BENCHMARK_ENV_COL): every per-benchmark
// statistic is computed per key. Version is the table's version label
// (usually ""; the two compared versions are the pairs A and B).
type Key struct {
	Suite, Benchmark, Version, Type, Env string
}

// String formats k as "env suite/benchmark[@version] type".
func (k Key) String() string {
	b := k.Suite + "/" + k.Benchmark
	if k.Version != "" {
		b += "@" + k.Version
	}
	return k.Env + " " + b + " " + k.Type
}

func (k Key) compare(o Key) int {
	return cmp.Or(cmp.Compare(k.Env, o.Env), cmp.Compare(k.Suite, o.Suite), cmp.Compare(k.Benchmark, o.Benchmark),
		cmp.Compare(k.Version, o.Version), cmp.Compare(typeRank(k.Type), typeRank(o.Type)))
}

func typeRank(t string) int {
	if i := slices.Index(types, t); i >= 0 {
		return i
	}
	return len(types)
}

// Record is one harness iteration of one pair in one run, the row of the
// duetprocess per-iteration CSV (FORMAT.md §A3) without the key columns.
// A run is identified within a Key by (Instance, Run): the duetbench
// invocation (its artifacts date, hostname, lscpu, meminfo, uname) and the
// runid, which restarts at 0 in every invocation.
type Record struct {
	Instance int32 // invocation index (table instance)
	Run      int32 // runid (table fork − 1)
	// Iteration is the index as the harness recorded it (0-based for
	// Renaissance and SPEC CPU, 1-based for DaCapo and ScalaBench).
	Iteration int32
	Pair      byte // 'A' or 'B'
	// StartNs and EndNs are the iteration's absolute timestamps;
	// TimeNs is its duration as recorded (end − start for every parser).
	StartNs, EndNs int64
	TimeNs         float64
}

func (r *Record) sameRun(o *Record) bool { return r.Instance == o.Instance && r.Run == o.Run }

// sortRecords orders records by (instance, run, pair, iteration, start).
func sortRecords(recs []Record) {
	slices.SortStableFunc(recs, func(a, b Record) int {
		return cmp.Or(cmp.Compare(a.Instance, b.Instance), cmp.Compare(a.Run, b.Run), cmp.Compare(a.Pair, b.Pair),
			cmp.Compare(a.Iteration, b.Iteration), cmp.Compare(a.StartNs, b.StartNs))
	})
}

// runs splits records sorted by sortRecords into runs; each run splits into
// its A and B records (each sorted by iteration). The slices share recs.
func runs(recs []Record) []runRecs {
	var out []runRecs
	for i := 0; i < len(recs); {
		j := i + 1
		for j < len(recs) && recs[j].sameRun(&recs[i]) {
			j++
		}
		run := recs[i:j]
		k := 0
		for k < len(run) && run[k].Pair == 'A' {
			k++
		}
		out = append(out, runRecs{Instance: recs[i].Instance, Run: recs[i].Run, A: run[:k], B: run[k:]})
		i = j
	}
	return out
}

// runRecs is one run's iterations by pair.
type runRecs struct {
	Instance, Run int32
	A, B          []Record
}

// group is the records of one benchmark-env key, sorted by (instance, run,
// pair, iteration).
type group struct {
	key     Key
	records []Record
}

// loaded is what fromTable read.
type loaded struct {
	groups []group
	// runs is the number of benchmark runs (table series) read, before
	// rows are dropped.
	runs int
	Dropped
	// warnings are Dropped.warnings.
	warnings []string
}

// Dropped counts the rows fromTable drops: Excluded rows of excluded
// benchmarks; Unlabelled rows whose instance has no environment label;
// NoTime rows without timestamps; BadPair rows whose pair is neither A nor
// B; OtherModes rows of series whose mode is not a duet type.
type Dropped struct {
	Excluded, Unlabelled, NoTime, BadPair, OtherModes int
}

// add adds o's counts to d's.
func (d *Dropped) add(o Dropped) {
	d.Excluded += o.Excluded
	d.Unlabelled += o.Unlabelled
	d.NoTime += o.NoTime
	d.BadPair += o.BadPair
	d.OtherModes += o.OtherModes
}

// warnings says, one line per nonzero count, which rows were dropped.
func (d Dropped) warnings() []string {
	var out []string
	for _, c := range []struct {
		n    int
		what string
	}{
		{d.OtherModes, "rows of series whose mode is not seqn, syncduet or duet"},
		{d.Excluded, "rows of excluded benchmarks"},
		{d.Unlabelled, "rows of instances without an environment label (a host other than cirrus*, teaching*, ip-*; --keep-unlabelled keeps them)"},
		{d.NoTime, "rows without timestamps"},
		{d.BadPair, "rows whose pair is not A or B"},
	} {
		if c.n > 0 {
			out = append(out, fmt.Sprintf("%d %s dropped", c.n, c.what))
		}
	}
	return out
}

// fromTable reads duet rows from the canonical table: one Record per
// primary row of a series whose mode is seqn, syncduet or duet, grouped by
// Key and sorted. The table mapping (format/duet) is: project = suite,
// benchmark, version, mode = type, pair A/B, ns_per_op = iteration time,
// start_ns/end_ns, instance = invocation, fork = runid + 1, iteration =
// recorded index + Setup.Env["iteration_offset"], and the environment of
// instance N in Setup.Env["instance.N.environment"].
//
// Rows of excluded benchmarks (opt.Exclude), without timestamps or with a
// pair other than A/B are dropped and counted; so are rows of an instance
// without environment label unless opt.KeepUnlabelled (then Env is "").
func fromTable(t *table.Table, opt Options) (*loaded, error) {
	out := &loaded{}
	byKey := map[Key]int{}
	sel := opt.Select
	sel.IncludeWarmup = true
	var err error
	// One series at a time: its rows become Records, and the collector may
	// have it before the next is built.
	t.EachSeries(sel, func(s *table.Series) {
		if err == nil {
			err = out.add(s, opt, byKey)
		}
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out.groups, func(a, b group) int { return a.key.compare(b.key) })
	for i := range out.groups {
		sortRecords(out.groups[i].records)
	}
	out.warnings = out.Dropped.warnings()
	return out, nil
}

// add appends the rows of series s to their groups (byKey: the index of
// each Key's group in out.Groups), or counts them as dropped.
func (out *loaded) add(s *table.Series, opt Options, byKey map[Key]int) error {
	out.runs++
	if typeRank(s.Mode) == len(types) {
		out.OtherModes += s.Len()
		return nil
	}
	if slices.Contains(opt.Exclude, s.Benchmark) {
		out.Excluded += s.Len()
		return nil
	}
	var env map[string]string
	if s.Setup != nil {
		env = s.Setup.Env
	}
	offset := 0
	if v, ok := env["iteration_offset"]; ok {
		o, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("duet: %s: iteration_offset %q: %w", s.Key, v, err)
		}
		offset = o
	}
	envOf := map[int32]string{}
	for i := 0; i < s.Len(); i++ {
		if s.StartNs == nil || s.StartNs[i] == math.MinInt64 || s.EndNs[i] == math.MinInt64 {
			out.NoTime++
			continue
		}
		var pair byte
		if s.Pair != nil && len(s.Pair[i]) == 1 {
			pair = s.Pair[i][0]
		}
		if pair != 'A' && pair != 'B' {
			out.BadPair++
			continue
		}
		inst := s.Levels[table.LevelInstance][i]
		e, ok := envOf[inst]
		if !ok {
			e = env["instance."+strconv.Itoa(int(inst))+".environment"]
			envOf[inst] = e
		}
		if e == "" && !opt.KeepUnlabelled {
			out.Unlabelled++
			continue
		}
		k := Key{Suite: s.Project, Benchmark: s.Benchmark, Version: s.Version, Type: s.Mode, Env: e}
		g, ok := byKey[k]
		if !ok {
			g = len(out.groups)
			byKey[k] = g
			// Usually one series per key: room for all its rows.
			out.groups = append(out.groups, group{key: k, records: make([]Record, 0, s.Len()-i)})
		}
		out.groups[g].records = append(out.groups[g].records, Record{
			Instance:  inst,
			Run:       s.Levels[table.LevelFork][i] - 1,
			Iteration: s.Levels[table.LevelIteration][i] - int32(offset),
			Pair:      pair,
			StartNs:   s.StartNs[i],
			EndNs:     s.EndNs[i],
			TimeNs:    s.NsPerOp[i],
		})
	}
	return nil
}
