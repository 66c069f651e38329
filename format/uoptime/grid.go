package uoptime

import (
	"fmt"
	"math"
	"strings"

	"github.com/benchtrim/benchtrim/table"
)

// maxGridCells bounds the dense per-benchmark presence grid; benchmarks
// whose setup grid has more cells track their cells in a map instead.
const maxGridCells = 1 << 16

// maxMissingItems is how many missing groups a ragged warning names.
const maxMissingItems = 5

// bench tracks one benchmark of a file: its first setup, which cells
// (instance, trial, iteration, slice; fork, iteration) of that setup's grid
// have a row, and rows whose setup differs.
type bench struct {
	name string
	// key labels the benchmark's rows and setup (project, benchmark,
	// params; the Java layout's b_name may carry all three).
	key       table.Key
	firstLine int64
	setup     [maxLevels]int32
	// cells is the number of cells of the setup grid, saturated at MaxInt64
	// (overflow tells); present is how many of them have a row.
	cells    int64
	overflow bool
	present  int64
	// grid[i] is the line of cell i's row (0: none); nil when the grid has
	// more than maxGridCells cells. cellMap holds the cells outside grid.
	grid    []int64
	cellMap map[[maxLevels]int32]int64

	mixedRows  int64
	mixedLine  int64
	mixedSetup [maxLevels]int32
}

func newBench(name string, setup [maxLevels]int32, line int64) *bench {
	b := &bench{name: name, firstLine: line, setup: setup, cells: 1}
	for _, d := range setup {
		if b.cells > math.MaxInt64/int64(d) {
			b.cells, b.overflow = math.MaxInt64, true
			break
		}
		b.cells *= int64(d)
	}
	if !b.overflow && b.cells <= maxGridCells {
		b.grid = make([]int64, b.cells)
	}
	return b
}

// inGrid reports whether p (positions ≥ 1) lies inside the first setup's grid.
func (b *bench) inGrid(p [maxLevels]int32) bool {
	for l, v := range p {
		if v > b.setup[l] {
			return false
		}
	}
	return true
}

// index is the row-major index of in-grid cell p.
func (b *bench) index(p [maxLevels]int32) int64 {
	var i int64
	for l, v := range p {
		i = i*int64(b.setup[l]) + int64(v-1)
	}
	return i
}

// cellAt is the inverse of index.
func (b *bench) cellAt(i int64) [maxLevels]int32 {
	var p [maxLevels]int32
	for l := maxLevels - 1; l >= 0; l-- {
		d := int64(b.setup[l])
		p[l] = int32(i%d) + 1
		i /= d
	}
	return p
}

// mark records that cell p has a row at line. It returns the line of an
// earlier row for the same cell, or 0 when p is new.
func (b *bench) mark(p [maxLevels]int32, line int64) int64 {
	in := b.inGrid(p)
	if in && b.grid != nil {
		i := b.index(p)
		if first := b.grid[i]; first != 0 {
			return first
		}
		b.grid[i] = line
		b.present++
		return 0
	}
	if b.cellMap == nil {
		b.cellMap = map[[maxLevels]int32]int64{}
	}
	if first, ok := b.cellMap[p]; ok {
		return first
	}
	b.cellMap[p] = line
	if in {
		b.present++
	}
	return 0
}

// has reports whether in-grid cell p has a row.
func (b *bench) has(p [maxLevels]int32) bool {
	if b.grid != nil {
		return b.grid[b.index(p)] != 0
	}
	_, ok := b.cellMap[p]
	return ok
}

// raggedMessage describes the cells of the setup grid that have no row, or
// returns "" when the grid is full. Missing cells are named by the largest
// wholly missing group: "instance 2 trial 1 iteration 2" when all slices of
// that iteration are missing, "instance 3" when the whole instance is.
func (b *bench) raggedMessage(ly *layout) string {
	if !b.overflow && b.present >= b.cells {
		return ""
	}
	// counts[prefix] is the number of present cells under a prefix of
	// positions (the remaining positions zero).
	counts := map[[maxLevels]int32]int64{}
	add := func(p [maxLevels]int32) {
		for l := 0; l < maxLevels-1; l++ {
			var q [maxLevels]int32
			copy(q[:l+1], p[:l+1])
			counts[q]++
		}
	}
	if b.grid != nil {
		for i, line := range b.grid {
			if line != 0 {
				add(b.cellAt(int64(i)))
			}
		}
	}
	for p := range b.cellMap {
		if b.inGrid(p) {
			add(p)
		}
	}
	var items []string
	truncated := false
	// walk visits the children of prefix p at level. Each visited child is
	// missing (at most maxMissingItems+1 before stopping) or has a present
	// cell under it, so the walk is bounded by the number of rows.
	var walk func(level int, p [maxLevels]int32) bool
	walk = func(level int, p [maxLevels]int32) bool {
		subtree := int64(1)
		for _, d := range b.setup[level+1:] {
			subtree = satMul(subtree, int64(d))
		}
		for i := int32(1); i <= b.setup[level] && i > 0; i++ {
			p[level] = i
			var c int64
			if level == maxLevels-1 {
				if b.has(p) {
					c = 1
				}
			} else {
				c = counts[p]
			}
			switch {
			case c == 0:
				if len(items) == maxMissingItems {
					truncated = true
					return false
				}
				items = append(items, ly.describe(p, level))
			case c < subtree:
				if !walk(level+1, p) {
					return false
				}
			}
		}
		return true
	}
	walk(0, [maxLevels]int32{})
	total := fmt.Sprint(b.cells)
	missing := fmt.Sprint(b.cells - b.present)
	if b.overflow {
		f := 1.0
		for _, d := range b.setup {
			f *= float64(d)
		}
		total = fmt.Sprintf("%.4g", f)
		missing = fmt.Sprintf("%.4g", f-float64(b.present))
	}
	msg := fmt.Sprintf("benchmark %s: %s of %s %s missing from the setup grid (%s): missing %s",
		b.name, missing, total, ly.cells, ly.gridString(b.setup), strings.Join(items, "; "))
	if truncated {
		msg += "; …"
	}
	return msg
}
