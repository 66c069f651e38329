package compare

import (
	"fmt"
	"math"

	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/table"
)

// The id columns of a side's hierarchy, outermost first: the run (one
// Series; several runs of a benchmark on one side are pooled as separate
// top-level units), then the table's instance, trial, fork and iteration.
// The rows of an iteration (histogram buckets, µOpTime slices) are its
// invocation level.
const (
	idRun = iota
	idInstance
	idTrial
	idFork
	idIteration
	numIDs
)

var idNames = [numIDs]string{"run", "instance", "trial", "fork", "iteration"}

// sample is one side of a comparison, flattened for the bootstrap.
type sample struct {
	values  []float64
	weights []float64 // nil: every row counts once
	ids     [numIDs][]int32
	// iterMeans are the count-weighted iteration means (the U test's data).
	iterMeans []float64
	// units counts the distinct units at each id level.
	units [numIDs]int
	last  [numIDs]int32
}

// keepFunc decides whether an iteration (a span of rows of s) belongs to
// the sample.
type keepFunc func(s *table.Series, it table.Span) bool

// add appends the iterations of s that pass keep and the options' skip rule
// as run number run. pair, when not empty, keeps only rows of that duet
// pair label; without it a series holding rows of several pairs is an
// error. weighted says whether row counts weigh the rows (see weightedRows).
func (sm *sample) add(s *table.Series, run int32, pair string, skip int, weighted bool, keep keepFunc) error {
	if pair == "" && s.Pair != nil {
		for i := 1; i < len(s.Pair); i++ {
			if s.Pair[i] != s.Pair[0] {
				return fmt.Errorf("%s holds rows of duet pairs %q and %q; choose one pair per side", s.Key, s.Pair[0], s.Pair[i])
			}
		}
	}
	var prevFork [3]int32
	var prevPair string
	pos := 0
	first := true
	for _, it := range s.Units(table.LevelIteration) {
		i := it.Start
		if pair != "" && (s.Pair == nil || s.Pair[i] != pair) {
			continue
		}
		fork := [3]int32{s.Levels[table.LevelInstance][i], s.Levels[table.LevelTrial][i], s.Levels[table.LevelFork][i]}
		p := ""
		if s.Pair != nil {
			p = s.Pair[i]
		}
		if first || fork != prevFork || p != prevPair {
			pos = 0
		}
		first, prevFork, prevPair = false, fork, p
		pos++
		if pos <= skip {
			continue
		}
		if keep != nil && !keep(s, it) {
			continue
		}
		if err := sm.addIteration(s, it, run, weighted); err != nil {
			return err
		}
	}
	return nil
}

// addIteration appends the rows of one iteration.
func (sm *sample) addIteration(s *table.Series, it table.Span, run int32, weighted bool) error {
	i0 := it.Start
	ids := [numIDs]int32{run, s.Levels[table.LevelInstance][i0], s.Levels[table.LevelTrial][i0],
		s.Levels[table.LevelFork][i0], s.Levels[table.LevelIteration][i0]}
	for i := it.Start; i < it.End; i++ {
		if v := s.NsPerOp[i]; math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return fmt.Errorf("%s: %s has time per operation %v (unit %q)", s.Key, describeIDs(ids), v, s.Unit)
		}
	}
	l := 0
	if len(sm.iterMeans) > 0 {
		for l < numIDs && ids[l] == sm.last[l] {
			l++
		}
		if l == numIDs {
			return fmt.Errorf("%s: %s appears twice", s.Key, describeIDs(ids))
		}
	}
	for ; l < numIDs; l++ {
		sm.units[l]++
	}
	sm.last = ids
	for i := it.Start; i < it.End; i++ {
		sm.values = append(sm.values, s.NsPerOp[i])
		for l := range ids {
			sm.ids[l] = append(sm.ids[l], ids[l])
		}
	}
	if weighted {
		if sm.weights == nil {
			sm.weights = make([]float64, len(sm.values)-(it.End-it.Start), cap(sm.values))
			for j := range sm.weights {
				sm.weights[j] = 1
			}
		}
		for i := it.Start; i < it.End; i++ {
			c := float64(s.Count[i])
			if c <= 0 {
				c = 1 // as table.Series.WeightedMean: unknown counts weigh 1
			}
			sm.weights = append(sm.weights, c)
		}
	} else if sm.weights != nil {
		for i := it.Start; i < it.End; i++ {
			sm.weights = append(sm.weights, 1)
		}
	}
	sm.iterMeans = append(sm.iterMeans, s.WeightedMean(it))
	return nil
}

func describeIDs(ids [numIDs]int32) string {
	return fmt.Sprintf("instance %d, trial %d, fork %d, iteration %d", ids[idInstance], ids[idTrial], ids[idFork], ids[idIteration])
}

// weightedRows says whether the rows of an iteration are weighted by their
// counts in the bootstrap: always for sample mode (the counts are the
// invocation histogram) and for iteration means (InvocationSamples 0, where
// the weighted mean is total time over total operations); otherwise (drawing
// invocations from µOpTime slices or Go runs, whose counts are operations
// per slice, not invocations with that value) every row counts once.
func weightedRows(mode string, invocationSamples int) bool {
	return mode == "sample" || invocationSamples == 0
}

// hierarchy builds the bootstrap's nested sample.
func (sm *sample) hierarchy() (*stats.Hierarchy, error) {
	if len(sm.values) == 0 {
		return nil, errNoIterations
	}
	// Finite values whose sums overflow would give ±Inf or NaN statistics.
	if err := stats.CheckSums(sm.values, sm.weights); err != nil {
		return nil, err
	}
	return stats.NewHierarchy(sm.values, sm.weights, sm.ids[:]...)
}

// resampledLevels names the levels with more than one unit, outermost first.
func (sm *sample) resampledLevels() []string {
	var out []string
	for l := 0; l < numIDs; l++ {
		outer := 1
		if l > 0 {
			outer = sm.units[l-1]
		}
		if sm.units[l] > outer {
			out = append(out, idNames[l])
		}
	}
	return out
}
