package trim

import (
	"strings"
	"testing"
	"time"

	"github.com/benchtrim/benchtrim/table"
)

// TestParseOverhead: levels not named keep their defaults (the tools'
// start-ups for fork and command), named ones are what was given, 0
// included; bad input names what is wanted.
func TestParseOverhead(t *testing.T) {
	levels, cmd, err := ParseOverhead("")
	if err != nil || levels != DefaultOptions.Overhead || cmd != OverheadDefault || levels[table.LevelFork] != OverheadDefault {
		t.Errorf(`"": %v %v %v`, levels, cmd, err)
	}
	levels, cmd, err = ParseOverhead("trial=2s, command=0,fork=300ms")
	if err != nil || levels[table.LevelTrial] != 2*time.Second || levels[table.LevelFork] != 300*time.Millisecond || levels[table.LevelInstance] != 0 || cmd != 0 {
		t.Errorf("given: %v %v %v", levels, cmd, err)
	}
	for _, bad := range []string{"iteration=1s", "fork", "command=-1s", "fork=soon"} {
		if _, _, err := ParseOverhead(bad); err == nil || !strings.Contains(err.Error(), "want") {
			t.Errorf("%q: err %v", bad, err)
		}
	}
}

// TestStartupCosts: by default a JMH fork costs DefaultJMHForkStartup
// and its command's host JVM DefaultJMHHostStartup at the trial level of
// the benchmark's own time model; a go test command's run costs
// DefaultGoTestStartup plus the binary's start-up from -json timestamps
// (Env startup_ns), once per run of the group's command, and nothing per
// fork; --overhead replaces each.
func TestStartupCosts(t *testing.T) {
	o := DefaultOptions
	levels, cmd := o.startupCosts("jmh", nil)
	if levels[table.LevelFork] != float64(DefaultJMHForkStartup) || levels[table.LevelTrial] != float64(DefaultJMHHostStartup) || levels[table.LevelInstance] != 0 || cmd != 0 {
		t.Errorf("jmh: %v, %d", levels, cmd)
	}
	setup := &table.Setup{Tool: "go", Env: map[string]string{table.EnvStartupNs: "2457970"}}
	levels, cmd = o.startupCosts("go", setup)
	if levels != [table.NumLevels]float64{} || cmd != int64(DefaultGoTestStartup)+2457970 {
		t.Errorf("go: %v, %d", levels, cmd)
	}
	if _, cmd = o.startupCosts("go", nil); cmd != int64(DefaultGoTestStartup) {
		t.Errorf("go without a file's start-up: %d", cmd)
	}
	o.Overhead[table.LevelFork], o.CommandOverhead = 0, time.Second
	levels, cmd = o.startupCosts("go", setup)
	if levels != [table.NumLevels]float64{} || cmd != 1e9 {
		t.Errorf("go, --overhead command=1s: %v, %d", levels, cmd)
	}
	if levels, cmd = o.startupCosts("jmh", nil); levels[table.LevelFork] != 0 || levels[table.LevelTrial] != 1e9 || cmd != 0 {
		t.Errorf("jmh, --overhead fork=0,command=1s: %v, %d", levels, cmd)
	}
	if o.Overhead[table.LevelTrial] = -2; o.Validate() == nil {
		t.Error("a negative trial overhead validates")
	}
}
