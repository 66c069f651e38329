// Package jvmargs writes and reads JVM arguments as one JMH -jvmArgs option
// line, the form benchtrim keeps them in (table.EnvJVMArgs) and writes into
// the JMH commands it plans.
package jvmargs

import "strings"

// Line writes JVM arguments as one JMH -jvmArgs option line (the
// form of table.Setup.Env[table.EnvJVMArgs]): separated by spaces, an argument that
// holds a space in double quotes, as JMH's Utils.splitQuotedEscape reads
// such a line back. An argument holding a double quote cannot be written
// so (JMH drops every '"'); it is written as it is.
func Line(args []string) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if strings.Contains(a, " ") && !strings.Contains(a, `"`) {
			b.WriteString(`"` + a + `"`)
		} else {
			b.WriteString(a)
		}
	}
	return b.String()
}

// Split reads a -jvmArgs option line back into arguments as JMH
// does (Utils.splitQuotedEscape, jmh-core 1.37: split at spaces outside
// double quotes, every double quote dropped).
func Split(line string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	for _, r := range line {
		switch {
		case r == ' ' && !quoted:
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		case r == '"':
			quoted = !quoted
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}
