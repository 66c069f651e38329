package layers

import (
	"encoding/json"
	"os/exec"
	"slices"
	"sort"
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
	{"reports/page", 6},
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
	pkgs := modulePackages(t)
	for _, p := range pkgs {
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
}

// listedPackage is a package of the module as go list gives it: its
// import path and its imports (not its tests').
type listedPackage struct {
	ImportPath string
	Imports    []string
}

// modulePackages lists the module's packages with go list, failing the
// test when that gives fewer than 20.
func modulePackages(t *testing.T) []listedPackage {
	t.Helper()
	out, err := exec.Command("go", "list", "-json", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	var pkgs []listedPackage
	for dec.More() {
		var p listedPackage
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list gave %d packages", len(pkgs))
	}
	return pkgs
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

// Arrow's packages for files: the IPC format and Parquet.
const (
	arrowIPC = "github.com/apache/arrow/go/v15/arrow/ipc"
	parquet  = "github.com/apache/arrow/go/v15/parquet"
)

// fileImports returns, for each package of pkgs (import path and
// imports) other than table and the storage package tablefile with its
// subpackages, its imports of Arrow's ipc or parquet packages, as
// "PKG imports IMP". Table and frame files are tablefile's: the rest of
// the module hands it records, whatever the format on disk.
func fileImports(pkgs map[string][]string) []string {
	var bad []string
	for p, imps := range pkgs {
		rel := strings.TrimPrefix(p, module+"/")
		if rel == "table" || rel == "tablefile" || strings.HasPrefix(rel, "tablefile/") {
			continue
		}
		for _, imp := range imps {
			for _, f := range []string{arrowIPC, parquet} {
				if imp == f || strings.HasPrefix(imp, f+"/") {
					bad = append(bad, p+" imports "+imp)
				}
			}
		}
	}
	sort.Strings(bad)
	return bad
}

// TestFileImportsOnlyInStorage fails when a package other than table and
// tablefile/... imports Arrow's ipc or parquet packages (its tests may:
// pqarrow is the reference reader), and checks fileImports on a made-up
// list first.
func TestFileImportsOnlyInStorage(t *testing.T) {
	fake := map[string][]string{
		module + "/table":                    {arrowIPC},
		module + "/tablefile":                {arrowIPC, parquet + "/file"},
		module + "/tablefile/internal/pq":    {parquet},
		module + "/reports":                  {arrowIPC, "github.com/apache/arrow/go/v15/arrow"},
		module + "/tablefilex":               {parquet + "/pqarrow"},
		module + "/table/x":                  {parquet},
		module + "/ingest":                   {"github.com/apache/arrow/go/v15/arrow/array", "github.com/apache/arrow/go/v15/parquetx"},
		module + "/cmd/benchtrim/internal/x": {"fmt"},
	}
	want := []string{
		module + "/reports imports " + arrowIPC,
		module + "/table/x imports " + parquet,
		module + "/tablefilex imports " + parquet + "/pqarrow",
	}
	if got := fileImports(fake); !slices.Equal(got, want) {
		t.Fatalf("fileImports of the made-up list:\n got %q\nwant %q", got, want)
	}

	pkgs := map[string][]string{}
	for _, p := range modulePackages(t) {
		pkgs[p.ImportPath] = p.Imports
	}
	// The check sees the storage package's own imports of the formats.
	if n := len(fileImports(map[string][]string{module + "/reports": pkgs[module+"/tablefile"]})); n == 0 {
		t.Errorf("tablefile imports neither %s nor %s: the check would pass whatever the imports", arrowIPC, parquet)
	}
	for _, b := range fileImports(pkgs) {
		t.Errorf("%s: table and frame files are tablefile's (its package or those under it)", b)
	}
}
