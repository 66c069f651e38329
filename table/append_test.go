package table

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestAppendMergesSortedSetups checks Append's one-pass merge of sorted
// setups against its map path (taken when a side is not sorted), on
// seeded random setups with shared keys, agreeing and conflicting fields.
func TestAppendMergesSortedSetups(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 1))
	setups := func(n int) []Setup {
		m := map[Key]Setup{}
		for len(m) < n {
			k := Key{Project: "p", Benchmark: fmt.Sprint("b", rng.IntN(3*n)), Mode: "avgt"}
			s := Setup{Key: k, Tool: "jmh", Forks: rng.IntN(3), Threads: rng.IntN(2), Source: fmt.Sprint("f", rng.IntN(100))}
			if rng.IntN(2) == 0 {
				s.Env = map[string]string{fmt.Sprint("e", rng.IntN(3)): "v"}
			}
			m[k] = s
		}
		out := make([]Setup, 0, n)
		for _, s := range m {
			out = append(out, s)
		}
		slices.SortFunc(out, func(a, b Setup) int {
			if a.Key.Less(b.Key) {
				return -1
			}
			return 1
		})
		return out
	}
	clone := func(in []Setup) []Setup {
		out := slices.Clone(in)
		for i := range out {
			if out[i].Env != nil {
				e := map[string]string{}
				for k, v := range out[i].Env {
					e[k] = v
				}
				out[i].Env = e
			}
		}
		return out
	}
	for i := 0; i < 200; i++ {
		a, b := setups(rng.IntN(20)), setups(rng.IntN(20))
		fast := &Table{Setups: clone(a)}
		errFast := fast.Append(&Table{Setups: clone(b)})
		rev := clone(a)
		slices.Reverse(rev)
		if len(rev) > 1 && strictlySorted(rev) {
			t.Fatal("reversed setups still sorted")
		}
		slow := &Table{Setups: rev}
		errSlow := slow.Append(&Table{Setups: clone(b)})
		if fmt.Sprint(errFast) != fmt.Sprint(errSlow) {
			t.Fatalf("case %d: error %v, map path %v", i, errFast, errSlow)
		}
		if len(fast.Setups)+len(slow.Setups) > 0 && !reflect.DeepEqual(fast.Setups, slow.Setups) {
			t.Fatalf("case %d: setups\n%+v\nmap path\n%+v", i, fast.Setups, slow.Setups)
		}
	}
}
