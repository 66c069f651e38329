// Package version orders version labels (a project's release names in
// result files: 1.9.0, v10, 2024-05-01, 01_10_07) as a person reads them,
// for the analyses that compare versions in order.
package version

import "strings"

// Compare orders version labels naturally: the labels are split
// into runs of digits and runs of other characters, digit runs compare as
// numbers (leading zeros ignored, then the shorter run first) and other
// runs byte-wise, so that 1.9.0 < 1.10.0, v2 < v10 and 01_09_00 <
// 01_10_07. It returns −1, 0 or +1; equal labels only give 0.
func Compare(a, b string) int {
	zeros := 0
	for a != "" && b != "" {
		da, db := isDigit(a[0]), isDigit(b[0])
		if da != db {
			if da {
				return -1 // a number sorts before text
			}
			return 1
		}
		ra, rb := run(a, da), run(b, db)
		if da {
			na, nb := strings.TrimLeft(ra, "0"), strings.TrimLeft(rb, "0")
			if len(na) != len(nb) {
				return cmpInt(len(na), len(nb))
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			if zeros == 0 {
				zeros = cmpInt(len(ra), len(rb)) // 7 < 007, if nothing else differs
			}
		} else if c := strings.Compare(ra, rb); c != 0 {
			return c
		}
		a, b = a[len(ra):], b[len(rb):]
	}
	switch {
	case a == "" && b == "":
		return zeros
	case a == "":
		return -1
	}
	return 1
}

// Numbered reports whether s has a number in it (1.2.3, v10,
// 2024-05-01, 01_10_07): a label Compare orders meaningfully.
func Numbered(s string) bool {
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// run is the leading run of s of digits (digits true) or of other bytes.
func run(s string, digits bool) string {
	i := 0
	for i < len(s) && isDigit(s[i]) == digits {
		i++
	}
	return s[:i]
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
