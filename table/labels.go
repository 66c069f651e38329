package table

import "strings"

// Labels lists the (project, version) labels of t's primary rows in the
// order they first appear in t: the order of the files as they were read.
// Analyses that order versions by their labels do not need it; compare's
// --col .config orders the two sides by it, as benchstat orders its
// columns by the order of its inputs.
func (t *Table) Labels() [][2]string {
	seen := map[[2]string]bool{}
	var out [][2]string
	for _, rec := range t.Records {
		c := columnsOf(rec)
		for i := 0; i < int(rec.NumRows()); i++ {
			if c.metric.Value(i) != Primary {
				continue
			}
			l := [2]string{c.project.Value(i), c.version.Value(i)}
			if !seen[l] {
				l = [2]string{strings.Clone(l[0]), strings.Clone(l[1])} // not the record's buffers
				seen[l] = true
				out = append(out, l)
			}
		}
	}
	return out
}

// CompareVersions orders version labels naturally: the labels are split
// into runs of digits and runs of other characters, digit runs compare as
// numbers (leading zeros ignored, then the shorter run first) and other
// runs byte-wise, so that 1.9.0 < 1.10.0, v2 < v10 and 01_09_00 <
// 01_10_07. It returns −1, 0 or +1; equal labels only give 0.
func CompareVersions(a, b string) int {
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

// LooksLikeVersion reports whether s has a number in it (1.2.3, v10,
// 2024-05-01, 01_10_07): a label CompareVersions orders meaningfully.
func LooksLikeVersion(s string) bool {
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
