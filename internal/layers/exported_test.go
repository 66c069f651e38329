package layers

import (
	"fmt"
	"go/types"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// hiddenTypes lists, for every package of the module but main (test files
// left out), each exported name whose type mentions an unexported type:
// a function's or method's signature, a variable's or constant's type, an
// exported type's definition (its exported fields, the methods of its
// method set, its type parameters' constraints) or the target of an
// exported alias. Such a name cannot be shown whole by go doc, and an
// interface so typed cannot be implemented outside its package. Each
// finding reads "pkg.Name: mentions pkg.hidden".
func hiddenTypes(t *testing.T) []string {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo}
	pkgs, err := packages.Load(cfg, module+"/...")
	if err != nil {
		t.Fatalf("loading the module: %v", err)
	}
	if len(pkgs) < 20 {
		t.Fatalf("loaded %d packages", len(pkgs))
	}
	var found []string
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Errorf("%s: %v", p.PkgPath, e)
		}
		if p.Name == "main" || p.Types == nil {
			continue
		}
		found = append(found, hiddenInPackage(p.Types)...)
		found = append(found, halfEnums(p.Types)...)
	}
	sort.Strings(found)
	return found
}

// hiddenInPackage is hiddenTypes for one package.
func hiddenInPackage(pkg *types.Package) []string {
	var found []string
	report := func(where string, typ types.Type) {
		for _, h := range unexportedIn(typ) {
			found = append(found, pkg.Name()+"."+where+": mentions "+h)
		}
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.Func, *types.Var, *types.Const:
			report(name, obj.Type())
		case *types.TypeName:
			if a, ok := obj.Type().(*types.Alias); ok {
				report(name, a.Rhs())
				continue
			}
			n, ok := obj.Type().(*types.Named)
			if !ok {
				continue
			}
			if tp := n.TypeParams(); tp != nil {
				for i := 0; i < tp.Len(); i++ {
					report(name+"["+tp.At(i).Obj().Name()+"]", tp.At(i).Constraint())
				}
			}
			switch u := n.Underlying().(type) {
			case *types.Struct:
				for _, f := range exportedFields(u, nil) {
					report(name+"."+f.Name(), f.Type())
				}
			case *types.Interface:
				for i := 0; i < u.NumMethods(); i++ {
					if m := u.Method(i); m.Exported() {
						report(name+"."+m.Name(), m.Type())
					}
				}
			default:
				report(name, u)
			}
			if _, ok := n.Underlying().(*types.Interface); ok {
				continue
			}
			ms := types.NewMethodSet(types.NewPointer(n))
			for i := 0; i < ms.Len(); i++ {
				if m := ms.At(i).Obj(); m.Exported() {
					report(name+"."+m.Name(), m.Type())
				}
			}
		}
	}
	return found
}

// halfEnums lists the exported types of pkg whose constants (the values
// of an enum) are exported in part: a caller can hold a value go doc does
// not show and cannot name. Each finding reads "pkg.Type: 5 of 7 values
// exported (hidden: a, b)".
func halfEnums(pkg *types.Package) []string {
	shown, hidden := map[*types.TypeName]int{}, map[*types.TypeName][]string{}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		c, ok := scope.Lookup(name).(*types.Const)
		if !ok {
			continue
		}
		n, ok := c.Type().(*types.Named)
		if !ok || n.Obj().Pkg() != pkg || !n.Obj().Exported() {
			continue
		}
		if c.Exported() {
			shown[n.Obj()]++
		} else {
			hidden[n.Obj()] = append(hidden[n.Obj()], name)
		}
	}
	var found []string
	for tn, h := range hidden {
		if shown[tn] > 0 {
			found = append(found, fmt.Sprintf("%s.%s: %d of %d values exported (hidden: %s)", pkg.Name(), tn.Name(), shown[tn], shown[tn]+len(h), strings.Join(h, ", ")))
		}
	}
	return found
}

// exportedFields are the exported fields of s, those promoted from
// embedded structs included (an embedded field that is itself unexported
// still promotes its exported fields).
func exportedFields(s *types.Struct, seen map[*types.Struct]bool) []*types.Var {
	if seen == nil {
		seen = map[*types.Struct]bool{}
	}
	if seen[s] {
		return nil
	}
	seen[s] = true
	var out []*types.Var
	for i := 0; i < s.NumFields(); i++ {
		f := s.Field(i)
		if f.Exported() {
			out = append(out, f)
		}
		if f.Embedded() {
			et := f.Type()
			if p, ok := et.(*types.Pointer); ok {
				et = p.Elem()
			}
			if es, ok := et.Underlying().(*types.Struct); ok {
				out = append(out, exportedFields(es, seen)...)
			}
		}
	}
	return out
}

// unexportedIn lists the unexported named types and aliases that typ
// mentions, without looking into the definitions of exported named types
// (hiddenInPackage checks those where they are declared).
func unexportedIn(typ types.Type) []string {
	var out []string
	seen := map[types.Type]bool{}
	var walk func(types.Type)
	walkTuple := func(tu *types.Tuple) {
		for i := 0; i < tu.Len(); i++ {
			walk(tu.At(i).Type())
		}
	}
	walk = func(typ types.Type) {
		if typ == nil || seen[typ] {
			return
		}
		seen[typ] = true
		switch x := typ.(type) {
		case *types.Alias:
			if obj := x.Obj(); obj.Pkg() != nil && !obj.Exported() {
				out = append(out, obj.Pkg().Name()+"."+obj.Name())
				return
			}
			if ta := x.TypeArgs(); ta != nil {
				for i := 0; i < ta.Len(); i++ {
					walk(ta.At(i))
				}
			}
			if obj := x.Obj(); obj.Pkg() == nil {
				walk(x.Rhs())
			}
		case *types.Named:
			if obj := x.Obj(); obj.Pkg() != nil && !obj.Exported() {
				out = append(out, obj.Pkg().Name()+"."+obj.Name())
				return
			}
			if ta := x.TypeArgs(); ta != nil {
				for i := 0; i < ta.Len(); i++ {
					walk(ta.At(i))
				}
			}
		case *types.Pointer:
			walk(x.Elem())
		case *types.Slice:
			walk(x.Elem())
		case *types.Array:
			walk(x.Elem())
		case *types.Map:
			walk(x.Key())
			walk(x.Elem())
		case *types.Chan:
			walk(x.Elem())
		case *types.Signature:
			if tp := x.TypeParams(); tp != nil {
				for i := 0; i < tp.Len(); i++ {
					walk(tp.At(i).Constraint())
				}
			}
			walkTuple(x.Params())
			walkTuple(x.Results())
		case *types.Struct:
			for i := 0; i < x.NumFields(); i++ {
				walk(x.Field(i).Type())
			}
		case *types.Interface:
			for i := 0; i < x.NumEmbeddeds(); i++ {
				walk(x.EmbeddedType(i))
			}
			for i := 0; i < x.NumExplicitMethods(); i++ {
				walk(x.ExplicitMethod(i).Type())
			}
		case *types.Union:
			for i := 0; i < x.Len(); i++ {
				walk(x.Term(i).Type())
			}
		case *types.TypeParam:
			// its constraint is checked where the parameter is declared
		}
	}
	walk(typ)
	return out
}

// TestNoHiddenTypesInAPI fails on every exported name whose type mentions
// an unexported type (hiddenTypes): export the type, or unexport the name
// when callers are not meant to use it; and on every exported enum type
// with some of its values unexported (halfEnums): export all or none.
func TestNoHiddenTypesInAPI(t *testing.T) {
	found := hiddenTypes(t)
	t.Logf("%d exported names typed by unexported types or enums exported in part", len(found))
	for _, f := range found {
		t.Error(f)
	}
}

func TestUnexportedIn(t *testing.T) {
	pkg := types.NewPackage("example.com/p", "p")
	hidden := types.NewNamed(types.NewTypeName(0, pkg, "hidden", nil), types.Typ[types.Int], nil)
	shown := types.NewNamed(types.NewTypeName(0, pkg, "Shown", nil), types.NewStruct([]*types.Var{types.NewField(0, pkg, "h", hidden, false)}, nil), nil)
	alias := types.NewAlias(types.NewTypeName(0, pkg, "alias", nil), shown)
	sig := types.NewSignatureType(nil, nil, nil,
		types.NewTuple(types.NewParam(0, pkg, "m", types.NewMap(types.Typ[types.String], types.NewSlice(hidden)))),
		types.NewTuple(types.NewParam(0, pkg, "", shown), types.NewParam(0, pkg, "", alias)), false)
	got := strings.Join(unexportedIn(sig), " ")
	if got != "p.hidden p.alias" {
		t.Errorf("unexportedIn = %q, want %q (Shown's own unexported field is not the signature's)", got, "p.hidden p.alias")
	}
}
