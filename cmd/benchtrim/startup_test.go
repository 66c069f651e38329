package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStartupCollectsNoGarbage runs the built binary on a command that
// does little (`changepoint` on 20 values) with the runtime's collection
// trace on: it must not collect once. The start heap (cmd/benchtrim/internal/startheap,
// set by cmd/benchtrim/internal/gcstart during initialisation) keeps the
// dependencies' initialisers from setting off a collection at the
// runtime's first 4 MB goal; a dependency that allocates more before
// gcstart's turn, or the setting moved after them, shows here.
func TestStartupCollectsNoGarbage(t *testing.T) {
	bin := builtBinary(t)
	in := filepath.Join(t.TempDir(), "values.txt")
	if err := os.WriteFile(in, []byte(strings.Repeat("100\n101\n", 10)), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "changepoint", in)
	env := []string{"GODEBUG=gctrace=1"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GOMEMLIMIT=") && !strings.HasPrefix(kv, "GODEBUG=") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.HasPrefix(line, "gc ") {
			t.Fatalf("the start-up collected garbage:\n%s", line)
		}
	}
}

// TestNoHeavyDependencies lists the packages the binary links: none of
// those whose initialisers or size a choice of ours brought in and that
// benchtrim does not need. pqarrow (which brings arrow/compute, whose
// init registers every kernel, and arrow/flight with gRPC and protobuf)
// was 110 packages and 23 MB of the binary and a third of its start-up;
// the Parquet files are read with tablefile/internal/parquetio instead. Tests
// may still use pqarrow, as the reference reader.
func TestNoHeavyDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 100 {
		t.Fatalf("go list -deps printed %d packages", len(deps))
	}
	for _, d := range deps {
		for _, heavy := range []string{"/parquet/pqarrow", "/arrow/compute", "/arrow/flight", "google.golang.org/grpc", "google.golang.org/protobuf"} {
			if strings.Contains(d, heavy) {
				t.Errorf("the binary links %s", d)
			}
		}
	}
}
