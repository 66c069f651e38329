package table

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// TestSetupStoreCoversSetup: setupFields holds every field of Setup but
// Key and Source, so the Builder's compact setups lose nothing.
func TestSetupStoreCoversSetup(t *testing.T) {
	st, sf := reflect.TypeOf(Setup{}), reflect.TypeOf(setupFields{})
	if st.NumField()-3 != sf.NumField() { // Key, Source and Name are kept per run
		t.Fatalf("Setup has %d fields, setupFields %d: add the new field to setupFields, plainFields and this test", st.NumField(), sf.NumField())
	}
	// Every field changes the stored fields.
	base := Setup{Env: map[string]string{}}
	for i := 0; i < st.NumField(); i++ {
		f := st.Field(i)
		if f.Name == "Key" || f.Name == "Source" || f.Name == "Name" {
			continue
		}
		s := base
		v := reflect.ValueOf(&s).Elem().Field(i)
		switch v.Kind() {
		case reflect.String:
			v.SetString("x")
		case reflect.Int, reflect.Int64:
			v.SetInt(7)
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Map:
			v.Set(reflect.ValueOf(map[string]string{"k": "v"}))
		default:
			t.Fatalf("field %s of kind %s", f.Name, v.Kind())
		}
		var store setupStore
		if store.fieldsOf(&base) == store.fieldsOf(&s) {
			t.Errorf("field %s: a setup that differs in it has the same stored fields", f.Name)
		}
	}
	var store setupStore
	if store.fieldsOf(&Setup{}) == store.fieldsOf(&Setup{Env: map[string]string{}}) {
		t.Error("nil and empty Env stored alike")
	}
}

// TestBuilderSetups: the Builder's setups (compact while it reads) are
// what a map of setups merged as AddSetup documents gives, on seeded
// random setups with shared fields and environments, repeated keys,
// agreeing and conflicting fields.
func TestBuilderSetups(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 3))
	envs := []map[string]string{nil, {}, {"jvm": "a"}, {"jvm": "a", "cpu": "b"}, {"jvm": "b"}}
	for c := 0; c < 100; c++ {
		b := NewBuilder(memory.NewGoAllocator(), 0)
		want := map[Key]*Setup{}
		var wantErrs, gotErrs []string
		for i := rng.IntN(60); i > 0; i-- {
			s := Setup{Key: Key{Project: "p", Benchmark: fmt.Sprint("b", rng.IntN(20)), Mode: []string{"avgt", "thrpt"}[rng.IntN(2)]},
				Tool: "jmh", Forks: rng.IntN(3), Threads: rng.IntN(2), Source: fmt.Sprint("f:", i)}
			if e := envs[rng.IntN(len(envs))]; e != nil {
				s.Env = map[string]string{}
				for k, v := range e {
					s.Env[k] = v
				}
			}
			c := s
			if old, ok := want[s.Key]; !ok {
				want[s.Key] = &c
			} else if why := old.conflicts(&c); why != "" {
				wantErrs = append(wantErrs, fmt.Sprintf("mixed setups for %s: %s (first from %s, then %s)", s.Key, why, old.Source, s.Source))
			} else {
				mergeSetup(old, &c)
			}
			if err := b.AddSetup(s); err != nil {
				gotErrs = append(gotErrs, err.Error())
			}
		}
		tb := b.Finish()
		b.Release()
		if !reflect.DeepEqual(gotErrs, wantErrs) {
			t.Fatalf("case %d: errors\n%q\nwant\n%q", c, gotErrs, wantErrs)
		}
		if w := sortedSetups(want); !reflect.DeepEqual(tb.Setups, w) {
			t.Fatalf("case %d: setups\n%+v\nwant\n%+v", c, tb.Setups, w)
		}
	}
}
