package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/internal/testenv"
)

// TestClosedStdoutFinishesTheWork runs benchtrim trim --out-dir D as a
// process whose standard output is a pipe that the test closes, as
// benchtrim trim … | head -1 does once head has its line: the process
// still writes D and exits 0 (not killed by SIGPIPE, status 141, before D
// is written).
func TestClosedStdoutFinishesTheWork(t *testing.T) {
	if args := os.Getenv("BENCHTRIM_PIPE_CHILD_ARGS"); args != "" {
		os.Args = append([]string{"benchtrim"}, strings.Split(args, "\x1f")...)
		os.Exit(cliapp.Main(run))
	}
	if testing.Short() {
		testenv.Skip(t, "skipping the child process in -short mode")
	}
	out := filepath.Join(t.TempDir(), "D")
	in := filepath.Join("..", "..", "testdata", "jmh", "small_avgt.json")
	cmd := exec.Command(os.Args[0], "-test.run", "^TestClosedStdoutFinishesTheWork$")
	cmd.Env = append(os.Environ(), "BENCHTRIM_PIPE_CHILD_ARGS="+strings.Join([]string{"--quiet", "trim", "--resamples", "200", "--out-dir", out, in}, "\x1f"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Closed before the child prints (it reads and analyses first), so its
	// first write to standard output fails with EPIPE.
	stdout.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the child: %v (want exit status 0)\n%s", err, stderr.String())
	}
	for _, f := range []string{"plan.csv", "report.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("--out-dir not written after stdout closed: %v", err)
		}
	}
}
