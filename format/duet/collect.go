package duet

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/table"
)

// Summary kinds of the CSV and directory readers.
const (
	kindMalformedCSV   = "malformed CSV"
	kindFieldCount     = "wrong number of fields"
	kindEmptyName      = "empty suite or benchmark"
	kindBadNumber      = "non-numeric field"
	kindMissingValue   = "missing value (empty or a pandas NA token)"
	kindOutOfRange     = "runid or iteration out of range"
	kindBadPair        = "pair other than A or B"
	kindEndBeforeStart = "iteration ends before it starts"
	kindDuplicate      = "duplicate row (same run, pair and iteration)"
	kindOnePair        = "run with only one pair"
	kindOldType        = "type sequential (the early name of seqn)"
	kindNAArtifact     = "pandas NA token in an artifact (stored as \"\")"
	kindNoArtifacts    = "no artifacts (date, hostname, lscpu, meminfo, uname stored as \"\")"
	kindTimeMismatch   = "iteration_time_ns differs from end − start by more than 1 µs"
	kindOrder          = "order other than AB, BA or None, or two orders in one run"
	kindNoRows         = "no data rows"
	kindMixedSetups    = "mixed setups"
)

// knownType reports whether t is a duet type (seqn, syncduet or duet),
// which are the table modes of duet rows.
func knownType(t string) bool { return t == "seqn" || t == "syncduet" || t == "duet" }

// artifacts are the environment facts of one duetbench invocation: its
// artifacts (FORMAT.md §A1, already parsed: lscpu is the model name,
// meminfo the total memory) and the environment label. Equal Artifacts are
// one instance of the table.
type artifacts struct {
	Date, Hostname, Lscpu, Meminfo, Uname, Environment string
}

// artifactNames are the Env suffixes of an instance, in Artifacts order.
var artifactNames = [...]string{"date", "hostname", "lscpu", "meminfo", "uname", "environment"}

func (a *artifacts) values() [6]string {
	return [6]string{a.Date, a.Hostname, a.Lscpu, a.Meminfo, a.Uname, a.Environment}
}

// environment is the environment a duetbench host belongs to, from its
// hostname as duet/process.py::determine_environment and SPEC §2.3 derive
// it: a name starting with "cirrus" is "bare-metal", with "teaching"
// "shared-vm", with "ip-" "AWS t3.medium"; any other host has "".
func environment(hostname string) string {
	switch {
	case strings.HasPrefix(hostname, "cirrus"):
		return "bare-metal"
	case strings.HasPrefix(hostname, "teaching"):
		return "shared-vm"
	case strings.HasPrefix(hostname, "ip-"):
		return "AWS t3.medium"
	}
	return ""
}

// record is one iteration of one pair of one run.
type record struct {
	suite, bench, typ, order, pair string
	runid, iter                    int64
	timeNs                         float64
	start, end                     int64
	inst                           int32
	source                         string // file the row came from
	line                           int64  // its line, 0 when unknown
	path                           string // its JSON path, "" when not JSON
}

func (r *record) at() *ingest.ParseError {
	return &ingest.ParseError{File: r.source, Line: int(r.line), Path: r.path}
}

func (r *record) place() string {
	switch {
	case r.path != "":
		return r.source + ":" + r.path
	case r.line > 0:
		return r.source + ":" + strconv.FormatInt(r.line, 10)
	}
	return r.source
}

// runKey identifies a run (SPEC §1: artifacts, suite, benchmark, type,
// runid); the instance stands for the artifacts.
type runKey struct {
	inst              int32
	suite, bench, typ string
	runid             int64
}

// runState is what the collector knows of a run.
type runState struct {
	id        int32 // index in collector.runOrder
	first     *record
	pairs     [2]bool
	order     string
	orderWarn bool
}

// kept is a record as the collector keeps it until finish: its run, its
// source and JSON path as indices, its pair as a bit. A million rows then
// take 56 MB instead of 184, and their duplicate check 16 MB instead of
// 150.
type kept struct {
	timeNs     float64
	start, end int64
	line       int64
	run        int32 // index in collector.runOrder
	iter       int32
	source     int32 // index in collector.sources
	path       int32 // index in collector.paths, -1 for none
	pairB      bool
}

// keptChunk is the number of records per chunk of the collector's
// records, which grow by a chunk without copying the ones before.
const keptChunk = 1 << 14

// collector gathers the records of one input (a CSV file or a duetbench
// directory), checking each, and appends rows and setups at the end, when
// the iteration base of every key and the pairs of every run are known.
type collector struct {
	src       ingest.Source
	rep       *ingest.Summary
	names     ingest.Names
	instances *ingest.Instances
	artifacts map[int32]artifacts
	recs      [][]kept // chunks of keptChunk
	nrecs     int
	seen      map[uint64]int32 // iterKey → index in recs
	runs      map[runKey]*runState
	runOrder  []runKey
	strs      map[string]string
	sources   []string
	sourceIDs map[string]int32
	paths     []string

	warnedOldType bool
}

func newCollector(src ingest.Source, rep *ingest.Summary) *collector {
	in := src.Instances
	if in == nil {
		in = &ingest.Instances{}
	}
	return &collector{src: src, rep: rep, names: ingest.Names{Rep: rep}, instances: in,
		artifacts: map[int32]artifacts{}, seen: map[uint64]int32{}, runs: map[runKey]*runState{}, strs: map[string]string{},
		sourceIDs: map[string]int32{}}
}

// iterKey identifies an iteration of a pair of run id: the run, pair and
// iteration (below 2³¹, see add) in one number.
func iterKey(run int32, pairB bool, iter int64) uint64 {
	k := uint64(run)<<32 | uint64(iter)
	if pairB {
		k |= 1 << 31
	}
	return k
}

// keep stores r, of run id.
func (c *collector) keep(r *record, run int32) {
	src, ok := c.sourceIDs[r.source]
	if !ok {
		src = int32(len(c.sources))
		c.sourceIDs[r.source] = src
		c.sources = append(c.sources, r.source)
	}
	path := int32(-1)
	if r.path != "" {
		path = int32(len(c.paths))
		c.paths = append(c.paths, r.path)
	}
	if c.nrecs%keptChunk == 0 {
		c.recs = append(c.recs, make([]kept, 0, keptChunk))
	}
	last := &c.recs[len(c.recs)-1]
	*last = append(*last, kept{timeNs: r.timeNs, start: r.start, end: r.end, line: r.line, run: run,
		iter: int32(r.iter), source: src, path: path, pairB: r.pair == "B"})
	c.nrecs++
}

// kept returns record i.
func (c *collector) kept(i int) *kept { return &c.recs[i/keptChunk][i%keptChunk] }

// at is the place of record k.
func (c *collector) at(k *kept) *ingest.ParseError {
	r := record{source: c.sources[k.source], line: k.line}
	if k.path >= 0 {
		r.path = c.paths[k.path]
	}
	return r.at()
}

// place is the place of record k as text.
func (c *collector) place(k *kept) string {
	r := record{source: c.sources[k.source], line: k.line}
	if k.path >= 0 {
		r.path = c.paths[k.path]
	}
	return r.place()
}

// intern returns one copy of s per distinct value, so a million rows hold
// a handful of suite, benchmark and type strings.
func (c *collector) intern(s string) string {
	if v, ok := c.strs[s]; ok {
		return v
	}
	s = strings.Clone(s)
	c.strs[s] = s
	return s
}

// instance returns the instance number of a (the same number for equal
// artifacts across the files of one ReadFiles call).
func (c *collector) instance(a artifacts, at ingest.ParseError) int32 {
	v := a.values()
	for i := range v {
		v[i] = c.names.Clean(v[i], "artifact "+artifactNames[i], at)
	}
	a = artifacts{v[0], v[1], v[2], v[3], v[4], v[5]}
	id, _ := c.instances.ID(strings.Join(v[:], "\x00"))
	if _, ok := c.artifacts[id]; !ok {
		c.artifacts[id] = a
	}
	return id
}

func (c *collector) skip(kind string, at *ingest.ParseError, format string, args ...any) {
	e := *at
	e.Msg = fmt.Sprintf(format, args...)
	c.rep.Skip(kind, 1, &e)
}

func (c *collector) warn(kind string, at *ingest.ParseError, format string, args ...any) {
	e := *at
	e.Msg = fmt.Sprintf(format, args...)
	c.rep.Warn(kind, &e)
}

// add checks r (suite, benchmark, type, pair, runid, iteration, times and
// instance set) and keeps it, or counts why not.
func (c *collector) add(r record) {
	at := r.at()
	if r.suite == "" || r.bench == "" {
		c.skip(kindEmptyName, at, "suite %q, benchmark %q: both must be given", r.suite, r.bench)
		return
	}
	if r.typ == "sequential" {
		if !c.warnedOldType {
			c.warnedOldType = true
			c.warn(kindOldType, at, "type %q read as seqn (said once per input)", r.typ)
		}
		r.typ = "seqn"
	}
	if !knownType(r.typ) {
		c.skip(ingest.KindUnknownMode, at, "type %q is not seqn, syncduet or duet", r.typ)
		return
	}
	if r.pair != "A" && r.pair != "B" {
		c.skip(kindBadPair, at, "pair %q is not A or B", r.pair)
		return
	}
	if r.runid < 0 || r.iter < 0 || r.runid >= math.MaxInt32 || r.iter >= math.MaxInt32 {
		c.skip(kindOutOfRange, at, "runid %d, iteration %d: want 0 ≤ n < 2³¹−1", r.runid, r.iter)
		return
	}
	if reason, ok := ingest.CheckTime("", r.timeNs); !ok {
		c.skip(reason, at, "iteration_time_ns %v", r.timeNs)
		return
	}
	if r.end < r.start {
		c.skip(kindEndBeforeStart, at, "iteration_end_ns %d is before iteration_start_ns %d", r.end, r.start)
		return
	}
	if d := math.Abs(float64(r.end-r.start) - r.timeNs); d > 1000 {
		c.warn(kindTimeMismatch, at, "end − start = %d ns, iteration_time_ns = %v", r.end-r.start, r.timeNs)
	}
	bench := c.names.Clean(r.bench, "benchmark", *at)
	suite := c.names.Clean(r.suite, "suite", *at)
	if err := (&table.Row{Project: suite, Version: c.src.Version, Benchmark: bench, Mode: r.typ, Source: r.source}).Check(); err != nil {
		c.skip(ingest.RejectKind(err), at, "%v", err)
		return
	}
	r.suite, r.bench, r.typ, r.pair = c.intern(suite), c.intern(bench), c.intern(r.typ), c.intern(r.pair)
	rk := runKey{inst: r.inst, suite: r.suite, bench: r.bench, typ: r.typ, runid: r.runid}
	run := c.runs[rk]
	if run != nil {
		if i, dup := c.seen[iterKey(run.id, r.pair == "B", r.iter)]; dup {
			c.skip(kindDuplicate, at, "%s %s run %d pair %s iteration %d already read at %s",
				r.suite, r.bench, r.runid, r.pair, r.iter, c.place(c.kept(int(i))))
			return
		}
	}
	r.order = c.names.Clean(r.order, "order", *at)
	if run == nil {
		first := r
		run = &runState{id: int32(len(c.runOrder)), first: &first, order: r.order}
		c.runs[rk] = run
		c.runOrder = append(c.runOrder, rk)
	}
	c.seen[iterKey(run.id, r.pair == "B", r.iter)] = int32(c.nrecs)
	if r.order != "AB" && r.order != "BA" && r.order != "None" && !run.orderWarn {
		run.orderWarn = true
		c.warn(kindOrder, at, "order %q is not AB, BA or None", r.order)
	} else if r.order != run.order && !run.orderWarn {
		run.orderWarn = true
		c.warn(kindOrder, at, "order %q, but the run's first row has %q (kept)", r.order, run.order)
	}
	run.pairs[r.pair[0]-'A'] = true
	c.keep(&r, run.id)
}

// key is the table key of the records of run rk.
func (c *collector) key(rk *runKey) table.Key {
	project := rk.suite
	if c.src.ProjectFromUser && c.src.Project != "" {
		project = c.src.Project
	}
	return table.Key{Project: project, Version: c.src.Version, Benchmark: rk.bench, Mode: rk.typ}
}

// finish appends the rows and one setup per key to dst.
func (c *collector) finish(dst *table.Builder) {
	c.seen = nil // no more records: their memory may go as they become rows
	// The iteration offset of each key: 1 when its recorded indices are
	// 0-based (renaissance, speccpu, or any index 0), else 0.
	offset := map[table.Key]int64{}
	var keys []table.Key
	firstOf := map[table.Key]*kept{}
	for i := 0; i < c.nrecs; i++ {
		r := c.kept(i)
		rk := &c.runOrder[r.run]
		k := c.key(rk)
		if _, ok := offset[k]; !ok {
			offset[k] = 0
			keys = append(keys, k)
			firstOf[k] = r
		}
		if r.iter == 0 || rk.suite == "renaissance" || rk.suite == "speccpu" {
			offset[k] = 1
		}
	}
	for _, rk := range c.runOrder {
		run := c.runs[rk]
		if !run.pairs[0] || !run.pairs[1] {
			has := "A"
			if run.pairs[1] {
				has = "B"
			}
			c.warn(kindOnePair, run.first.at(), "%s %s (%s) run %d of instance %d has pair %s only; kept, but it has nothing to pair with",
				rk.suite, rk.bench, rk.typ, rk.runid, rk.inst, has)
		}
	}
	row := table.Row{Metric: table.Primary, Unit: "ns", Count: 1, Trial: 1, Slice: 1, HasTime: true}
	for i := 0; i < c.nrecs; i++ {
		r := c.kept(i)
		rk := &c.runOrder[r.run]
		k := c.key(rk)
		row.Project, row.Version, row.Benchmark, row.Params, row.Mode = k.Project, k.Version, k.Benchmark, k.Params, k.Mode
		row.Value, row.NsPerOp = r.timeNs, r.timeNs
		row.Instance, row.Fork, row.Iteration = rk.inst, int32(rk.runid+1), int32(int64(r.iter)+offset[k])
		row.StartNs, row.EndNs = r.start, r.end
		row.Pair, row.Source, row.Line = "A", c.sources[r.source], r.line
		if r.pairB {
			row.Pair = "B"
		}
		if err := dst.Append(&row); err != nil {
			c.skip(ingest.RejectKind(err), c.at(r), "%v", err)
		}
		if (i+1)%keptChunk == 0 {
			c.recs[i/keptChunk] = nil // appended: let the chunk go
		}
	}
	envs := map[table.Key]map[string]string{}
	for _, k := range keys {
		envs[k] = map[string]string{envIterationOffset: strconv.FormatInt(offset[k], 10)}
	}
	for _, rk := range c.runOrder {
		run := c.runs[rk]
		env := envs[c.key(&rk)]
		a := c.artifacts[rk.inst]
		for i, v := range a.values() {
			env[instanceEnvKey(rk.inst, artifactNames[i])] = v
		}
		env[runOrderEnvKey(rk.inst, int32(rk.runid+1))] = run.order
	}
	for _, k := range keys {
		f := firstOf[k]
		s := table.Setup{Key: k, Tool: "duet", Env: envs[k], Source: c.place(f)}
		if err := dst.AddSetup(s); err != nil {
			c.warn(kindMixedSetups, c.at(f), "%v", err)
		}
	}
}
