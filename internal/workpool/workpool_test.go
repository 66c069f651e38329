package workpool

import (
	"errors"
	"fmt"
	"testing"
)

func TestMapIsOrderedForAnyWorkerCount(t *testing.T) {
	for _, w := range []int{1, 2, 8, 100} {
		out, err := Map(50, w, func(i int) (int, error) { return i * i, nil })
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range out {
			if v != i*i {
				t.Fatalf("workers=%d: out[%d] = %d", w, i, v)
			}
		}
	}
}

func TestRunReturnsLowestIndexError(t *testing.T) {
	err := Run(10, 1, func(i int) error {
		if i >= 3 {
			return fmt.Errorf("job %d: %w", i, errors.ErrUnsupported)
		}
		return nil
	})
	if err == nil || err.Error() != "job 3: unsupported operation" {
		t.Errorf("err = %v, want job 3's", err)
	}
}
