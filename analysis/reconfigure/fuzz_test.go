package reconfigure

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/ingest"
)

// FuzzReadConfigs feeds readConfigs damaged dynamic configurations files
// (seeded with a written one): it must return configurations that keep the
// file's rules (1-based ids, counts ≥ 0, at least one fork and measurement
// iteration) or a ParseError naming the file, never panic.
func FuzzReadConfigs(f *testing.F) {
	var b bytes.Buffer
	if err := writeConfigs(&b, configs(handResults())); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	f.Add([]byte(strings.Join(ConfigColumns, ",") + "\np,v,b,,avgt,cv,1,1,1,5,10,2,true,true\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfgs, err := readConfigs(bytes.NewReader(data), "dyn.csv")
		if err != nil {
			var pe *ingest.ParseError
			if !errors.As(err, &pe) && !strings.HasPrefix(err.Error(), "dyn.csv") {
				t.Fatalf("error %q is neither a ParseError nor names the file", err)
			}
			return
		}
		for _, c := range cfgs {
			if c.Instance < 1 || c.Trial < 1 || c.Fork < 1 || c.WarmupIterations < 0 || c.MeasurementIterations < 1 || c.ForksUsed < 1 {
				t.Fatalf("configuration breaks the file's rules: %+v", c)
			}
		}
	})
}
