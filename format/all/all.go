// Package all lists every result-file format benchtrim reads, for
// ingest.ReadOptions.Formats:
//
//	t, rep, files, err := ingest.ReadFiles(paths, ingest.ReadOptions{Formats: all.Formats()})
//
// Flow: it sits between package ingest, which detects and drives formats
// but imports none, and the format/<name> packages; callers (cmd/benchtrim,
// tests) pass its list explicitly. Nothing registers itself at init.
package all

import (
	"github.com/benchtrim/benchtrim/format/duet"
	"github.com/benchtrim/benchtrim/format/gobench"
	"github.com/benchtrim/benchtrim/format/jmh"
	"github.com/benchtrim/benchtrim/format/pa"
	"github.com/benchtrim/benchtrim/format/uoptime"
	"github.com/benchtrim/benchtrim/ingest"
)

// Formats returns the readers of duet results (duetprocess CSV and
// duetbench directories), go test -bench text, JMH JSON, pa/bencher CSV
// and µOpTime's Go and Java CSV, in the order ReadFiles tries them and
// names them in messages: by name (duet, gobench, jmh, pa, uoptime,
// uoptime-jmh). Each call returns a new slice.
func Formats() []ingest.Format {
	return []ingest.Format{duet.Format(), gobench.Format(), jmh.Format(), pa.Format(), uoptime.Format(), uoptime.JMHFormat()}
}
