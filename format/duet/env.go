package duet

import (
	"strconv"

	"github.com/benchtrim/benchtrim/table"
)

// The keys of a duet setup's Env (see the package doc). Analyzers read
// these from the table's setups; nothing here touches a file.
const (
	// envIterationOffset holds "1" or "0": recorded index = iteration − offset.
	envIterationOffset = "iteration_offset"
)

// instanceEnvKey is the Env key of an artifact of instance n:
// "instance.N.NAME", NAME one of date, hostname, lscpu, meminfo, uname,
// environment.
func instanceEnvKey(n int32, name string) string {
	return "instance." + strconv.Itoa(int(n)) + "." + name
}

// runOrderEnvKey is the Env key of the launch order (AB, BA or None) of
// run (fork) f of instance n: "run.N.F.order".
func runOrderEnvKey(n, f int32) string {
	return "run." + strconv.Itoa(int(n)) + "." + strconv.Itoa(int(f)) + ".order"
}

// iterationOffset is the offset the reader added to the recorded
// iteration indices of s's key (1 for 0-based suites, 0 for 1-based), and
// whether s states one (a setup written by this reader does).
func iterationOffset(s *table.Setup) (int32, bool) {
	if s == nil {
		return 0, false
	}
	switch s.Env[envIterationOffset] {
	case "0":
		return 0, true
	case "1":
		return 1, true
	}
	return 0, false
}

// instanceEnvironment is the environment label of instance n in s
// (bare-metal, shared-vm, AWS t3.medium, a CSV's own label, or "").
func instanceEnvironment(s *table.Setup, n int32) string {
	if s == nil {
		return ""
	}
	return s.Env[instanceEnvKey(n, "environment")]
}
