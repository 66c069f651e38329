package layers

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoUnreachableFunctions runs deadcode (golang.org/x/tools/cmd/deadcode,
// the go.mod tool at x/tools' version) on the module with its tests as
// roots: every function is reached from a main package, a test, a
// benchmark or an Example, and it fails naming each one that is not (Rapid
// Type Analysis of the whole program, so a method is reached only when
// some reached code can call it).
func TestNoUnreachableFunctions(t *testing.T) {
	cmd := exec.Command("go", "tool", "deadcode", "-test", module+"/...")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go tool deadcode: %v\n%s", err, out)
	}
	if s := strings.TrimSpace(string(out)); s != "" {
		t.Errorf("unreachable functions (delete them, or reach them from a test or an Example):\n%s", s)
	}
}
