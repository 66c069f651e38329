package uoptime

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/benchtrim/benchtrim/table"
)

// maxLevels is the number of position slots a row has; a layout with fewer
// levels keeps the unused slots at setup 1, position 1.
const maxLevels = 4

// level is one repetition level of a layout: its name in messages and the
// columns stating its size and a row's position in it.
type level struct {
	name, setup, pos string
}

// layout is one of µOpTime's two CSV layouts: the Go one (data set 1) and
// the Java one of its JMH data sets 2 and 3.
type layout struct {
	// format is the --format name, what names the layout in messages.
	format, what string
	// levels, outermost first (at most maxLevels).
	levels []level
	// cells names one row's unit ("slices", "iterations") in the ragged
	// warning, kindRagged is that warning's kind.
	cells, kindRagged string
	// mode and tool of the rows and setups; timeMode is the mode whose
	// rules ingest.CheckTime applies to ns_per_op ("avgt" for the Java
	// layout: its value is an iteration's mean, where 0 is no time, unlike
	// a single sample of mode sample).
	mode, tool, timeMode string
	// own are the columns only this layout has (detection and the header
	// error of the other layout).
	own []string
	// jmh: b_name may be project#benchmark#params, labels may come from the
	// file name, the rows are forks × iterations.
	jmh bool
}

// The column names of both layouts.
const (
	colN          = "n"
	colNsPerOp    = "ns_per_op"
	colBedSetup   = "bed_setup"
	colItSetup    = "it_setup"
	colSrSetup    = "sr_setup"
	colIrSetup    = "ir_setup"
	colBedPos     = "bed_pos"
	colItPos      = "it_pos"
	colSrPos      = "sr_pos"
	colIrPos      = "ir_pos"
	colForkSetup  = "fork_setup"
	colForkPos    = "fork_pos"
	colBName      = "b_name"
	colMID        = "m_id"
	kindRaggedGo  = "ragged data (slices missing from the setup grid)"
	kindRaggedJMH = "ragged data (iterations missing from the setup grid)"
)

// goLayout is µOpTime's Go CSV: one row per one-second slice, instance >
// suite run (trial) > iteration > slice.
var goLayout = &layout{
	format: "uoptime", what: "µOpTime Go CSV",
	levels: []level{
		{"instance", colIrSetup, colIrPos},
		{"trial", colSrSetup, colSrPos},
		{"iteration", colItSetup, colItPos},
		{"slice", colBedSetup, colBedPos},
	},
	cells: "slices", kindRagged: kindRaggedGo,
	mode: "go", tool: "go", timeMode: "go",
	own: []string{colBedSetup, colBedPos, colSrSetup, colSrPos, colIrSetup, colIrPos},
}

// jmhLayout is µOpTime's Java CSV (its data sets 2 and 3, JMH sample-mode
// measurements preprocessed to one row per iteration): fork > iteration.
var jmhLayout = &layout{
	format: "uoptime-jmh", what: "µOpTime Java CSV",
	levels: []level{
		{"fork", colForkSetup, colForkPos},
		{"iteration", colItSetup, colItPos},
	},
	cells: "iterations", kindRagged: kindRaggedJMH,
	mode: "sample", tool: "jmh", timeMode: "avgt",
	own: []string{colForkSetup, colForkPos},
	jmh: true,
}

// header is the layout's header as the replication package writes it.
func (ly *layout) header() string {
	cols := []string{colMID, colN, colNsPerOp}
	if ly.jmh {
		cols = append(cols, colItSetup, colForkSetup, colItPos, colForkPos)
	} else {
		for i := len(ly.levels) - 1; i >= 0; i-- {
			cols = append(cols, ly.levels[i].setup)
		}
		for i := len(ly.levels) - 1; i >= 0; i-- {
			cols = append(cols, ly.levels[i].pos)
		}
	}
	return strings.Join(append(cols, colBName), ",")
}

// namesOwn reports whether the lower-cased header line h names one of the
// layout's own columns.
func (ly *layout) namesOwn(h []byte) bool {
	for _, c := range ly.own {
		if bytes.Contains(h, []byte(c)) {
			return true
		}
	}
	return false
}

// place sets r's level indices from a row's positions.
func (ly *layout) place(r *table.Row, pos [maxLevels]int32) {
	if ly.jmh {
		r.Fork, r.Iteration = pos[0], pos[1]
		return
	}
	r.Instance, r.Trial, r.Iteration, r.Slice = pos[0], pos[1], pos[2], pos[3]
}

// describe names positions p up to level (0-based): "instance 2 trial 1
// iteration 2", "fork 3".
func (ly *layout) describe(p [maxLevels]int32, level int) string {
	var sb strings.Builder
	for l := 0; l <= level; l++ {
		if l > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "%s %d", ly.levels[l].name, p[l])
	}
	return sb.String()
}

// setupString formats a setup as its columns state it:
// "ir_setup=1 sr_setup=1 it_setup=1 bed_setup=3".
func (ly *layout) setupString(s [maxLevels]int32) string {
	parts := make([]string, len(ly.levels))
	for l, lv := range ly.levels {
		parts[l] = fmt.Sprintf("%s=%d", lv.setup, s[l])
	}
	return strings.Join(parts, " ")
}

// gridString formats a setup's grid: "3 instances × 3 trials × 5
// iterations × 5 slices".
func (ly *layout) gridString(s [maxLevels]int32) string {
	parts := make([]string, len(ly.levels))
	for l, lv := range ly.levels {
		parts[l] = fmt.Sprintf("%d %ss", s[l], lv.name)
	}
	return strings.Join(parts, " × ")
}
