package gobench

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/table"
)

// name is a parsed benchmark name.
type name struct {
	base     string            // "Benchmark" + positional parts
	params   map[string]string // key=value parts
	procs    int32             // GOMAXPROCS suffix; 0 when absent
	hasProcs bool
	printed  string // the name without its GOMAXPROCS suffix
}

// parseName splits a printed benchmark name into its positional path,
// key=value parts and GOMAXPROCS suffix:
//
//	BenchmarkDecode/text=digits/fast-8 → "BenchmarkDecode/fast", {text: digits}, 8
func parseName(full string) name {
	var n name
	if procs, ok := procsSuffix(full); ok {
		n.procs, n.hasProcs = procs, true
		full = full[:strings.LastIndexByte(full, '-')]
	}
	n.printed = full
	parts := strings.Split(full, "/")
	var base []string
	for i, part := range parts {
		if i > 0 {
			if k, v, ok := strings.Cut(part, "="); ok && k != "" {
				if _, dup := n.params[k]; !dup {
					if n.params == nil {
						n.params = map[string]string{}
					}
					n.params[k] = v
					continue
				}
			}
		}
		base = append(base, part)
	}
	n.base = strings.Join(base, "/")
	return n
}

// procsSuffix returns the GOMAXPROCS suffix of a printed name ("-8").
func procsSuffix(full string) (int32, bool) {
	if i := strings.LastIndexByte(full, '-'); i >= 0 && i+1 < len(full) && allDigits(full[i+1:]) {
		if v, err := strconv.ParseInt(full[i+1:], 10, 32); err == nil && v >= 1 {
			return int32(v), true
		}
	}
	return 0, false
}

// printedName is n's printed name where the benchmark bench (and the
// params) do not give it back, else "".
func printedName(n *name, bench string) string {
	if n.printed == bench {
		return ""
	}
	return n.printed
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// keyed is what a result's (name, pkg) maps to; printed is the name as
// go test printed it (without its GOMAXPROCS suffix) where benchmark and
// params do not give it back, else "" (the setup's Name).
type keyed struct {
	benchmark, params, printed string
	procs                      int32
	hasProcs                   bool
	// nameParams are the key=value parts of the name, for "gomaxprocs".
	nameParams map[string]string
	// state is the index of the keyState of its first version (emit).
	state int32
}

// namePkg is a result's printed name and package.
type namePkg struct{ name, pkg string }

// emit assigns keys and appends the rows and setups of all results.
func (p *parser) emit(dst *table.Builder) {
	if p.results.n == 0 {
		p.rep.Warn(kindNoResults, p.place(0, "no benchmark result lines"))
		return
	}
	p.interns = nil // the strings stay with the results; the map's slots go
	harness, startup := p.harnessPerLine()
	e := &emitter{p: p, dst: dst, keys: p.assignKeys(), harness: harness, startup: startup, others: map[runOf]int32{},
		row: table.Row{Project: p.src.Project, Mode: mode, Instance: p.src.Instance, Trial: p.src.Trial, Slice: 1, Source: p.file}}
	for i := range e.keys {
		e.keys[i].state = -1
	}
	// A state per key, nearly always: no slice grown by doubling.
	e.states = make([]keyState, 0, len(e.keys))
	for c, chunk := range p.results.chunks {
		for i := range chunk {
			e.result(&chunk[i])
		}
		// Emitted: its memory can go while the rows are appended (the
		// largest live heap of a million one-line benchmarks).
		p.results.chunks[c] = nil
	}
	p.results, p.values = resultStore{}, nil
	for i := range e.states {
		st := &e.states[i]
		setup := p.setupFor(p.keyOf(st), p.snaps[st.snap], st.k, int(st.line))
		setup.Forks = max(setup.Forks, st.maxFork())
		if h, ok := e.harnessOf[int32(i)]; ok && h.lines > 0 {
			setup.Env[table.EnvHarnessNsPerLine] = strconv.FormatFloat(math.Round(h.ns/float64(h.lines)), 'f', -1, 64)
		}
		if h, ok := e.startupOf[int32(i)]; ok && h.lines > 0 {
			setup.Env[table.EnvStartupNs] = strconv.FormatFloat(math.Round(h.ns/float64(h.lines)), 'f', -1, 64)
		}
		if !st.noMem {
			setup.Env[table.EnvBenchmem] = "true"
		}
		if err := dst.AddSetup(*setup); err != nil {
			p.rep.Warn(kindMixedSetups, p.place(int(st.line), "%v", err))
		}
	}
}

// emitter is emit's state. A run's key is (project, version, benchmark,
// params, mode) with the project and mode fixed and benchmark and params
// from its keyed: the state of a keyed's first version is found by its
// index (keyed.state), of another version in others, so that one version
// of a million benchmarks needs no map. states are in order of first
// appearance, the order of the setups.
type emitter struct {
	p       *parser
	dst     *table.Builder
	keys    []keyed
	harness map[[2]int32]float64
	// harnessOf sums the harness of a state (by index) whose lines have one;
	// startup and startupOf are the same for the runs' start-up.
	harnessOf map[int32]*harnessSum
	startup   map[[2]int32]float64
	startupOf map[int32]*harnessSum
	states    []keyState
	others    map[runOf]int32
	row       table.Row
}

// runOf names the state of a keyed (its index) in another version.
type runOf struct {
	k       int32
	version string
}

// result appends the rows of r, numbering its fork and iteration in the
// state of its benchmark run.
func (e *emitter) result(r *result) {
	p, row := e.p, &e.row
	k := &e.keys[r.key]
	snap := p.snaps[r.snap]
	version := p.src.Version
	if c := snap["commit"]; c != "" && !(p.src.VersionFromUser && version != "") {
		version = c
	}
	si, ok := k.state, k.state >= 0
	if ok && e.states[si].version != version {
		si, ok = e.others[runOf{r.key, version}]
	}
	if !ok {
		si = int32(len(e.states))
		e.states = append(e.states, keyState{version: version, k: k, snap: r.snap, line: int32(min(r.line, math.MaxInt32)), first: forkEntry{at: noFork}})
		if k.state < 0 {
			k.state = si
		} else {
			e.others[runOf{r.key, version}] = si
		}
	}
	st := &e.states[si]
	if ok && r.snap != st.snap && !st.warned {
		if diff := configDiff(p.snaps[st.snap], snap); diff != "" {
			st.warned = true
			p.rep.Warn(kindMixedConfig, p.place(r.line, "%s: %s (the setup keeps the configuration of line %d)", p.keyOf(st), diff, st.line))
		}
	}
	row.Instance, row.Trial = p.src.Instance, p.src.Trial
	if v, ok := levelLabel(snap, "instance"); ok {
		row.Instance = v
	}
	if v, ok := levelLabel(snap, "trial"); ok {
		row.Trial = v
	}
	fs := st.fork([2]int32{row.Instance, row.Trial})
	if r.run != fs.lastRun {
		fs.fork++
		fs.lastRun = r.run
		fs.iteration = 0
	}
	fs.iteration++
	row.Fork = fs.fork
	row.Version, row.Benchmark, row.Params = version, k.benchmark, k.params
	row.Iteration, row.Count, row.Line = fs.iteration, r.iters, int64(r.line)
	p.appendValues(e.dst, *r, row)
	if h, ok := e.harness[[2]int32{r.stream, r.run}]; ok {
		if e.harnessOf == nil {
			e.harnessOf = map[int32]*harnessSum{}
		}
		if e.harnessOf[si] == nil {
			e.harnessOf[si] = &harnessSum{}
		}
		e.harnessOf[si].ns += h
		e.harnessOf[si].lines++
	}
	if h, ok := e.startup[[2]int32{r.stream, r.run}]; ok {
		if e.startupOf == nil {
			e.startupOf = map[int32]*harnessSum{}
		}
		if e.startupOf[si] == nil {
			e.startupOf[si] = &harnessSum{}
		}
		e.startupOf[si].ns += h
		e.startupOf[si].lines++
	}
	st.noMem = st.noMem || !p.hasMemStats(r)
}

// hasMemStats reports whether result r holds B/op and allocs/op values
// (go test -benchmem, or a benchmark that calls b.ReportAllocs).
func (p *parser) hasMemStats(r *result) bool {
	var b, a bool
	for _, v := range p.values[r.valuesFrom:r.valuesTo] {
		b = b || v.unit == "B/op"
		a = a || v.unit == "allocs/op"
	}
	return b && a
}

// resultStore holds the result lines of a Read in chunks of
// resultChunk, so that emit frees them as it goes.
type resultStore struct {
	chunks [][]result
	n      int
}

const resultChunk = 1 << 15

func (s *resultStore) add(r result) {
	if len(s.chunks) == 0 || len(s.chunks[len(s.chunks)-1]) == resultChunk {
		s.chunks = append(s.chunks, make([]result, 0, min(resultChunk, max(64, s.n))))
	}
	c := &s.chunks[len(s.chunks)-1]
	*c = append(*c, r)
	s.n++
}

// all yields the results in order (for range).
func (s *resultStore) all() func(yield func(*result) bool) {
	return func(yield func(*result) bool) {
		for _, c := range s.chunks {
			for i := range c {
				if !yield(&c[i]) {
					return
				}
			}
		}
	}
}

// assignKeys gives every result the index (result.key) of its benchmark
// and params among the keys it returns: the package joins the name only
// when one base name occurs in several packages, and GOMAXPROCS becomes a
// "gomaxprocs" param only when a benchmark ran under several values of it.
//
// A set of packages (GOMAXPROCS values) per name is kept as its first value
// and whether another was seen, and the key of a name's first package in
// the name's own entry, so that a million names in one package need no
// million maps nor a map by (name, package).
func (p *parser) assignKeys() []keyed {
	keys, ok := p.assignKeysAlike()
	if !ok {
		keys = p.assignKeysAny()
	}
	p.sameKeys(keys)
	return keys
}

// sameKeys gives results whose names differ but whose benchmark and
// params are one (parts in another order: BenchmarkA/x=1/y=2 and
// BenchmarkA/y=2/x=1) the first such key. Only keys with params can
// meet, so only they are looked up.
func (p *parser) sameKeys(keys []keyed) {
	canon := map[[2]string]int32{}
	var moved map[int32]int32
	for i := range keys {
		if keys[i].params == "" {
			continue
		}
		bp := [2]string{keys[i].benchmark, keys[i].params}
		if first, ok := canon[bp]; ok {
			if moved == nil {
				moved = map[int32]int32{}
			}
			moved[int32(i)] = first
		} else {
			canon[bp] = int32(i)
		}
	}
	if moved == nil {
		return
	}
	for r := range p.results.all() {
		if k, ok := moved[r.key]; ok {
			r.key = k
		}
	}
}

// assignKeysAny is assignKeys for any input.
func (p *parser) assignKeysAny() []keyed {
	type nameKeys struct {
		name
		pkg string // the package of key
		key int32  // the key of (name, pkg); -1 before the first
	}
	names := map[string]nameKeys{}
	pkgOf := map[string]string{} // base → its first package
	pkgsOf := map[string]bool{}  // bases in several packages
	for r := range p.results.all() {
		n, ok := names[r.name]
		if !ok {
			n = nameKeys{name: parseName(r.name), key: -1}
			names[r.name] = n
		}
		if first, ok := pkgOf[n.base]; !ok {
			pkgOf[n.base] = r.pkg
		} else if first != r.pkg {
			pkgsOf[n.base] = true
		}
	}
	var keys []keyed
	others := map[namePkg]int32{}     // keys of a name's other packages
	procsOf := map[[2]string]int32{}  // (benchmark, params) → its first GOMAXPROCS
	manyProcs := map[[2]string]bool{} // … that ran under several
	for r := range p.results.all() {
		n := names[r.name]
		if n.key >= 0 && n.pkg == r.pkg {
			r.key = n.key
			continue
		}
		np := namePkg{r.name, r.pkg}
		if k, ok := others[np]; ok && n.key >= 0 {
			r.key = k
			continue
		}
		bench := n.base
		if pkgsOf[n.base] && r.pkg != "" {
			bench = r.pkg + "." + n.base
		}
		procs := n.procs
		if !n.hasProcs {
			procs = 1
		}
		r.key = int32(len(keys))
		keys = append(keys, keyed{benchmark: bench, params: table.CanonicalParams(n.params), printed: printedName(&n.name, bench), procs: procs, hasProcs: n.hasProcs, nameParams: n.params})
		if n.key < 0 {
			n.key, n.pkg = r.key, r.pkg
			names[r.name] = n
		} else {
			others[np] = r.key
		}
		bp := [2]string{bench, keys[r.key].params}
		if first, ok := procsOf[bp]; !ok {
			procsOf[bp] = procs
		} else if first != procs {
			manyProcs[bp] = true
		}
	}
	for i := range keys {
		if k := &keys[i]; manyProcs[[2]string{k.benchmark, k.params}] {
			m := map[string]string{"gomaxprocs": strconv.Itoa(int(k.procs))}
			for pk, pv := range k.nameParams {
				if pk != "gomaxprocs" {
					m[pk] = pv
				}
			}
			k.params = table.CanonicalParams(m)
		}
	}
	return keys
}

// assignKeysAlike is assignKeys for the usual input, whose results are all
// of one package and one GOMAXPROCS suffix (or none): a name's key is
// then its own, so only a map from name to key is built. It returns false,
// having changed nothing, for any other input.
func (p *parser) assignKeysAlike() ([]keyed, bool) {
	var pkg string
	var procs int32
	var hasProcs bool
	first := true
	for r := range p.results.all() {
		pr, ok := procsSuffix(r.name)
		switch {
		case first:
			pkg, procs, hasProcs, first = r.pkg, pr, ok, false
		case r.pkg != pkg || pr != procs || ok != hasProcs:
			return nil, false
		}
	}
	var keys []keyed
	keyOf := map[string]int32{}
	for r := range p.results.all() {
		k, ok := keyOf[r.name]
		if !ok {
			n := parseName(r.name)
			procs := n.procs
			if !n.hasProcs {
				procs = 1
			}
			k = int32(len(keys))
			keys = append(keys, keyed{benchmark: n.base, params: table.CanonicalParams(n.params), printed: printedName(&n, n.base), procs: procs, hasProcs: n.hasProcs, nameParams: n.params})
			keyOf[r.name] = k
		}
		r.key = k
	}
	return keys, true
}

// forkState numbers the forks of a benchmark in one instance and trial.
type forkState struct {
	fork, lastRun, iteration int32
}

// forkEntry is the forkState of one (instance, trial).
type forkEntry struct {
	at [2]int32
	forkState
}

// keyOf is the benchmark run of st.
func (p *parser) keyOf(st *keyState) table.Key {
	return table.Key{Project: p.src.Project, Version: st.version, Benchmark: st.k.benchmark, Params: st.k.params, Mode: mode}
}

// noFork marks keyState.first unused (instances and trials are ≥ 0).
var noFork = [2]int32{-1, -1}

// fork returns the forkState of (instance, trial) at, added when new.
func (st *keyState) fork(at [2]int32) *forkState {
	if st.first.at == at || st.first.at == noFork {
		st.first.at = at
		return &st.first.forkState
	}
	if st.more == nil {
		st.more = &[]forkEntry{}
	}
	for i := range *st.more {
		if (*st.more)[i].at == at {
			return &(*st.more)[i].forkState
		}
	}
	*st.more = append(*st.more, forkEntry{at: at})
	return &(*st.more)[len(*st.more)-1].forkState
}

// maxFork is the largest fork number of st.
func (st *keyState) maxFork() int {
	n := int(st.first.fork)
	if st.more != nil {
		for _, f := range *st.more {
			n = max(n, int(f.fork))
		}
	}
	return n
}

// keyState is what emit keeps of one benchmark run until its setup is
// made at the end (setupFor): a million runs of one line each keep 64
// bytes each, not a Setup and its Env map.
type keyState struct {
	version string
	k       *keyed
	// The forks are numbered per (instance, trial): first, nearly always
	// the only one, and more.
	more  *[]forkEntry
	first forkEntry
	snap  int32
	// line is the first result's line (for messages; clamped to 2³¹−1).
	line   int32
	warned bool
	// noMem is set by a line without B/op or allocs/op: no -benchmem.
	noMem bool
}

// harnessSum sums go test's own time of a run's lines whose stream run
// printed its wall time, over lines of them.
type harnessSum struct {
	ns    float64
	lines int
}

// appendValues appends the rows of one result line: its primary time
// (ns/op, else the first <time>/op value) and every other metric, skipping
// and counting values the table cannot hold.
func (p *parser) appendValues(dst *table.Builder, r result, row *table.Row) {
	vals := p.values[r.valuesFrom:r.valuesTo]
	primary := primaryIndex(vals)
	if primary < 0 {
		p.rep.Warn(kindNoTime, p.place(r.line, "%s: no <time>/op value; its other metrics are kept", r.name))
	}
	for i, v := range vals {
		row.Unit, row.Value = v.unit, v.v
		if i == primary {
			ns, err := ingest.NsPerOp(v.unit, v.v, 1)
			if err != nil {
				ns = math.NaN()
			}
			if reason, ok := ingest.CheckTime(mode, ns); !ok {
				p.rep.Skip(reason, 1, p.place(r.line, "%s: %s %s", r.name, strconv.FormatFloat(v.v, 'g', -1, 64), v.unit))
				continue
			}
			row.Metric, row.NsPerOp = table.Primary, ns
		} else {
			if math.IsNaN(v.v) || math.IsInf(v.v, 0) {
				p.rep.Skip(kindNonFiniteMetric, 1, p.place(r.line, "%s: %v %s", r.name, v.v, v.unit))
				continue
			}
			row.Metric, row.NsPerOp = v.unit, math.NaN()
		}
		if err := dst.Append(row); err != nil {
			p.rep.Skip(ingest.RejectKind(err), 1, p.place(r.line, "%v", err))
		}
	}
}

// setupFor builds the setup of key from the configuration snap in effect
// at its first result.
func (p *parser) setupFor(key table.Key, snap map[string]string, k *keyed, line int) *table.Setup {
	env := make(map[string]string, len(snap)+1)
	for kk, v := range snap {
		if _, isLevel := levelLabel(snap, kk); !isLevel {
			env[kk] = v
		}
	}
	if k.hasProcs {
		env["gomaxprocs"] = strconv.Itoa(int(k.procs))
	}
	s := &table.Setup{Key: key, Name: k.printed, Tool: "go", Env: env, Source: fmt.Sprintf("%s:%d", p.file, line)}
	for _, kk := range []string{"go", "goversion", "go-version"} {
		if v := snap[kk]; v != "" {
			s.ToolVersion = v
			break
		}
	}
	return s
}

// levelLabel returns the configuration value of key as a level when key is
// "instance" or "trial" and the value is a positive integer.
func levelLabel(snap map[string]string, key string) (int32, bool) {
	if key != "instance" && key != "trial" {
		return 0, false
	}
	v, err := strconv.ParseInt(snap[key], 10, 32)
	if err != nil || v < 1 {
		return 0, false
	}
	return int32(v), true
}

// configDiff names the first configuration key (sorted) whose value differs
// between a and b, or "".
func configDiff(a, b map[string]string) string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		_, levelA := levelLabel(a, k)
		_, levelB := levelLabel(b, k)
		if levelA && levelB {
			continue
		}
		va, oka := a[k]
		vb, okb := b[k]
		if oka != okb || va != vb {
			return fmt.Sprintf("configuration %s changed from %q to %q", k, va, vb)
		}
	}
	return ""
}
