package table

import (
	"hash/fnv"
	"math/bits"
	"strings"
)

// keyIndex numbers benchmark run keys 0, 1, … in order of first
// appearance, for the bookkeeping that readers and checks keep per run.
// A key costs a map slot of 32 bytes and its benchmark name: the rest of
// the key (project, version, params, mode), which many keys share, is
// stored once. A map keyed by Key itself costs 88 bytes a slot and, with
// its strings, about 250 bytes a run, which for a file of a million
// one-value benchmarks was more than its Arrow rows. The zero value is
// ready to use.
type keyIndex struct {
	restIDs map[restKey]int32
	rests   []restKey
	ids     map[keyRef]int32
	keys    []keyRef // by id
}

// restKey is a key without its benchmark name.
type restKey struct{ project, version, params, mode string }

// keyRef is a key as its benchmark name and the id of its restKey.
type keyRef struct {
	benchmark string
	rest      int32
}

// ref returns k as a keyRef whose benchmark points into k; ok is false
// when k's rest is not in the index and add is false.
func (x *keyIndex) ref(k *Key, add bool) (r keyRef, ok bool) {
	rk := restKey{k.Project, k.Version, k.Params, k.Mode}
	id, ok := x.restIDs[rk]
	if !ok {
		if !add {
			return keyRef{}, false
		}
		if x.restIDs == nil {
			x.restIDs = map[restKey]int32{}
		}
		rk = restKey{strings.Clone(k.Project), strings.Clone(k.Version), strings.Clone(k.Params), strings.Clone(k.Mode)}
		id = int32(len(x.rests))
		x.restIDs[rk] = id
		x.rests = append(x.rests, rk)
	}
	return keyRef{k.Benchmark, id}, true
}

// id returns the id of k, adding k when it is new (its strings copied:
// k may point into an Arrow buffer).
func (x *keyIndex) id(k Key) (id int32, isNew bool) { return x.add(k, true) }

// add is id, copying k's benchmark name only when clone is set.
func (x *keyIndex) add(k Key, clone bool) (id int32, isNew bool) {
	r, _ := x.ref(&k, true)
	if id, ok := x.ids[r]; ok {
		return id, false
	}
	if x.ids == nil {
		x.ids = map[keyRef]int32{}
	}
	if clone {
		r.benchmark = strings.Clone(r.benchmark)
	}
	id = int32(len(x.keys))
	x.ids[r] = id
	x.keys = append(x.keys, r)
	return id, true
}

// lookup returns the id of k, if k is in the index.
func (x *keyIndex) lookup(k Key) (int32, bool) {
	r, ok := x.ref(&k, false)
	if !ok {
		return 0, false
	}
	id, ok := x.ids[r]
	return id, ok
}

// key returns the key of id.
func (x *keyIndex) key(id int32) Key {
	r := x.keys[id]
	rk := x.rests[r.rest]
	return Key{rk.project, rk.version, r.benchmark, rk.params, rk.mode}
}

// len is the number of keys.
func (x *keyIndex) len() int { return len(x.keys) }

// RunIDs numbers the benchmark runs (keys) of one input 0, 1, … in order
// of first appearance. A Builder has one (Builder.RunIDs), and a checker,
// a Stats or a reader that keeps something per run can share it (their
// RunIDs field, or by ID), so that each key is stored once: about 60 bytes and
// its benchmark name, where a map keyed by Key costs about 250 bytes for
// each of them. Not safe for concurrent use; the zero value is ready to
// use.
type RunIDs struct{ keyIndex }

// IDKeep returns the number of run k, adding k when it is new; k's
// strings must stay valid (no views of a buffer that is reused): they are
// kept, not copied.
func (r *RunIDs) IDKeep(k Key) (id int32, isNew bool) { return r.add(k, false) }

// Len is the number of runs.
func (r *RunIDs) Len() int { return r.len() }

// Shard is the shard (0 … n−1) benchmark run k belongs to when the work
// is split n ways: with h the 64-bit FNV-1a hash of its project,
// benchmark, params and mode (each followed by a NUL byte), it is
// ⌊h·n / 2⁶⁴⌋, the high 64 bits of the 128-bit product h·n. Shard K of N
// is thus the contiguous hash range [⌈K·2⁶⁴/N⌉, ⌈(K+1)·2⁶⁴/N⌉), for any
// N, so a table written in hash order (WriteOptions.ByShard) holds each
// shard in a stretch of row groups. The version is left out, so every
// version of a benchmark lands in the same shard (optimize and compare
// relate versions); the partition depends on nothing but the key, so it
// is the same on every run and machine. n ≤ 1 gives 0.
func (k Key) Shard(n int) int {
	if n <= 1 {
		return 0
	}
	return shardOfHash(k.Hash(), n)
}

// Hash is the 64-bit FNV-1a hash of k's project, benchmark, params and
// mode, each followed by a NUL byte (Shard's h; a table written by shard
// records each row group's range of it).
func (k Key) Hash() uint64 {
	h := fnv.New64a()
	for _, s := range []string{k.Project, k.Benchmark, k.Params, k.Mode} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// shardOfHash is ⌊h·n / 2⁶⁴⌋: the shard of n (n ≥ 1) whose hash range
// holds h. It does not decrease as h grows.
func shardOfHash(h uint64, n int) int {
	hi, _ := bits.Mul64(h, uint64(n))
	return int(hi)
}

// Clone copies k's strings, which may point into an Arrow buffer.
func (k Key) Clone() Key { return cloneKey(k) }
