package table

import (
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
)

// The rules every table obeys. Builder.Append enforces the row rules,
// readCSVGuarded and ReadFile all of them, and Check tests a table against them;
// analyzers may rely on them.
//
//   - Level indices (instance, trial, fork, iteration, slice) are ≥ 1.
//   - Mode is one of modes.
//   - Count is ≥ 0.
//   - No string value is longer than MaxStringBytes.
//   - The level indices of a benchmark run (Key) of n rows are at most
//     maxLevelIndex(n): indices number repetitions that happened, so they
//     stay near the number of rows.

// Sizes of the table.
const (
	// DefaultBatchRows is the number of rows per Arrow record a Builder emits.
	DefaultBatchRows = 1 << 16

	// MaxStringBytes is the longest string value, in bytes, a table column may
	// hold (64 KiB). The table stores its key columns once per row, so a
	// benchmark name or parameter value of this size already costs 64 KiB per
	// measured value; real benchmark names are a few hundred bytes.
	MaxStringBytes = 64 << 10
)

// modes lists the modes a table may hold: JMH's thrpt, avgt, sample and ss,
// go for Go benchmarks (go test -bench, µOpTime), the three ways a duet
// benchmark runs its pairs A and B (seqn: one after the other; syncduet: in
// parallel, iterations started together at a barrier; duet: in parallel,
// unsynchronised, the asynchronous duet of Drozdík 2023), and "" for a
// source that states no mode (a pa file with an empty mode column).
var modes = []string{"thrpt", "avgt", "sample", "ss", "go", "seqn", "syncduet", "duet", ""}

// knownMode reports whether m is one of modes.
func knownMode(m string) bool {
	switch m {
	case "thrpt", "avgt", "sample", "ss", "go", "seqn", "syncduet", "duet", "":
		return true
	}
	return false
}

// indexFloor and indexSpread set maxLevelIndex.
const (
	indexFloor  = 1 << 16
	indexSpread = 16
)

// maxLevelIndex is the largest level index a benchmark run of n rows may
// hold at any level:
//
//	max(indexFloor, indexSpread·n)
//
// The floor leaves room for sparse instance numbers and filtered data; an
// index beyond it and far beyond the run's rows (iteration 1000000000 in a
// run of 3 rows) is a corrupt or mistyped position, and analyzers that
// size work by a level's largest index must not see it.
func maxLevelIndex(n int64) int64 {
	return max(indexFloor, indexSpread*n)
}

// Check reports the first rule r breaks as an *InvalidError (with r's
// Source and Line), or nil: a string longer than MaxStringBytes, a mode
// not in modes, a negative count. Level indices below 1 are not checked
// here: Builder.Append stores them as 1.
func (r *Row) Check() error {
	if err := r.check(); err != nil {
		err.Source, err.Line = r.Source, r.Line
		return err
	}
	return nil
}

func (r *Row) check() *InvalidError {
	if max(len(r.Project), len(r.Version), len(r.Benchmark), len(r.Params), len(r.Mode), len(r.Metric),
		len(r.Unit), len(r.Pair), len(r.Source)) > MaxStringBytes {
		return longString(r)
	}
	if !knownMode(r.Mode) {
		return unknownMode(r.Mode)
	}
	if r.Count < 0 {
		return invalid(ColCount, fmt.Sprintf("%d is negative", r.Count))
	}
	return nil
}

// longString is the error for the first string of r longer than
// MaxStringBytes.
func longString(r *Row) *InvalidError {
	strs := [...]struct {
		col string
		v   string
	}{
		{colProject, r.Project}, {colVersion, r.Version}, {colBenchmark, r.Benchmark}, {colParams, r.Params},
		{ColMode, r.Mode}, {ColMetric, r.Metric}, {colUnit, r.Unit}, {colPair, r.Pair}, {ColSource, r.Source},
	}
	for _, s := range strs {
		if len(s.v) > MaxStringBytes {
			return tooLong(s.col, len(s.v))
		}
	}
	return nil
}

func tooLong(col string, n int) *InvalidError {
	return invalid(col, fmt.Sprintf("value of %d bytes is longer than the table's limit of %d bytes (table.MaxStringBytes)", n, MaxStringBytes))
}

func unknownMode(m string) *InvalidError {
	if len(m) > 40 {
		m = m[:40] + "…"
	}
	return invalid(ColMode, fmt.Sprintf("unknown mode %q (want one of thrpt, avgt, sample, ss, go, seqn, syncduet, duet or empty)", m))
}

// levelError is the message for a level index below 1, or "".
func levelError(levels *[NumLevels]int32) string {
	for l, v := range levels {
		if v < 1 {
			return fmt.Sprintf("%s %d (levels are 1-based)", Level(l), v)
		}
	}
	return ""
}

// InvalidError is a row or table value that breaks a rule of the table
// (see Row.Check and Table.Check).
type InvalidError struct {
	// row is the 1-based row in the table, over all records (0 for a
	// row not in a table).
	row int64
	// Source and Line are the row's source and line columns: where the
	// value came from.
	Source string
	Line   int64
	// Column is the column whose value breaks the rule ("" for the
	// level index rule, which is about a whole run).
	Column string
	Msg    string
}

// invalid is the error for column col's value breaking a rule: msg,
// after the column's name.
func invalid(col, msg string) *InvalidError {
	return &InvalidError{Column: col, Msg: "column " + col + ": " + msg}
}

func (e *InvalidError) Error() string {
	if e.row == 0 {
		return e.Msg
	}
	return fmt.Sprintf("row %d: %s", e.row, e.Msg)
}

// Check tests t against the rules of the table (see Row.Check and
// maxLevelIndex) and returns the first row that breaks one as an
// *InvalidError, or nil. Rows are checked in order; the level index rule,
// which needs a run's row count, is checked after all rows. t's records
// must be well-formed Arrow arrays with schema (ReadFile ensures this).
func (t *Table) Check() error {
	var c checker
	for _, rec := range t.Records {
		if err := c.add(rec); err != nil {
			return err
		}
	}
	if err := c.finish(); err != nil {
		var ie *InvalidError
		if errors.As(err, &ie) {
			ie.Source, ie.Line = t.sourceOf(ie.row)
		}
		return err
	}
	return nil
}

// checker is Check record by record, for tables that are written as they
// are read and never held whole: add checks each record's rows, finish the
// rule that needs every row of a run. Its errors are *InvalidError; the
// one of finish has the line of the offending row and the source of the
// run's first row. It keeps memory per run, not per row.
type checker struct {
	// runIDs, when set, numbers the runs (share the Builder's, so that a
	// key is stored once); nil: the checker numbers them itself.
	runIDs *RunIDs

	runs runLevels
	row  int64
}

// add checks rec's rows (rec must be a well-formed record with schema).
func (ch *checker) add(rec arrow.Record) error {
	if ch.runIDs != nil && ch.runs.idx == nil {
		ch.runs.idx = &ch.runIDs.keyIndex
	}
	c := columnsOf(rec)
	strs := [...]*stringColumn{
		{colProject, c.project}, {colVersion, c.version}, {colBenchmark, c.benchmark}, {colParams, c.params},
		{ColMode, c.mode}, {ColMetric, c.metric}, {colUnit, c.unit}, {colPair, c.pair}, {ColSource, c.source},
	}
	// Rows need their strings checked only when a dictionary holds a
	// value that is too long.
	long := false
	for _, s := range strs {
		if len(s.a.dict.ValueBytes()) <= MaxStringBytes {
			continue
		}
		for j := 0; j < s.a.dict.Len() && !long; j++ {
			long = s.a.dict.ValueLen(j) > MaxStringBytes
		}
	}
	n := int(rec.NumRows())
	var lv [NumLevels]int32
	for i := 0; i < n; i++ {
		ch.row++
		row := ch.row
		bad := func(e *InvalidError) error {
			e.row, e.Source, e.Line = row, c.source.Value(i), c.line.Value(i)
			return e
		}
		if long {
			for _, s := range strs {
				if v := s.a.Value(i); len(v) > MaxStringBytes {
					return bad(tooLong(s.col, len(v)))
				}
			}
		}
		if i == 0 || c.mode.idx[i] != c.mode.idx[i-1] {
			if m := c.mode.Value(i); !knownMode(m) {
				return bad(unknownMode(m))
			}
		}
		if v := c.count.Value(i); v < 0 {
			return bad(invalid(ColCount, fmt.Sprintf("%d is negative", v)))
		}
		if i > 0 && c.sameLevels(i, i-1) && c.sameKey(i, i-1) {
			// Another row of the run at the same levels (histogram
			// buckets, one iteration's values): it changes no maximum.
			ch.runs.runs[ch.runs.last].rows++
			if long {
				continue
			}
			// So are the rows that follow with the same key and levels:
			// only their counts need a look.
			end := c.stretchEnd(i, n, false)
			counts := c.count.Int64Values()
			for j := i + 1; j < end; j++ {
				if counts[j] < 0 {
					ch.row += int64(j - i)
					ch.runs.runs[ch.runs.last].rows += int64(j - i - 1)
					e := invalid(ColCount, fmt.Sprintf("%d is negative", counts[j]))
					e.row, e.Source, e.Line = ch.row, c.source.Value(j), c.line.Value(j)
					return e
				}
			}
			ch.row += int64(end - i - 1)
			ch.runs.runs[ch.runs.last].rows += int64(end - i - 1)
			i = end - 1
			continue
		}
		lv = [NumLevels]int32{c.instance.Value(i), c.trial.Value(i), c.fork.Value(i), c.iteration.Value(i), c.slice.Value(i)}
		if msg := levelError(&lv); msg != "" {
			return &InvalidError{row: row, Source: c.source.Value(i), Line: c.line.Value(i), Msg: msg}
		}
		var far *farPlaces
		if i > 0 && c.sameKey(i, i-1) {
			far = ch.runs.count(ch.runs.last, &lv, row)
		} else {
			far = ch.runs.add(c.key(i), &lv, row)
		}
		if far != nil {
			// A new maximum above indexFloor: keep its row's source and line.
			for l := range lv {
				if far.at[l] == row {
					far.source[l], far.line[l] = strings.Clone(c.source.Value(i)), c.line.Value(i)
				}
			}
		}
	}
	// The next record starts afresh: the last key's strings live in rec.
	ch.runs.forgetLast()
	return nil
}

// finish checks the level index rule over every run seen.
func (ch *checker) finish() error {
	if far, l, msg := ch.runs.violation(); msg != "" {
		return &InvalidError{row: far.at[l], Source: far.source[l], Line: far.line[l], Msg: msg}
	}
	return nil
}

type stringColumn struct {
	col string
	a   strCol
}

// sourceOf returns the source and line columns of 1-based row r.
func (t *Table) sourceOf(r int64) (string, int64) {
	r--
	for _, rec := range t.Records {
		if r < rec.NumRows() {
			c := columnsOf(rec)
			return c.source.Value(int(r)), c.line.Value(int(r))
		}
		r -= rec.NumRows()
	}
	return "", 0
}

// runLevels accumulates, per benchmark run, the number of rows and the
// largest index at each level, to check maxLevelIndex once every row is
// seen. Only a maximum above indexFloor can break that rule, so only such
// a maximum gets its place (row or line) and, for checker, its row's
// source and line: a run costs its keyIndex entry and 32 bytes, which
// matters for files of a million one-value benchmarks.
type runLevels struct {
	idx     *keyIndex // the run numbering, own when nil
	own     keyIndex
	runs    []runLevelStats // by id
	order   []int32         // ids in order of appearance
	far     map[int32]*farPlaces
	last    int32 // id of the run of lastKey, -1 when none
	lastKey Key
}

type runLevelStats struct {
	rows int64
	max  [NumLevels]int32
}

// farPlaces are where a run's maxima above indexFloor are: the place
// (row or line) of each, and the source and line of its row.
type farPlaces struct {
	at     [NumLevels]int64
	source [NumLevels]string
	line   [NumLevels]int64
}

// add counts one row of run k at place (see count). The key's strings are
// copied when the run is new, so k may point into an Arrow buffer.
func (c *runLevels) add(k Key, lv *[NumLevels]int32, place int64) *farPlaces {
	if c.lastKey != k || c.order == nil || c.last < 0 {
		if c.idx == nil {
			c.idx = &c.own
		}
		id, _ := c.idx.id(k)
		for int(id) >= len(c.runs) {
			c.runs = append(c.runs, runLevelStats{})
		}
		if c.runs[id].rows == 0 {
			c.order = append(c.order, id)
		}
		c.last, c.lastKey = id, k
	}
	return c.count(c.last, lv, place)
}

// forgetLast drops the remembered last run (its key may point into a
// record that is about to be released).
func (c *runLevels) forgetLast() { c.last, c.lastKey = -1, Key{} }

// count counts one row of run id with levels lv at place, and returns the
// run's farPlaces when the row set a maximum above indexFloor (with at
// set to place for those levels), else nil.
func (c *runLevels) count(id int32, lv *[NumLevels]int32, place int64) *farPlaces {
	s := &c.runs[id]
	s.rows++
	var far *farPlaces
	for l, v := range lv {
		if v > s.max[l] {
			s.max[l] = v
			if v > indexFloor {
				if far == nil {
					if far = c.far[id]; far == nil {
						if c.far == nil {
							c.far = map[int32]*farPlaces{}
						}
						far = &farPlaces{}
						c.far[id] = far
					}
				}
				far.at[l] = place
			}
		}
	}
	return far
}

// violation returns, for the first run in order of appearance with an
// index beyond maxLevelIndex of its row count, its farPlaces, the level
// and a message; "" when there is none.
func (c *runLevels) violation() (*farPlaces, Level, string) {
	for _, id := range c.order {
		s := &c.runs[id]
		limit := maxLevelIndex(s.rows)
		for l, v := range s.max {
			if int64(v) > limit {
				return c.far[id], Level(l), fmt.Sprintf("%s %d is far beyond the %d rows of %s: a run of n rows numbers its levels up to max(%d, %d·n) = %d",
					Level(l), v, s.rows, c.idx.key(id), indexFloor, indexSpread, limit)
			}
		}
	}
	return nil, 0, ""
}

// check returns the place and a message for the first run, in order of
// appearance, with an index beyond maxLevelIndex of its row count, or "".
func (c *runLevels) check() (place int64, msg string) {
	far, l, msg := c.violation()
	if far == nil {
		return 0, ""
	}
	return far.at[l], msg
}

// Checker is Check for a table read a piece at a time and never held
// whole: Add checks a record's rows, Finish the level index rule over
// every run seen; AddLevels and LevelsViolation do the same for rows not
// yet in a record, placed by the caller (a CSV file's lines). The zero
// value is ready to use.
type Checker struct {
	ch   checker
	runs runLevels
}

// Add checks rec's rows (rec must be a well-formed record with Schema).
func (c *Checker) Add(rec arrow.Record) error { return c.ch.add(rec) }

// Finish checks the level index rule over every record added.
func (c *Checker) Finish() error { return c.ch.finish() }

// AddLevels checks one row's level indices (a message when one is below
// 1, else "") and counts them for run k, at place.
func (c *Checker) AddLevels(k Key, lv *[NumLevels]int32, place int64) string {
	if msg := levelError(lv); msg != "" {
		return msg
	}
	c.runs.add(k, lv, place)
	return ""
}

// LevelsViolation is the place and message of the row that breaks the
// level index rule over the rows of AddLevels, or 0 and "".
func (c *Checker) LevelsViolation() (place int64, msg string) { return c.runs.check() }
