// Package benchstattest provides golang.org/x/perf's benchstat to tests
// that check benchtrim's Go benchmark output and statistics against the
// tool its users compare with. Only tests import it.
package benchstattest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchtrim/benchtrim/internal/testenv"
)

// perfVersion is the golang.org/x/perf version the tests were checked with.
const perfVersion = "v0.0.0-20260908200009-22c9c6c9d4da"

// benchstatPackage is benchstat's import path.
const benchstatPackage = "golang.org/x/perf/cmd/benchstat"

var (
	once    sync.Once
	binPath string
	binErr  string
)

// Path returns the path of a benchstat binary of perfVersion, installed with
// `go install` (through the Go module proxy) into a directory under
// os.TempDir() the first time and reused afterwards. When it cannot be
// installed (no network, no go command), a benchstat installed earlier
// ($GOBIN, ~/go/bin or PATH) is used, with a log line saying so; without
// one the test is skipped with a message saying so and why, printed
// without -v (testenv.Skip).
func Path(t testing.TB) string {
	t.Helper()
	once.Do(func() {
		dir := filepath.Join(os.TempDir(), "benchtrim-benchstat-"+perfVersion)
		bin := filepath.Join(dir, "benchstat")
		if st, err := os.Stat(bin); err == nil && st.Mode().IsRegular() {
			binPath = bin
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "go", "install", benchstatPackage+"@"+perfVersion)
		cmd.Env = append(os.Environ(), "GOBIN="+dir, "GOFLAGS=")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			binErr = err.Error() + ": " + strings.TrimSpace(out.String())
			return
		}
		binPath = bin
	})
	if binPath == "" {
		// Offline: a benchstat installed earlier (go install … into
		// $GOBIN or ~/go/bin, or on PATH) still checks the output.
		home, _ := os.UserHomeDir()
		for _, p := range []string{os.Getenv("GOBIN"), filepath.Join(home, "go", "bin"), ""} {
			bin, err := exec.LookPath(filepath.Join(p, "benchstat"))
			if p == "" {
				bin, err = exec.LookPath("benchstat")
			}
			if err == nil {
				t.Logf("benchstat %s could not be installed (%s); using %s, whose version may differ", perfVersion, binErr, bin)
				return bin
			}
		}
		testenv.Skip(t, "benchstat (%s@%s) could not be installed, so benchtrim's output was not checked against it: %s", benchstatPackage, perfVersion, binErr)
	}
	return binPath
}

// Run runs benchstat with args and returns its standard output; a failure
// fails the test with benchstat's standard error.
func Run(t testing.TB, args ...string) string {
	t.Helper()
	cmd := exec.Command(Path(t), args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("benchstat %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return out.String()
}
