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

// moduleRoot is the directory of the module under test.
func moduleRoot(t *testing.T) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// undocumented lists, over the non-test Go files under root (testdata and
// directories starting with a dot left out) in every package but main,
// the exported functions, methods of exported types and types without a
// doc comment, as "file: Name".
func undocumented(t *testing.T, root string) (list []string) {
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
				if d.Doc == nil && !interfaceMethods[d.Name.Name] {
					list = append(list, rel+": "+d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						if d.Doc == nil && s.Doc == nil {
							list = append(list, rel+": "+s.Name.Name)
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
	return list
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

// TestExportedDocumented fails when an exported function, method or type
// has no doc comment.
func TestExportedDocumented(t *testing.T) {
	for _, u := range undocumented(t, moduleRoot(t)) {
		t.Errorf("%s: exported without a doc comment", u)
	}
}

func TestCodeLines(t *testing.T) {
	src := "package x\n\n// c\n/* a\nb */\nfunc f() {} // x\n/* one */\n\tx := 1\n"
	if n := codeLines(src); n != 3 {
		t.Errorf("codeLines = %d, want 3 (package, func, x := 1)", n)
	}
}
