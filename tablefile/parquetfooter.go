package tablefile

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/benchtrim/benchtrim/tablefile/internal/thrift"
)

// The parquet library decodes a file's footer (a Thrift compact-protocol
// FileMetaData) into Go values sized by the counts it reads, and builds the
// schema tree by them: a root schema element claiming 2³⁰ children makes it
// ask for 16 GiB at once, which the Go runtime cannot satisfy and cannot
// turn into a panic. checkParquetFooter walks the footer's bytes first,
// allocating only as elements are actually present, and bounds every count,
// size and offset by what the footer's length and the file's size allow.

// Parquet files end with the footer, its length (4 bytes) and "PAR1".
const (
	parquetMagic   = "PAR1"
	parquetTail    = 8
	maxSchemaDepth = 16 // groups within groups (a list column: 3)
	// minPageBytes is the least a page takes in a column chunk: its header
	// alone (type, sizes and a nested page header) takes more.
	minPageBytes = 8
	maxPageCount = math.MaxInt32 // values in a page, bytes of a page (i32 in the page header)
)

// footerError is a footer that breaks a bound, with the field's path.
type footerError = thrift.Error

// footerWalker walks a footer's FileMetaData with the bounds of
// checkParquetFooter.
type footerWalker struct{ thrift.Reader }

// checkParquetFooter checks the footer of the Parquet file r of size bytes
// before the parquet library reads it (file.NewParquetReader): the
// FileMetaData decodes, every list, string and child count fits in the
// footer's bytes, the schema is a tree of at most 16 levels, every offset
// and size lies inside the file, and the row and value counts agree with
// each other and with what the column chunks' bytes can hold. Errors name
// the field ("Parquet footer: schema[0].num_children: …"). site, when not
// nil, is told where each integer of the footer is (for the tests that
// damage them).
func checkParquetFooter(r io.ReaderAt, size int64, site func(thrift.Site)) error {
	if size < 2*int64(len(parquetMagic))+4 {
		return fmt.Errorf("parquet file of %d bytes is too small", size)
	}
	var tail [parquetTail]byte
	if _, err := r.ReadAt(tail[:], size-parquetTail); err != nil {
		return fmt.Errorf("reading the footer: %w", err)
	}
	if string(tail[4:]) != parquetMagic {
		if string(tail[4:]) == "PARE" {
			return &footerError{Path: "magic", Msg: "encrypted footer (PARE): encrypted Parquet files are not read"}
		}
		return fmt.Errorf("not a Parquet file (no %s at the end)", parquetMagic)
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	dataEnd := size - parquetTail - n
	if n == 0 || dataEnd < int64(len(parquetMagic)) {
		return &footerError{Path: "length", Msg: fmt.Sprintf("%d bytes in a file of %d bytes", n, size)}
	}
	buf := make([]byte, n)
	if _, err := r.ReadAt(buf, dataEnd); err != nil {
		return fmt.Errorf("reading the footer: %w", err)
	}
	w := &footerWalker{Reader: thrift.Reader{B: buf, Site: site}}
	fm := w.fileMetaData()
	if w.Err == nil && w.Pos != len(w.B) {
		w.Fail("", "%d bytes after the file metadata", len(w.B)-w.Pos)
	}
	if w.Err != nil {
		return w.Err
	}
	return fm.check(dataEnd)
}

// pqElement is what the checks need of a SchemaElement.
type pqElement struct {
	name                                   string
	typ, typeLength, repetition, nChildren int64
	hasType                                bool
}

// pqChunk is what the checks need of a ColumnChunk and its metadata.
type pqChunk struct {
	hasMeta                         bool
	typ, numValues, codec           int64
	fileOffset                      int64
	nullCount, distinctCount        int64
	uncompressed, compressed        int64
	dataPage, dictPage              int64
	hasDictPage                     bool
	path                            []string
	ranges                          []pqRange
	encodingStatsPages, encodingSum int64
}

// pqRange is an optional offset and length (column index, offset index,
// bloom filter; length -1 when the format gives none).
type pqRange struct {
	field       string
	off, length int64
}

type pqRowGroup struct {
	columns                       []pqChunk
	numRows, byteSize, compressed int64
	fileOffset                    int64
	hasFileOffset                 bool
	sortingColumns                []int64
	ordinal                       int64
	hasOrdinal                    bool
	fieldPrefix                   string   // the row group's path
	sortingFields                 []string // the sorting columns' paths
}

type pqFooter struct {
	version, numRows int64
	schema           []pqElement
	rowGroups        []pqRowGroup
	columnOrders     int
	hasColumnOrders  bool
}

// Enumerations of parquet.thrift: the largest value of each.
const (
	maxPhysicalType  = 7  // BOOLEAN … FIXED_LEN_BYTE_ARRAY
	maxRepetition    = 2  // REQUIRED, OPTIONAL, REPEATED
	maxConvertedType = 21 // UTF8 … INTERVAL
	maxEncoding      = 9  // PLAIN … BYTE_STREAM_SPLIT
	maxCodec         = 7  // UNCOMPRESSED … LZ4_RAW
	maxPageType      = 3  // DATA_PAGE … DATA_PAGE_V2
	maxDecimalDigits = 76 // decimal256
)

func (w *footerWalker) fileMetaData() *pqFooter {
	fm := &pqFooter{version: -1, numRows: -1}
	w.Struct("", thrift.Struct, func(id int16, typ byte) {
		switch id {
		case 1:
			fm.version = w.Between("version", typ, 1, 2)
		case 2:
			w.Each("schema", typ, func(i int) { fm.schema = append(fm.schema, w.schemaElement()) })
		case 3:
			fm.numRows = w.Between("num_rows", typ, 0, math.MaxInt64)
		case 4:
			w.Each("row_groups", typ, func(i int) { fm.rowGroups = append(fm.rowGroups, w.rowGroup()) })
		case 5:
			w.Each("key_value_metadata", typ, func(int) { w.keyValue() })
		case 6:
			w.Binary("created_by", typ)
		case 7:
			fm.hasColumnOrders = true
			fm.columnOrders = w.Each("column_orders", typ, func(int) { w.Skip("", thrift.Struct) })
		case 8, 9:
			w.Fail(map[int16]string{8: "encryption_algorithm", 9: "footer_signing_key_metadata"}[id],
				"encrypted Parquet files are not read")
		default:
			w.Skip(fmt.Sprint("field ", id), typ)
		}
	})
	switch {
	case w.Err != nil:
	case fm.version < 0:
		w.Fail("version", "missing")
	case len(fm.schema) == 0:
		w.Fail("schema", "missing or empty")
	case fm.numRows < 0:
		w.Fail("num_rows", "missing")
	}
	return fm
}

func (w *footerWalker) keyValue() {
	w.Struct("", thrift.Struct, func(id int16, typ byte) {
		switch id {
		case 1:
			w.Binary("key", typ)
		case 2:
			w.Binary("value", typ)
		default:
			w.Skip(fmt.Sprint("field ", id), typ)
		}
	})
}

func (w *footerWalker) schemaElement() pqElement {
	e := pqElement{typ: -1, typeLength: -1, repetition: -1}
	decimal := func(name string, typ byte) int64 { return w.Between(name, typ, 0, maxDecimalDigits) }
	w.Struct("", thrift.Struct, func(id int16, typ byte) {
		switch id {
		case 1:
			e.typ, e.hasType = w.Between("type", typ, 0, maxPhysicalType), true
		case 2:
			e.typeLength = w.Between("type_length", typ, 0, int64(len(w.B))+math.MaxInt32)
		case 3:
			e.repetition = w.Between("repetition_type", typ, 0, maxRepetition)
		case 4:
			e.name = string(w.Binary("name", typ))
		case 5:
			e.nChildren = w.Between("num_children", typ, 0, math.MaxInt32)
		case 6:
			w.Between("converted_type", typ, 0, maxConvertedType)
		case 7:
			decimal("scale", typ)
		case 8:
			decimal("precision", typ)
		case 9:
			w.Int("field_id", typ)
		case 10:
			w.logicalType(typ)
		default:
			w.Skip(fmt.Sprint("field ", id), typ)
		}
	})
	return e
}

// logicalType reads the LogicalType union: the integers in it are checked,
// the rest (empty structs) skipped.
func (w *footerWalker) logicalType(typ byte) {
	w.Struct("logicalType", typ, func(id int16, typ byte) {
		switch id {
		case 5: // DECIMAL
			w.Struct("DECIMAL", typ, func(id int16, typ byte) {
				switch id {
				case 1:
					w.Between("scale", typ, 0, maxDecimalDigits)
				case 2:
					w.Between("precision", typ, 1, maxDecimalDigits)
				default:
					w.Skip(fmt.Sprint("field ", id), typ)
				}
			})
		case 10: // INTEGER
			w.Struct("INTEGER", typ, func(id int16, typ byte) {
				switch id {
				case 1:
					if b := w.Int("bitWidth", typ); w.Err == nil && b != 8 && b != 16 && b != 32 && b != 64 {
						w.Fail("bitWidth", "%d, want 8, 16, 32 or 64", b)
					}
				default:
					w.Skip(fmt.Sprint("field ", id), typ)
				}
			})
		default:
			w.Skip(fmt.Sprint("field ", id), typ)
		}
	})
}

func (w *footerWalker) rowGroup() pqRowGroup {
	rg := pqRowGroup{numRows: -1, byteSize: -1, compressed: -1, fieldPrefix: w.Field("")}
	w.Struct("", thrift.Struct, func(id int16, typ byte) {
		switch id {
		case 1:
			w.Each("columns", typ, func(i int) { rg.columns = append(rg.columns, w.columnChunk()) })
		case 2:
			rg.byteSize = w.Between("total_byte_size", typ, 0, math.MaxInt64)
		case 3:
			rg.numRows = w.Between("num_rows", typ, 0, math.MaxInt64)
		case 4:
			w.Each("sorting_columns", typ, func(int) {
				w.Struct("", thrift.Struct, func(id int16, typ byte) {
					if id == 1 {
						rg.sortingColumns = append(rg.sortingColumns, w.Between("column_idx", typ, 0, math.MaxInt32))
						rg.sortingFields = append(rg.sortingFields, w.Field("column_idx"))
						return
					}
					w.Skip(fmt.Sprint("field ", id), typ)
				})
			})
		case 5:
			rg.fileOffset, rg.hasFileOffset = w.Between("file_offset", typ, 0, math.MaxInt64), true
		case 6:
			rg.compressed = w.Between("total_compressed_size", typ, 0, math.MaxInt64)
		case 7:
			rg.ordinal, rg.hasOrdinal = w.Between("ordinal", typ, 0, math.MaxInt16), true
		default:
			w.Skip(fmt.Sprint("field ", id), typ)
		}
	})
	if w.Err == nil && (rg.numRows < 0 || rg.byteSize < 0) {
		w.Fail("", "num_rows or total_byte_size missing")
	}
	return rg
}

func (w *footerWalker) columnChunk() pqChunk {
	c := pqChunk{typ: -1, numValues: -1, uncompressed: -1, compressed: -1, dataPage: -1}
	rng := map[int16]*pqRange{}
	offLen := func(offID, lenID int16, name string) {
		rng[offID] = &pqRange{field: w.Field(name), off: -1, length: -1}
		rng[lenID] = rng[offID]
	}
	offLen(4, 5, "offset_index")
	offLen(6, 7, "column_index")
	w.Struct("", thrift.Struct, func(id int16, typ byte) {
		switch id {
		case 1:
			w.Binary("file_path", typ)
			w.Fail("file_path", "column data in another file is not read")
		case 2:
			c.fileOffset = w.Between("file_offset", typ, 0, math.MaxInt64)
		case 3:
			c.hasMeta = true
			w.columnMetaData(typ, &c)
		case 4, 6:
			rng[id].off = w.Between(map[int16]string{4: "offset_index_offset", 6: "column_index_offset"}[id], typ, 0, math.MaxInt64)
		case 5, 7:
			rng[id].length = w.Between(map[int16]string{5: "offset_index_length", 7: "column_index_length"}[id], typ, 0, math.MaxInt32)
		case 8, 9:
			w.Fail(map[int16]string{8: "crypto_metadata", 9: "encrypted_column_metadata"}[id], "encrypted Parquet files are not read")
		default:
			w.Skip(fmt.Sprint("field ", id), typ)
		}
	})
	for _, id := range []int16{4, 6} {
		if r := rng[id]; r.off >= 0 || r.length >= 0 {
			c.ranges = append(c.ranges, *r)
		}
	}
	if w.Err == nil && !c.hasMeta {
		w.Fail("meta_data", "missing")
	}
	return c
}

func (w *footerWalker) columnMetaData(typ byte, c *pqChunk) {
	bloom := pqRange{off: -1, length: -1}
	w.Struct("meta_data", typ, func(id int16, typ byte) {
		switch id {
		case 1:
			c.typ = w.Between("type", typ, 0, maxPhysicalType)
		case 2:
			n := w.List("encodings", typ, thrift.I32)
			for i := 0; i < n && w.Err == nil; i++ {
				name := fmt.Sprintf("encodings[%d]", i)
				if e := w.Between(name, thrift.I32, 0, maxEncoding); e == 1 {
					w.Fail(name, "1 is not an encoding")
				}
			}
		case 3:
			n := w.List("path_in_schema", typ, thrift.Binary)
			for i := 0; i < n && w.Err == nil; i++ {
				c.path = append(c.path, string(w.Binary(fmt.Sprintf("path_in_schema[%d]", i), thrift.Binary)))
			}
		case 4:
			c.codec = w.Between("codec", typ, 0, maxCodec)
		case 5:
			c.numValues = w.Between("num_values", typ, 0, math.MaxInt64)
		case 6:
			c.uncompressed = w.Between("total_uncompressed_size", typ, 0, math.MaxInt64)
		case 7:
			c.compressed = w.Between("total_compressed_size", typ, 0, math.MaxInt64)
		case 8:
			w.Each("key_value_metadata", typ, func(int) { w.keyValue() })
		case 9:
			c.dataPage = w.Between("data_page_offset", typ, 0, math.MaxInt64)
		case 10:
			c.ranges = append(c.ranges, pqRange{field: w.Field("index_page_offset"), off: w.Between("index_page_offset", typ, 0, math.MaxInt64), length: -1})
		case 11:
			c.dictPage, c.hasDictPage = w.Between("dictionary_page_offset", typ, 0, math.MaxInt64), true
		case 12:
			// The statistics' counts size nothing, and arrow v15 writes a
			// negative null_count for dictionary columns: they are
			// bounded from above only.
			w.Struct("statistics", typ, func(id int16, typ byte) {
				switch id {
				case 3:
					c.nullCount = w.Int("null_count", typ)
				case 4:
					c.distinctCount = w.Int("distinct_count", typ)
				default:
					w.Skip(fmt.Sprint("field ", id), typ)
				}
			})
		case 13:
			w.Each("encoding_stats", typ, func(int) {
				w.Struct("", thrift.Struct, func(id int16, typ byte) {
					switch id {
					case 1:
						w.Between("page_type", typ, 0, maxPageType)
					case 2:
						if e := w.Between("encoding", typ, 0, maxEncoding); e == 1 {
							w.Fail("encoding", "1 is not an encoding")
						}
					case 3:
						c.encodingSum += w.Between("count", typ, 0, math.MaxInt32)
						c.encodingStatsPages++
					default:
						w.Skip(fmt.Sprint("field ", id), typ)
					}
				})
			})
		case 14:
			bloom.field = w.Field("bloom_filter")
			bloom.off = w.Between("bloom_filter_offset", typ, 0, math.MaxInt64)
		case 15:
			bloom.field = w.Field("bloom_filter")
			bloom.length = w.Between("bloom_filter_length", typ, 0, math.MaxInt32)
		default:
			w.Skip(fmt.Sprint("field ", id), typ)
		}
	})
	if bloom.off >= 0 || bloom.length >= 0 {
		c.ranges = append(c.ranges, bloom)
	}
	if w.Err == nil && (c.typ < 0 || c.numValues < 0 || c.uncompressed < 0 || c.compressed < 0 || c.dataPage < 0) {
		w.Fail("meta_data", "type, num_values, total_uncompressed_size, total_compressed_size or data_page_offset missing")
	}
}

// satMul is a·b, or math.MaxInt64 when that overflows (a, b ≥ 0).
func satMul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

// maxValues is the most values n bytes of pages can hold: each page has a
// header of at least minPageBytes and at most 2³¹−1 values.
func maxValues(n int64) int64 { return satMul(n/minPageBytes+1, maxPageCount) }

// maxRatio is the most bytes one byte compressed by codec (a
// CompressionCodec) can decompress to: snappy's longest copy (64 bytes for
// 3), deflate's 1032, an LZ4 match (255 per length byte), a zstd RLE block
// (128 KiB for 4 bytes); LZO and Brotli (16 MiB runs) are bounded by the
// pages' sizes alone.
func maxRatio(codec int64) int64 {
	switch codec {
	case 0:
		return 1
	case 1:
		return 22
	case 2:
		return 1032
	case 5, 7:
		return 256
	case 6:
		return 1 << 15
	}
	return maxPageCount
}

// maxUncompressed is the most bytes the compressed bytes of a column chunk
// (page headers and pages) can decompress to.
func maxUncompressed(compressed, codec int64) int64 {
	return min(satMul(compressed, maxRatio(codec)), compressed+satMul(compressed/minPageBytes+1, maxPageCount))
}

// leaf is a column of the schema: its physical type, path, and whether
// it or a group above it repeats.
type leaf struct {
	typ      int64
	path     []string
	repeated bool
}

// leaves checks that the schema is one tree, the root's, with num_children
// bounded by the elements that follow, and returns its columns.
func (fm *pqFooter) leaves() ([]leaf, error) {
	els := fm.schema
	if els[0].nChildren == 0 {
		if len(els) > 1 {
			return nil, &footerError{Path: "schema[0].num_children", Msg: fmt.Sprintf("0, but %d more schema elements follow", len(els)-1)}
		}
		return nil, nil
	}
	type open struct {
		left     int64
		repeated bool
		name     string
	}
	stack := []open{{left: 1}}
	var out []leaf
	for i, e := range els {
		if len(stack) == 0 {
			return nil, &footerError{Path: fmt.Sprintf("schema[%d]", i), Msg: fmt.Sprintf("outside the root's tree (%d elements, the tree ends at %d)", len(els), i)}
		}
		top := &stack[len(stack)-1]
		top.left--
		repeated := top.repeated || i > 0 && e.repetition == 2
		if e.nChildren > int64(len(els)-i-1) {
			return nil, &footerError{Path: fmt.Sprintf("schema[%d].num_children", i), Msg: fmt.Sprintf("%d, but only %d schema elements follow", e.nChildren, len(els)-i-1)}
		}
		var path []string // the names below the root's
		if i > 0 {
			for _, o := range stack[2:] {
				path = append(path, o.name)
			}
			path = append(path, e.name)
		}
		if e.nChildren > 0 {
			if e.hasType {
				return nil, &footerError{Path: fmt.Sprintf("schema[%d].type", i), Msg: "set on a group"}
			}
			if len(stack) > maxSchemaDepth {
				return nil, &footerError{Path: fmt.Sprintf("schema[%d]", i), Msg: fmt.Sprintf("groups nested more than %d deep", maxSchemaDepth)}
			}
			stack = append(stack, open{left: e.nChildren, repeated: repeated, name: e.name})
		} else {
			if !e.hasType {
				return nil, &footerError{Path: fmt.Sprintf("schema[%d].type", i), Msg: "missing on a column"}
			}
			if e.typ == maxPhysicalType && e.typeLength <= 0 {
				return nil, &footerError{Path: fmt.Sprintf("schema[%d].type_length", i), Msg: "missing on a FIXED_LEN_BYTE_ARRAY column"}
			}
			out = append(out, leaf{typ: e.typ, path: path, repeated: repeated})
		}
		for len(stack) > 0 && stack[len(stack)-1].left == 0 {
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		return nil, &footerError{Path: "schema", Msg: fmt.Sprintf("%d elements, too few for the groups' num_children", len(els))}
	}
	return out, nil
}

// check checks the footer's counts against each other and its offsets and
// sizes against dataEnd, where the column data ends (the footer begins).
func (fm *pqFooter) check(dataEnd int64) error {
	leaves, err := fm.leaves()
	if err != nil {
		return err
	}
	fail := func(field, format string, args ...any) error {
		return &footerError{Path: field, Msg: fmt.Sprintf(format, args...)}
	}
	inside := func(field string, off, n int64) error {
		if off < int64(len(parquetMagic)) || off > dataEnd || n > dataEnd-off {
			return fail(field, "offset %d, %d bytes: outside the column data [%d, %d)", off, n, len(parquetMagic), dataEnd)
		}
		return nil
	}
	if fm.hasColumnOrders && fm.columnOrders != len(leaves) {
		return fail("column_orders", "%d entries for %d columns", fm.columnOrders, len(leaves))
	}
	var rows int64
	for _, rg := range fm.rowGroups {
		at := func(f string) string { return rg.fieldPrefix + "." + f }
		if len(rg.columns) != len(leaves) {
			return fail(at("columns"), "%d column chunks for %d columns of the schema", len(rg.columns), len(leaves))
		}
		if rg.numRows > maxValues(dataEnd) {
			return fail(at("num_rows"), "%d, more than %d bytes of column data can hold", rg.numRows, dataEnd)
		}
		if rows += rg.numRows; rows < 0 || rows > maxValues(dataEnd) {
			return fail(at("num_rows"), "%d: the row groups' rows add up to more than %d bytes of column data can hold", rg.numRows, dataEnd)
		}
		var byteSizeLimit int64
		for _, ch := range rg.columns {
			byteSizeLimit = min(byteSizeLimit+maxUncompressed(ch.compressed, ch.codec), math.MaxInt64/2)
		}
		if rg.byteSize > byteSizeLimit {
			return fail(at("total_byte_size"), "%d, more than the column chunks can hold (%d)", rg.byteSize, byteSizeLimit)
		}
		if rg.compressed > dataEnd {
			return fail(at("total_compressed_size"), "%d, more than the %d bytes of column data", rg.compressed, dataEnd)
		}
		if rg.hasFileOffset {
			if err := inside(at("file_offset"), rg.fileOffset, 0); err != nil {
				return err
			}
		}
		if rg.hasOrdinal && rg.ordinal >= int64(len(fm.rowGroups)) {
			return fail(at("ordinal"), "%d of %d row groups", rg.ordinal, len(fm.rowGroups))
		}
		for i, col := range rg.sortingColumns {
			if col >= int64(len(leaves)) {
				return fail(rg.sortingFields[i], "%d of %d columns", col, len(leaves))
			}
		}
		for c, ch := range rg.columns {
			at := func(f string) string { return fmt.Sprintf("%s.columns[%d].meta_data.%s", rg.fieldPrefix, c, f) }
			lf := leaves[c]
			if ch.typ != lf.typ {
				return fail(at("type"), "%d, but the schema's column %s has type %d", ch.typ, strings.Join(lf.path, "."), lf.typ)
			}
			if strings.Join(ch.path, "\x00") != strings.Join(lf.path, "\x00") {
				return fail(at("path_in_schema"), "%q, but the schema's column %d is %q", ch.path, c+1, lf.path)
			}
			start := ch.dataPage
			if ch.hasDictPage && ch.dictPage > 0 {
				// The dictionary page comes first (the reader starts at
				// the smaller offset).
				if err := inside(at("dictionary_page_offset"), ch.dictPage, 0); err != nil {
					return err
				}
				if ch.dictPage > start {
					return fail(at("dictionary_page_offset"), "%d, after the data pages at %d", ch.dictPage, start)
				}
				start = ch.dictPage
			}
			if err := inside(at("data_page_offset"), ch.dataPage, 0); err != nil {
				return err
			}
			if err := inside(fmt.Sprintf("%s.columns[%d].file_offset", rg.fieldPrefix, c), ch.fileOffset, 0); err != nil && ch.fileOffset != 0 {
				return err
			}
			if err := inside(at("total_compressed_size"), start, ch.compressed); err != nil {
				return err
			}
			limit := maxValues(ch.compressed)
			switch {
			case ch.numValues > limit:
				return fail(at("num_values"), "%d, more than %d bytes of pages can hold", ch.numValues, ch.compressed)
			case !lf.repeated && ch.numValues != rg.numRows:
				return fail(at("num_values"), "%d values in a row group of %d rows", ch.numValues, rg.numRows)
			case ch.numValues < rg.numRows:
				return fail(at("num_values"), "%d values in a row group of %d rows", ch.numValues, rg.numRows)
			case ch.uncompressed > maxUncompressed(ch.compressed, ch.codec):
				return fail(at("total_uncompressed_size"), "%d, more than %d bytes of pages compressed with codec %d can hold", ch.uncompressed, ch.compressed, ch.codec)
			case ch.nullCount > ch.numValues:
				return fail(at("statistics.null_count"), "%d of %d values", ch.nullCount, ch.numValues)
			case ch.distinctCount > ch.numValues:
				return fail(at("statistics.distinct_count"), "%d of %d values", ch.distinctCount, ch.numValues)
			case ch.encodingStatsPages > 0 && ch.encodingSum > ch.compressed/minPageBytes+1:
				return fail(at("encoding_stats"), "%d pages in %d bytes", ch.encodingSum, ch.compressed)
			}
			for _, r := range ch.ranges {
				if err := inside(r.field, r.off, max(r.length, 0)); err != nil {
					return err
				}
			}
		}
	}
	if rows != fm.numRows {
		return fail("num_rows", "%d, but the row groups hold %d", fm.numRows, rows)
	}
	return nil
}
