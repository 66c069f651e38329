package layers

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/benchtrim/benchtrim"

// layerOf is the layer of a package of the module, by path (longest prefix
// first, whole path segments: table/tabletest is in table's layer, tablefile
// is not), from the ground up. A package may import packages of its own
// layer or below, never above (tests may import anything). internal/ is
// the ground floor: what every layer may use, importing nothing of the
// module but other ground-floor packages.
var layers = []struct {
	prefix string
	layer  int
}{
	{"internal/", 0},
	{"estimate", 0},
	{"changepoint", 0},
	{"table", 1},
	{"tablefile", 2},
	{"reports/report", 6},
	{"reports", 3},
	{"ingest", 4},
	{"format", 5},
	{"synth", 5},
	{"analysis", 6},
	{"cmd/", 7},
	{"deploy", 7},
}

func layerOf(path string) (int, bool) {
	rel := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
	for _, l := range layers {
		p := strings.TrimSuffix(l.prefix, "/")
		if rel == p || strings.HasPrefix(rel, p+"/") {
			return l.layer, true
		}
	}
	return 0, false
}

// TestImportsGoDown lists the module's packages with go list and fails on
// every import of a package from a higher layer, and on packages no layer
// names.
func TestImportsGoDown(t *testing.T) {
	out, err := exec.Command("go", "list", "-json", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	n := 0
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		n++
		lp, ok := layerOf(p.ImportPath)
		if !ok {
			t.Errorf("%s: in no layer (add it to layers)", p.ImportPath)
			continue
		}
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			if li, _ := layerOf(imp); li > lp {
				t.Errorf("%s (layer %d) imports %s (layer %d): imports only go down", p.ImportPath, lp, imp, li)
			}
		}
	}
	if n < 20 {
		t.Fatalf("go list gave %d packages", n)
	}
}

// TestCLIWithoutArrow fails when a package under cmd/, its tests
// included, imports Apache Arrow: the CLI hands records from ingest to
// table and ingest/chunk, which own their lifetimes and files.
func TestCLIWithoutArrow(t *testing.T) {
	out, err := exec.Command("go", "list", "-json", module+"/cmd/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	n := 0
	for dec.More() {
		var p struct {
			ImportPath                         string
			Imports, TestImports, XTestImports []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		n++
		for _, imp := range append(append(p.Imports, p.TestImports...), p.XTestImports...) {
			if strings.HasPrefix(imp, "github.com/apache/arrow/") {
				t.Errorf("%s imports %s: the CLI goes through table, ingest and ingest/chunk", p.ImportPath, imp)
			}
		}
	}
	if n < 3 {
		t.Fatalf("go list gave %d packages under cmd/", n)
	}
}
