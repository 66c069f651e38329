package synth

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// Change is a known performance change: from version index Version (0-based
// into VersionsConfig.Labels, ≥ 1) on, the true mean of series Benchmark is
// multiplied by Factor (> 1 a slowdown, < 1 a speedup). Changes persist into
// later versions and compound.
type Change struct {
	Benchmark int     `json:"benchmark"`
	Version   int     `json:"version"`
	Factor    float64 `json:"factor"`
}

// VersionsConfig describes a sequence of versions of one suite.
type VersionsConfig struct {
	// Labels of the versions, oldest first (at least 2, unique).
	Labels []string
	// Changes are explicit changes.
	Changes []Change
	// randomChanges further changes are drawn at distinct (series, version)
	// pairs not in Changes, with relative size uniform in
	// [MinSize, MaxSize]: factor 1+size for a slowdown, 1−size for a
	// speedup; a fraction SpeedupFraction of them are speedups.
	randomChanges    int
	minSize, maxSize float64
	speedupFraction  float64
}

// defaultVersionsConfig returns three versions v1, v2, v3 with two random
// changes of 10–30 %, half of them speedups.
func defaultVersionsConfig() VersionsConfig {
	return VersionsConfig{Labels: []string{"v1", "v2", "v3"}, randomChanges: 2, minSize: 0.1, maxSize: 0.3, speedupFraction: 0.5}
}

// VersionPairTruth says whether series Benchmark changed between the
// consecutive versions From and To: Ratio is the true mean of To over the
// true mean of From (1 when unchanged).
type VersionPairTruth struct {
	Benchmark int     `json:"benchmark"`
	JMHName   string  `json:"jmh_name"`
	GoName    string  `json:"go_name"`
	ParamsKey string  `json:"params_key"`
	From      string  `json:"from"`
	To        string  `json:"to"`
	Ratio     float64 `json:"ratio"`
	Changed   bool    `json:"changed"`
}

// VersionSet is the same suite generated for several versions: identical
// names, kinds and curves, independent measurement noise per version, and
// known changes of the true means (for change-detection tests such as
// µOpTime's RQ4).
type VersionSet struct {
	labels  []string
	suites  []*Suite
	changes []Change
}

// NewVersions builds one Suite per label from cfg (its Version replaced by
// the label) with the changes of vc applied.
func NewVersions(cfg SuiteConfig, vc VersionsConfig) (*VersionSet, error) {
	if len(vc.Labels) < 2 {
		return nil, fmt.Errorf("synth: VersionsConfig.Labels: need at least 2 versions, got %d", len(vc.Labels))
	}
	seen := map[string]bool{}
	for _, l := range vc.Labels {
		if seen[l] {
			return nil, fmt.Errorf("synth: VersionsConfig.Labels: %q appears twice", l)
		}
		seen[l] = true
	}
	cfg.Version = vc.Labels[0]
	base, err := NewSuite(cfg)
	if err != nil {
		return nil, err
	}
	n := base.Len()
	changes := slices.Clone(vc.Changes)
	taken := map[[2]int]bool{}
	for _, ch := range changes {
		if ch.Benchmark < 0 || ch.Benchmark >= n || ch.Version < 1 || ch.Version >= len(vc.Labels) ||
			!(ch.Factor > 0) || ch.Factor == 1 || math.IsInf(ch.Factor, 0) {
			return nil, fmt.Errorf("synth: VersionsConfig.Changes: %+v out of range (%d series, %d versions, factor > 0 and ≠ 1)", ch, n, len(vc.Labels))
		}
		if taken[[2]int{ch.Benchmark, ch.Version}] {
			return nil, fmt.Errorf("synth: VersionsConfig.Changes: two changes of series %d at version %d", ch.Benchmark, ch.Version)
		}
		taken[[2]int{ch.Benchmark, ch.Version}] = true
	}
	if vc.randomChanges > 0 {
		free := n*(len(vc.Labels)-1) - len(taken)
		if vc.randomChanges > free || !(vc.minSize > 0) || vc.maxSize < vc.minSize || vc.maxSize >= 1 ||
			vc.speedupFraction < 0 || vc.speedupFraction > 1 {
			return nil, fmt.Errorf("synth: VersionsConfig: %d random changes with sizes [%g, %g] (need ≤ %d changes, 0 < MinSize ≤ MaxSize < 1, SpeedupFraction in [0, 1])",
				vc.randomChanges, vc.minSize, vc.maxSize, free)
		}
		g := stream(cfg.Seed, streamKey{base: hashString(fnvOffset, "changes"), purpose: purposeChanges})
		speedups := int(math.Round(vc.speedupFraction * float64(vc.randomChanges)))
		for j := 0; j < vc.randomChanges; {
			b, v := g.r.IntN(n), 1+g.r.IntN(len(vc.Labels)-1)
			if taken[[2]int{b, v}] {
				continue
			}
			taken[[2]int{b, v}] = true
			size := g.uniform(vc.minSize, vc.maxSize)
			f := 1 + size
			if j < speedups {
				f = 1 - size
			}
			changes = append(changes, Change{Benchmark: b, Version: v, Factor: f})
			j++
		}
	}
	sort.Slice(changes, func(a, b int) bool {
		if changes[a].Version != changes[b].Version {
			return changes[a].Version < changes[b].Version
		}
		return changes[a].Benchmark < changes[b].Benchmark
	})
	vs := &VersionSet{labels: slices.Clone(vc.Labels), changes: changes}
	scale := make([]float64, n)
	for i := range scale {
		scale[i] = 1
	}
	for v, label := range vc.Labels {
		for _, ch := range changes {
			if ch.Version == v {
				scale[ch.Benchmark] *= ch.Factor
			}
		}
		c := cfg
		c.Version = label
		s, err := newSuite(c, scale)
		if err != nil {
			return nil, err
		}
		vs.suites = append(vs.suites, s)
	}
	return vs, nil
}

// Len returns the number of versions.
func (vs *VersionSet) Len() int { return len(vs.suites) }

// Labels returns the version labels, oldest first.
func (vs *VersionSet) Labels() []string { return slices.Clone(vs.labels) }

// Suite returns version v (0-based).
func (vs *VersionSet) Suite(v int) *Suite { return vs.suites[v] }

// changeList returns the known changes, ordered by version and series.
func (vs *VersionSet) changeList() []Change { return slices.Clone(vs.changes) }

// PairTruth returns, for every series and every pair of consecutive
// versions, whether its true mean changed and by what ratio; ordered by
// pair, then series.
func (vs *VersionSet) PairTruth() []VersionPairTruth {
	var out []VersionPairTruth
	for v := 1; v < len(vs.suites); v++ {
		cur := vs.suites[v].truth
		for i := range cur {
			p := VersionPairTruth{Benchmark: i, JMHName: cur[i].JMHName, GoName: cur[i].GoName, ParamsKey: cur[i].ParamsKey,
				From: vs.labels[v-1], To: vs.labels[v], Ratio: 1}
			for _, ch := range vs.changes {
				if ch.Version == v && ch.Benchmark == i {
					p.Ratio, p.Changed = ch.Factor, true
				}
			}
			out = append(out, p)
		}
	}
	return out
}
