package optimize

import (
	"reflect"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/internal/jvmargs"
	"github.com/benchtrim/benchtrim/table"
)

// TestGoCommandKeepsTheName: a go test benchmark whose key=value part the
// reader moved into params gets a pattern of the name as go test printed
// it, one anchored level per '/' part in its place (issue 45's example:
// BenchmarkSum/n=1000/slow got ^BenchmarkSum$/^slow$/^n=1000$, which runs
// nothing), and the recorded -cpu, -benchmem and package.
func TestGoCommandKeepsTheName(t *testing.T) {
	r := Result{Key: table.Key{Benchmark: "BenchmarkSum/slow", Params: "n=1000", Mode: "go"}, UnitNs: 1e8, FixedN: 1000,
		Setup: &table.Setup{Name: "BenchmarkSum/n=1000/slow", Tool: "go",
			Env: map[string]string{"gomaxprocs": "4", table.EnvBenchmem: "true", "pkg": "example.com/gopkg"}}}
	e := Evaluation{Config: Config{1, 1, 2, 5, 1}}
	cmd := r.Command(&e)
	want := `go test -run '^$' -bench '^BenchmarkSum$/^n=1000$/^slow$' -count 5 -benchtime 1000x -cpu 4 -benchmem example.com/gopkg`
	if got := cmd.Line(); got != want || cmd.Repeat != 2 || cmd.Note != "" {
		t.Errorf("command %q ×%d (note %q), want %q ×2", got, cmd.Repeat, cmd.Note, want)
	}
	if sel := cmd.Args[cmd.Select[0]:cmd.Select[1]]; !reflect.DeepEqual(sel, []string{`^BenchmarkSum$/^n=1000$/^slow$`}) ||
		!reflect.DeepEqual(cmd.Name, []string{"BenchmarkSum", "n=1000", "slow"}) {
		t.Errorf("selection %q, name %q", sel, cmd.Name)
	}
	// A table read before Setup.Name: the params go last, with a note.
	r.Setup = &table.Setup{Tool: "go"}
	cmd = r.Command(&e)
	if !strings.Contains(cmd.Line(), `'^BenchmarkSum$/^slow$/^n=1000$'`) || !strings.Contains(cmd.Note, "position in the name was not recorded") {
		t.Errorf("without a name: %q, note %q", cmd.Line(), cmd.Note)
	}
}

// TestJMHCommandKeepsTheFlags: the recorded threads, JVM arguments and
// profilers are in the command; a param value with a comma goes through
// the launcher as one value, since -p would split it.
func TestJMHCommandKeepsTheFlags(t *testing.T) {
	setup := &table.Setup{Tool: "jmh", Threads: 12, MeasurementTimeNs: 1e9, Env: map[string]string{
		table.EnvJVMArgs:   jvmargs.Line([]string{"-javaagent:/opt/IntelliJ IDEA/lib/idea_rt.jar=1:/opt/IntelliJ IDEA/bin", "-Xmx6144m", "-Dx=a b"}),
		table.EnvProfilers: "gc,stack"}}
	r := Result{Key: table.Key{Benchmark: "org.ex.C.m", Params: table.CanonicalParams(map[string]string{"n": "10"}), Mode: "avgt"}, UnitNs: 1e9, Setup: setup}
	e := Evaluation{Config: Config{1, 1, 3, 20, 1}}
	cmd := r.Command(&e)
	want := `java -jar benchmarks.jar '^org\.ex\.C\.m$' -p n=10 -f 3 -wi 0 -i 20 -w 1s -r 1s -bm avgt -t 12 -jvmArgs -Xmx6144m -jvmArgs '-Dx=a b' -prof gc -prof stack`
	if got := cmd.Line(); got != want || !strings.Contains(cmd.Note, "IntelliJ") || cmd.Launcher != "" {
		t.Errorf("command %q (note %q), want %q", got, cmd.Note, want)
	}
	if sel := cmd.Args[cmd.Select[0]:cmd.Select[1]]; !reflect.DeepEqual(sel, []string{`^org\.ex\.C\.m$`, "-p", "n=10"}) {
		t.Errorf("selection %q", sel)
	}
	// One argument is one -jvmArgs line, which JMH splits into it.
	setup.Env[table.EnvJVMArgs] = jvmargs.Line([]string{"-Dx=a b"})
	if c := r.Command(&e); !strings.Contains(c.Line(), ` -jvmArgs '"-Dx=a b"' `) {
		got := c.Line()
		t.Errorf("one JVM argument: %q", got)
	}
	// The param a=b,c=d (JMH's -p would run a=b and c=d).
	r.Key.Params = table.CanonicalParams(map[string]string{"e": "a=b,c=d", "n": "10"})
	cmd = r.Command(&e)
	want = `java -cp benchmarks.jar BenchtrimParams.java '^org\.ex\.C\.m$' --param e=a=b,c=d --param n=10 -f 3 `
	if got := cmd.Line(); !strings.HasPrefix(got, want) || cmd.Launcher != ParamsLauncherClass || !reflect.DeepEqual(cmd.Name, []string{"org.ex.C.m", "a=b,c=d", "10"}) {
		t.Errorf("comma param: %q (launcher %q, name %q), want prefix %q", got, cmd.Launcher, cmd.Name, want)
	}
	var b strings.Builder
	WriteParamsLauncher(&b)
	for _, w := range []string{"cat > BenchtrimParams.java <<'BENCHTRIM_EOF'\n", "public class BenchtrimParams", "b.param(kv.substring(0, eq), kv.substring(eq + 1));", "\nBENCHTRIM_EOF\n"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("launcher lacks %q:\n%s", w, b.String())
		}
	}
}
