package layers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// maxExportedPerKLOC is the ceiling of exported names per 1,000 lines of
// code (a ratchet: lower it as names are unexported; issue 25's target is
// 36, golang.org/x/perf's 36).
const maxExportedPerKLOC = 41.0

// surface counts, over the module's non-test Go files (testdata and
// package main left out), the exported names: functions, methods of
// exported types, types, struct fields and interface methods of exported
// types, variables and constants; and the lines of code (not blank, not
// only a comment). It also lists the exported names without a doc comment
// (functions, methods and types).
func surface(t *testing.T) (names, lines int, undocumented []string) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	root := strings.TrimSpace(string(out))
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
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
		lines += codeLines(string(src))
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
				names++
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
						names++
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
										names++
									}
								}
							}
						}
					case *ast.ValueSpec:
						for _, nm := range s.Names {
							if nm.IsExported() {
								names++
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
	return names, lines, undocumented
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

// TestSurface fails when the exported names per 1,000 lines of code rise
// above maxExportedPerKLOC, or when an exported function, method or type
// has no doc comment.
func TestSurface(t *testing.T) {
	names, lines, undoc := surface(t)
	if lines < 10000 {
		t.Fatalf("counted %d lines of code: the walk missed the module", lines)
	}
	per := 1000 * float64(names) / float64(lines)
	t.Logf("%d exported names in %d lines of code: %.1f per 1,000 lines (ceiling %.1f; issue 25's target 36)", names, lines, per, maxExportedPerKLOC)
	if per > maxExportedPerKLOC {
		t.Errorf("%.1f exported names per 1,000 lines of code, above the ceiling %.1f: unexport what only the package uses", per, maxExportedPerKLOC)
	}
	for _, u := range undoc {
		t.Errorf("%s: exported without a doc comment", u)
	}
}

func TestCodeLines(t *testing.T) {
	src := "package x\n\n// c\n/* a\nb */\nfunc f() {} // x\n/* one */\n\tx := 1\n"
	if n := codeLines(src); n != 3 {
		t.Errorf("codeLines = %d, want 3 (package, func, x := 1)", n)
	}
}
