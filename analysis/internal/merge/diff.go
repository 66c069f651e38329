package merge

import (
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strings"
)

// difference is the first field in which two parts' options differ: its
// path in the options struct (Optimize.Bootstrap.Resamples, Select.Benchmark)
// and its value in each part.
type difference struct {
	field string
	a, b  string
}

var regexpType = reflect.TypeOf((*regexp.Regexp)(nil))

// diffAny returns the first field (in declaration order, depth first) in
// which a and b differ, nil when they are equal. Regular expressions
// compare by their source text, NaN equals NaN, and functions are equal
// when both are nil or both set (callbacks of one part's run).
func diffAny(a, b any) *difference {
	return diff("", reflect.ValueOf(a), reflect.ValueOf(b))
}

func diff(path string, a, b reflect.Value) *difference {
	if !a.IsValid() || !b.IsValid() {
		if a.IsValid() != b.IsValid() {
			return &difference{field: fieldName(path), a: show(a), b: show(b)}
		}
		return nil
	}
	if a.Type() == regexpType {
		if ra, rb := regexpSource(a), regexpSource(b); ra != rb {
			return &difference{field: fieldName(path), a: ra, b: rb}
		}
		return nil
	}
	differ := func() *difference { return &difference{field: fieldName(path), a: show(a), b: show(b)} }
	switch a.Kind() {
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			name := a.Type().Field(i).Name
			if path != "" {
				name = path + "." + name
			}
			if d := diff(name, a.Field(i), b.Field(i)); d != nil {
				return d
			}
		}
		return nil
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return differ()
			}
			return nil
		}
		if a.Kind() == reflect.Interface && a.Elem().Type() != b.Elem().Type() {
			return differ()
		}
		return diff(path, a.Elem(), b.Elem())
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() || a.Kind() == reflect.Slice && a.IsNil() != b.IsNil() && a.Len() > 0 {
			return differ()
		}
		for i := 0; i < a.Len(); i++ {
			if d := diff(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i)); d != nil {
				return d
			}
		}
		return nil
	case reflect.Map:
		if a.Len() != b.Len() {
			return differ()
		}
		for _, k := range a.MapKeys() {
			vb := b.MapIndex(k)
			if !vb.IsValid() {
				return differ()
			}
			if d := diff(fmt.Sprintf("%s[%v]", path, k), a.MapIndex(k), vb); d != nil {
				return d
			}
		}
		return nil
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		if a.IsNil() != b.IsNil() {
			return differ()
		}
		return nil
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		if x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
			return differ()
		}
		return nil
	case reflect.Complex64, reflect.Complex128, reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if !a.Equal(b) {
			return differ()
		}
	}
	return nil
}

// fieldName is path, or "the options" for the whole value.
func fieldName(path string) string {
	if path == "" {
		return "the options"
	}
	return path
}

func regexpSource(v reflect.Value) string {
	if v.IsNil() {
		return "none"
	}
	if v.CanInterface() {
		return fmt.Sprintf("%q", v.Interface().(*regexp.Regexp).String())
	}
	return show(v)
}

// show formats a value for a message: strings quoted, a nil pointer as
// none, long values cut.
func show(v reflect.Value) string {
	if !v.IsValid() {
		return "none"
	}
	var s string
	switch {
	case v.Kind() == reflect.String:
		s = fmt.Sprintf("%q", v.String())
	case (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface || v.Kind() == reflect.Func) && v.IsNil():
		s = "none"
	case v.Kind() == reflect.Func:
		s = "set"
	case v.Kind() == reflect.Pointer && v.CanInterface():
		if _, ok := v.Interface().(fmt.Stringer); !ok {
			return show(v.Elem())
		}
		s = fmt.Sprint(v.Interface())
	case v.CanInterface():
		s = fmt.Sprint(v.Interface())
	default:
		s = fmt.Sprint(v)
	}
	s = strings.ReplaceAll(s, "\n", " ")
	if r := []rune(s); len(r) > 80 {
		s = string(r[:77]) + "…"
	}
	return s
}
