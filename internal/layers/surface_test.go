package layers

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/internal/benchstattest"
)

// maxExportedPerKLOC is the ceiling of exported names per 1,000 lines of
// code, blank and comment-only lines left out (a ratchet: lower it as
// names are unexported). golang.org/x/perf's analysis packages count 55
// on this measure (TestSurfaceBesideXPerf).
const maxExportedPerKLOC = 38.0

// maxExportedPerKPhysical is issue 25's target: at most 36 exported names
// per 1,000 lines, lines counted as the issue counted x/perf's 7,347 (wc
// -l of the non-test Go files: comments and blank lines included).
const maxExportedPerKPhysical = 36.0

// surfaceCount is what surface counts.
type surfaceCount struct {
	names    int // exported names
	code     int // lines that are neither blank nor only comment
	physical int // all lines
}

func (c surfaceCount) perCode() float64     { return 1000 * float64(c.names) / float64(c.code) }
func (c surfaceCount) perPhysical() float64 { return 1000 * float64(c.names) / float64(c.physical) }

// moduleRoot is the directory of the module under test.
func moduleRoot(t *testing.T) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// surface counts, over the non-test Go files under root (testdata and
// directories starting with a dot left out), the exported names:
// functions, methods of exported types, types, struct fields and
// interface methods of exported types, variables and constants, in every
// package but main; and the lines of code of every file, main's included.
// It also lists the exported names without a doc comment (functions,
// methods and types).
func surface(t *testing.T, root string) (c surfaceCount, undocumented []string) {
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, src, parser.ParseComments)
		if err != nil {
			return err
		}
		c.code += codeLines(string(src))
		c.physical += bytes.Count(src, []byte("\n"))
		if f.Name.Name == "main" {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() || d.Recv != nil && !exportedRecv(d.Recv.List[0].Type) {
					continue
				}
				c.names++
				if d.Doc == nil && !interfaceMethods[d.Name.Name] {
					undocumented = append(undocumented, rel+": "+d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						c.names++
						if d.Doc == nil && s.Doc == nil {
							undocumented = append(undocumented, rel+": "+s.Name.Name)
						}
						var fields *ast.FieldList
						switch x := s.Type.(type) {
						case *ast.StructType:
							fields = x.Fields
						case *ast.InterfaceType:
							fields = x.Methods
						}
						if fields != nil {
							for _, fl := range fields.List {
								for _, nm := range fl.Names {
									if nm.IsExported() {
										c.names++
									}
								}
							}
						}
					case *ast.ValueSpec:
						for _, nm := range s.Names {
							if nm.IsExported() {
								c.names++
							}
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return c, undocumented
}

// interfaceMethods are methods whose meaning the standard interface they
// implement gives (error, fmt.Stringer, json and gob coding, sort).
var interfaceMethods = map[string]bool{"Error": true, "Unwrap": true, "String": true, "MarshalJSON": true, "UnmarshalJSON": true,
	"GobEncode": true, "GobDecode": true, "Len": true, "Less": true, "Swap": true}

func exportedRecv(e ast.Expr) bool {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	switch x := e.(type) {
	case *ast.IndexExpr:
		e = x.X
	case *ast.IndexListExpr:
		e = x.X
	}
	id, ok := e.(*ast.Ident)
	return ok && id.IsExported()
}

// codeLines counts the lines that are neither blank nor only comment.
func codeLines(src string) int {
	n, block := 0, false
	for _, l := range strings.Split(src, "\n") {
		s := strings.TrimSpace(l)
		switch {
		case block:
			block = !strings.Contains(s, "*/")
		case s == "" || strings.HasPrefix(s, "//"):
		case strings.HasPrefix(s, "/*"):
			block = !strings.Contains(s, "*/")
		default:
			n++
		}
	}
	return n
}

// TestSurface fails when the exported names per 1,000 lines rise above
// maxExportedPerKLOC (lines of code) or maxExportedPerKPhysical (all
// lines), or when an exported function, method or type has no doc
// comment.
func TestSurface(t *testing.T) {
	c, undoc := surface(t, moduleRoot(t))
	if c.code < 10000 {
		t.Fatalf("counted %d lines of code: the walk missed the module", c.code)
	}
	t.Logf("%d exported names in %d lines of code: %.1f per 1,000 (ceiling %.1f); in %d lines: %.1f per 1,000 (issue 25's target %.0f)",
		c.names, c.code, c.perCode(), maxExportedPerKLOC, c.physical, c.perPhysical(), maxExportedPerKPhysical)
	if c.perCode() > maxExportedPerKLOC {
		t.Errorf("%.1f exported names per 1,000 lines of code, above the ceiling %.1f: unexport what only the package uses", c.perCode(), maxExportedPerKLOC)
	}
	if c.perPhysical() > maxExportedPerKPhysical {
		t.Errorf("%.1f exported names per 1,000 lines, above issue 25's target %.0f", c.perPhysical(), maxExportedPerKPhysical)
	}
	for _, u := range undoc {
		t.Errorf("%s: exported without a doc comment", u)
	}
}

// xperfPackages are the golang.org/x/perf folders issue 25 compares with:
// 10 packages, 7,347 lines (benchfmt, benchmath, benchproc, benchunit and
// cmd/benchstat, with their internal and syntax packages).
var xperfPackages = []string{"benchfmt", "benchmath", "benchproc", "benchunit", filepath.Join("cmd", "benchstat")}

// TestSurfaceBesideXPerf counts golang.org/x/perf's analysis packages (the
// version benchstattest pins, from the Go module proxy) as surface counts
// this module, logs both side by side, and fails if this module exports
// more names per 1,000 lines than x/perf on either measure.
func TestSurfaceBesideXPerf(t *testing.T) {
	dir := benchstattest.Source(t)
	var x surfaceCount
	for _, p := range xperfPackages {
		c, _ := surface(t, filepath.Join(dir, p))
		x.names, x.code, x.physical = x.names+c.names, x.code+c.code, x.physical+c.physical
	}
	if x.code < 1000 {
		t.Fatalf("counted %d lines of code in %s: the walk missed x/perf", x.code, dir)
	}
	b, _ := surface(t, moduleRoot(t))
	t.Logf("exported names per 1,000 lines of code: benchtrim %.1f (%d in %d), x/perf %.1f (%d in %d)", b.perCode(), b.names, b.code, x.perCode(), x.names, x.code)
	t.Logf("exported names per 1,000 lines: benchtrim %.1f (%d in %d), x/perf %.1f (%d in %d)", b.perPhysical(), b.names, b.physical, x.perPhysical(), x.names, x.physical)
	if b.perCode() > x.perCode() || b.perPhysical() > x.perPhysical() {
		t.Errorf("benchtrim exports more names per 1,000 lines than x/perf")
	}
}

func TestCodeLines(t *testing.T) {
	src := "package x\n\n// c\n/* a\nb */\nfunc f() {} // x\n/* one */\n\tx := 1\n"
	if n := codeLines(src); n != 3 {
		t.Errorf("codeLines = %d, want 3 (package, func, x := 1)", n)
	}
}
