// Package formats registers every result-file format benchtrim reads with
// package ingest. Import it for its side effect:
//
//	import _ "github.com/benchtrim/benchtrim/ingest/formats"
//
// after which ingest.ReadFiles detects JMH JSON, µOpTime Go CSV, go test
// -bench text and pa/bencher CSV by content.
package formats

import (
	"github.com/benchtrim/benchtrim/format/gobench"
	"github.com/benchtrim/benchtrim/format/jmh"
	"github.com/benchtrim/benchtrim/format/pa"
	"github.com/benchtrim/benchtrim/format/uoptime"
	"github.com/benchtrim/benchtrim/ingest"
)

func init() {
	ingest.Register(jmh.Format{})
	ingest.Register(uoptime.Format{})
	ingest.Register(gobench.Format{})
	ingest.Register(pa.Format{})
}
