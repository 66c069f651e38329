package jmh

import (
	"math"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/ingest"
)

// metricName normalises the key of a JMH secondary metric to the name
// stored in the canonical table's metric column:
//
//   - a leading '·' (U+00B7, JMH 1.8–1.36) or '@' (JMH < 1.8) is removed,
//     so ·gc.alloc.rate and gc.alloc.rate (JMH ≥ 1.37) both give gc.alloc.rate;
//   - SampleTime percentiles take JMH 1.37's spelling: the percentiles of the
//     primary result are "pN" (p0.50), those of a labelled result are
//     "label:pN". JMH ≤ 1.36's "<method>·p0.50" (the benchmark method's own
//     percentiles) therefore becomes "p0.50", "<label>·p0.50" becomes
//     "label:p0.50", and "p0.50" and "label:p0.50" stay as they are.
//
// benchmark is the record's fully qualified benchmark name; its last
// '.'-separated part is the method whose percentiles are the primary's.
func metricName(key, benchmark string) string {
	k := key
	if rest, ok := strings.CutPrefix(k, "·"); ok {
		k = rest
	} else if rest, ok := strings.CutPrefix(k, "@"); ok {
		k = rest
	}
	label, pct, ok := splitPercentile(k)
	if !ok {
		return k
	}
	method := benchmark
	if i := strings.LastIndexByte(benchmark, '.'); i >= 0 {
		method = benchmark[i+1:]
	}
	if label == "" || label == method {
		return "p" + pct
	}
	return label + ":p" + pct
}

// splitPercentile splits "label·pN", "label:pN" and "pN" (N like 0.50,
// 0.999, 1.00) into label and N.
func splitPercentile(k string) (label, pct string, ok bool) {
	j := strings.LastIndexByte(k, 'p')
	if j < 0 || !isPercentileNumber(k[j+1:]) {
		return "", "", false
	}
	prefix := k[:j]
	switch {
	case prefix == "":
		return "", k[j+1:], true
	case strings.HasSuffix(prefix, "·"):
		return strings.TrimSuffix(prefix, "·"), k[j+1:], true
	case strings.HasSuffix(prefix, ":"):
		return strings.TrimSuffix(prefix, ":"), k[j+1:], true
	}
	return "", "", false
}

// isPercentileNumber matches digits '.' digits.
func isPercentileNumber(s string) bool {
	dot := strings.IndexByte(s, '.')
	if dot < 1 || dot == len(s)-1 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if i != dot && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return true
}

// parseTime parses JMH's warmupTime/measurementTime strings, "<n> <unit>"
// with unit ns, us, ms, s, min, hr or day (JMH's TimeValue.toString), into
// nanoseconds. "single-shot" (JMH's spelling of a zero time in SingleShot
// mode) gives 0 and singleShot true.
func parseTime(s string) (ns int64, singleShot bool, err error) {
	t := strings.TrimSpace(s)
	if t == "single-shot" {
		return 0, true, nil
	}
	i := strings.IndexFunc(t, func(r rune) bool { return !(r >= '0' && r <= '9' || r == '.') })
	if i <= 0 {
		return 0, false, errBadTime
	}
	n, perr := strconv.ParseFloat(t[:i], 64)
	if perr != nil {
		return 0, false, errBadTime
	}
	unit, ok := ingest.TimeUnitNs(strings.TrimSpace(t[i:]))
	if !ok {
		return 0, false, errBadTime
	}
	v := math.Round(n * unit)
	if v >= math.MaxInt64 {
		return 0, false, errBadTime
	}
	return int64(v), false, nil
}

type timeError struct{}

func (timeError) Error() string {
	return `want "<n> <unit>" with unit ns, us, ms, s, min, hr or day, or "single-shot"`
}

var errBadTime error = timeError{}
