package synth

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// Request is what `benchtrim generate` asks for: a preset ("default",
// "uoptime", "sample" or "duet"), the file format (one of the Format
// constants, or "" to choose by the output's extension) and overrides of
// the preset's sizes and labels (0 or "" keeps the preset's).
type Request struct {
	Format, Preset, Output        string
	Seed                          uint64
	Benchmarks, Forks, Iterations int
	Mode, Unit, Version           string
}

// ErrRequest marks a request that cannot be generated as asked (a wrong
// extension, format or flag for the preset): a usage mistake.
var ErrRequest = errors.New("synth: bad request")

// extensions are the file extensions of each generated format.
var extensions = map[string]string{
	FormatJMH: ".json", formatTruth: ".json", FormatUOpTime: ".csv",
	formatPA: ".csv", FormatGoBench: ".txt", formatDuet: ".csv",
}

func badRequest(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrRequest}, a...)...)
}

// ResolveFormat is the format r generates: r.Format when given (its
// extension must match the output's), else by the output's extension
// (.json JMH, .txt go test -bench, .csv µOpTime for the uoptime preset and
// duetprocess CSV for the duet preset; pa CSV needs Format pa).
func (r *Request) ResolveFormat() (string, error) {
	ext := strings.ToLower(filepath.Ext(r.Output))
	if r.Format != "" {
		want, ok := extensions[r.Format]
		if !ok {
			return "", badRequest("--format %q: want jmh, uoptime, gobench, pa, duet or truth", r.Format)
		}
		if ext != want {
			return "", badRequest("-o %s: a %s file ends in %s", r.Output, r.Format, want)
		}
		return r.Format, nil
	}
	switch {
	case ext == ".json":
		return FormatJMH, nil
	case ext == ".txt":
		return FormatGoBench, nil
	case ext == ".csv" && r.Preset == "uoptime":
		return FormatUOpTime, nil
	case ext == ".csv" && r.Preset == "duet":
		return formatDuet, nil
	case ext == ".csv":
		return "", badRequest("-o %s: a .csv can be uoptime or pa; give --format (or --preset uoptime)", r.Output)
	}
	return "", badRequest("-o %s: unknown extension %q (want .json, .csv or .txt, or give --format)", r.Output, ext)
}

// Write generates the request in format (see ResolveFormat) to w.
func (r *Request) Write(w io.Writer, format string) error {
	if r.Preset == "duet" {
		cfg, err := r.duetConfig(format)
		if err != nil {
			return err
		}
		return generateDuetTo(format, w, cfg)
	}
	cfg, err := r.suiteConfig()
	if err != nil {
		return err
	}
	return generate(format, w, cfg)
}

// suiteConfig is the preset's suite with the request's overrides.
func (r *Request) suiteConfig() (SuiteConfig, error) {
	var cfg SuiteConfig
	switch r.Preset {
	case "default":
		cfg = DefaultSuiteConfig()
	case "uoptime":
		cfg = UOpTimeSuiteConfig()
	case "sample":
		cfg = sampleSuiteConfig(10)
	default:
		return cfg, fmt.Errorf("unknown preset %q (want default, uoptime, sample or duet)", r.Preset)
	}
	cfg.Seed = r.Seed
	if r.Benchmarks > 0 {
		cfg.Benchmarks = r.Benchmarks
	}
	if r.Forks > 0 {
		cfg.Forks = r.Forks
	}
	if r.Iterations > 0 {
		cfg.Iterations = r.Iterations
	}
	if r.Mode != "" {
		cfg.Mode = r.Mode
	}
	if r.Unit != "" {
		cfg.Unit = r.Unit
	}
	if r.Version != "" {
		cfg.Version = r.Version
	}
	return cfg, nil
}

// duetConfig is the duet preset with the request's overrides: Benchmarks
// cycles through the preset's benchmarks (numbering repeats), Forks is the
// number of runs.
func (r *Request) duetConfig(format string) (DuetConfig, error) {
	cfg := DefaultDuetConfig()
	if format != formatDuet && format != formatTruth {
		return cfg, badRequest("--preset duet writes a duetprocess CSV (--format duet, .csv) or its truth (--format truth, .json), not %s", format)
	}
	for flag, v := range map[string]string{"mode": r.Mode, "unit": r.Unit, "version": r.Version} {
		if v != "" {
			return cfg, badRequest("--%s does not apply to --preset duet", flag)
		}
	}
	cfg.Seed = r.Seed
	if n := r.Benchmarks; n > 0 {
		base := cfg.Benchmarks
		cfg.Benchmarks = nil
		for i := 0; i < n; i++ {
			b := base[i%len(base)]
			if i >= len(base) {
				b.Name = fmt.Sprintf("%s-%d", b.Name, i/len(base)+1)
			}
			cfg.Benchmarks = append(cfg.Benchmarks, b)
		}
	}
	if r.Forks > 0 {
		cfg.Runs = r.Forks
	}
	if r.Iterations > 0 {
		cfg.Iterations = r.Iterations
	}
	return cfg, nil
}
