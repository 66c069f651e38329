package ingest

import (
	"fmt"
	"math"
	"strings"
)

// nsPerTimeUnit maps time unit spellings to nanoseconds.
var nsPerTimeUnit = map[string]float64{
	"ns": 1, "us": 1e3, "µs": 1e3, "μs": 1e3, "ms": 1e6, "s": 1e9, "sec": 1e9,
	"min": 6e10, "m": 6e10, "hr": 3.6e12, "h": 3.6e12, "day": 8.64e13, "d": 8.64e13,
}

// TimeUnitNs is the number of nanoseconds in one time unit (ns, us, µs, ms,
// s, sec, min, hr, day).
func TimeUnitNs(unit string) (float64, bool) {
	v, ok := nsPerTimeUnit[unit]
	return v, ok
}

// UnitKind classifies a unit string.
type UnitKind int

const (
	// UnitOther is not a time or throughput unit (B/op, MB/sec, counts, …).
	UnitOther UnitKind = iota
	// UnitTimePerOp is "<time>/op" (JMH avgt, sample, ss; Go ns/op).
	UnitTimePerOp
	// UnitOpsPerTime is "ops/<time>" (JMH thrpt).
	UnitOpsPerTime
)

// ClassifyUnit splits unit into its kind and the time unit's size in ns.
func ClassifyUnit(unit string) (UnitKind, float64) {
	if tu, ok := strings.CutSuffix(unit, "/op"); ok {
		if ns, ok := TimeUnitNs(tu); ok {
			return UnitTimePerOp, ns
		}
	}
	if tu, ok := strings.CutPrefix(unit, "ops/"); ok {
		if ns, ok := TimeUnitNs(tu); ok {
			return UnitOpsPerTime, ns
		}
	}
	return UnitOther, 0
}

// NsPerOp normalises one recorded value to nanoseconds per operation:
//
//	time per op:  ns_per_op = value · ns(tu)
//	throughput:   ns_per_op = threads · ns(tu) / value
//
// The threads factor undoes JMH's summing of throughput over threads, so a
// throughput and an average-time run of the same benchmark agree
// (docs/formats/jmh.md, "Modes, units and threads"). threads < 1 counts as
// 1. A zero throughput gives +Inf. A unit that is neither a time nor a
// throughput unit is an error; the caller keeps the raw value and NaN.
func NsPerOp(unit string, value float64, threads int) (float64, error) {
	if threads < 1 {
		threads = 1
	}
	switch kind, ns := ClassifyUnit(unit); kind {
	case UnitTimePerOp:
		return value * ns, nil
	case UnitOpsPerTime:
		if value == 0 {
			return math.Inf(1), nil
		}
		return float64(threads) * ns / value, nil
	}
	return math.NaN(), fmt.Errorf("unknown unit %q (want <time>/op or ops/<time> with time ns, us, ms, s, min, hr or day)", unit)
}

// CheckTime says whether a normalised primary time may enter the table, and
// if not, the reason (the Summary kind). NaN, ±Inf and negative times are
// rejected; zero is rejected except in sample mode, where a coarse timer
// gives real zero-valued samples (docs/formats/jmh.md, "rawDataHistogram").
func CheckTime(mode string, nsPerOp float64) (reason string, ok bool) {
	switch {
	case math.IsNaN(nsPerOp):
		return "NaN value", false
	case math.IsInf(nsPerOp, 0):
		return "infinite value (an iteration with zero operations?)", false
	case nsPerOp < 0:
		return "negative time", false
	case nsPerOp == 0 && mode != "sample":
		return "zero time", false
	}
	return "", true
}
