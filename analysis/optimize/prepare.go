package optimize

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/benchtrim/benchtrim/table"
)

// prepared is one series reduced to what the search needs: one observation
// per innermost unit (a slice, or an iteration of JMH data; a sample-mode
// iteration's histogram buckets are merged into their count-weighted
// mean), the level sizes, the execution-time model and every configuration
// sorted by execution time.
type prepared struct {
	series *table.Series
	keyStr string
	// idx[l][i] is observation i's index at level l (after --first and
	// --discard-warmup); val[i] its value in ns/op.
	idx [table.NumLevels][]int32
	val []float64
	// rep[l][j] is the index at level l ≤ iteration of repetition unit j
	// (one distinct instance, trial, fork, iteration).
	rep [table.LevelSlice][]int32

	sizes  Config
	full   Config
	varied [table.NumLevels]bool
	timing timing
	// assumedTime is true when the setup did not state the observation
	// duration and Options.DefaultIterationTime was used.
	assumedTime bool

	expected, missing int // observations of the full grid, and how many are absent
	excluded          int // observations dropped by --first and --discard-warmup
	nonFinite         int // rows with a non-finite ns/op, skipped
	// lineNs sums N × ns/op over the observations (the time the harness
	// spent in the measured code); uncounted is true when a row had no
	// operation count.
	lineNs    float64
	uncounted bool
	// fixedN is the count every observation row shares (−1 once two differ).
	fixedN int64
	// minLineNs is the shortest observation's N × ns/op.
	minLineNs float64

	// configs are all configurations in ascending execution time, ties in
	// lexicographic order (outermost level first).
	configs []configEntry
}

// configEntry is one configuration with its execution time and how many
// repetition units and observations it keeps.
type configEntry struct {
	c       Config
	timeNs  int64
	reps    int32
	n       int32
	fullIdx bool // the full configuration
}

// Skipped is a series that could not be optimised at all, with the reason.
type Skipped struct {
	Key    table.Key
	Reason string
	Rows   int
}

// gridCellsPerObservation and gridCellsFloor bound the full grid prepare
// accepts (see maxGridCells).
const (
	gridCellsPerObservation = 16
	gridCellsFloor          = 1 << 12
)

// maxGridCells is the largest full grid (product of the level sizes) a
// series of n observations may span:
//
//	16·n + 4096
//
// A full grid has one observation per cell; ragged data misses some. Far
// more cells than observations means positions far beyond the data
// (iteration 10⁸ in a run of 3 rows), which would make the search's time
// and memory follow the indices instead of the data.
func maxGridCells(n int) int64 {
	return gridCellsPerObservation*int64(n) + gridCellsFloor
}

// satMul is a·b for a, b ≥ 0, saturating at math.MaxInt64.
func satMul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

// cellCount formats a saturated cell count.
func cellCount(c int64) string {
	if c == math.MaxInt64 {
		return "more than 9.2e18"
	}
	return fmt.Sprint(c)
}

// prepare turns s into a prepared series, or says why it cannot be used.
func prepare(s *table.Series, opt *Options) (*prepared, *Skipped) {
	if s.Pair != nil {
		return nil, &Skipped{Key: s.Key, Reason: "duet data (pair labels) is not a repetition design optimize can reduce", Rows: s.Len()}
	}
	if reason := overflowReason(s); reason != "" {
		return nil, &Skipped{Key: s.Key, Reason: reason, Rows: s.Len()}
	}
	first := levelSet(opt.First)
	fixed := levelSet(opt.Fixed)
	p := &prepared{series: s, keyStr: s.Key.String()}
	discard := int32(opt.DiscardWarmup)
	for _, sp := range s.Units(table.LevelSlice) {
		var ix Config
		for l := range ix {
			ix[l] = s.Levels[l][sp.Start]
		}
		drop := false
		for l := range ix {
			if first[l] && ix[l] != 1 {
				drop = true
			}
		}
		if discard > 0 {
			if ix[table.LevelIteration] <= discard {
				drop = true
			}
			ix[table.LevelIteration] -= discard
		}
		if drop {
			p.excluded++
			continue
		}
		v := s.WeightedMean(sp)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			p.nonFinite += sp.End - sp.Start
			continue
		}
		for l := range ix {
			p.idx[l] = append(p.idx[l], ix[l])
			if ix[l] > p.sizes[l] {
				p.sizes[l] = ix[l]
			}
		}
		p.val = append(p.val, v)
		for r := sp.Start; r < sp.End; r++ {
			switch c := s.Count[r]; {
			case c <= 0:
				p.uncounted = true
			case p.fixedN == 0:
				p.fixedN = c
			case p.fixedN != c:
				p.fixedN = -1
			}
		}
		line := v * float64(s.TotalCount(sp))
		p.lineNs += line
		if p.minLineNs == 0 || line < p.minLineNs {
			p.minLineNs = line
		}
	}
	if len(p.val) == 0 {
		reason := "no observations"
		switch {
		case p.nonFinite > 0:
			reason = fmt.Sprintf("no finite ns/op value (%d rows non-finite)", p.nonFinite)
		case p.excluded > 0:
			reason = fmt.Sprintf("all %d observations excluded by --first/--discard-warmup", p.excluded)
		}
		return nil, &Skipped{Key: s.Key, Reason: reason, Rows: s.Len()}
	}
	// Repetition units: observations are sorted by level indices, so a
	// change at any level above the slice starts a new unit. After
	// --discard-warmup renumbering the order is unchanged.
	n := len(p.val)
	for i := 0; i < n; i++ {
		newUnit := i == 0
		for l := table.LevelInstance; l < table.LevelSlice && !newUnit; l++ {
			newUnit = p.idx[l][i] != p.idx[l][i-1]
		}
		if newUnit {
			for l := table.LevelInstance; l < table.LevelSlice; l++ {
				p.rep[l] = append(p.rep[l], p.idx[l][i])
			}
		}
	}
	// The search enumerates the full grid's configurations and simulates
	// each on the observations, so its work is sized by the largest index
	// at each level; a grid far larger than the data (positions far beyond
	// the rows, or data too ragged to be a grid) is refused before anything
	// is allocated by it.
	cells := int64(1)
	for l := range p.sizes {
		cells = satMul(cells, int64(p.sizes[l]))
	}
	if limit := maxGridCells(n); cells > limit {
		return nil, &Skipped{Key: s.Key, Rows: s.Len(), Reason: fmt.Sprintf(
			"sparse grid: %d instances × %d trials × %d forks × %d iterations × %d slices is %s cells for %d observations (at most %d·n + %d are simulated)",
			p.sizes[0], p.sizes[1], p.sizes[2], p.sizes[3], p.sizes[4], cellCount(cells), n, gridCellsPerObservation, gridCellsFloor)}
	}
	p.expected = int(cells)
	for l := range p.sizes {
		p.varied[l] = p.sizes[l] > 1 && !fixed[l]
	}
	p.full = p.sizes
	p.missing = p.expected - n
	if p.fixedN < 0 || p.uncounted {
		p.fixedN = 0
	}
	lineNs := 0.0
	if !p.uncounted {
		lineNs = p.lineNs / float64(n)
	}
	p.timing, p.assumedTime = observationTiming(s.Setup, p.sizes, p.val, lineNs, opt)
	p.enumerate()
	return p, nil
}

// observationTiming derives the duration of one observation and the warmup
// time per fork from the setup:
//
//   - single-shot JMH data: an observation lasts its measured time
//     (mean ns/op × batch size);
//   - data with slices (µOpTime Go): SliceTimeNs, else the iteration time
//     divided by the configured slices;
//   - otherwise an iteration: MeasurementTimeNs (JMH -r), else Slices ×
//     SliceTimeNs;
//   - `go test -bench` result lines (tool go, no slices, no stated time):
//     the mean over the lines of N × ns/op, lineNs (0 when a line has
//     no count), the time the benchmark loop ran, plus go test's own time
//     per line where the file holds it (Setup.Env's
//     table.EnvHarnessNsPerLine, from the "ok pkg 1.2s" lines: calibration
//     runs of b.N, tests, the binary's start);
//
// falling back to opt.DefaultIterationTime (assumed = true) when the setup
// states none. Warmup per fork is WarmupIterations × WarmupTimeNs (the
// iteration time when WarmupTimeNs is unknown) plus DiscardWarmup ×
// iteration time, or 0 with opt.NoWarmupTime.
func observationTiming(setup *table.Setup, sizes Config, val []float64, lineNs float64, opt *Options) (t timing, assumed bool) {
	t.Parallel = levelSet(opt.Parallel)
	def := int64(opt.DefaultIterationTime)
	var iterNs int64
	switch {
	case setup != nil && setup.SingleShot:
		var sum float64
		for _, v := range val {
			sum += v
		}
		batch := float64(max(1, setup.BatchSize))
		t.UnitNs = max(1, int64(math.Round(sum/float64(len(val))*batch)))
		iterNs = t.UnitNs
	case sizes[table.LevelSlice] > 1 || (setup != nil && setup.SliceTimeNs > 0):
		switch {
		case setup != nil && setup.SliceTimeNs > 0:
			t.UnitNs = setup.SliceTimeNs
		case setup != nil && setup.IterationTimeNs() > 0:
			slices := int64(setup.Slices)
			if slices <= 0 {
				slices = int64(sizes[table.LevelSlice])
			}
			t.UnitNs = max(1, setup.IterationTimeNs()/slices)
		default:
			t.UnitNs, assumed = def, true
		}
		iterNs = setup.IterationTimeNs()
		if iterNs <= 0 {
			iterNs = t.UnitNs * int64(sizes[table.LevelSlice])
		}
	default:
		iterNs = setup.IterationTimeNs() // nil-safe
		if iterNs <= 0 && setup != nil && setup.Tool == "go" && lineNs >= 1 {
			h, _ := strconv.ParseFloat(setup.Env[table.EnvHarnessNsPerLine], 64)
			iterNs = int64(math.Round(lineNs + max(0, h)))
		}
		if iterNs <= 0 {
			iterNs, assumed = def, true
		}
		t.UnitNs = iterNs
	}
	if setup != nil && setup.WarmupIterations > 0 {
		w := setup.WarmupTimeNs
		if w <= 0 {
			w = iterNs
		}
		t.WarmupNs += int64(setup.WarmupIterations) * w
	}
	t.WarmupNs += int64(opt.DiscardWarmup) * iterNs
	if opt.NoWarmupTime {
		t.WarmupNs = 0
	}
	return t, assumed
}

// enumerate lists every configuration with 1 ≤ k_l ≤ n_l on the varied
// levels (the others at their full size), counts the repetitions and
// observations each keeps, and sorts them by execution time, ties in
// lexicographic order.
func (p *prepared) enumerate() {
	total := 1
	for l := range p.sizes {
		if p.varied[l] {
			total *= int(p.sizes[l])
		}
	}
	p.configs = make([]configEntry, 0, total)
	c := p.full
	for l := range c {
		if p.varied[l] {
			c[l] = 1
		}
	}
	reps, okReps := p.withinCounts(p.rep[:], total)
	obs, okObs := p.withinCounts(p.idx[:], total)
	for k := 0; ; k++ {
		e := configEntry{c: c, timeNs: p.timing.timeNs(c), fullIdx: c == p.full}
		if okReps {
			e.reps = reps[k]
		} else {
			e.reps = int32(countWithin(p.rep[:], c))
		}
		if okObs {
			e.n = obs[k]
		} else {
			e.n = int32(countWithin(p.idx[:], c))
		}
		p.configs = append(p.configs, e)
		// Odometer, innermost level fastest: the list is in lexicographic order.
		l := int(table.NumLevels) - 1
		for ; l >= 0; l-- {
			if !p.varied[l] {
				continue
			}
			if c[l] < p.sizes[l] {
				c[l]++
				break
			}
			c[l] = 1
		}
		if l < 0 {
			break
		}
	}
	sort.SliceStable(p.configs, func(i, j int) bool { return p.configs[i].timeNs < p.configs[j].timeNs })
}

// withinCounts returns countWithin(cols, c) for every configuration c of
// the varied levels in enumerate's odometer order (innermost level
// fastest), total of them, as a dominance count: each row adds 1 to the
// grid cell of its indices on the varied levels (cell 1 on the varied
// levels cols has no column for), then inclusive prefix sums run along
// each varied level. This costs O(rows + total·levels) instead of
// O(rows·total). ok is false when some row has an index outside
// [1, size] on a level (then countWithin must be used): the other levels
// are kept at their full size, which every index in the data reaches.
func (p *prepared) withinCounts(cols [][]int32, total int) (counts []int32, ok bool) {
	if len(cols) == 0 || len(cols[0]) == 0 {
		return make([]int32, total), true
	}
	var stride [table.NumLevels]int
	st := 1
	for l := int(table.NumLevels) - 1; l >= 0; l-- {
		if p.varied[l] {
			stride[l] = st
			st *= int(p.sizes[l])
		}
	}
	if st != total {
		return nil, false
	}
	counts = make([]int32, total)
	for i := range cols[0] {
		off := 0
		for l := range cols {
			x := cols[l][i]
			if x < 1 || x > p.sizes[l] {
				return nil, false
			}
			if p.varied[l] {
				off += int(x-1) * stride[l]
			}
		}
		counts[off]++
	}
	for l := range p.sizes {
		if !p.varied[l] {
			continue
		}
		s, size := stride[l], int(p.sizes[l])
		for k := range counts {
			if (k/s)%size != 0 {
				counts[k] += counts[k-s]
			}
		}
	}
	return counts, true
}

// countWithin counts the rows of the index columns idx (one column per
// level, outermost first) whose every index is ≤ the configuration's.
func countWithin[S ~[]int32](idx []S, c Config) int {
	if len(idx) == 0 || len(idx[0]) == 0 {
		return 0
	}
	n := 0
	for i := range idx[0] {
		ok := true
		for l := range idx {
			if idx[l][i] > c[l] {
				ok = false
				break
			}
		}
		if ok {
			n++
		}
	}
	return n
}

// gather appends to dst the values configuration c keeps, in row order.
func (p *prepared) gather(dst []float64, c Config) []float64 {
	dst = dst[:0]
	for i, v := range p.val {
		ok := true
		for l := range p.idx {
			if p.idx[l][i] > c[l] {
				ok = false
				break
			}
		}
		if ok {
			dst = append(dst, v)
		}
	}
	return dst
}

// repsOf counts the repetition units configuration c keeps.
func (p *prepared) repsOf(c Config) int { return countWithin(p.rep[:], c) }

// shortestNs is minLineNs rounded, 0 when an observation had no count.
func (p *prepared) shortestNs() int64 {
	if p.uncounted {
		return 0
	}
	return int64(math.Round(p.minLineNs))
}
