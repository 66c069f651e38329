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
}

// parseName splits a printed benchmark name into its positional path,
// key=value parts and GOMAXPROCS suffix:
//
//	BenchmarkDecode/text=digits/fast-8 → "BenchmarkDecode/fast", {text: digits}, 8
func parseName(full string) name {
	var n name
	if i := strings.LastIndexByte(full, '-'); i >= 0 && i+1 < len(full) && allDigits(full[i+1:]) {
		if v, err := strconv.ParseInt(full[i+1:], 10, 32); err == nil && v >= 1 {
			n.procs, n.hasProcs = int32(v), true
			full = full[:i]
		}
	}
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

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// keyed is what a result's (name, pkg) maps to.
type keyed struct {
	benchmark, params string
	procs             int32
	hasProcs          bool
}

// namePkg is a result's printed name and package.
type namePkg struct{ name, pkg string }

// emit assigns keys and appends the rows and setups of all results.
func (p *parser) emit(dst *table.Builder) {
	if len(p.results) == 0 {
		p.rep.Warn(kindNoResults, p.place(0, "no benchmark result lines"))
		return
	}
	keyOf := p.assignKeys()
	harness := p.harnessPerLine()
	states := map[table.Key]*keyState{}
	var setupOrder []*keyState
	row := table.Row{Project: p.src.Project, Mode: mode, Instance: p.src.Instance, Trial: p.src.Trial,
		Slice: 1, Source: p.file}
	for _, r := range p.results {
		k := keyOf[namePkg{r.name, r.pkg}]
		snap := p.snaps[r.snap]
		version := p.src.Version
		if c := snap["commit"]; c != "" && !(p.src.VersionFromUser && version != "") {
			version = c
		}
		key := table.Key{Project: p.src.Project, Version: version, Benchmark: k.benchmark, Params: k.params, Mode: mode}
		st := states[key]
		if st == nil {
			st = &keyState{snap: r.snap, line: r.line, setup: p.setupFor(key, snap, k, r.line), forks: map[[2]int32]*forkState{}}
			states[key] = st
			setupOrder = append(setupOrder, st)
		} else if r.snap != st.snap && !st.warned {
			if diff := configDiff(p.snaps[st.snap], snap); diff != "" {
				st.warned = true
				p.rep.Warn(kindMixedConfig, p.place(r.line, "%s: %s (the setup keeps the configuration of line %d)", key, diff, st.line))
			}
		}
		row.Instance, row.Trial = p.src.Instance, p.src.Trial
		if v, ok := levelLabel(snap, "instance"); ok {
			row.Instance = v
		}
		if v, ok := levelLabel(snap, "trial"); ok {
			row.Trial = v
		}
		fs := st.forks[[2]int32{row.Instance, row.Trial}]
		if fs == nil {
			fs = &forkState{}
			st.forks[[2]int32{row.Instance, row.Trial}] = fs
		}
		if r.run != fs.lastRun {
			fs.fork++
			fs.lastRun = r.run
			fs.iteration = 0
		}
		fs.iteration++
		row.Fork = fs.fork
		row.Version, row.Benchmark, row.Params = version, k.benchmark, k.params
		row.Iteration, row.Count, row.Line = fs.iteration, r.iters, int64(r.line)
		p.appendValues(dst, r, &row)
		if h, ok := harness[[2]int32{r.stream, r.run}]; ok {
			st.harness += h
			st.harnessLines++
		}
	}
	for _, st := range setupOrder {
		for _, fs := range st.forks {
			st.setup.Forks = max(st.setup.Forks, int(fs.fork))
		}
		if st.harnessLines > 0 {
			st.setup.Env[table.EnvHarnessNsPerLine] = strconv.FormatFloat(math.Round(st.harness/float64(st.harnessLines)), 'f', -1, 64)
		}
		if err := dst.AddSetup(*st.setup); err != nil {
			p.rep.Warn(kindMixedSetups, p.place(st.line, "%v", err))
		}
	}
}

// assignKeys maps every (name, package) of the results to its benchmark
// and params: the package joins the name only when one base name occurs in
// several packages, and GOMAXPROCS becomes a "gomaxprocs" param only when a
// benchmark ran under several values of it.
func (p *parser) assignKeys() map[namePkg]*keyed {
	names := map[string]name{}
	pkgsOf := map[string]map[string]bool{} // base → packages
	for _, r := range p.results {
		n, ok := names[r.name]
		if !ok {
			n = parseName(r.name)
			names[r.name] = n
		}
		if pkgsOf[n.base] == nil {
			pkgsOf[n.base] = map[string]bool{}
		}
		pkgsOf[n.base][r.pkg] = true
	}
	keyOf := map[namePkg]*keyed{}
	procsOf := map[[2]string]map[int32]bool{} // (benchmark, params) → GOMAXPROCS values
	for _, r := range p.results {
		np := namePkg{r.name, r.pkg}
		if keyOf[np] != nil {
			continue
		}
		n := names[r.name]
		bench := n.base
		if len(pkgsOf[n.base]) > 1 && r.pkg != "" {
			bench = r.pkg + "." + n.base
		}
		procs := n.procs
		if !n.hasProcs {
			procs = 1
		}
		k := &keyed{benchmark: bench, params: table.CanonicalParams(n.params), procs: procs, hasProcs: n.hasProcs}
		keyOf[np] = k
		bp := [2]string{k.benchmark, k.params}
		if procsOf[bp] == nil {
			procsOf[bp] = map[int32]bool{}
		}
		procsOf[bp][procs] = true
	}
	for np, k := range keyOf {
		if len(procsOf[[2]string{k.benchmark, k.params}]) > 1 {
			n := names[np.name]
			m := map[string]string{"gomaxprocs": strconv.Itoa(int(k.procs))}
			for pk, pv := range n.params {
				if pk != "gomaxprocs" {
					m[pk] = pv
				}
			}
			k.params = table.CanonicalParams(m)
		}
	}

	return keyOf
}

// forkState numbers the forks of a benchmark in one instance and trial.
type forkState struct {
	fork, lastRun, iteration int32
}
type keyState struct {
	forks  map[[2]int32]*forkState
	setup  *table.Setup
	snap   int32
	line   int
	warned bool
	// harness sums go test's own time of the key's lines whose run printed
	// its wall time, over harnessLines of them.
	harness      float64
	harnessLines int
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
	s := &table.Setup{Key: key, Tool: "go", Env: env, Source: fmt.Sprintf("%s:%d", p.file, line)}
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
