package tablefile

import (
	"io"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile/internal/parquetio"
)

// What the benchmarks against Arrow's own writers and readers
// (vslibrary_test.go, package tablefile_test, which imports ingest and
// synth to build a typical input) need of the package's insides.

// Coder is coder for package tablefile_test.
type Coder struct{ c coder }

// Encode is coder.encode.
func (c *Coder) Encode(rec arrow.Record) arrow.Record { return c.c.encode(rec) }

// Dictionaries is coder.dictionaries.
func (c *Coder) Dictionaries() []arrow.Array { return c.c.dictionaries() }

// CodedSchema is codedSchema.
func CodedSchema() *arrow.Schema { return codedSchema }

// SchemaWithSetups is the canonical schema with setups in its metadata,
// as an .arrow table file holds it.
func SchemaWithSetups(setups []table.Setup) (*arrow.Schema, error) {
	return schemaWithMetadata(&table.Table{Setups: setups})
}

// ParquetSchema is the schema Stream gives parquetio.Writer, the options
// it writes with (default compression), and the footer's key-value
// metadata of setups.
func ParquetSchema(setups []table.Setup) (*arrow.Schema, parquetio.Options, [2]string, error) {
	md := arrow.NewMetadata([]string{metadataVersion}, []string{formatVersion})
	js, err := setupsJSON(setups)
	return arrow.NewSchema(schema.Fields(), &md), parquetOptions(""), [2]string{metadataSetups, string(js)}, err
}

// WriteCodedIPC is writeCodedIPC with codes checked, as rawSpool calls it.
func WriteCodedIPC(w io.Writer, schema *arrow.Schema, dicts []arrow.Array, codec string, each func(yield func(arrow.Record) error) error) error {
	return writeCodedIPC(w, schema, dicts, codec, true, each)
}

// SetArrowHoldBytes sets arrowHoldBytes to n and returns its old value.
func SetArrowHoldBytes(n int64) int64 {
	old := arrowHoldBytes
	arrowHoldBytes = n
	return old
}

// HoldBytes are arrowHoldBytes and directHoldBytes.
func HoldBytes() (arrow, direct int64) { return arrowHoldBytes, directHoldBytes }

// RecordBytes is recordBytes.
func RecordBytes(rec arrow.Record) int64 { return recordBytes(rec) }
