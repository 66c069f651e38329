package parquetenc

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// The value encodings of parquet-format's Encodings.md.

// bitWriter packs values of a fixed bit width into bytes, least
// significant bit first (the order of Parquet's bit-packed runs and of
// DELTA_BINARY_PACKED's miniblocks).
type bitWriter struct {
	b   []byte
	acc uint64 // bits not yet appended to b
	n   uint   // how many: always < 64
}

// put adds the low width bits of v (v < 2^width, width ≤ 64).
func (w *bitWriter) put(v uint64, width uint) {
	w.acc |= v << w.n
	if w.n+width < 64 {
		w.n += width
		return
	}
	w.b = binary.LittleEndian.AppendUint64(w.b, w.acc)
	// The bits of v that did not fit (a shift by 64 gives 0).
	w.acc = v >> (64 - w.n)
	w.n = w.n + width - 64
}

// flush appends the bits held, padded with zeros to a whole byte.
func (w *bitWriter) flush() []byte {
	for ; w.n > 0; w.n -= min(w.n, 8) {
		w.b = append(w.b, byte(w.acc))
		w.acc >>= 8
	}
	w.acc = 0
	return w.b
}

// maxLiteralGroups bounds the groups of 8 values in one bit-packed run:
// 63, the most whose run header fits one byte, as parquet-mr writes them.
const maxLiteralGroups = 63

// hybridEncoder writes runs of values in the RLE / bit-packing hybrid
// encoding; it keeps its scratch space from call to call.
type hybridEncoder struct {
	lit []int32
}

// appendRuns appends the values of runs (each < 2^width, width ≥ 1) in
// the RLE / bit-packing hybrid encoding: a run of 8 values or more is
// one RLE run (header uvarint(count<<1), then the value in ⌈width/8⌉
// bytes, little endian); shorter runs in between are bit-packed in
// groups of 8 (header uvarint(groups<<1 | 1), then the groups, width
// bytes each), the last group padded with zeros (the reader knows how
// many values there are). A long run that follows values not yet a
// multiple of 8 lends them the ones they lack.
func (h *hybridEncoder) appendRuns(b []byte, runs []Run, width uint) []byte {
	lit := h.lit[:0] // values waiting to be bit-packed
	for _, r := range runs {
		n, x := int(r.Len), r.Index
		if n >= 8 {
			if p := len(lit) % 8; p != 0 {
				lit = appendRepeat(lit, x, 8-p)
				n -= 8 - p
			}
			if n >= 8 {
				b = appendLiterals(b, lit, width)
				lit = lit[:0]
				b = appendRun(b, n, uint64(x), width)
				continue
			}
		}
		lit = appendRepeat(lit, x, n)
		if full := len(lit) / (8 * maxLiteralGroups) * (8 * maxLiteralGroups); full > 0 {
			b = appendLiterals(b, lit[:full], width)
			lit = append(lit[:0], lit[full:]...)
		}
	}
	b = appendLiterals(b, lit, width)
	h.lit = lit
	return b
}

// appendLiterals appends v as bit-packed runs of at most
// maxLiteralGroups groups (nothing when v is empty).
func appendLiterals(b []byte, v []int32, width uint) []byte {
	for len(v) > 0 {
		n := min(len(v), 8*maxLiteralGroups)
		groups := (n + 7) / 8
		b = binary.AppendUvarint(b, uint64(groups)<<1|1)
		w := bitWriter{b: b}
		for _, x := range v[:n] {
			w.put(uint64(uint32(x)), width)
		}
		for k := n; k < 8*groups; k++ {
			w.put(0, width)
		}
		b = w.flush()
		v = v[n:]
	}
	return b
}

// appendRun appends n repeats of x as one RLE run.
func appendRun(b []byte, n int, x uint64, width uint) []byte {
	b = binary.AppendUvarint(b, uint64(n)<<1)
	return appendLE(b, x, (width+7)/8)
}

// appendLE appends the low n bytes of x, little endian.
func appendLE(b []byte, x uint64, n uint) []byte {
	for k := uint(0); k < n; k++ {
		b = append(b, byte(x>>(8*k)))
	}
	return b
}

// pack32 packs the 32 values d[k]-lo (each < 2^width) into dst, 4·width
// bytes, least significant bit first.
func pack32(dst []byte, d *[deltaMini]int64, lo int64, width uint) {
	if width == 0 {
		return
	}
	var acc uint64
	var n uint // bits in acc
	o := 0
	for _, v := range d {
		x := uint64(v - lo)
		acc |= x << n
		n += width
		if n >= 64 {
			binary.LittleEndian.PutUint64(dst[o:], acc)
			o += 8
			n -= 64
			acc = 0
			if n > 0 {
				acc = x >> (width - n)
			}
		}
	}
	// 32·width bits: what is left is 0 or 32 bits.
	for ; n > 0; n -= 8 {
		dst[o] = byte(acc)
		acc >>= 8
		o++
	}
}

// bitWidth is the bits an index into a dictionary of n values takes: at
// least 1 (Arrow's and parquet-mr's writers too).
func bitWidth(n int) uint {
	return uint(max(1, bits.Len(uint(max(n, 1)-1))))
}

// DELTA_BINARY_PACKED layout: blocks of deltaBlock values in
// deltaMiniblocks miniblocks (the sizes Arrow and parquet-mr write).
const (
	deltaBlock      = 128
	deltaMiniblocks = 4
	deltaMini       = deltaBlock / deltaMiniblocks
)

// appendDelta appends v DELTA_BINARY_PACKED: a header (block size,
// miniblocks per block, value count, first value as a zigzag varint), then
// per block of 128 differences between neighbouring values (computed with
// wrapping int64 arithmetic): their minimum (zigzag varint), the bit width
// of each of its 4 miniblocks (one byte each; 0 for a miniblock past the
// last value, which is not written), and each miniblock's differences
// less the minimum, bit-packed, the last one padded with zeros to 32.
func appendDelta(b []byte, v []int64) []byte {
	b = binary.AppendUvarint(b, deltaBlock)
	b = binary.AppendUvarint(b, deltaMiniblocks)
	b = binary.AppendUvarint(b, uint64(len(v)))
	if len(v) == 0 {
		return binary.AppendVarint(b, 0)
	}
	b = binary.AppendVarint(b, v[0])
	var d [deltaBlock]int64
	for start := 1; start < len(v); start += deltaBlock {
		m := min(deltaBlock, len(v)-start)
		lo := v[start] - v[start-1]
		for k := 0; k < m; k++ {
			d[k] = v[start+k] - v[start+k-1]
			lo = min(lo, d[k])
		}
		b = binary.AppendVarint(b, lo)
		var widths [deltaMiniblocks]uint
		for mb := range widths {
			var or uint64
			for k := mb * deltaMini; k < min(m, (mb+1)*deltaMini); k++ {
				or |= uint64(d[k] - lo)
			}
			widths[mb] = uint(bits.Len64(or))
			b = append(b, byte(widths[mb]))
		}
		for k := m; k < deltaBlock; k++ {
			d[k] = lo // packed as 0
		}
		for mb, width := range widths {
			if mb*deltaMini >= m {
				break
			}
			at := len(b)
			b = slices.Grow(b, 4*int(width))[:at+4*int(width)]
			pack32(b[at:], (*[deltaMini]int64)(d[mb*deltaMini:]), lo, width)
		}
	}
	return b
}
