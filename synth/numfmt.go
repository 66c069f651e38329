package synth

import (
	"math"
	"strconv"
	"time"
)

// appendJavaDouble appends x as Java's Double.toString writes it (JDK 19+,
// shortest round-trip digits): decimal notation with at least one fraction
// digit for 1e-3 ≤ |x| < 1e7 ("3.0", "0.017824"), otherwise computerized
// scientific notation with a capital E and an unsigned or '-' exponent
// ("1.19865267250996E7", "7.491496480476575E-4", "1.0E-5"). Non-finite
// values give "NaN", "Infinity" and "-Infinity" as in Java; JSON writers
// use appendJSONDouble instead.
func appendJavaDouble(b []byte, x float64) []byte {
	switch {
	case math.IsNaN(x):
		return append(b, "NaN"...)
	case math.IsInf(x, 1):
		return append(b, "Infinity"...)
	case math.IsInf(x, -1):
		return append(b, "-Infinity"...)
	case x == 0:
		if math.Signbit(x) {
			return append(b, "-0.0"...)
		}
		return append(b, "0.0"...)
	}
	if a := math.Abs(x); a >= 1e-3 && a < 1e7 {
		start := len(b)
		b = strconv.AppendFloat(b, x, 'f', -1, 64)
		for _, c := range b[start:] {
			if c == '.' {
				return b
			}
		}
		return append(b, ".0"...)
	}
	return appendSci(b, x, 'E', false)
}

// appendSci appends x in shortest scientific notation: mantissa with at
// least one fraction digit, then the exponent letter and the exponent, with
// at least two digits and an explicit '+' when pyStyle (Python/C "e-05"),
// else bare (Java "E-5").
func appendSci(b []byte, x float64, letter byte, pyStyle bool) []byte {
	var tmp [32]byte
	s := strconv.AppendFloat(tmp[:0], x, 'e', -1, 64) // d[.ddd]e±XX
	e := 0
	for e < len(s) && s[e] != 'e' {
		e++
	}
	mant, exp := s[:e], s[e+1:]
	b = append(b, mant...)
	hasDot := false
	for _, c := range mant {
		if c == '.' {
			hasDot = true
		}
	}
	if !hasDot {
		b = append(b, ".0"...)
	}
	b = append(b, letter)
	neg := exp[0] == '-'
	digits := exp[1:]
	if pyStyle {
		if neg {
			b = append(b, '-')
		} else {
			b = append(b, '+')
		}
		for len(digits) > 2 && digits[0] == '0' {
			digits = digits[1:]
		}
		return append(b, digits...)
	}
	if neg {
		b = append(b, '-')
	}
	for len(digits) > 1 && digits[0] == '0' {
		digits = digits[1:]
	}
	return append(b, digits...)
}

// appendJSONDouble appends x as JMH's JSON writer does: a Java double, or
// the strings "NaN", "+INF", "-INF" for non-finite values.
func appendJSONDouble(b []byte, x float64) []byte {
	switch {
	case math.IsNaN(x):
		return append(b, `"NaN"`...)
	case math.IsInf(x, 1):
		return append(b, `"+INF"`...)
	case math.IsInf(x, -1):
		return append(b, `"-INF"`...)
	}
	return appendJavaDouble(b, x)
}

// appendCSVFloat appends x as the µOpTime data set's CSV writes ns_per_op:
// shortest round-trip digits with ".0" on whole numbers ("496682.0",
// "22.09"), and scientific notation with a two-digit exponent below 1e-4 or
// from 1e16 on ("1.76e-05", "2.0e-05").
func appendCSVFloat(b []byte, x float64) []byte {
	if a := math.Abs(x); a != 0 && (a < 1e-4 || a >= 1e16) {
		return appendSci(b, x, 'e', true)
	}
	start := len(b)
	b = strconv.AppendFloat(b, x, 'f', -1, 64)
	for _, c := range b[start:] {
		if c == '.' {
			return b
		}
	}
	return append(b, ".0"...)
}

// goPrettyDigits returns the number of fraction digits and the field width
// Go's testing package uses to print a metric value x (prettyPrint in
// testing/benchmark.go): whole numbers from 999.95 on, then one more digit
// per decade down to seven.
func goPrettyDigits(x float64) (width, digits int) {
	switch y := math.Abs(x); {
	case y == 0 || y >= 999.95:
		return 10, 0
	case y >= 99.995:
		return 12, 1
	case y >= 9.9995:
		return 13, 2
	case y >= 0.99995:
		return 14, 3
	case y >= 0.099995:
		return 15, 4
	case y >= 0.0099995:
		return 16, 5
	case y >= 0.00099995:
		return 17, 6
	default:
		return 18, 7
	}
}

// appendGoPretty appends x right-aligned the way Go's testing package prints
// a metric, followed by " unit".
func appendGoPretty(b []byte, x float64, unit string) []byte {
	width, digits := goPrettyDigits(x)
	var tmp [40]byte
	s := strconv.AppendFloat(tmp[:0], x, 'f', digits, 64)
	for i := len(s); i < width; i++ {
		b = append(b, ' ')
	}
	b = append(b, s...)
	b = append(b, ' ')
	return append(b, unit...)
}

// goRounded returns x rounded as Go's testing package prints it.
func goRounded(x float64) float64 {
	_, digits := goPrettyDigits(x)
	var tmp [40]byte
	v, _ := strconv.ParseFloat(string(strconv.AppendFloat(tmp[:0], x, 'f', digits, 64)), 64)
	return v
}

// appendPadInt appends n right-aligned in width (fmt's %*d).
func appendPadInt(b []byte, n int64, width int) []byte {
	var tmp [24]byte
	s := strconv.AppendInt(tmp[:0], n, 10)
	for i := len(s); i < width; i++ {
		b = append(b, ' ')
	}
	return append(b, s...)
}

// jmhTime formats a duration as JMH's TimeValue does ("1 s", "300 ms"),
// using the largest unit that represents d exactly.
func jmhTime(d time.Duration) string {
	switch {
	case d%time.Second == 0:
		return strconv.FormatInt(int64(d/time.Second), 10) + " s"
	case d%time.Millisecond == 0:
		return strconv.FormatInt(int64(d/time.Millisecond), 10) + " ms"
	case d%time.Microsecond == 0:
		return strconv.FormatInt(int64(d/time.Microsecond), 10) + " us"
	}
	return strconv.FormatInt(int64(d), 10) + " ns"
}

// appendJSONString appends s as a JSON string, escaping '"', '\' and
// control characters (as JMH ≥ 1.22 does for params; JMH drops ISO control
// characters, which SuiteConfig validation never lets through).
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, `\u00`...)
			b = append(b, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}
