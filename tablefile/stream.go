package tablefile

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"sync"
	"unsafe"

	"github.com/benchtrim/benchtrim/table"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/tablefile/internal/parquetio"
)

// Stream writes a table file at path (format by extension: .arrow, .ipc
// or .feather; .parquet or .pq; .csv) from the records fill produces, as
// they come: fill calls write with each record in order (write does not
// keep the record; the caller still releases it) and returns the setups
// once every record is written. Memory stays bounded by a record (plus a
// Parquet row group) whatever the table's size. It writes atomically
// (nothing at path unless every record and the setups were written) and
// puts the setups where ReadFile finds them:
//
//	.parquet  the file's key-value metadata, written in the footer at the end
//	.arrow    the schema metadata, which comes first in the file:
//	          uncompressed, the records are held up to directHoldBytes,
//	          then written into the file as they come behind a region
//	          that the schema and dictionaries fill at the end
//	          (directIPC); compressed, they are held up to
//	          arrowHoldBytes, then kept in a scratch file next to path
//	          (rawSpool), and written once the setups are known
//	.csv      the sidecar SetupsSidecar(path), written after the table
//
// An error of fill is returned as it is; write errors name path.
func Stream(path string, opt WriteOptions, fill func(write func(arrow.Record) error) ([]table.Setup, error)) error {
	f, err := formatOf(path)
	if err != nil {
		return err
	}
	if opt.ByShard && f != formatParquet {
		return fmt.Errorf("%s: a table is written by shard only as Parquet (.parquet)", path)
	}
	var fillErr error
	var setups []table.Setup
	errFill := errors.New("fill failed")
	err = atomicfile.Write(path, func(w io.Writer) error {
		sw, err := newStreamWriter(w, f, path, opt)
		if err != nil {
			return err
		}
		defer sw.abort()
		write := sw.write
		if opt.ByShard {
			sw.byShard = &shardBatcher{pq: sw.pq}
			defer sw.byShard.release()
			write = func(rec arrow.Record) error {
				if err := checkStreamSchema(rec); err != nil {
					return err
				}
				return sw.byShard.add(rec)
			}
		}
		p := newPipe(write)
		setups, fillErr = fill(p.write)
		werr := p.close()
		if fillErr != nil {
			return errFill
		}
		if werr != nil {
			return werr
		}
		if sw.byShard != nil {
			if err = sw.byShard.flush(); err != nil {
				return err
			}
		}
		if f == formatParquet {
			// With many setups the JSON and pqarrow's copies of it (its
			// buffer grows by doubling, then is copied) are the largest
			// allocations of the run, made just after the input's
			// bookkeeping (per run, as large as the setups) became
			// garbage: the heap's goal still counts it, so without a
			// collection first they would take fresh memory (10⁶
			// setups: 1.4 GB peak instead of 1.0).
			many := len(setups) >= manySetups
			if many {
				runtime.GC()
			}
			js, err := setupsJSON(setups)
			if err != nil {
				return err
			}
			setups = nil // the footer needs only the JSON
			if many {
				runtime.GC()
			}
			return sw.closeParquet(js)
		}
		return sw.close(setups)
	})
	if fillErr != nil {
		return fillErr
	}
	if err != nil || f != formatCSV {
		return err
	}
	t := &table.Table{Setups: setups}
	return atomicfile.Write(SetupsSidecar(path), func(w io.Writer) error { return writeSetupsCSV(t, w) })
}

// pipe runs a record writer in a goroutine of its own, so that encoding
// and compressing the file (Parquet's encoders, zstd) overlaps with
// producing the records (parsing the input): ingest takes the time of the
// slower of the two instead of their sum. Records keep their order; at
// most pipeDepth wait.
type pipe struct {
	ch   chan arrow.Record
	done chan struct{}
	mu   sync.Mutex
	err  error
}

const pipeDepth = 4

func newPipe(write func(arrow.Record) error) *pipe {
	p := &pipe{ch: make(chan arrow.Record, pipeDepth), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		for rec := range p.ch {
			if p.failed() == nil {
				if err := write(rec); err != nil {
					p.mu.Lock()
					p.err = err
					p.mu.Unlock()
				}
			}
			rec.Release()
		}
	}()
	return p
}

func (p *pipe) failed() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// write queues rec (retained until written), or returns the error of an
// earlier write.
func (p *pipe) write(rec arrow.Record) error {
	if err := p.failed(); err != nil {
		return err
	}
	rec.Retain()
	p.ch <- rec
	return nil
}

// close waits for the queued records to be written and returns the first
// write error.
func (p *pipe) close() error {
	close(p.ch)
	<-p.done
	return p.failed()
}

// streamWriter writes records to one table file of format f.
type streamWriter struct {
	f    fileFormat
	w    io.Writer
	opt  WriteOptions
	rows int64

	pq *parquetio.Writer
	// With WriteOptions.ByShard, the records go to byShard, which writes
	// them to pq a batch at a time in row groups of narrow hash ranges.
	byShard *shardBatcher

	cw  *csv.Writer
	row []string

	// .arrow: records go coded (coder) to held while they fit in
	// arrowHoldBytes, then all of them to the scratch file spool.
	// Uncompressed, they go from directHoldBytes on into the file itself
	// (direct) instead.
	path      string
	coder     *coder
	held      []arrow.Record
	heldBytes int64
	spool     *rawSpool
	direct    *directIPC
}

// directHoldBytes is how many bytes of coded records an uncompressed
// .arrow Stream holds before it writes them into the file (directIPC):
// a smaller table is written exactly as Arrow's file writer writes it,
// a larger one has padding in its schema message. useDirectIPC turns
// directIPC off (for the tests of the scratch file).
var (
	directHoldBytes int64 = 8 << 20
	useDirectIPC          = true
)

// directOK reports whether the records can go into the file as they
// come (directIPC): an uncompressed file written through an
// atomicfile.FileWriter.
func (s *streamWriter) directOK() bool {
	_, ok := s.w.(atomicfile.FileWriter)
	c := s.opt.ArrowCompression
	return ok && useDirectIPC && (c == "" || c == "none")
}

// arrowHoldBytes is how many bytes of coded records an .arrow Stream
// holds in memory before it moves them to a scratch file: a table of up
// to this size is written without the round trip through the disk (a
// variable for the tests).
var arrowHoldBytes int64 = 128 << 20

// parquetOptions is how table files are written to Parquet with page
// compression codec (see WriteOptions.ParquetCompression; default
// Snappy): level indices dictionary-encoded from dictionaries built as
// the rows go by (see parquetio.Options.Runs), counts and lines
// DELTA_BINARY_PACKED, value and ns_per_op PLAIN.
func parquetOptions(codec string) parquetio.Options {
	if codec == "" {
		codec = parquetio.Snappy
	}
	return parquetio.Options{
		Runs:  []string{schema.Field(idxInstance).Name, schema.Field(idxTrial).Name, schema.Field(idxFork).Name, schema.Field(idxIteration).Name, schema.Field(idxSlice).Name},
		Delta: []string{table.ColCount, table.ColLine},
		Codec: codec,
	}
}

func newStreamWriter(w io.Writer, f fileFormat, path string, opt WriteOptions) (*streamWriter, error) {
	s := &streamWriter{f: f, w: w, opt: opt}
	switch f {
	case formatParquet:
		md := arrow.NewMetadata([]string{metadataVersion}, []string{formatVersion})
		pq, err := parquetio.NewWriter(w, arrow.NewSchema(schema.Fields(), &md), parquetOptions(opt.ParquetCompression))
		if err != nil {
			return nil, err
		}
		s.pq = pq
	case formatArrow:
		if !validCodec(opt.ArrowCompression) {
			return nil, fmt.Errorf("tablefile: unknown IPC compression %q (want none, zstd or lz4)", opt.ArrowCompression)
		}
		s.path = path
		s.coder = &coder{}
	default:
		s.cw = csv.NewWriter(w)
		s.row = make([]string, numColumns)
		if err := s.cw.Write(csvHeader()); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func validCodec(c string) bool {
	for _, k := range ArrowCodecs {
		if c == k {
			return true
		}
	}
	return c == ""
}

// checkStreamSchema refuses a record Stream cannot write: one whose
// columns are not schema's.
func checkStreamSchema(rec arrow.Record) error {
	if !rec.Schema().Equal(schema) && !schema.Equal(arrow.NewSchema(rec.Schema().Fields(), nil)) {
		return fmt.Errorf("table: record with schema %s, want the canonical one", rec.Schema())
	}
	return nil
}

func (s *streamWriter) write(rec arrow.Record) error {
	if err := checkStreamSchema(rec); err != nil {
		return err
	}
	s.rows += rec.NumRows()
	switch s.f {
	case formatParquet:
		return s.pq.Write(rec)
	case formatArrow:
		r := s.coder.encode(rec)
		limit := arrowHoldBytes
		if s.directOK() {
			limit = directHoldBytes
		}
		if n := recordBytes(r); s.spool == nil && s.direct == nil && s.heldBytes+n <= limit {
			s.held = append(s.held, r)
			s.heldBytes += n
			return nil
		}
		defer r.Release()
		if s.spool == nil && s.direct == nil {
			if err := s.startSpool(); err != nil {
				return err
			}
		}
		if s.direct != nil {
			return s.direct.add(r)
		}
		return s.spool.add(r)
	default:
		return writeCSVRecord(s.cw, rec, s.row)
	}
}

// manySetups is the number of setups from which Stream collects garbage
// before it writes them into a Parquet footer.
const manySetups = 1 << 17

// setupsJSON is json.Marshal(setups), encoded a setup at a time into one
// buffer sized from a sample of 64 setups spread over the slice: Marshal
// of the slice holds the whole array twice (its encoder's buffer and the
// copy it returns), and a buffer grown from empty allocates a dozen of up
// to its size.
func setupsJSON(setups []table.Setup) ([]byte, error) {
	if setups == nil {
		return []byte("null"), nil
	}
	var js []byte
	if n := len(setups); n >= 1024 {
		sample := 0
		for i := 0; i < 64; i++ {
			b, err := json.Marshal(&setups[i*n/64])
			if err != nil {
				return nil, err
			}
			sample += len(b) + 1
		}
		js = make([]byte, 0, 2+sample*n/64*11/10) // 10 % to spare; append grows it if short
	}
	js = append(js, '[')
	for i := range setups {
		if i > 0 {
			js = append(js, ',')
		}
		b, err := json.Marshal(&setups[i])
		if err != nil {
			return nil, err
		}
		js = append(js, b...)
	}
	return append(js, ']'), nil
}

// closeParquet writes js, the setups' JSON, into the footer and ends the
// Parquet file. js must not change afterwards.
func (s *streamWriter) closeParquet(js []byte) error {
	pq := s.pq
	s.pq = nil
	if err := pq.SetMetadata(metadataSetups, unsafe.String(unsafe.SliceData(js), len(js))); err != nil {
		pq.Close()
		return err
	}
	if s.byShard != nil {
		if err := pq.SetMetadata(metadataRowGroupHashes, encodeHashRanges(s.byShard.ranges)); err != nil {
			pq.Close()
			return err
		}
	}
	return pq.Close()
}

// close writes the setups and ends an Arrow or CSV file.
func (s *streamWriter) close(setups []table.Setup) error {
	switch s.f {
	case formatArrow:
		return s.copySpool(setups)
	default:
		s.cw.Flush()
		return s.cw.Error()
	}
}

// recordBytes is the size of rec's buffers.
func recordBytes(rec arrow.Record) int64 {
	var n int64
	for _, c := range rec.Columns() {
		for _, b := range c.Data().Buffers() {
			if b != nil {
				n += int64(b.Len())
			}
		}
	}
	return n
}

// startSpool moves the held records to a new scratch file, where the
// records that follow go too.
func (s *streamWriter) startSpool() error {
	add := func(r arrow.Record) error { return s.spool.add(r) }
	if s.directOK() {
		d, err := newDirectIPC(s.w.(atomicfile.FileWriter))
		if err != nil {
			return err
		}
		s.direct, add = d, d.add
	} else {
		spool, err := newRawSpool(s.path)
		if err != nil {
			return err
		}
		s.spool = spool
	}
	held := s.held
	s.held, s.heldBytes = nil, 0
	defer releaseAll(held)
	for _, r := range held {
		if err := add(r); err != nil {
			return err
		}
	}
	return nil
}

// copySpool writes the held or spooled records, one at a time, as the
// Arrow IPC file with the setups in its schema metadata, each string
// column with the one dictionary of all its values (the IPC file format
// allows no other).
func (s *streamWriter) copySpool(setups []table.Setup) error {
	schema, err := schemaWithMetadata(&table.Table{Setups: setups})
	if err != nil {
		return err
	}
	if s.direct != nil {
		return s.direct.finish(schema, s.coder.dictionaries())
	}
	if s.spool != nil {
		return s.spool.writeTo(s.w, schema, s.coder.dictionaries(), s.opt.ArrowCompression)
	}
	held := s.held
	s.held = nil
	defer releaseAll(held)
	return writeCodedIPC(s.w, schema, s.coder.dictionaries(), s.opt.ArrowCompression, false, func(yield func(arrow.Record) error) error {
		for _, r := range held {
			if err := yield(r); err != nil {
				return err
			}
		}
		return nil
	})
}

// abort releases what an unfinished write holds.
func (s *streamWriter) abort() {
	if s.pq != nil {
		s.pq.Close()
	}
	releaseAll(s.held)
	s.held = nil
	if s.spool != nil {
		s.spool.remove()
	}
}

// writeCSVRecord writes rec's rows as RFC 4180 CSV records (csvFields)
// using buf. Floats use the shortest representation that parses back to
// the same double ("NaN", "inf", "-inf" for non-finite values); unknown
// timestamps are empty fields.
func writeCSVRecord(cw *csv.Writer, rec arrow.Record, buf []string) error {
	c := colsOf(rec)
	var r table.Row
	for i := 0; i < int(rec.NumRows()); i++ {
		c.Row(i, &r)
		csvFields(&r, buf)
		if err := cw.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// csvFields formats r into rec, one string per column.
func csvFields(r *table.Row, rec []string) {
	rec[idxProject], rec[idxVersion], rec[idxBenchmark] = r.Project, r.Version, r.Benchmark
	rec[idxParams], rec[idxMode], rec[idxMetric], rec[idxUnit] = r.Params, r.Mode, r.Metric, r.Unit
	rec[idxValue], rec[idxNsPerOp] = formatFloat(r.Value), formatFloat(r.NsPerOp)
	rec[idxCount] = strconv.FormatInt(r.Count, 10)
	rec[idxInstance] = strconv.Itoa(int(r.Instance))
	rec[idxTrial] = strconv.Itoa(int(r.Trial))
	rec[idxFork] = strconv.Itoa(int(r.Fork))
	rec[idxIteration] = strconv.Itoa(int(r.Iteration))
	rec[idxSlice] = strconv.Itoa(int(r.Slice))
	rec[idxWarmup] = strconv.FormatBool(r.Warmup)
	rec[idxStartNs], rec[idxEndNs] = "", ""
	if r.HasTime {
		rec[idxStartNs] = strconv.FormatInt(r.StartNs, 10)
		rec[idxEndNs] = strconv.FormatInt(r.EndNs, 10)
	}
	rec[idxPair], rec[idxSource] = r.Pair, r.Source
	rec[idxLine] = strconv.FormatInt(r.Line, 10)
}
