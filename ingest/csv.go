package ingest

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
)

// CSVRecords reads the records of cr (its header already read), calling
// each with a record and the 1-based line it starts on. A record
// encoding/csv cannot parse is skipped and counted under the kind
// malformed, with its place and the lines it spans (a quote left open
// swallows the lines up to where csv gave up; csv resumes after the bad
// record); any other read error ends the read, naming file. It returns the
// number of records read, the malformed ones included, so that 0 means a
// header without data rows.
func CSVRecords(cr *csv.Reader, file string, rep *Report, malformed string, each func(rec []string, line int64)) (int, error) {
	rows := 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return rows, nil
		}
		rows++
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				return rows, fmt.Errorf("%s: reading: %w", file, err)
			}
			n := pe.Line - pe.StartLine + 1
			rep.Skip(malformed, n, &ParseError{File: file, Line: pe.StartLine,
				Msg: fmt.Sprintf("%v (line %d, column %d); %d line(s) skipped", pe.Err, pe.Line, pe.Column, n)})
			continue
		}
		line, _ := cr.FieldPos(0)
		each(rec, int64(line))
	}
}
