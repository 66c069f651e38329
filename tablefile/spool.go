package tablefile

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/benchtrim/benchtrim/table"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// groupOf is the benchmark group of run k: k without its version. A group
// is the unit Key.Shard splits by and a Spool chunk keeps whole, so every
// version of a benchmark is analysed together (optimize and trim compare
// versions).
func groupOf(k table.Key) table.Key {
	k.Version = ""
	return k
}

// Spool holds a table too large for memory in an unlinked scratch Arrow
// IPC file and hands it back a chunk of benchmark groups at a time
// (Chunks, Read), so an analysis of the whole input needs memory for its
// largest chunk, not for the table. Records go in as they are read (Add);
// for each record the spool remembers its runs of consecutive rows of one
// group, so Read decodes only the records that hold a chunk's rows and
// keeps zero-copy slices of them. Results do not depend on how the rows
// were spread over records: analyzers collect rows by key (table.Table.Collect).
type Spool struct {
	mem  memory.Allocator
	file *os.File
	w    *ipc.FileWriter
	r    *ipc.FileReader
	// The scratch file holds records coded by coder (an IPC file allows
	// one dictionary per column); dicts, made when writing ends, decode them.
	coder *coder
	dicts []arrow.Array

	recs      [][]spoolRun      // per record, its runs of one group
	recStart  []int64           // per record, the input position of its first row
	index     map[table.Key]int // group → index into groups
	groups    []table.Key
	groupRows []int64
	groupRuns [][]table.Key // per group, its benchmark runs (every version)
	runSeen   map[table.Key]bool
	rows      int64
	groupOf   func(table.Key) table.Key
	// limit > 0: Add fails once a group limitKeep accepts holds more rows.
	limit     int64
	limitKeep func(table.Key) bool
}

// GroupTooLargeError is a group of benchmark runs (every version of a
// benchmark, see GroupBy) with more rows than a Spool's limit
// (LimitGroups): a chunk holds a group whole, so such a group would need
// memory for more rows than the limit allows.
type GroupTooLargeError struct {
	Group table.Key
	// Runs are the group's benchmark runs so far, Rows its rows so far.
	Runs      []table.Key
	Rows, Max int64
}

func (e *GroupTooLargeError) Error() string {
	runs := make([]string, 0, 3)
	for i, k := range e.Runs {
		if i == 3 {
			runs = append(runs, fmt.Sprintf("… %d more", len(e.Runs)-3))
			break
		}
		runs = append(runs, k.String())
	}
	return fmt.Sprintf("%s: %d rows and more, over the %d an analysis holds in memory at once; its runs (%s) are analysed together",
		e.Group, e.Rows, e.Max, strings.Join(runs, ", "))
}

// LimitGroups makes Add fail with a *GroupTooLargeError, before it writes
// the record, once a group with a run keep accepts (every group when keep
// is nil) would hold more than maxRows rows. Call it before the first Add.
func (s *Spool) LimitGroups(maxRows int64, keep func(table.Key) bool) {
	s.limit, s.limitKeep = maxRows, keep
}

// spoolRun is a stretch [start, end) of one record's rows of one group.
type spoolRun struct {
	start, end int64
	group      int
}

// NewSpool creates a spool whose scratch file lives in dir ("" for the
// system's temporary directory). The file is unlinked at once, so nothing
// is left behind whatever happens to the process; Close frees it.
func NewSpool(dir string, mem memory.Allocator) (*Spool, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	f, err := os.CreateTemp(dir, "benchtrim-spool-*.arrow")
	if err != nil {
		return nil, fmt.Errorf("scratch file for a large input: %w", err)
	}
	os.Remove(f.Name())
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(codedSchema), ipc.WithAllocator(mem))
	if err != nil {
		f.Close()
		return nil, err
	}
	return &Spool{mem: mem, file: f, w: w, coder: &coder{}, index: map[table.Key]int{}, runSeen: map[table.Key]bool{}, groupOf: groupOf}, nil
}

// GroupBy makes group the unit Chunks keeps together (groupOf by default:
// every version of a benchmark); call it before the first Add. An analysis
// that relates runs across projects, as compare matches benchmarks by name
// only, groups by NameGroupOf.
func (s *Spool) GroupBy(group func(table.Key) table.Key) { s.groupOf = group }

// NameGroupOf is the group of benchmark run k by its name alone: every
// project and version of a benchmark (its benchmark, params and mode).
func NameGroupOf(k table.Key) table.Key {
	return table.Key{Benchmark: k.Benchmark, Params: k.Params, Mode: k.Mode}
}

// JointChunks packs the groups of several spools that group alike (the
// same GroupBy) into chunks of at most maxRows rows in all, in key order,
// a group's rows in every spool counted together (a larger group is a
// chunk of its own, unless LimitGroups refused it): chunk c lists, per
// spool, the indices of its groups for that spool's Read (empty where the
// spool holds none of them).
func JointChunks(maxRows int64, spools ...*Spool) [][][]int {
	type group struct {
		key  table.Key
		rows int64
		idx  []int
	}
	byKey := map[table.Key]*group{}
	var order []*group
	for i, sp := range spools {
		for g, k := range sp.groups {
			x := byKey[k]
			if x == nil {
				x = &group{key: k, idx: make([]int, len(spools))}
				for j := range x.idx {
					x.idx[j] = -1
				}
				byKey[k] = x
				order = append(order, x)
			}
			x.rows += sp.groupRows[g]
			x.idx[i] = g
		}
	}
	sort.Slice(order, func(i, j int) bool { return order[i].key.Less(order[j].key) })
	var chunks [][][]int
	var cur [][]int
	var rows int64
	flush := func() {
		if cur != nil {
			chunks = append(chunks, cur)
		}
		cur, rows = nil, 0
	}
	for _, g := range order {
		if cur != nil && rows+g.rows > maxRows {
			flush()
		}
		if cur == nil {
			cur = make([][]int, len(spools))
		}
		for i, x := range g.idx {
			if x >= 0 {
				cur[i] = append(cur[i], x)
			}
		}
		rows += g.rows
	}
	flush()
	return chunks
}

// Add writes rec (a record with schema's columns) to the scratch file;
// the caller keeps ownership of rec.
func (s *Spool) Add(rec arrow.Record) error {
	if s.w == nil {
		return fmt.Errorf("spool: Add after Read")
	}
	c := colsOf(rec)
	n := int(rec.NumRows())
	var runs []spoolRun
	var last table.Key
	for i := 0; i < n; i++ {
		k := c.Key(i)
		if i > 0 && k == last {
			runs[len(runs)-1].end = int64(i + 1)
			continue
		}
		last = k
		if !s.runSeen[k] {
			k = k.Clone()
			s.runSeen[k] = true
			g := s.groupIndex(s.groupOf(k))
			s.groupRuns[g] = append(s.groupRuns[g], k)
		}
		g := s.groupIndex(s.groupOf(k))
		if len(runs) > 0 && runs[len(runs)-1].group == g {
			runs[len(runs)-1].end = int64(i + 1)
			continue
		}
		runs = append(runs, spoolRun{start: int64(i), end: int64(i + 1), group: g})
	}
	for _, r := range runs {
		s.groupRows[r.group] += r.end - r.start
	}
	if s.limit > 0 {
		for _, r := range runs {
			if g := r.group; s.groupRows[g] > s.limit && s.limited(g) {
				return &GroupTooLargeError{Group: s.groups[g], Runs: slices.Clone(s.groupRuns[g]), Rows: s.groupRows[g], Max: s.limit}
			}
		}
	}
	coded := s.coder.encode(rec)
	err := s.w.Write(coded)
	coded.Release()
	if err != nil {
		return fmt.Errorf("scratch file: %w", err)
	}
	s.recs = append(s.recs, runs)
	s.recStart = append(s.recStart, s.rows)
	s.rows += int64(n)
	return nil
}

// limited says whether LimitGroups' keep accepts a run of group g.
func (s *Spool) limited(g int) bool {
	if s.limitKeep == nil {
		return true
	}
	return slices.ContainsFunc(s.groupRuns[g], s.limitKeep)
}

func (s *Spool) groupIndex(g table.Key) int {
	if i, ok := s.index[g]; ok {
		return i
	}
	g = g.Clone()
	i := len(s.groups)
	s.index[g] = i
	s.groups = append(s.groups, g)
	s.groupRows = append(s.groupRows, 0)
	s.groupRuns = append(s.groupRuns, nil)
	return i
}

// Runs lists every benchmark run the spool holds (rows of any metric), in
// key order.
func (s *Spool) Runs() []table.Key {
	out := make([]table.Key, 0, len(s.runSeen))
	for k := range s.runSeen {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Less(out[j]) })
	return out
}

// Chunks packs the groups with at least one run that keep accepts (all
// when keep is nil), in key order, into chunks of at most maxRows rows each
// (a larger group is a chunk of its own, unless LimitGroups refused it). Each chunk lists group indices
// for Read.
func (s *Spool) Chunks(maxRows int64, keep func(table.Key) bool) [][]int {
	order := make([]int, 0, len(s.groups))
	for g, runs := range s.groupRuns {
		if keep == nil {
			order = append(order, g)
			continue
		}
		for _, k := range runs {
			if keep(k) {
				order = append(order, g)
				break
			}
		}
	}
	sort.Slice(order, func(i, j int) bool { return s.groups[order[i]].Less(s.groups[order[j]]) })
	var chunks [][]int
	var cur []int
	var rows int64
	for _, g := range order {
		if len(cur) > 0 && rows+s.groupRows[g] > maxRows {
			chunks = append(chunks, cur)
			cur, rows = nil, 0
		}
		cur = append(cur, g)
		rows += s.groupRows[g]
	}
	if len(cur) > 0 {
		chunks = append(chunks, cur)
	}
	return chunks
}

// Read returns the table of the rows of groups (indices from Chunks), as
// zero-copy slices of the scratch file's records, with the setups among
// setups whose key is in one of the groups, and the slices' positions in
// the spooled input (Table.Offsets), so a run's Series.First is the same
// in every chunk as in the whole. The caller releases it.
func (s *Spool) Read(groups []int, setups []table.Setup) (*table.Table, error) {
	if err := s.finish(); err != nil {
		return nil, err
	}
	in := make(map[int]bool, len(groups))
	for _, g := range groups {
		in[g] = true
	}
	t := &table.Table{Offsets: []int64{}}
	for i, runs := range s.recs {
		var rec arrow.Record
		for j := 0; j < len(runs); j++ {
			if !in[runs[j].group] {
				continue
			}
			if rec == nil {
				coded, err := s.r.RecordAt(i)
				if err == nil {
					rec, err = decode(coded, s.dicts, true)
					coded.Release()
				}
				if err != nil {
					t.Release()
					return nil, fmt.Errorf("scratch file: record %d: %w", i+1, err)
				}
			}
			start := runs[j].start
			for j+1 < len(runs) && in[runs[j+1].group] {
				j++
			}
			t.Records = append(t.Records, rec.NewSlice(start, runs[j].end))
			t.Offsets = append(t.Offsets, s.recStart[i]+start)
		}
		if rec != nil {
			rec.Release()
		}
	}
	for _, st := range setups {
		if g, ok := s.index[s.groupOf(st.Key)]; ok && in[g] {
			t.Setups = append(t.Setups, st)
		}
	}
	return t, nil
}

// finish closes the writer and opens the reader, once.
func (s *Spool) finish() error {
	if s.r != nil {
		return nil
	}
	if err := s.w.Close(); err != nil {
		return fmt.Errorf("scratch file: %w", err)
	}
	s.w = nil
	r, err := ipc.NewFileReader(s.file, ipc.WithAllocator(s.mem))
	if err != nil {
		return fmt.Errorf("scratch file: %w", err)
	}
	s.r = r
	s.dicts = s.coder.dictionaries()
	s.coder = nil
	return nil
}

// Close frees the scratch file.
func (s *Spool) Close() error {
	releaseAll(s.dicts)
	s.dicts = nil
	if s.r != nil {
		s.r.Close()
	} else if s.w != nil {
		s.w.Close()
	}
	return s.file.Close()
}

// MetricRows returns zero-copy slices of rec holding its rows of metric
// ("" for Primary) whose benchmark run in satisfies (every run when in is
// nil), one per stretch of consecutive such rows; the caller releases
// them. Rows come in stretches of one metric and one run (every reader
// writes a run's values metric by metric), so there are few slices, and
// in is called once per stretch of one run, not per row.
func MetricRows(rec arrow.Record, metric string, in func(table.Key) bool) []arrow.Record {
	if metric == "" {
		metric = table.Primary
	}
	c := colsOf(rec)
	n := int(rec.NumRows())
	var out []arrow.Record
	start := -1
	last, runIn := [6]int32{-1}, true
	for i := 0; i <= n; i++ {
		ok := i < n && c.metric(i) == metric
		if ok && in != nil {
			idx := c.keyIndices(i)
			idx[5] = 0 // the key's, not the metric's
			if idx != last {
				last, runIn = idx, in(c.Key(i))
			}
			ok = runIn
		}
		switch {
		case ok && start < 0:
			start = i
		case !ok && start >= 0:
			if start == 0 && i == n {
				rec.Retain()
				return []arrow.Record{rec}
			}
			out = append(out, rec.NewSlice(int64(start), int64(i)))
			start = -1
		}
	}
	return out
}

// Compact returns a copy of rec whose buffers hold only its rows: a slice
// (MetricRows) shares its parent's buffers, all rows of every metric, and
// keeping it would keep them. The string columns get dictionaries of
// just the values their rows use. The caller releases both.
func Compact(rec arrow.Record, mem memory.Allocator) (arrow.Record, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	cols := make([]arrow.Array, rec.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i := range cols {
		if d, ok := rec.Column(i).(*array.Dictionary); ok {
			s := strColOf(d)
			cols[i] = dictArray(len(s.idx), s.Value)
			continue
		}
		c, err := array.Concatenate([]arrow.Array{rec.Column(i)}, mem)
		if err != nil {
			return nil, err
		}
		cols[i] = c
	}
	return array.NewRecord(schema, cols, rec.NumRows()), nil
}
