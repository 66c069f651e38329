package partial

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/benchtrim/benchtrim/analysis/steady"
	"github.com/benchtrim/benchtrim/table"
)

// TestWriteDeterministic: a steady report whose runs' setups hold many Env
// keys (a JMH file's jvm, jdkVersion, vmName, …) is written to the same
// bytes every time (gob writes maps in random order), and Decode gives the
// setups back.
func TestWriteDeterministic(t *testing.T) {
	dir := t.TempDir()
	key := table.Key{Project: "p", Version: "v1", Benchmark: "b.A", Params: "n=1", Mode: "avgt"}
	report := func() *steady.Report {
		r := &steady.Report{Options: steady.DefaultOptions}
		for i := 0; i < 5; i++ {
			env := map[string]string{}
			for _, k := range []string{"jvm", "jdkVersion", "vmName", "vmVersion", table.EnvJVMArgs, table.EnvProfilers, "goos", "goarch", "pkg", "cpu"} {
				env[k] = k + " of run " + string(rune('0'+i))
			}
			k := key
			k.Params = "n=" + string(rune('0'+i))
			r.Benchmarks = append(r.Benchmarks, steady.BenchmarkResult{Key: k, Setup: &table.Setup{Key: k, Tool: "jmh", Forks: 3, Env: env},
				Forks: []steady.ForkResult{{Points: 3, SteadyStart: -1, Values: []float64{1, 2, 3}}}})
		}
		return r
	}
	h := Header{Command: "steady", Benchtrim: "test", Shards: 1}
	var first []byte
	for i := 0; i < 10; i++ {
		path := filepath.Join(dir, "steady.partial")
		if err := Write(path, h, report()); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = b
			continue
		}
		if !bytes.Equal(b, first) {
			t.Fatalf("write %d: %d bytes differ from the first write's %d", i+1, len(b), len(first))
		}
	}
	f, err := Open(filepath.Join(dir, "steady.partial"))
	if err != nil {
		t.Fatal(err)
	}
	var got steady.Report
	if err := f.Decode(&got); err != nil {
		t.Fatal(err)
	}
	if len(got.Benchmarks) != 5 || got.Benchmarks[3].Setup.Env["jvm"] != "jvm of run 3" || len(got.Benchmarks[3].Setup.Env) != 10 {
		t.Fatalf("decoded %+v", got.Benchmarks)
	}
}
