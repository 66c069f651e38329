package tablefile

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"sort"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/table"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/parquet/file"

	"github.com/benchtrim/benchtrim/tablefile/internal/parquetio"
)

// metadataRowGroupHashes is the Parquet key-value metadata key of a table
// written by shard (WriteOptions.ByShard): a JSON array holding, per row
// group in file order, the least and greatest key hash (keyHash) of its
// rows as two 16-digit hexadecimal strings.
const metadataRowGroupHashes = "benchtrim.row_group_hashes"

// hashRange is the closed range [lo, hi] of the key hashes of a row
// group's rows.
type hashRange struct{ lo, hi uint64 }

// encodeHashRanges is the metadataRowGroupHashes value of ranges.
func encodeHashRanges(ranges []hashRange) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, r := range ranges {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `["%016x","%016x"]`, r.lo, r.hi)
	}
	b.WriteByte(']')
	return b.String()
}

// decodeHashRanges parses a metadataRowGroupHashes value of a file of
// rowGroups row groups.
func decodeHashRanges(s string, rowGroups int) ([]hashRange, error) {
	var pairs [][2]string
	if err := json.Unmarshal([]byte(s), &pairs); err != nil {
		return nil, fmt.Errorf("%s metadata: %w", metadataRowGroupHashes, err)
	}
	if len(pairs) != rowGroups {
		return nil, fmt.Errorf("%s metadata: %d ranges for %d row groups (the file was rewritten after benchtrim ingest --by-shard wrote it; ingest it again)",
			metadataRowGroupHashes, len(pairs), rowGroups)
	}
	out := make([]hashRange, len(pairs))
	for i, p := range pairs {
		lo, err1 := strconv.ParseUint(p[0], 16, 64)
		hi, err2 := strconv.ParseUint(p[1], 16, 64)
		if err1 != nil || err2 != nil || lo > hi {
			return nil, fmt.Errorf("%s metadata: row group %d: range [%.20q, %.20q] is not two ordered 64-bit hexadecimal hashes", metadataRowGroupHashes, i+1, p[0], p[1])
		}
		out[i] = hashRange{lo, hi}
	}
	return out, nil
}

// byShardBatchRows is how many rows a table written by shard
// (WriteOptions.ByShard) holds in memory before it writes them: the input
// is cut, in the order it arrives, into batches of about this many rows,
// and each batch is written as row groups of narrow hash ranges.
var byShardBatchRows int64 = 1 << 20

// byShardRowGroupRows is the number of rows a row group of a batch of
// rows rows aims at: about 64 row groups per full batch, each of 1,024 to
// 65,536 rows (a group of the batch, every version of a run, is never
// split but by parquetio.Writer's own row group limit). Small row groups let a
// shard skip more of the file; each costs some footer.
func byShardRowGroupRows(rows int64) int64 {
	return min(max(rows/64, 1<<10), 1<<16)
}

// shardBatcher writes a table by shard, one batch of records at a time:
// within a batch the rows are ordered by the key hash of their group
// (keyHash; a group's rows in the order they came), and cut into row
// groups of about byShardRowGroupRows rows between groups. Each record is
// held once, in one batch, so the memory is a batch's whatever the input
// size, and nothing goes through a scratch file. A shard K of N then reads
// from every batch the row groups whose hash range meets its own: its
// rows and at most one row group at each edge of its range.
type shardBatcher struct {
	pq     *parquetio.Writer
	recs   []arrow.Record
	rows   int64
	ranges []hashRange // per row group written, its hash range
}

// add keeps rec (retained) for the current batch and writes the batch
// once it holds byShardBatchRows rows.
func (b *shardBatcher) add(rec arrow.Record) error {
	rec.Retain()
	b.recs = append(b.recs, rec)
	b.rows += rec.NumRows()
	if b.rows >= byShardBatchRows {
		return b.flush()
	}
	return nil
}

// release drops the records of a batch not written (after an error).
func (b *shardBatcher) release() {
	for _, r := range b.recs {
		r.Release()
	}
	b.recs, b.rows = nil, 0
}

// flush writes the current batch: its groups in key-hash order (ties by
// key), a new row group whenever the next group would take the current
// one over byShardRowGroupRows(batch rows), the last one ended.
func (b *shardBatcher) flush() error {
	defer b.release()
	if b.rows == 0 {
		return nil
	}
	type group struct {
		key  table.Key
		hash uint64
		rows int64
		runs []recRun
	}
	byKey := map[table.Key]*group{}
	var groups []*group
	for _, rec := range b.recs {
		c := colsOf(rec)
		n := int(rec.NumRows())
		// A group's rows are those with the same project, benchmark,
		// params and mode: equal dictionary indices within a record.
		at := func(i int) [4]int32 {
			x := c.keyIndices(i)
			return [4]int32{x[0], x[2], x[3], x[4]}
		}
		for i := 0; i < n; {
			idx := at(i)
			j := i + 1
			for j < n && at(j) == idx {
				j++
			}
			k := groupOf(c.Key(i))
			g := byKey[k]
			if g == nil {
				k = k.Clone()
				g = &group{key: k, hash: k.Hash()}
				byKey[k] = g
				groups = append(groups, g)
			}
			g.runs = append(g.runs, recRun{rec, int64(i), int64(j)})
			g.rows += int64(j - i)
			i = j
		}
	}
	sort.Slice(groups, func(i, j int) bool {
		if groups[i].hash != groups[j].hash {
			return groups[i].hash < groups[j].hash
		}
		return groups[i].key.Less(groups[j].key)
	})
	limit := byShardRowGroupRows(b.rows)
	var cur hashRange
	var rows int64
	endGroup := func() error {
		n, err := b.pq.EndRowGroup()
		for len(b.ranges) < n {
			b.ranges = append(b.ranges, cur)
		}
		rows = 0
		return err
	}
	for _, g := range groups {
		if rows > 0 && rows+g.rows > limit {
			if err := endGroup(); err != nil {
				return err
			}
		}
		if rows == 0 {
			cur.lo = g.hash
		}
		cur.hi = g.hash
		for _, r := range g.runs {
			s := r.rec.NewSlice(r.start, r.end)
			err := b.pq.Write(s)
			s.Release()
			if err != nil {
				return err
			}
		}
		rows += g.rows
	}
	return endGroup()
}

// recRun is rows [start, end) of rec.
type recRun struct {
	rec        arrow.Record
	start, end int64
}

// ShardPart is the shard a sharded analysis reads (ScanFileShard) and
// what it learns of the whole input while reading it.
type ShardPart struct {
	// Shard and Shards are the part: shard Shard (0 … Shards−1) of a
	// split Shards ways (Key.Shard).
	Shard, Shards int
	// Metric is the metric whose benchmark runs Runs lists ("" for
	// Primary).
	Metric string
	// RowsRead and Rows count the rows of the Parquet tables written by
	// shard (WriteOptions.ByShard) that were scanned: the rows of the row
	// groups read, and all their rows.
	RowsRead, Rows int64

	skipped bool
	runs    map[table.Key]bool
	// The row groups being read (their hash ranges and row counts) and
	// where the next row falls in them, for checkRows.
	ranges []hashRange
	counts []int64
	at     int
	left   int64
}

// Note adds the benchmark runs with rows of p's metric in rec (a record
// with schema's columns, read from any input) to those Runs lists.
func (p *ShardPart) Note(rec arrow.Record) {
	if p.runs == nil {
		p.runs = map[table.Key]bool{}
	}
	c := colsOf(rec)
	metric := p.metricName()
	last := [6]int32{-1}
	for i := 0; i < int(rec.NumRows()); i++ {
		idx := c.keyIndices(i)
		if idx == last {
			continue
		}
		last = idx
		if c.metric(i) != metric {
			continue
		}
		if k := c.Key(i); !p.runs[k] {
			p.runs[k.Clone()] = true
		}
	}
}

// OwnRuns returns whether a benchmark run is p's shard's, for a reader
// that keeps only those runs' rows of what it reads (MetricRows) although
// it reads every run (a result file): from then on Runs names the whole
// input's runs, as after row groups skipped.
func (p *ShardPart) OwnRuns() func(table.Key) bool {
	p.skipped = true
	return func(k table.Key) bool { return k.Shard(p.Shards) == p.Shard }
}

func (p *ShardPart) metricName() string {
	if p.Metric == "" {
		return table.Primary
	}
	return p.Metric
}

// Runs lists, in key order, the benchmark runs with rows of p's metric in
// the whole input, the row groups skipped included, when the scans
// skipped any (nil when they read everything: the rows read then name
// every run). Every record read must have gone through Note.
func (p *ShardPart) Runs() []table.Key {
	if p == nil || !p.skipped {
		return nil
	}
	out := make([]table.Key, 0, len(p.runs))
	for k := range p.runs {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Less(out[j]) })
	return out
}

// pickRowGroups returns the row groups of pf that scanParquet reads for
// p: those whose key hash range (metadataRowGroupHashes) meets the
// shard's, all of them for a file without the metadata or when p is nil
// or unsharded. Runs of p's metric in the row groups skipped go to p's
// runs (read from their key columns only).
func (p *ShardPart) pickRowGroups(pf *file.Reader, schema *arrow.Schema) ([]int, error) {
	all := make([]int, pf.NumRowGroups())
	for i := range all {
		all[i] = i
	}
	if p == nil || p.Shards <= 1 {
		return all, nil
	}
	p.Rows += pf.NumRows()
	p.ranges, p.counts, p.at, p.left = nil, nil, 0, 0
	v := pf.MetaData().KeyValueMetadata().FindValue(metadataRowGroupHashes)
	if v == nil {
		p.RowsRead += pf.NumRows()
		return all, nil
	}
	ranges, err := decodeHashRanges(*v, len(all))
	if err != nil {
		return nil, err
	}
	var read, skip []int
	p.ranges, p.counts = []hashRange{}, []int64{}
	for i, r := range ranges {
		if shardOfHash(r.lo, p.Shards) <= p.Shard && p.Shard <= shardOfHash(r.hi, p.Shards) {
			read = append(read, i)
			n := pf.MetaData().RowGroup(i).NumRows()
			p.RowsRead += n
			p.ranges, p.counts = append(p.ranges, r), append(p.counts, n)
			continue
		}
		skip = append(skip, i)
	}
	if len(skip) > 0 {
		p.skipped = true
		if err := p.noteSkipped(pf, schema, skip); err != nil {
			return nil, err
		}
	}
	return read, nil
}

// keyColumns are the columns noteSkipped reads: the key's and the metric.
var keyColumns = []int{idxProject, idxVersion, idxBenchmark, idxParams, idxMode, idxMetric}

// noteSkipped adds the runs of p's metric in row groups rowGroups of pf
// (whose Arrow schema is schema) to p's runs, reading only their key and
// metric columns.
func (p *ShardPart) noteSkipped(pf *file.Reader, schema *arrow.Schema, rowGroups []int) error {
	if p.runs == nil {
		p.runs = map[table.Key]bool{}
	}
	readers := make([]*parquetio.Column, len(keyColumns))
	for j, i := range keyColumns {
		r, err := parquetio.NewColumn(pf, i, schema.Field(i).Type, rowGroups)
		if err != nil {
			return err
		}
		readers[j] = r
	}
	metric := p.metricName()
	for {
		cols := make([]func(int) string, len(readers))
		arrays := make([]arrow.Array, 0, len(readers))
		rows := -1
		var err error
		for j, r := range readers {
			var a arrow.Array
			if a, err = r.Next(table.DefaultBatchRows); err != nil {
				break
			}
			n := 0
			if a != nil {
				arrays = append(arrays, a)
				n = a.Len()
			}
			if rows >= 0 && n != rows {
				err = fmt.Errorf("column %s: %d values, column %s %d", schema.Field(keyColumns[j]).Name, n, schema.Field(idxProject).Name, rows)
				break
			}
			rows = n
			if rows > 0 {
				cols[j], err = stringsOf(a)
				if err != nil {
					err = fmt.Errorf("column %s: %w", schema.Field(keyColumns[j]).Name, err)
					break
				}
			}
		}
		if err == nil && rows > 0 {
			var last table.Key
			for i := 0; i < rows; i++ {
				if cols[5](i) != metric {
					continue
				}
				k := table.Key{Project: cols[0](i), Version: cols[1](i), Benchmark: cols[2](i), Params: cols[3](i), Mode: cols[4](i)}
				if k != last && !p.runs[k] {
					p.runs[k.Clone()] = true
				}
				last = k
			}
		}
		releaseAll(arrays)
		if err != nil || rows <= 0 {
			return err
		}
	}
}

// stringsOf returns the accessor of row i's string of a column read from
// a table file: plain strings (version 1) or strings dictionary-encoded
// with int32 indices, checked to be within their dictionary.
func stringsOf(a arrow.Array) (func(int) string, error) {
	switch a := a.(type) {
	case *array.String:
		return a.Value, nil
	case *array.Dictionary:
		d, ok1 := a.Dictionary().(*array.String)
		idx, ok2 := a.Indices().(*array.Int32)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("type %s, want strings", a.DataType())
		}
		for i := 0; i < idx.Len(); i++ {
			if v := idx.Value(i); v < 0 || int(v) >= d.Len() {
				return nil, fmt.Errorf("dictionary index %d out of range [0, %d)", v, d.Len())
			}
		}
		return func(i int) string { return d.Value(int(idx.Value(i))) }, nil
	}
	return nil, fmt.Errorf("type %s, want strings", a.DataType())
}

// checkRows checks that every row of rec, the next rows read from the row
// groups pickRowGroups chose, has a key hash within its row group's
// recorded range: the shard's runs cannot then be in row groups skipped
// by a range that the file's rows belie.
func (p *ShardPart) checkRows(rec arrow.Record) error {
	if p == nil || p.ranges == nil {
		return nil
	}
	c := colsOf(rec)
	var last table.Key
	var h uint64
	for i := 0; i < int(rec.NumRows()); i++ {
		for p.left == 0 {
			if p.at >= len(p.counts) {
				return fmt.Errorf("more rows than the row groups read hold")
			}
			p.left = p.counts[p.at]
			p.at++
		}
		p.left--
		if k := c.Key(i); i == 0 || k != last {
			last, h = k, k.Hash()
		}
		if r := p.ranges[p.at-1]; h < r.lo || h > r.hi {
			return fmt.Errorf("%s holds a row in a row group whose %s range [%016x, %016x] leaves out its key hash %016x (the file was rewritten after benchtrim ingest --by-shard wrote it; ingest it again)",
				last, metadataRowGroupHashes, r.lo, r.hi, h)
		}
	}
	return nil
}

// shardOfHash is ⌊h·n / 2⁶⁴⌋: the shard of n (n ≥ 1) whose hash range
// holds h, as table.Key.Shard computes it from table.Key.Hash
// (TestShardOfHash). It does not decrease as h grows.
func shardOfHash(h uint64, n int) int {
	hi, _ := bits.Mul64(h, uint64(n))
	return int(hi)
}
