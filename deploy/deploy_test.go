// Package deploy_test checks the scheduler recipes in deploy/: the
// Kubernetes manifests are consistent, and their pod commands, run here
// with the variables the scheduler sets, write the unsharded run's bytes.
// The Slurm recipe runs on a real Slurm in slurm/test.sh.
package deploy_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// job is the part of a batch/v1 Job the test reads.
type job struct {
	Kind string
	Spec struct {
		CompletionMode string `yaml:"completionMode"`
		Completions    int
		Parallelism    int
		Template       struct {
			Spec struct {
				Containers []struct {
					Command      []string
					Env          []struct{ Name, Value string }
					VolumeMounts []struct {
						Name      string
						MountPath string `yaml:"mountPath"`
					} `yaml:"volumeMounts"`
				}
				Volumes []struct {
					Name                  string
					PersistentVolumeClaim struct {
						ClaimName string `yaml:"claimName"`
					} `yaml:"persistentVolumeClaim"`
				}
			}
		}
	}
}

func readJob(t *testing.T, path string) (*job, map[string]string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var j job
	if err := yaml.Unmarshal(b, &j); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if j.Kind != "Job" || len(j.Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("%s: kind %q with %d containers, want a Job with one", path, j.Kind, len(j.Spec.Template.Spec.Containers))
	}
	env := map[string]string{}
	for _, e := range j.Spec.Template.Spec.Containers[0].Env {
		env[e.Name] = e.Value
	}
	return &j, env
}

// TestKubernetesRecipe: shards.yaml is an Indexed Job whose completions
// equal BENCHTRIM_SHARDS (also merge.yaml's), it, ingest.yaml and
// merge.yaml mount the claim of shared-pvc.yaml at /shared; running the
// ingest pod's command, then the shards pod's for every
// JOB_COMPLETION_INDEX (each reading less than the whole ingested table)
// and then the merge pod's (with /shared a temporary directory and the
// image's PATH: benchtrim, ingest.sh, shard.sh, merge.sh) writes the
// plan, commands and report of the unsharded trim of the inputs byte for
// byte.
func TestKubernetesRecipe(t *testing.T) {
	ingest, ienv := readJob(t, filepath.Join("kubernetes", "ingest.yaml"))
	shards, senv := readJob(t, filepath.Join("kubernetes", "shards.yaml"))
	merge, menv := readJob(t, filepath.Join("kubernetes", "merge.yaml"))
	pvc, err := os.ReadFile(filepath.Join("kubernetes", "shared-pvc.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var claim struct{ Metadata struct{ Name string } }
	if err := yaml.Unmarshal(pvc, &claim); err != nil {
		t.Fatal(err)
	}
	n := shards.Spec.Completions
	if shards.Spec.CompletionMode != "Indexed" || n < 1 || shards.Spec.Parallelism > n {
		t.Fatalf("shards.yaml: completionMode %q, completions %d, parallelism %d", shards.Spec.CompletionMode, n, shards.Spec.Parallelism)
	}
	if senv["BENCHTRIM_SHARDS"] != fmt.Sprint(n) || menv["BENCHTRIM_SHARDS"] != fmt.Sprint(n) {
		t.Fatalf("BENCHTRIM_SHARDS %q (shards) and %q (merge), want the completions, %d", senv["BENCHTRIM_SHARDS"], menv["BENCHTRIM_SHARDS"], n)
	}
	for _, j := range []*job{ingest, shards, merge} {
		s := j.Spec.Template.Spec
		if len(s.Volumes) != 1 || s.Volumes[0].PersistentVolumeClaim.ClaimName != claim.Metadata.Name ||
			len(s.Containers[0].VolumeMounts) != 1 || s.Containers[0].VolumeMounts[0].MountPath != "/shared" {
			t.Fatalf("a Job does not mount the claim %q at /shared: %+v", claim.Metadata.Name, s)
		}
	}
	if senv["BENCHTRIM_OUT"] != menv["BENCHTRIM_OUT"] || senv["BENCHTRIM_OUT"] != ienv["BENCHTRIM_OUT"] {
		t.Fatalf("BENCHTRIM_OUT %q (ingest), %q (shards) and %q (merge) differ", ienv["BENCHTRIM_OUT"], senv["BENCHTRIM_OUT"], menv["BENCHTRIM_OUT"])
	}
	if senv["BENCHTRIM_INPUTS"] == "" || senv["BENCHTRIM_INPUTS"] != ienv["BENCHTRIM_INPUTS"] {
		t.Fatalf("BENCHTRIM_INPUTS %q (ingest) and %q (shards): want the same inputs, ingested once", ienv["BENCHTRIM_INPUTS"], senv["BENCHTRIM_INPUTS"])
	}

	// The image: benchtrim and the scripts on PATH.
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "benchtrim"), "../cmd/benchtrim")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, s := range []string{"ingest.sh", "shard.sh", "merge.sh"} {
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bin, s), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	shared := filepath.Join(dir, "shared")
	local := func(s string) string { return strings.ReplaceAll(s, "/shared", shared) }
	benchtrim := filepath.Join(bin, "benchtrim")
	run := func(name string, env []string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Env = append(os.Environ(), append([]string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}, env...)...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, stderr.String())
		}
		return stdout.String()
	}
	// The inputs the manifest names: two generated versions.
	var inputs []string
	for _, w := range strings.Fields(ienv["BENCHTRIM_INPUTS"]) {
		if strings.HasPrefix(w, "/shared/") {
			inputs = append(inputs, local(w))
		}
	}
	if len(inputs) != 2 {
		t.Fatalf("BENCHTRIM_INPUTS %q: want two input files under /shared", ienv["BENCHTRIM_INPUTS"])
	}
	if err := os.MkdirAll(filepath.Dir(inputs[0]), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, in := range inputs {
		run(benchtrim, nil, "--quiet", "--seed", fmt.Sprint(3+i), "generate", "--benchmarks", "4", "--forks", "2", "--iterations", "150",
			"--version", fmt.Sprintf("v%d", i+1), "-o", in)
	}
	env := func(m map[string]string) []string {
		var out []string
		for k, v := range m {
			out = append(out, k+"="+local(v))
		}
		return out
	}
	podCommand := func(j *job) []string { return j.Spec.Template.Spec.Containers[0].Command }
	c := podCommand(ingest)
	run(c[0], env(ienv), c[1:]...)
	table := filepath.Join(local(senv["BENCHTRIM_OUT"]), "input.parquet")
	for k := 0; k < n; k++ {
		c := podCommand(shards)
		run(c[0], append(env(senv), fmt.Sprintf("JOB_COMPLETION_INDEX=%d", k)), c[1:]...)
		// What the shard read of the table (shard.sh runs it --quiet).
		stderr := runErr(t, benchtrim, "trim", "--resamples", "10", "--shard", fmt.Sprintf("%d/%d", k, n), "--partial-out", filepath.Join(dir, "probe.partial"), table)
		m := regexp.MustCompile(`read (\d+) of the (\d+) rows`).FindStringSubmatch(stderr)
		if m == nil {
			t.Fatalf("shard %d/%d of %s: no line on the rows read in\n%s", k, n, table, stderr)
		}
		if read, _ := strconv.Atoi(m[1]); 2*read >= n*mustAtoi(t, m[2]) {
			t.Errorf("shard %d/%d read %s of the table's %s rows, want fewer than 2/%d of them", k, n, m[1], m[2], n)
		}
	}
	c = podCommand(merge)
	got := run(c[0], env(menv), c[1:]...)

	// The unsharded run of the inputs with the merge's outputs in another
	// directory.
	whole := filepath.Join(dir, "whole")
	args := append(append([]string{"trim"}, strings.Fields(local(senv["BENCHTRIM_ARGS"]))...), inputs...)
	var outs []string
	for _, w := range strings.Fields(local(menv["BENCHTRIM_MERGE_ARGS"])) {
		if strings.HasPrefix(w, shared) {
			outs = append(outs, filepath.Base(w))
			w = filepath.Join(whole, filepath.Base(w))
		}
		args = append(args, w)
	}
	if err := os.MkdirAll(whole, 0o755); err != nil {
		t.Fatal(err)
	}
	want := run(benchtrim, nil, args...)
	if strings.ReplaceAll(got, local(senv["BENCHTRIM_OUT"]), whole) != want {
		t.Errorf("the merge pod prints\n%s\nthe unsharded run\n%s", got, want)
	}
	if len(outs) != 3 {
		t.Fatalf("BENCHTRIM_MERGE_ARGS %q: want 3 outputs under /shared", menv["BENCHTRIM_MERGE_ARGS"])
	}
	for _, o := range outs {
		g, err := os.ReadFile(filepath.Join(local(senv["BENCHTRIM_OUT"]), o))
		if err != nil {
			t.Fatal(err)
		}
		w, err := os.ReadFile(filepath.Join(whole, o))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(g, w) {
			t.Errorf("%s of the %d merged shards differs from the unsharded run's (%d bytes, want %d)", o, n, len(g), len(w))
		}
	}
	log, err := os.ReadFile(filepath.Join(local(senv["BENCHTRIM_OUT"]), "shards.log"))
	if err != nil || strings.Count(string(log), "\n") != n {
		t.Errorf("shards.log: %d lines, want one per shard (%v)", strings.Count(string(log), "\n"), err)
	}
}

// runErr runs name with args and returns its standard error, failing the
// test if it fails.
func runErr(t *testing.T, name string, args ...string) string {
	t.Helper()
	var stderr bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, stderr.String())
	}
	return stderr.String()
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
