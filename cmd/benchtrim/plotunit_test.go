package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSteadyPlotsInFileUnit: steady --plots draws a JMH run's scores in
// the unit its file recorded (issue 49: the y axis said ns/op where JMH
// said ms/op): an avgt run in ms/op with values about 2 and a thrpt run in
// ops/s with values about 500 get those axes and values, not ns/op.
func TestSteadyPlotsInFileUnit(t *testing.T) {
	dir := t.TempDir()
	run := func(name, mode, unit string, base float64) string {
		var forks []string
		for f := 0; f < 2; f++ {
			var it []string
			for i := 0; i < 40; i++ {
				it = append(it, fmt.Sprint(base*(1+0.01*float64((i*7+f)%5))))
			}
			forks = append(forks, "["+strings.Join(it, ",")+"]")
		}
		return fmt.Sprintf(`{"jmhVersion":"1.37","benchmark":%q,"mode":%q,"threads":1,"forks":2,"warmupIterations":0,"measurementIterations":40,`+
			`"params":{},"primaryMetric":{"score":%v,"scoreUnit":%q,"rawData":[%s]}}`, name, mode, base, unit, strings.Join(forks, ","))
	}
	in := filepath.Join(dir, "units.json")
	js := "[" + run("org.example.U.avg", "avgt", "ms/op", 2) + "," + run("org.example.U.thr", "thrpt", "ops/s", 500) + "]"
	if err := os.WriteFile(in, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	plots := filepath.Join(dir, "plots")
	if _, stderr, err := runCLI(t, "--quiet", "steady", "--steady-window", "10", "--resamples", "200", "--plots", plots, in); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, c := range []struct{ file, unit, tick string }{{"001-U.avg-f1.svg", "ms/op", ">2<"}, {"002-U.thr-f1.svg", "ops/s", ">500<"}} {
		b, err := os.ReadFile(filepath.Join(plots, c.file))
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if !strings.Contains(s, ">"+c.unit+"<") || strings.Contains(s, ">ns/op<") || !strings.Contains(s, c.tick) {
			t.Errorf("%s: want the y axis in %s with a tick %s, not ns/op", c.file, c.unit, c.tick)
		}
	}
}
