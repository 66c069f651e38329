package testenv

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testingTypes are the parameter types whose Skip, Skipf and SkipNow
// methods skip a test.
var testingTypes = map[string]bool{"*testing.T": true, "*testing.B": true, "*testing.F": true, "testing.TB": true}

// invisibleSkips returns, per file of the Go source under root (testdata,
// hidden and vendor folders left out), the lines calling Skip, Skipf or
// SkipNow on a parameter of type *testing.T, *testing.B, *testing.F or
// testing.TB: skips that go test shows only with -v. Skip itself (this
// package's testenv.go) is the one allowed.
func invisibleSkips(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		if rel, _ := filepath.Rel(root, path); rel == filepath.Join("internal", "testenv", "testenv.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		// Per function (declared or literal), the names of its testing
		// parameters; a call X.Skip… on one of them is a plain skip.
		var visit func(n ast.Node, params map[string]bool)
		visit = func(n ast.Node, params map[string]bool) {
			ast.Inspect(n, func(m ast.Node) bool {
				var ft *ast.FuncType
				var body *ast.BlockStmt
				switch fn := m.(type) {
				case *ast.FuncDecl:
					ft, body = fn.Type, fn.Body
				case *ast.FuncLit:
					ft, body = fn.Type, fn.Body
				case *ast.CallExpr:
					sel, ok := fn.Fun.(*ast.SelectorExpr)
					if !ok || (sel.Sel.Name != "Skip" && sel.Sel.Name != "Skipf" && sel.Sel.Name != "SkipNow") {
						return true
					}
					if id, ok := sel.X.(*ast.Ident); ok && params[id.Name] {
						rel, _ := filepath.Rel(root, path)
						out = append(out, rel+":"+itoa(fset.Position(fn.Pos()).Line)+": "+id.Name+"."+sel.Sel.Name)
					}
					return true
				default:
					return true
				}
				if body == nil {
					return false
				}
				inner := map[string]bool{}
				for k, v := range params {
					inner[k] = v
				}
				for _, p := range ft.Params.List {
					typ := types(p.Type)
					for _, id := range p.Names {
						inner[id.Name] = testingTypes[typ]
					}
				}
				visit(body, inner)
				return false
			})
		}
		visit(f, map[string]bool{})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// types spells a parameter type as written: *testing.T, testing.TB, ….
func types(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return "*" + types(x.X)
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			return id.Name + "." + x.Sel.Name
		}
	case *ast.Ident:
		return x.Name
	}
	return ""
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// TestSkipsAreVisible: no Go file of the repository skips a test with
// t.Skip, t.Skipf or t.SkipNow (b. and f. alike), which go test shows only
// with -v; they call testenv.Skip, which also prints the skip without -v.
func TestSkipsAreVisible(t *testing.T) {
	r, err := root()
	if err != nil {
		t.Fatal(err)
	}
	if bad := invisibleSkips(t, r); len(bad) > 0 {
		t.Errorf("%d skips go test shows only with -v; call testenv.Skip(t, …) instead:\n%s", len(bad), strings.Join(bad, "\n"))
	}
}

// TestInvisibleSkipsFound: the scan finds plain skips on *testing.T,
// *testing.B and testing.TB parameters, in function literals too, and not
// calls of another type's Skip method or of testenv.Skip.
func TestInvisibleSkipsFound(t *testing.T) {
	dir := t.TempDir()
	src := `package x

import "testing"

type report struct{}

func (report) Skip(string, int) {}

func TestA(t *testing.T) {
	t.Skip("plain")
	t.Run("sub", func(st *testing.T) { st.Skipf("%d", 1) })
	var r report
	r.Skip("a rejected row", 1)
	testenv.Skip(t, "visible")
}

func BenchmarkB(b *testing.B) { b.SkipNow() }

func helper(tb testing.TB, t int) {
	tb.Skip()
	func(tb report) { tb.Skip("x", 1) }(report{})
}
`
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(invisibleSkips(t, dir), "\n")
	want := "x_test.go:10: t.Skip\nx_test.go:11: st.Skipf\nx_test.go:17: b.SkipNow\nx_test.go:20: tb.Skip"
	if got != want {
		t.Errorf("found\n%s\nwant\n%s", got, want)
	}
}
