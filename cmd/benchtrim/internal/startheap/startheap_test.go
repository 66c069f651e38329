package startheap

import (
	"math"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

// settings reads GOGC and the memory limit as the runtime has them.
func settings() (gogc int64, limit uint64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64()), s[1].Value.Uint64()
}

// TestSet: Set turns the collector off under a memory limit of goal, and
// the first collection puts GOGC and the limit back; with GOGC or
// GOMEMLIMIT in the environment it changes nothing.
func TestSet(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	gogc, limit := settings()
	if gogc != 100 || limit != math.MaxInt64 {
		t.Fatalf("the test starts with GOGC %d, limit %d; want the defaults", gogc, limit)
	}
	if !Set(256 << 20) {
		t.Fatal("Set did nothing")
	}
	if g, l := settings(); g != -1 || l != 256<<20 {
		t.Fatalf("after Set: GOGC %d, limit %d; want off (-1) and %d", g, l, 256<<20)
	}
	runtime.GC()
	deadline := time.Now().Add(10 * time.Second)
	for {
		g, l := settings()
		if g == 100 && l == math.MaxInt64 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("10 s after a collection: GOGC %d, limit %d; want them back", g, l)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	t.Setenv("GOGC", "200")
	if Set(256 << 20) {
		t.Fatal("Set changed the settings with GOGC in the environment")
	}
	if g, _ := settings(); g != 100 {
		t.Fatalf("GOGC %d after a refused Set", g)
	}
}
