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
