package hugepage

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/benchtrim/benchtrim/internal/testenv"
)

// TestBytes: the slice is n zeroed bytes starting at a multiple of Size,
// with capacity n, and writable.
func TestBytes(t *testing.T) {
	for _, n := range []int{Size, 3 * Size} {
		b := Bytes(n)
		if len(b) != n || cap(b) != n {
			t.Fatalf("Bytes(%d): len %d cap %d", n, len(b), cap(b))
		}
		if p := uintptr(unsafe.Pointer(unsafe.SliceData(b))); p%Size != 0 {
			t.Errorf("Bytes(%d) starts at %#x, not a multiple of %d", n, p, Size)
		}
		for i := 0; i < n; i += 4096 {
			if b[i] != 0 {
				t.Fatalf("Bytes(%d)[%d] = %d, want 0", n, i, b[i])
			}
			b[i] = 1
		}
	}
}

// TestBytesAdvised: on Linux with transparent huge pages, the kernel has
// the slice's region marked for them (the "hg" flag of its mapping in
// /proc/self/smaps).
func TestBytesAdvised(t *testing.T) {
	if runtime.GOOS != "linux" {
		testenv.Skip(t, "madvise(MADV_HUGEPAGE) is Linux only")
	}
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		testenv.Skip(t, "this kernel has no transparent huge pages: %v", err)
	}
	b := Bytes(2 * Size)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	flags, err := vmFlags(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("the mapping of %#x has VmFlags %q, want hg (MADV_HUGEPAGE)", p, flags)
	}
	runtime.KeepAlive(b)
}

// vmFlags returns the VmFlags line of the mapping in /proc/self/smaps
// that holds address p.
func vmFlags(p uintptr) (string, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 && strings.Contains(line[:strings.IndexByte(line, ' ')], "-") {
			in = lo <= p && p < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:")), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("no mapping in /proc/self/smaps holds %#x", p)
}
