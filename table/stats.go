package table

import (
	"sort"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
)

// Stats summarises a table as its records go by, without keeping them:
// rows per metric, and per benchmark run of the primary metric (warmup
// included) the largest index at each level and the (instance, trial,
// fork) units it has. It is what ingest reports about a table it streams
// to a file, and needs memory per run and fork, not per row: about 100
// bytes and the benchmark name for a run of one unit.
type Stats struct {
	Rows       int64
	MetricRows map[string]int64
	// File is a number the caller gives the input whose records Add
	// counts: each unit remembers the File of the Stats that counted it
	// first (Merge keeps the earlier one), so that Stats merged over
	// several files tell which file first held a unit.
	File int32
	// RunIDs, when set before the first Add, numbers the runs (share the
	// Builder's, so that a key is stored once); nil: Stats numbers them
	// itself.
	RunIDs *RunIDs

	own     keyIndex
	runs    []RunStats // by RunIDs number
	order   []int32    // the numbers of the runs with primary rows, in order of appearance
	last    int32      // number of the run of lastKey, -1 when none
	lastKey Key
}

// ids is the run numbering.
func (s *Stats) ids() *keyIndex {
	if s.RunIDs != nil {
		return &s.RunIDs.keyIndex
	}
	return &s.own
}

// NumRuns is the number of runs.
func (s *Stats) NumRuns() int { return len(s.order) }

// runOf returns the stats of run k, or nil. The pointer is valid until the
// next Add or Merge.
func (s *Stats) runOf(k Key) *RunStats {
	if id, ok := s.ids().lookup(k); ok && int(id) < len(s.runs) && s.runs[id].counted {
		return &s.runs[id]
	}
	return nil
}

// Each calls fn with every run in order of first appearance (r is valid
// during the call).
func (s *Stats) Each(fn func(k Key, r *RunStats)) {
	ids := s.ids()
	for _, id := range s.order {
		fn(ids.key(id), &s.runs[id])
	}
}

// Pooled calls fn, in key order, once for every run that both s and o
// hold with a common (instance, trial, fork) unit: with the run's key, the
// first such unit of o (by instance, trial, fork) and the File of s that
// counted it. It is how ingest finds the runs that two files number alike.
func (s *Stats) Pooled(o *Stats, fn func(k Key, unit [3]int32, file int32)) {
	type run struct {
		k     Key
		units []unit
	}
	var shared []run
	o.Each(func(k Key, r *RunStats) {
		if s.runOf(k) != nil {
			shared = append(shared, run{k, r.units()})
		}
	})
	sort.Slice(shared, func(i, j int) bool { return shared[i].k.Less(shared[j].k) })
	for _, sr := range shared {
		earlier := s.runOf(sr.k)
		for _, u := range sr.units {
			if prev, ok := earlier.unitAt(u.levels); ok {
				fn(sr.k, u.levels, prev.file)
				break
			}
		}
	}
}

// run returns the number of run k, adding it when new.
func (s *Stats) run(k Key) int32 {
	id, _ := s.ids().id(k)
	for int(id) >= len(s.runs) {
		s.runs = append(s.runs, RunStats{})
	}
	if !s.runs[id].counted {
		s.runs[id].counted = true
		s.order = append(s.order, id)
	}
	return id
}

// RunStats is what Stats keeps per benchmark run.
type RunStats struct {
	// Sizes is the largest index seen at each level.
	Sizes [NumLevels]int32
	// units holds the (instance, trial, fork) of the run's rows: the
	// first inline (most runs have one), the others in more.
	first   unit
	n       int32
	counted bool // in Stats.order
	more    map[[3]int32]int32
}

// unit is one (instance, trial, fork) of a run and the Stats.File that
// counted it first.
type unit struct {
	levels [3]int32
	file   int32
}

// addUnit records unit lv, first counted in file.
func (r *RunStats) addUnit(lv [3]int32, file int32) {
	switch {
	case r.n == 0:
		r.first, r.n = unit{lv, file}, 1
	case lv == r.first.levels:
	default:
		if r.more == nil {
			r.more = map[[3]int32]int32{}
		}
		if _, ok := r.more[lv]; !ok {
			r.more[lv] = file
			r.n++
		}
	}
}

// numUnits is the number of units of the run.
func (r *RunStats) numUnits() int { return int(r.n) }

// unitAt returns the unit lv of the run, if it has it.
func (r *RunStats) unitAt(lv [3]int32) (unit, bool) {
	if r.n > 0 && lv == r.first.levels {
		return r.first, true
	}
	f, ok := r.more[lv]
	return unit{lv, f}, ok
}

// units returns the units of the run sorted by instance, trial, fork.
func (r *RunStats) units() []unit {
	out := make([]unit, 0, r.n)
	if r.n > 0 {
		out = append(out, r.first)
	}
	for lv, f := range r.more {
		out = append(out, unit{lv, f})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].levels, out[j].levels
		return a[0] < b[0] || a[0] == b[0] && (a[1] < b[1] || a[1] == b[1] && a[2] < b[2])
	})
	return out
}

// Add counts rec's rows (rec must have schema; Stats does not keep it).
func (s *Stats) Add(rec arrow.Record) {
	if s.MetricRows == nil {
		s.MetricRows = map[string]int64{}
	}
	c := columnsOf(rec)
	n := int(rec.NumRows())
	s.Rows += int64(n)
	// Rows come in runs of one metric and one key: count each stretch
	// once, and look a key up only when its dictionary indices change.
	var metric string
	var count int64
	var primary bool
	var lastUnit [3]int32
	lastPrimary := -1 // the record's last primary row
	s.last = -1
	for i := 0; i < n; i++ {
		if i == 0 || c.metric.idx[i] != c.metric.idx[i-1] {
			if m := c.metric.Value(i); i == 0 || m != metric {
				if count > 0 {
					s.MetricRows[strings.Clone(metric)] += count
				}
				metric, count, primary = m, 0, m == Primary
			}
		}
		count++
		if !primary {
			continue
		}
		sameRun := lastPrimary >= 0 && c.sameKey(i, lastPrimary)
		if sameRun && c.sameLevels(i, lastPrimary) {
			// The same run at the same levels: nothing new, nor in the
			// rows that follow with the same metric, key and levels.
			end := c.stretchEnd(i, n, true)
			count += int64(end - i - 1)
			i = end - 1
			continue
		}
		lv := [NumLevels]int32{c.instance.Value(i), c.trial.Value(i), c.fork.Value(i), c.iteration.Value(i), c.slice.Value(i)}
		if !sameRun {
			if k := c.key(i); s.last < 0 || k != s.lastKey {
				s.last, s.lastKey = s.run(k), k
				lastUnit = [3]int32{}
			}
		}
		r := &s.runs[s.last]
		lastPrimary = i
		for l, v := range lv {
			if v > r.Sizes[l] {
				r.Sizes[l] = v
			}
		}
		if u := [3]int32{lv[0], lv[1], lv[2]}; u != lastUnit {
			r.addUnit(u, s.File)
			lastUnit = u
		}
	}
	if count > 0 {
		s.MetricRows[strings.Clone(metric)] += count
	}
	// The next record starts afresh: s.lastKey's strings live in rec.
	s.last, s.lastKey = -1, Key{}
}

// Merge adds o's counts into s; a unit both have keeps s's File.
func (s *Stats) Merge(o *Stats) {
	if s.MetricRows == nil {
		s.MetricRows = map[string]int64{}
	}
	s.Rows += o.Rows
	for m, n := range o.MetricRows {
		s.MetricRows[m] += n
	}
	oids := o.ids()
	for _, id := range o.order {
		r := &o.runs[id]
		old := &s.runs[s.run(oids.key(id))]
		for l, v := range r.Sizes {
			old.Sizes[l] = max(old.Sizes[l], v)
		}
		if r.n > 0 {
			old.addUnit(r.first.levels, r.first.file)
		}
		for lv, f := range r.more {
			old.addUnit(lv, f)
		}
	}
}

// cloneKey copies k's strings, which may point into an Arrow buffer.
func cloneKey(k Key) Key {
	return Key{strings.Clone(k.Project), strings.Clone(k.Version), strings.Clone(k.Benchmark), strings.Clone(k.Params), strings.Clone(k.Mode)}
}
