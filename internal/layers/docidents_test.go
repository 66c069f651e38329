package layers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// docIdentAllow are backticked tokens of README.md and docs/ that look like
// Go identifiers of the module and are not, each with the reason.
var docIdentAllow = map[string]string{
	// Benchmarks of the data sets in ../shared/data, as the docs' examples print them.
	"JsonCopyAscii":                          "a benchmark of ../shared/data's go suites",
	"BenchmarkJsonCopyAscii":                 "a benchmark of ../shared/data's go suites",
	"ParserValidateInts":                     "a benchmark of ../shared/data's go suites",
	"JsonLookupNested":                       "a benchmark of ../shared/data's go suites",
	"ParserEncodeStrings":                    "a benchmark of ../shared/data's go suites",
	"BenchmarkParserEncodeStrings":           "a benchmark of ../shared/data's go suites",
	"ParserHashUtf8":                         "a benchmark of ../shared/data's go suites",
	"Benchmark01CallOverhead":                "a benchmark name go test prints (docs/formats/gobench.md's example)",
	"StubInvocationBenchmark.baseline":       "a JMH benchmark of byte-buddy (../shared/data/jmh-versions)",
	"StubInvocationBenchmark.benchmarkCglib": "a JMH benchmark of byte-buddy (../shared/data/jmh-versions)",
	// Other programs' identifiers.
	"Utils.splitQuotedEscape": "JMH's Java method that splits -jvmArgs",
	"MannWhitneyUTest":        "go-moremath's function, which benchstat calls",
	"QuantileCI":              "go-moremath's function, which benchstat calls",
	"ReportMetric":            "testing.B's method",
	"Dockerfile":              "a file of deploy/k8s",
}

// goTree is what the module's Go files declare, for resolving the
// identifiers the docs name.
type goTree struct {
	root string
	// pkgs maps a package's name (its folder's name, its folder relative
	// to the root, and its package clause) to the top-level names its
	// files declare.
	pkgs map[string]map[string]bool
	// types maps a type name to its methods and fields, over every
	// package (a doc names Spool.Read without its package).
	types map[string]map[string]bool
	// names are every name declared anywhere: top level, methods,
	// fields, and functions and variables inside functions.
	names map[string]bool
	// imported are the last elements of every import path a file uses
	// (std and other modules included): a qualifier among them that is
	// no package of the module names another module's identifier.
	imported map[string]bool
	// words are the identifier-like words of the string literals.
	words map[string]bool
}

// loadTree parses every Go file under root (skipping testdata and hidden
// folders), tests included.
func loadTree(t *testing.T, root string) *goTree {
	g := &goTree{root: root, pkgs: map[string]map[string]bool{}, types: map[string]map[string]bool{},
		names: map[string]bool{}, imported: map[string]bool{}, words: map[string]bool{}}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		g.add(f, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func (g *goTree) pkg(name string) map[string]bool {
	if g.pkgs[name] == nil {
		g.pkgs[name] = map[string]bool{}
	}
	return g.pkgs[name]
}

func (g *goTree) member(typ, name string) {
	if g.types[typ] == nil {
		g.types[typ] = map[string]bool{}
	}
	g.types[typ][name] = true
	g.names[name] = true
}

func (g *goTree) add(f *ast.File, dir string) {
	pkgName := strings.TrimSuffix(f.Name.Name, "_test")
	top := []map[string]bool{g.pkg(pkgName), g.pkg(filepath.Base(dir)), g.pkg(dir)}
	declare := func(name string) {
		for _, m := range top {
			m[name] = true
		}
		g.names[name] = true
	}
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		g.imported[path[strings.LastIndex(path, "/")+1:]] = true
		if im.Name != nil {
			g.imported[im.Name.Name] = true
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) == 1 {
				g.member(recvType(d.Recv.List[0].Type), d.Name.Name)
			} else {
				declare(d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					declare(s.Name.Name)
					g.typeMembers(s.Name.Name, s.Type)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						declare(n.Name)
					}
				}
			}
		}
	}
	// Names inside functions (closures, local types and variables), the
	// fields of anonymous structs, and the words of string literals (the
	// names of JMH's fields and modes, of generated benchmarks).
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			if n.Kind == token.STRING {
				for _, w := range wordRe.FindAllString(n.Value, -1) {
					g.words[w] = true
				}
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						g.names[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				g.names[id.Name] = true
			}
		case *ast.TypeSpec:
			g.names[n.Name.Name] = true
			g.typeMembers(n.Name.Name, n.Type)
		case *ast.Field:
			for _, id := range n.Names {
				g.names[id.Name] = true
			}
		}
		return true
	})
}

// typeMembers records the fields of a struct type and the methods of an
// interface type named name.
func (g *goTree) typeMembers(name string, t ast.Expr) {
	var fields *ast.FieldList
	switch t := t.(type) {
	case *ast.StructType:
		fields = t.Fields
	case *ast.InterfaceType:
		fields = t.Methods
	default:
		return
	}
	for _, f := range fields.List {
		for _, n := range f.Names {
			g.member(name, n.Name)
		}
		if len(f.Names) == 0 { // embedded
			g.member(name, recvType(f.Type))
		}
	}
}

// recvType is the type name of a receiver or embedded field (*T, T[P],
// pkg.T).
func recvType(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvType(e.X)
	case *ast.IndexExpr:
		return recvType(e.X)
	case *ast.IndexListExpr:
		return recvType(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.Ident:
		return e.Name
	}
	return ""
}

var (
	backticked = regexp.MustCompile("`([^`\n]+)`")
	identRe    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	wordRe     = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
)

// resolve says why tok, a backticked token of a doc, names nothing of the
// module ("" when it resolves or is not taken for a Go identifier or a
// path of the module).
func (g *goTree) resolve(tok string) string {
	tok = strings.TrimSpace(tok)
	if strings.ContainsAny(tok, " =<>$\"'{}#|,:") || strings.HasPrefix(tok, "-") || strings.HasPrefix(tok, ".") {
		return "" // a command, a flag, a value, a placeholder
	}
	if i := strings.Index(tok, "("); i >= 0 {
		tok = tok[:i] // a call: Run(t, opt), defaultX()
	}
	tok = strings.TrimLeft(tok, "*&[]")
	if tok == "" {
		return ""
	}
	if i := strings.LastIndex(tok, "/"); i >= 0 {
		dir, name, ok := strings.Cut(tok[i+1:], ".")
		if _, err := os.Stat(filepath.Join(g.root, filepath.FromSlash(tok))); err == nil || !ok || fileExt[name] {
			return g.resolvePath(tok)
		}
		// A package path and a name: internal/stats.Bootstrap.
		if why := g.resolvePath(tok[:i+1] + dir); why != "" {
			return why
		}
		tok = tok[:i+1] + dir + "." + name
		if m, ok := g.pkgs[tok[:i+1]+dir]; ok && !m[strings.Split(name, ".")[0]] {
			return "package " + tok[:i+1] + dir + " declares no " + name
		}
		return ""
	}
	parts := strings.Split(tok, ".")
	if fileExt[parts[len(parts)-1]] || parts[0] == "benchtrim" {
		return "" // a file name (plan.csv, run.sh), a metadata key (benchtrim.setups)
	}
	for _, p := range parts {
		if !identRe.MatchString(p) {
			return "" // a file name (plan.csv), a version (1.2.3)
		}
	}
	switch len(parts) {
	case 1:
		// A bare name: only mixedCase or CamelCase ones are taken for Go
		// (column names are snake_case, commands and values lower case,
		// environment variables upper case).
		n := parts[0]
		if !goLooking(n) || g.names[n] || g.words[n] {
			return ""
		}
		return "no such name in the module"
	case 2, 3:
		x, y := parts[0], parts[1]
		if m, ok := g.pkgs[x]; ok {
			if !m[y] && g.types[y] == nil {
				return "package " + x + " declares no " + y
			}
			if len(parts) == 3 && !g.types[y][parts[2]] {
				return "type " + x + "." + y + " has no field or method " + parts[2]
			}
			return ""
		}
		if members, ok := g.types[x]; ok {
			if !members[y] {
				return "type " + x + " has no field or method " + y
			}
			return ""
		}
		if g.imported[x] || !goLooking(x) && !g.names[x] || g.words[x] && g.words[y] {
			return "" // another module's (compute.UniqueArray), not Go, or a generated benchmark's name
		}
		if !g.names[x] {
			return "no package, type or name " + x + " in the module"
		}
	}
	return ""
}

// fileExt are the extensions of file names docs name (the last part of
// a token that is a file, not a Go name).
var fileExt = map[string]bool{"csv": true, "html": true, "go": true, "sh": true, "yaml": true, "yml": true, "sbatch": true,
	"py": true, "txt": true, "arrow": true, "parquet": true, "json": true, "md": true, "R": true, "mjs": true, "sha256": true,
	"partial": true, "svg": true, "png": true, "java": true, "jsonl": true, "gz": true, "prof": true, "test": true, "pq": true, "ipc": true}

// topDirs are the module's top-level folders a doc's path may start with.
var topDirs = []string{"analysis", "changepoint", "cmd", "deploy", "docs", "estimate", "format", "ingest", "internal", "reports", "synth", "table", "testdata"}

// resolvePath checks a path of the module (analysis/trim,
// reports/page/page.go, table/schema.go's folder) exists.
func (g *goTree) resolvePath(tok string) string {
	tok = strings.TrimSuffix(strings.TrimSuffix(tok, "/..."), "/")
	first, _, _ := strings.Cut(tok, "/")
	known := false
	for _, d := range topDirs {
		known = known || first == d
	}
	if !known || strings.ContainsAny(tok, "*?[") {
		return ""
	}
	if _, err := os.Stat(filepath.Join(g.root, filepath.FromSlash(tok))); err != nil {
		return "no such file or folder in the module"
	}
	return ""
}

// goLooking reports whether a bare name looks like a Go identifier of the
// module rather than a word: mixedCase or CamelCase with a lower-case
// letter (CI, JSON and BENCHTRIM_SHARED are not), without underscores.
func goLooking(n string) bool {
	if strings.Contains(n, "_") {
		return false
	}
	upper, lower := false, false
	for i, r := range n {
		switch {
		case r >= 'A' && r <= 'Z':
			if i > 0 || len(n) > 1 {
				upper = true
			}
		case r >= 'a' && r <= 'z':
			lower = true
		}
	}
	return upper && lower
}

// maxDevGuideLines bounds docs/development.md (issue 48: a reference of
// at most 500 lines).
const maxDevGuideLines = 500

// TestDocIdentifiers resolves every backticked token of README.md and
// docs/ that looks like a Go identifier (pkg.Name, Type.Method, a
// mixedCase name) or a path of the module (analysis/trim,
// table/schema.go) against the module's Go files, and fails on one that
// names nothing, as TestDocExamples fails on a command whose output
// changed: a doc keeps no name that no longer exists. It also keeps
// docs/development.md within maxDevGuideLines.
func TestDocIdentifiers(t *testing.T) {
	root := repoRoot(t)
	g := loadTree(t, root)
	docs := []string{filepath.Join(root, "README.md")}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			docs = append(docs, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	checked, stale := 0, map[string]bool{}
	for _, p := range docs {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inFence := false
		for n, line := range strings.Split(string(src), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				inFence = !inFence
				continue
			}
			if inFence {
				continue
			}
			for _, m := range backticked.FindAllStringSubmatch(line, -1) {
				checked++
				why := g.resolve(m[1])
				if why == "" {
					continue
				}
				if _, ok := docIdentAllow[m[1]]; ok {
					continue
				}
				rel, _ := filepath.Rel(root, p)
				t.Errorf("%s:%d: `%s`: %s", filepath.ToSlash(rel), n+1, m[1], why)
				stale[m[1]] = true
			}
		}
	}
	if dev, err := os.ReadFile(filepath.Join(root, "docs", "development.md")); err != nil {
		t.Fatal(err)
	} else if n := strings.Count(string(dev), "\n"); n > maxDevGuideLines {
		t.Errorf("docs/development.md has %d lines, over %d: it is a reference, history goes in commit messages", n, maxDevGuideLines)
	}
	if checked < 1000 {
		t.Fatalf("checked %d backticked tokens in %d docs: the walk missed the docs", checked, len(docs))
	}
	names := make([]string, 0, len(stale))
	for s := range stale {
		names = append(names, s)
	}
	sort.Strings(names)
	t.Logf("%d docs, %d backticked tokens; %d stale: %v", len(docs), checked, len(stale), names)
}

// repoRoot is the folder holding go.mod.
func repoRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = parent
	}
}
