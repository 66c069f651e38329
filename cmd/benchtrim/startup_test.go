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
// trace on: it must not collect once. The start heap (internal/startheap,
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
