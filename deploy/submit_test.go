package deploy_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSlurmSubmitIngestsFirst runs slurm/submit.sh with a stub sbatch:
// with BENCHTRIM_INPUTS it queues the ingest job, then the shards' array
// after it (afterok) and the merge after the array, and prints the
// shards', merge's and ingest's job ids; without, the array and the merge
// alone, as before.
func TestSlurmSubmitIngestsFirst(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "sbatch.log")
	// sbatch: logs its arguments, prints the next job id (101, 102, …).
	stub := `n=$(($(cat "` + log + `" 2>/dev/null | wc -l) + 101))
echo "$n $*" >>"` + log + `"
echo "$n;cluster"`
	bin := slurmStubs(t, map[string]string{"sbatch": stub})
	for _, name := range []string{"wc", "pwd"} {
		if p, err := exec.LookPath(name); err == nil {
			os.Symlink(p, filepath.Join(bin, name))
		}
	}
	for _, tc := range []struct {
		inputs string
		ids    string
		jobs   []string // per sbatch call, in order: the script and the dependency it must carry
	}{
		{"/shared/in/a.json /shared/in/b.json", "102 103 101", []string{"ingest.sbatch", "", "shards.sbatch", "afterok:101", "merge.sbatch", "afterok:102"}},
		{"", "101 102", []string{"shards.sbatch", "", "merge.sbatch", "afterok:101"}},
	} {
		os.Remove(log)
		cmd := exec.Command("/bin/sh", "slurm/submit.sh", "3", "--partition=short")
		cmd.Env = []string{"PATH=" + bin, "BENCHTRIM_OUT=" + filepath.Join(dir, "out"), "BENCHTRIM_INPUTS=" + tc.inputs}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("inputs %q: submit.sh: %v\n%s", tc.inputs, err, out)
		}
		if got := strings.TrimSpace(string(out)); got != tc.ids {
			t.Errorf("inputs %q: submit.sh printed %q, want %q", tc.inputs, got, tc.ids)
		}
		b, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		calls := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(calls) != len(tc.jobs)/2 {
			t.Fatalf("inputs %q: %d sbatch calls, want %d:\n%s", tc.inputs, len(calls), len(tc.jobs)/2, b)
		}
		for i, c := range calls {
			script, dep := tc.jobs[2*i], tc.jobs[2*i+1]
			if !strings.Contains(c, "/"+script) || !strings.Contains(c, "--partition=short") ||
				dep != "" && !strings.Contains(c, "--dependency="+dep) || dep == "" && strings.Contains(c, "--dependency") {
				t.Errorf("inputs %q: sbatch call %d is %q, want %s with dependency %q", tc.inputs, i+1, c, script, dep)
			}
		}
	}
}
