package duet

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from what the analysis prints")

// TestGolden compares the text summary and the frames of Run on both
// fixtures (all default options, seed 1) with testdata/<fixture>.golden;
// -update rewrites them, and a difference leaves a .got file.
func TestGolden(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx, func(t *testing.T) {
			res, err := Run(loadFixture(t, filepath.Join("testdata", "fixtures", fx+".csv")), DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			got := outputs(t, res)
			path := filepath.Join("testdata", fx+".golden")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				os.WriteFile(path+".got", got, 0o644)
				t.Errorf("output differs from %s (see %s.got; -update rewrites it)", path, path)
			}
		})
	}
}
