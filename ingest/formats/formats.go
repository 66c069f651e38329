// Package formats registers every result-file format benchtrim reads with
// package ingest. Import it for its side effect:
//
//	import _ "github.com/benchtrim/benchtrim/ingest/formats"
//
// after which ingest.ReadFiles detects JMH JSON, µOpTime Go CSV, go test
// -bench text, pa/bencher CSV and duetprocess CSV by content, and reads
// duetbench output directories.
package formats

import (
	"github.com/benchtrim/benchtrim/format/duet"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/gobench"
	"github.com/benchtrim/benchtrim/ingest/jmh"
	"github.com/benchtrim/benchtrim/ingest/pa"
	"github.com/benchtrim/benchtrim/ingest/uoptime"
)

func init() {
	ingest.Register(jmh.Format{})
	ingest.Register(uoptime.Format{})
	ingest.Register(gobench.Format{})
	ingest.Register(pa.Format{})
	ingest.Register(duet.Format{})
}
