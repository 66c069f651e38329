package optimize

import (
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/table"
)

// Config is a configuration e = (k_1, …, k_l): how many units of each
// repetition level (indexed by table.Level, outermost first) are kept. A
// configuration keeps the values whose index at every level l is ≤ k_l, i.e.
// the first k_l units of each level. Levels a series does not have are 1.
type Config [table.NumLevels]int32

// String formats c as "instance=3 trial=1 iteration=5 slice=2", listing only
// the levels given in show (all levels when show is nil).
func (c Config) String() string { return c.Format(nil) }

// Format is String restricted to the levels where show is true (all when nil).
func (c Config) Format(show *[table.NumLevels]bool) string {
	var b strings.Builder
	for l := table.Level(0); l < table.NumLevels; l++ {
		if show != nil && !show[l] {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(l.String())
		b.WriteByte('=')
		b.WriteString(strconv.Itoa(int(c[l])))
	}
	return b.String()
}

// lexLess orders configurations lexicographically, outermost level first.
func lexLess(a, b Config) bool {
	for l := range a {
		if a[l] != b[l] {
			return a[l] < b[l]
		}
	}
	return false
}

// timing holds what the execution time of a configuration depends on.
type timing struct {
	// UnitNs is the duration of one observation (a slice, or an iteration
	// when the series has no slices).
	UnitNs int64
	// WarmupNs is the warmup time of each fork: stated warmup iterations ×
	// warmup time, plus the discarded warmup iterations × iteration time.
	WarmupNs int64
	// Parallel marks levels that run side by side.
	Parallel [table.NumLevels]bool
}

// timeNs is the execution time of configuration c,
//
//	T(c) = Π_{l ∈ {instance, trial, fork}, l not parallel} k_l
//	       · (W + k_iteration · k_slice · u)
//
// with W the warmup time per fork and u the duration of one observation.
func (t *timing) timeNs(c Config) int64 {
	forks := int64(1)
	for l := table.LevelInstance; l <= table.LevelFork; l++ {
		if !t.Parallel[l] {
			forks *= int64(c[l])
		}
	}
	inner := int64(c[table.LevelIteration]) * int64(c[table.LevelSlice])
	return forks * (t.WarmupNs + inner*t.UnitNs)
}
