package table

import (
	"reflect"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

func TestMetrics(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tab := buildSample(t, mem, 2) // several records
	defer tab.Release()
	if got, want := tab.Metrics(), []string{Primary, "gc.alloc.rate"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Metrics = %q, want %q", got, want)
	}
	if got := (&Table{}).Metrics(); len(got) != 0 {
		t.Errorf("Metrics of an empty table = %q", got)
	}
}
