package jvmargs

import (
	"reflect"
	"testing"
)

// TestLine: arguments written as one -jvmArgs line read back as
// JMH reads them (split at spaces outside double quotes, quotes dropped),
// those holding spaces included.
func TestLine(t *testing.T) {
	for _, args := range [][]string{
		nil,
		{"-Xmx6144m", "-Xms6144m"},
		{"-javaagent:/Applications/IntelliJ IDEA.app/Contents/lib/idea_rt.jar=53845:/Applications/IntelliJ IDEA.app/Contents/bin", "-Dfile.encoding=UTF-8"},
		{"-Da=b c d"},
	} {
		line := Line(args)
		if back := Split(line); !reflect.DeepEqual(back, args) {
			t.Errorf("%q: line %q reads back as %q", args, line, back)
		}
	}
	if got := Split(`-Dname="quoted" -Xmx1g`); !reflect.DeepEqual(got, []string{"-Dname=quoted", "-Xmx1g"}) {
		t.Errorf("JMH drops the quotes: %q", got)
	}
}
