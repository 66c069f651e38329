package arrowio

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"slices"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/benchtrim/benchtrim/internal/parquetenc"
)

// parquetencTypes maps the Arrow types of flat columns to parquetenc's.
var parquetencTypes = map[arrow.Type]parquetenc.Type{
	arrow.STRING: parquetenc.String, arrow.INT32: parquetenc.Int32, arrow.INT64: parquetenc.Int64,
	arrow.FLOAT64: parquetenc.Double, arrow.BOOL: parquetenc.Boolean,
}

// ownCodecs maps ParquetOptions.Codec to parquetenc's codecs.
var ownCodecs = map[string]parquetenc.Codec{
	"": parquetenc.Zstd, Zstd: parquetenc.Zstd, Snappy: parquetenc.Snappy, noCompression: parquetenc.Uncompressed,
}

// flat reports whether every column of schema is a string (plain or
// dictionary-encoded), int32, int64, float64 or boolean column.
func flat(schema *arrow.Schema) bool {
	for _, f := range schema.Fields() {
		if _, ok := parquetencTypes[f.Type.ID()]; !ok && !arrow.TypeEqual(f.Type, stringDict) {
			return false
		}
	}
	return true
}

// newOwnParquetWriter is NewParquetWriterWith for a flat schema: the
// file is written by parquetenc. String and Runs columns are
// dictionary-encoded, Delta columns DELTA_BINARY_PACKED, the others
// PLAIN; every column gets statistics (parquetenc's cost nothing like
// pqarrow's, so NoStats is not needed). The footer's key-value metadata
// holds the schema's metadata, then ARROW:schema (the schema as an Arrow
// IPC message, base64, as pqarrow stores it: Arrow readers get the same
// types back), then what SetMetadata adds.
func newOwnParquetWriter(w io.Writer, schema *arrow.Schema, o ParquetOptions) (*ParquetWriter, error) {
	fields := schema.Fields()
	cols := make([]parquetenc.Column, len(fields))
	codecs := make([]parquetenc.Codec, len(fields))
	p := &ParquetWriter{schema: schema, mem: memory.DefaultAllocator,
		chunks: make([][]arrow.Array, len(fields)), dicts: make([]*dictColumn, len(fields)),
		ints: make([]*intDictColumn, len(fields)), delta: make([]bool, len(fields))}
	for i, f := range fields {
		t := parquetenc.String
		if !isStringish(f.Type) {
			t = parquetencTypes[f.Type.ID()]
		}
		cols[i] = parquetenc.Column{Name: f.Name, Type: t, Optional: f.Nullable}
		codecs[i] = ownCodecs[o.Codec]
		if slices.Contains(o.Snappy, f.Name) {
			codecs[i] = parquetenc.Snappy
		}
		switch {
		case t == parquetenc.String:
			p.dicts[i] = &dictColumn{}
		case slices.Contains(o.Runs, f.Name):
			if t != parquetenc.Int32 {
				return nil, fmt.Errorf("arrowio: column %s is %s, not int32", f.Name, f.Type)
			}
			p.ints[i] = &intDictColumn{}
		case slices.Contains(o.Delta, f.Name):
			if t != parquetenc.Int64 {
				return nil, fmt.Errorf("arrowio: column %s is %s, not int64", f.Name, f.Type)
			}
			p.delta[i] = true
		}
	}
	var kv [][2]string
	md := schema.Metadata()
	for i, k := range md.Keys() {
		kv = append(kv, [2]string{k, md.Values()[i]})
	}
	var buf bytes.Buffer
	iw := ipc.NewWriter(&buf, ipc.WithSchema(schema))
	if err := iw.Close(); err != nil {
		return nil, err
	}
	kv = append(kv, [2]string{"ARROW:schema", base64.StdEncoding.EncodeToString(buf.Bytes())})
	enc, err := parquetenc.NewWriter(w, cols, codecs, kv)
	if err != nil {
		return nil, err
	}
	p.enc = enc
	return p, nil
}

// flushOwn writes the collected rows as one row group with parquetenc.
func (p *ParquetWriter) flushOwn() error {
	if err := p.enc.BeginRowGroup(p.rows); err != nil {
		return err
	}
	p.groups++
	for i := range p.schema.Fields() {
		var err error
		switch d, n := p.dicts[i], p.ints[i]; {
		case d != nil:
			var idx []int32
			if d.zeros == 0 {
				idx = d.indices
			}
			err = p.enc.WriteStringDict(d.dict.values, idx)
			p.dicts[i] = &dictColumn{indices: d.indices[:0]}
		case n != nil:
			var idx []int32
			if n.zeros == 0 {
				idx = n.indices
			}
			err = p.enc.WriteInt32Dict(n.values, idx)
			p.ints[i] = &intDictColumn{indices: n.indices[:0]}
		default:
			err = p.enc.WriteArrays(p.chunks[i], p.delta[i])
		}
		if err != nil {
			return fmt.Errorf("arrowio: column %s: %w", p.schema.Field(i).Name, err)
		}
	}
	return p.enc.EndRowGroup()
}
