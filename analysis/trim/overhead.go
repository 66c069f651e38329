package trim

import (
	"fmt"
	"strings"
	"time"

	"github.com/benchtrim/benchtrim/table"
)

// ParseOverhead reads Options.Overhead from its text form (benchtrim
// trim's --overhead): comma-separated LEVEL=DURATION pairs for the levels
// instance, trial and fork; "" is no overhead.
func ParseOverhead(s string) ([table.NumLevels]time.Duration, error) {
	var o [table.NumLevels]time.Duration
	if s == "" {
		return o, nil
	}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		l, known := table.ParseLevel(strings.TrimSpace(k))
		if !ok || !known || l > table.LevelFork {
			return o, fmt.Errorf("want LEVEL=DURATION with LEVEL instance, trial or fork, got %q", kv)
		}
		d, err := time.ParseDuration(strings.TrimSpace(v))
		if err != nil || d < 0 {
			return o, fmt.Errorf("%s: want a duration such as 1s or 2m, got %q", k, v)
		}
		o[l] = d
	}
	return o, nil
}
