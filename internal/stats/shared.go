package stats

import (
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/benchtrim/benchtrim/estimate"
)

// BootstrapCIsShared returns the three intervals BootstrapCI computes
// (indexed by CIMethod: MeanPercentile, MedianPercentile, MeanStudentized)
// from one resampling of x: each of the opt.Resamples resamples draws len(x)
// values of x uniformly with replacement and gives its mean, its median and
// its studentized mean, so the three intervals cost about one bootstrap
// instead of three. Each interval is the same estimator as BootstrapCI's,
// from other draws: the results differ from BootstrapCI's on the same
// stream within bootstrap noise.
//
// The draws are indices into sorted x, four per 64-bit output of rng for
// len(x) < 2^16 (Lemire's multiply-shift on 16-bit parts; a part that
// falls in the biased range is replaced by a fresh unbiased 32-bit draw),
// two per output otherwise. errs[m] is BootstrapCI's error of method m
// (invalid options, empty x or a non-finite value for all; fewer than two
// values for the studentized interval).
func BootstrapCIsShared(x []float64, opt estimate.BootstrapOptions, rng *Stream, ws *Workspace) (ivs [3]estimate.Interval, errs [3]error) {
	if err := checkSample("BootstrapCIsShared", x, opt); err != nil {
		return ivs, [3]error{err, err, err}
	}
	if ws == nil {
		ws = new(Workspace)
	}
	n := len(x)
	fn := float64(n)
	ws.values = grow(ws.values, 2*n)
	sorted, centred := ws.values[:n], ws.values[n:]
	copy(sorted, x)
	slices.Sort(sorted)
	m := Mean(x, nil)
	var ss float64
	for i, v := range sorted {
		centred[i] = v - m
		ss += centred[i] * centred[i]
	}
	ivs[MeanPercentile].Estimate = m
	ivs[MedianPercentile].Estimate = QuantileSorted(sorted, 0.5, nil)
	ivs[MeanStudentized].Estimate = m
	studentized := n >= 2 && !constant(x)
	switch {
	case n < 2:
		errs[MeanStudentized] = fmt.Errorf("stats: BootstrapMeanTCI: need at least 2 values, got %d", n)
	case !studentized:
		ivs[MeanStudentized].Lower, ivs[MeanStudentized].Upper = m, m
	}
	se := math.Sqrt(ss/(fn-1)) / math.Sqrt(fn)

	B := opt.Resamples
	alpha := 1 - opt.Confidence
	jlo, flo := quantilePos(B, alpha/2)
	jhi, fhi := quantilePos(B, 1-alpha/2)
	nlo, nhi := min(jlo+2, B), B-jhi
	wide := 8*(nlo+nhi) > B
	ws.counts32 = grow(ws.counts32, medianRows(n)*n)
	blk := seqBlock
	if wide {
		blk = B
	}
	ws.replicates = grow(ws.replicates, 3*blk)
	var tl [3]*tails
	for k := range tl {
		tl[k] = &ws.shared[k]
		tl[k].reset(nlo, nhi)
	}
	vec := newSharedRecords(sorted, centred, ws)
	var all [3][]float64 // every replicate, when wide
	for done := 0; done < B; {
		cnt := min(blk, B-done)
		means, medians, ts := ws.replicates[:cnt], ws.replicates[blk:blk+cnt], ws.replicates[2*blk:2*blk+cnt]
		resampleShared(sorted, centred, vec, ws.counts32, means, medians, ts, rng)
		done += cnt
		if wide {
			all = [3][]float64{means, medians, ts}
			continue
		}
		tl[MeanPercentile].pushAll(means)
		tl[MedianPercentile].pushAll(medians)
		tl[MeanStudentized].pushAll(ts)
	}
	for k := range ivs {
		if errs[k] != nil || (k == int(MeanStudentized) && !studentized) {
			continue
		}
		var lo, hi float64
		if wide {
			lo, hi = percentileInterval(all[k], opt.Confidence)
		} else {
			lo, hi = tl[k].quantiles(B, jlo, flo, jhi, fhi)
		}
		if k == int(MeanStudentized) {
			lo, hi = m-hi*se, m-lo*se
		}
		ivs[k].Lower, ivs[k].Upper = lo, hi
	}
	return ivs, errs
}

// quantiles returns the type-7 quantiles at positions (jlo, flo) and (jhi,
// fhi) of the B values pushed (see quantilePos), sorting the heaps.
func (t *tails) quantiles(B, jlo int, flo float64, jhi int, fhi float64) (lo, hi float64) {
	slices.Sort(t.lo) // order statistics 0 … jlo+1
	slices.Sort(t.hi) // and jhi … B−1
	lo = t.lo[jlo]
	if flo != 0 && jlo != B-1 {
		lo = lerp(lo, t.lo[jlo+1], flo)
	}
	hi = t.hi[0]
	if fhi != 0 && jhi != B-1 {
		hi = lerp(hi, t.hi[1], fhi)
	}
	return lo, hi
}

// resampleShared draws len(means) resamples of the sorted values and
// records each one's mean, median and studentized mean (as resampleT, from
// the centred values centred[i] = sorted[i] − mean): resampleSharedGo,
// its draws by the kernel sharedVecAsm on the records vec (see
// newSharedRecords), or sharedAsm where vec is nil, and then the t
// statistics of each 64 resamples by studentizeAll; the same bits.
func resampleShared(sorted, centred []float64, vec *sharedRecords, counts []int32, means, medians, ts []float64, rng *Stream) {
	n := len(sorted)
	thresh16, thresh32 := sharedThresh(n), lemireThresh(n)
	if !haveDrawKernel {
		resampleSharedGo(sorted, centred, counts, means, medians, ts, rng, thresh16, thresh32)
		return
	}
	un := uint64(n)
	fn := float64(n)
	centred = centred[:n]
	var c, q, s [sharedBatch]float64
	var diff, first [sharedBatch]uint64
	for done := 0; done < len(means); {
		k := min(sharedBatch, len(means)-done)
		if vec != nil {
			// as many resamples per call as counts has rows, each
			// counting in its own
			for i := 0; i < k; {
				kk := min(k-i, len(counts)/n)
				rows := counts[:kk*n]
				clear(rows)
				sharedVecAsm(&rng.pcg, vec.rec, rows, n, thresh16, thresh32, s[i:i+kk], c[i:i+kk], q[i:i+kk], first[i:i+kk])
				for r := range kk {
					row := rows[r*n : r*n+n]
					means[done+i+r] = s[i+r] / fn
					medians[done+i+r] = medianFromCounts32(sorted, row, un)
					diff[i+r] = vec.distinct(row, first[i+r])
				}
				i += kk
			}
		} else {
			counts := counts[:n]
			for i := range k {
				clear(counts)
				var s float64
				s, c[i], q[i], diff[i] = sharedAsm(&rng.pcg, sorted, centred, counts, thresh16, thresh32)
				means[done+i] = s / fn
				medians[done+i] = medianFromCounts(sorted, counts, un)
			}
		}
		studentizeAll(c[:k], q[:k], diff[:k], fn, ts[done:done+k])
		done += k
	}
}

// sharedBatch is the number of resamples resampleShared draws before it
// computes their t statistics; sharedVecAsm draws as many of them in one
// call as counts has rows of len(sorted) values (medianRows).
const sharedBatch = 64

// sharedRecords is what sharedVecAsm reads, made once per interval: the
// records rec[4j … 4j+3] = (sorted[j], centred[j], centred[j]², 0),
// 32-byte aligned, and the runs of equal values, runs[2j] and runs[2j+1]
// the first and last index of the run of centred values with the bits of
// centred[j].
type sharedRecords struct {
	rec  []float64
	runs []int32
}

// newSharedRecords returns the records of sorted and centred in ws's
// memory, or nil where sharedVecAsm cannot stand in for sharedAsm: without
// the kernel (no AVX-512), or when a centred value is −0. The centred values
// follow the sorted ones, so they do not decrease, and two of them have the
// same bits exactly when they are equal, except +0 and −0; without −0,
// equal bits therefore make runs of adjacent indices.
func newSharedRecords(sorted, centred []float64, ws *Workspace) *sharedRecords {
	if !haveVecPCG {
		return nil
	}
	n := len(sorted)
	for _, v := range centred[:n] {
		if math.Float64bits(v) == 1<<63 {
			return nil
		}
	}
	ws.records = grow(ws.records, 4*n+3)
	off := int((32 - uintptr(unsafe.Pointer(unsafe.SliceData(ws.records)))%32) % 32 / 8)
	rec := ws.records[off : off+4*n]
	for j, v := range centred[:n] {
		rec[4*j], rec[4*j+1], rec[4*j+2], rec[4*j+3] = sorted[j], v, v*v, 0
	}
	ws.vec.runs = grow(ws.vec.runs, 2*n)
	runs := ws.vec.runs
	for j := range n {
		runs[2*j] = int32(j)
		if j > 0 && centred[j] == centred[j-1] {
			runs[2*j] = runs[2*j-2]
		}
	}
	for j := n - 1; j >= 0; j-- {
		runs[2*j+1] = int32(j)
		if j < n-1 && centred[j] == centred[j+1] {
			runs[2*j+1] = runs[2*j+3]
		}
	}
	ws.vec.rec = rec
	return &ws.vec
}

// distinct is sharedAsm's diff ≠ 0 (as 1 or 0) for a resample whose draws
// counts holds and whose first draw is first: whether a draw lies outside
// the run of the first's value, that is whether the run's counts sum to
// less than the len(counts) draws.
func (v *sharedRecords) distinct(counts []int32, first uint64) uint64 {
	var in int
	for _, c := range counts[v.runs[2*first] : v.runs[2*first+1]+1] {
		in += int(c)
	}
	if in == len(counts) {
		return 0
	}
	return 1
}

// sharedThresh is the threshold below which resampleShared redraws the
// low 16 bits of a product part·n: 2¹⁶ mod n, or 2¹⁶ (every part
// redrawn, 32-bit draws only) when n ≥ 2¹⁶.
func sharedThresh(n int) uint64 {
	if n >= 1<<16 {
		return 1 << 16
	}
	return uint64(uint16(-uint16(n)) % uint16(n))
}

// resampleSharedGo is resampleShared in Go, the reference of sharedAsm.
// The draws are four per output: its 16-bit parts in turn, each a Lemire
// product p = part·n whose low 16 bits are below thresh16 redrawn as one
// 32-bit draw (draw32 with thresh32; the thresholds of resampleShared
// make the draws unbiased, draw32 then being Stream.uint32n). Sums
// alternate between two accumulators (draws 0, 2 of each group of four
// and draws 1, 3), which halves the latency chains of the additions.
func resampleSharedGo(sorted, centred []float64, counts []int32, means, medians, ts []float64, rng *Stream, thresh16 uint64, thresh32 uint32) {
	n := len(sorted)
	un := uint64(n)
	fn := float64(n)
	counts = counts[:n]
	centred = centred[:n]
	pcg := &rng.pcg
	// index maps the 16-bit part p (in the low bits) to an index.
	index := func(p uint64) uint64 {
		p *= un
		if p&0xffff < thresh16 {
			return draw32(pcg, un, uint64(thresh32))
		}
		return p >> 16
	}
	for b := range means {
		clear(counts)
		var s0, s1, c0, c1, q0, q1 float64
		var diff uint64
		first := uint64(0)
		i := 0
		for ; i+4 <= n; i += 4 {
			r := pcg.Uint64()
			j0, j1, j2, j3 := index(r&0xffff), index(r>>16&0xffff), index(r>>32&0xffff), index(r>>48)
			if i == 0 {
				first = math.Float64bits(centred[j0])
			}
			v0, v1, v2, v3 := centred[j0], centred[j1], centred[j2], centred[j3]
			s0 += sorted[j0]
			s1 += sorted[j1]
			c0 += v0
			c1 += v1
			q0 += v0 * v0
			q1 += v1 * v1
			s0 += sorted[j2]
			s1 += sorted[j3]
			c0 += v2
			c1 += v3
			q0 += v2 * v2
			q1 += v3 * v3
			counts[j0]++
			counts[j1]++
			counts[j2]++
			counts[j3]++
			diff |= (math.Float64bits(v0) ^ first) | (math.Float64bits(v1) ^ first) | (math.Float64bits(v2) ^ first) | (math.Float64bits(v3) ^ first)
		}
		if i < n {
			r := pcg.Uint64()
			for k := 0; i < n; i, k = i+1, k+1 {
				j := index(r >> (16 * k) & 0xffff)
				v := centred[j]
				if i == 0 {
					first = math.Float64bits(v)
				}
				s0 += sorted[j]
				c0 += v
				q0 += v * v
				counts[j]++
				diff |= math.Float64bits(v) ^ first
			}
		}
		s, sc, q := s0+s1, c0+c1, q0+q1
		means[b] = s / fn
		medians[b] = medianFromCounts(sorted, counts, un)
		ts[b] = studentized(sc, q, fn, diff != 0)
	}
}
