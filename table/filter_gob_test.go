package table

import (
	"bytes"
	"encoding/gob"
	"regexp"
	"strings"
	"testing"
)

// TestFilterGob: a filter survives encoding/gob, inside a struct as
// reports carry it, with its pattern and run set; a pattern that does not
// compile is an error naming it.
func TestFilterGob(t *testing.T) {
	type holder struct {
		Select Filter
		N      int
	}
	for _, f := range []Filter{
		{},
		{Metric: "gc.alloc.rate", Benchmark: regexp.MustCompile(`^Json(Encode|Decode)`), project: "p", Version: "v1", IncludeWarmup: true, Shard: 2, Shards: 7},
		{Only: NewRunSet([]Key{{Project: "p", Benchmark: "B", Mode: "avgt"}, {Project: "p", Benchmark: "A", Mode: "avgt"}})},
		{Only: NewRunSet(nil)},
	} {
		var b bytes.Buffer
		if err := gob.NewEncoder(&b).Encode(holder{f, 3}); err != nil {
			t.Fatal(err)
		}
		var got holder
		if err := gob.NewDecoder(&b).Decode(&got); err != nil {
			t.Fatal(err)
		}
		if !got.Select.equal(f) || got.N != 3 || (got.Select.Benchmark == nil) != (f.Benchmark == nil) || got.Select.Shard != f.Shard || got.Select.Shards != f.Shards {
			t.Errorf("%+v came back as %+v", f, got.Select)
		}
	}
	data, err := filterWireBytes(t, filterWire{Benchmark: "(", HasBenchmark: true})
	if err != nil {
		t.Fatal(err)
	}
	var f Filter
	if err := f.GobDecode(data); err == nil || !strings.Contains(err.Error(), `benchmark pattern "("`) {
		t.Errorf("bad pattern: err = %v", err)
	}
}

func filterWireBytes(t *testing.T, w filterWire) ([]byte, error) {
	t.Helper()
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode(w)
	return b.Bytes(), err
}

// TestSetupGobDeterministic: a setup with many Env keys gives the same gob
// bytes every time it is written (gob writes maps in random order; a
// shard's partial file must not), built in either insertion order, and
// comes back equal; an empty Env comes back empty, a nil one nil.
func TestSetupGobDeterministic(t *testing.T) {
	type holder struct {
		S  *Setup
		Ss []Setup
	}
	enc := func(h holder) []byte {
		var b bytes.Buffer
		if err := gob.NewEncoder(&b).Encode(h); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	keys := []string{"jvm", "jdkVersion", "vmName", "goos", "goarch", "pkg", "cpu", EnvJVMArgs, EnvProfilers, EnvBenchmem, EnvStartupNs, EnvHarnessNsPerLine}
	envOf := func(reverse bool) map[string]string {
		m := map[string]string{}
		for i := range keys {
			k := keys[i]
			if reverse {
				k = keys[len(keys)-1-i]
			}
			m[k] = "value of " + k
		}
		return m
	}
	setup := func(env map[string]string) Setup {
		return Setup{Key: Key{Project: "p", Version: "v1", Benchmark: "B", Params: "n=1", Mode: "avgt"}, Name: "B/n=1", Tool: "jmh", Forks: 3,
			MeasurementTimeNs: 1e9, Env: env, Source: "in.json:$[0]"}
	}
	s := setup(envOf(false))
	first := enc(holder{S: &s, Ss: []Setup{s, setup(envOf(true)), setup(nil), setup(map[string]string{})}})
	for i := 0; i < 20; i++ {
		r := setup(envOf(i%2 == 1))
		if got := enc(holder{S: &r, Ss: []Setup{r, setup(envOf(i%2 == 0)), setup(nil), setup(map[string]string{})}}); !bytes.Equal(got, first) {
			t.Fatalf("write %d: %d bytes differ from the first write's %d", i+2, len(got), len(first))
		}
	}
	var got holder
	if err := gob.NewDecoder(bytes.NewReader(first)).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if got.S.Key != s.Key || got.S.Name != s.Name || got.S.Forks != 3 || got.S.MeasurementTimeNs != 1e9 || got.S.Source != s.Source || len(got.S.Env) != len(keys) {
		t.Fatalf("came back as %+v", got.S)
	}
	for _, k := range keys {
		if got.S.Env[k] != "value of "+k {
			t.Errorf("Env[%q] = %q", k, got.S.Env[k])
		}
	}
	if got.Ss[2].Env != nil || got.Ss[3].Env == nil || len(got.Ss[3].Env) != 0 {
		t.Errorf("nil Env came back as %#v, empty as %#v", got.Ss[2].Env, got.Ss[3].Env)
	}
	var dup bytes.Buffer
	w := setupWire{Setup: plainSetup{Key: Key{Benchmark: "B"}}, HasEnv: true, Env: [][2]string{{"a", "1"}, {"a", "2"}}}
	if err := gob.NewEncoder(&dup).Encode(w); err != nil {
		t.Fatal(err)
	}
	var d Setup
	if err := d.GobDecode(dup.Bytes()); err == nil || !strings.Contains(err.Error(), `env key "a" given twice`) {
		t.Errorf("duplicate key: err = %v", err)
	}
}
