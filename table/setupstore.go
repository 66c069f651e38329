package table

import (
	"encoding/binary"
	"maps"
	"sort"
)

// setupStore keeps a Builder's setups until Finish. Readers give most runs
// of a file the same tool, iterations, times and environment, so it keeps
// per run only its Source, Name and the index of the rest (all but the key)
// among the distinct ones: a setup takes 24 bytes while the input is read
// instead of 232 and an Env map, which for a file of a million one-value
// JMH benchmarks was most of ingest's memory.
type setupStore struct {
	of      []int32 // by run id: 1 + index in recs, 0 for none
	recs    []storedSetup
	fields  []Setup // distinct setups without Key, Source and Name
	ids     map[setupFields]int32
	last    int32 // index in fields of the last setup stored
	scratch []byte
}

type storedSetup struct {
	run          int32
	fields       int32
	source, name string
}

// setupFields is a Setup without Key, Source and Name (kept per run),
// comparable: Env as
// envKey encodes it. TestSetupStoreCoversSetup fails when Setup gains a
// field that is missing here.
type setupFields struct {
	tool, toolVersion                                                  string
	forks, warmupIterations, measurementIterations, threads, batchSize int
	instances, trials, slices                                          int
	warmupTimeNs, measurementTimeNs, sliceTimeNs                       int64
	singleShot                                                         bool
	env                                                                string
}

// index returns 1 + the index in recs of run id's setup, 0 for none.
func (st *setupStore) index(run int32) int {
	if int(run) < len(st.of) {
		return int(st.of[run])
	}
	return 0
}

// put stores s as the setup of run id (replacing the one it has).
func (st *setupStore) put(run int32, s *Setup) {
	r := storedSetup{run: run, fields: st.fieldsOf(s), source: s.Source, name: s.Name}
	if i := st.index(run); i > 0 {
		st.recs[i-1] = r
		return
	}
	for int(run) >= len(st.of) {
		st.of = append(st.of, 0)
	}
	st.recs = append(st.recs, r)
	st.of[run] = int32(len(st.recs))
}

// fieldsOf returns the index in fields of s's fields, adding them when new
// (s's Env is then kept: the caller must not change it).
func (st *setupStore) fieldsOf(s *Setup) int32 {
	if len(st.fields) > 0 && sameFields(&st.fields[st.last], s) {
		return st.last
	}
	st.scratch = envKey(st.scratch[:0], s.Env)
	f := plainFields(s)
	f.env = string(st.scratch)
	id, ok := st.ids[f]
	if !ok {
		if st.ids == nil {
			st.ids = map[setupFields]int32{}
		}
		id = int32(len(st.fields))
		st.ids[f] = id
		c := *s
		c.Key, c.Source, c.Name = Key{}, "", ""
		st.fields = append(st.fields, c)
	}
	st.last = id
	return id
}

// plainFields is s's setupFields without env.
func plainFields(s *Setup) setupFields {
	return setupFields{s.Tool, s.ToolVersion, s.Forks, s.WarmupIterations, s.MeasurementIterations, s.Threads, s.BatchSize,
		s.Instances, s.Trials, s.Slices, s.WarmupTimeNs, s.MeasurementTimeNs, s.SliceTimeNs, s.SingleShot, ""}
}

// sameFields reports whether a and b agree but for Key, Source and Name.
func sameFields(a, b *Setup) bool {
	return plainFields(a) == plainFields(b) && (a.Env == nil) == (b.Env == nil) && maps.Equal(a.Env, b.Env)
}

// envKey appends an encoding of env to dst that tells nil, empty and
// every other map apart: its entries sorted by key, lengths first.
func envKey(dst []byte, env map[string]string) []byte {
	if env == nil {
		return dst
	}
	dst = append(dst, 1)
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		dst = binary.AppendUvarint(dst, uint64(len(k)))
		dst = append(dst, k...)
		dst = binary.AppendUvarint(dst, uint64(len(env[k])))
		dst = append(dst, env[k]...)
	}
	return dst
}

// setup returns stored setup r with its key from runs.
func (st *setupStore) setup(r *storedSetup, runs *keyIndex) Setup {
	s := st.fields[r.fields]
	s.Key, s.Source, s.Name = runs.key(r.run), r.source, r.name
	return s
}

// all returns the setups in the order they were first stored.
func (st *setupStore) all(runs *keyIndex) []Setup {
	out := make([]Setup, len(st.recs))
	for i := range st.recs {
		out[i] = st.setup(&st.recs[i], runs)
	}
	return out
}
