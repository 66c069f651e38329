package deploy_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// slurmStubs makes a PATH for slurm/test.sh: the real dirname, mktemp,
// mkdir, hostname, nproc, cat and tail, and a shell script per name in
// stubs (its body); no other command, so whatever Slurm this machine has
// stays out of sight.
func slurmStubs(t *testing.T, stubs map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"dirname", "mktemp", "mkdir", "hostname", "nproc", "cat", "tail"} {
		p, err := exec.LookPath(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := os.Symlink(p, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range stubs {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestSlurmTestClasses runs slurm/test.sh with stub commands and checks
// that it tells "cannot install Slurm" (not installed and not root to
// install it; installed but not root to start the daemons: a skip, exit 0,
// outside CI and a failure, exit 1, with CI=true) from "the recipe's
// slurm.conf or daemons failed" (slurmctld exits with an error: a failure
// in CI or not).
func TestSlurmTestClasses(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal(err)
	}
	const notRoot = `if [ "$1" = -u ]; then echo 1000; else exit 1; fi`
	const root = `if [ "$1" = -u ]; then echo 0; else exit 1; fi`
	installed := map[string]string{"slurmctld": "exit 0", "munged": "exit 0", "apt-get": "exit 1"}
	with := func(m map[string]string, k, v string) map[string]string {
		out := map[string]string{k: v}
		for a, b := range m {
			if a != k {
				out[a] = b
			}
		}
		return out
	}
	// Root, munge authenticates, slurmctld exits with an error.
	failing := with(with(with(with(installed, "id", root), "munge", "exit 0"), "unmunge", "exit 0"), "slurmctld", "exit 1")
	for _, tc := range []struct {
		name  string
		stubs map[string]string
		ci    bool
		exit  int
		says  string
	}{
		{"absent, not root", map[string]string{"id": notRoot}, false, 0,
			"SLURM TEST SKIPPED: cannot install Slurm: slurm-wlm and munge are not installed and this is not a root Debian shell"},
		{"absent, not root, CI", map[string]string{"id": notRoot}, true, 1,
			"SLURM TEST FAILED: cannot install Slurm: slurm-wlm and munge are not installed"},
		{"installed, not root", with(installed, "id", notRoot), false, 0,
			"SLURM TEST SKIPPED: cannot install Slurm: Slurm is installed but its daemons need root"},
		{"installed, not root, CI", with(installed, "id", notRoot), true, 1,
			"SLURM TEST FAILED: cannot install Slurm: Slurm is installed but its daemons need root"},
		{"slurmctld fails", failing, false, 1,
			"SLURM TEST FAILED: the recipe's slurm.conf or daemons failed: slurmctld did not start with "},
		{"slurmctld fails, CI", failing, true, 1,
			"SLURM TEST FAILED: the recipe's slurm.conf or daemons failed: slurmctld did not start with "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bash, "slurm/test.sh")
			cmd.Env = []string{"PATH=" + slurmStubs(t, tc.stubs), "HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
			if tc.ci {
				cmd.Env = append(cmd.Env, "CI=true")
			}
			out, err := cmd.CombinedOutput()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.exit || !strings.Contains(string(out), tc.says) {
				t.Errorf("exit %d, want %d, saying %q; output:\n%s", code, tc.exit, tc.says, out)
			}
		})
	}
}
