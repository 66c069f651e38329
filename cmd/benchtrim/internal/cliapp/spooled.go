package cliapp

import (
	"math"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/table"
)

// spooled is one set of input files read for an analysis that chunks
// several inputs jointly (compare's two sides): its records held in
// memory while they total at most a row limit, else a table.Spool
// grouped by a given function.
type spooled struct {
	held   []arrow.Record
	rows   int64
	spool  *table.Spool
	setups []table.Setup
	group  func(table.Key) table.Key
	// maxRows bounds a group's rows in the spool (math.MaxInt64: none).
	maxRows int64
}

// readSpooled streams paths (streamAllInputs, printing the input summary as
// LoadInputs does) keeping up to maxRows rows in memory and spooling all
// of them once there are more; group is the spool's GroupBy.
func readSpooled(c *cli.Context, paths []string, maxRows int64, group func(table.Key) table.Key) (*spooled, error) {
	s := &spooled{group: group, maxRows: maxRows}
	st, err := streamAllInputs(c, paths, func(rec arrow.Record) error {
		if s.spool == nil && s.rows+rec.NumRows() <= maxRows {
			rec.Retain()
			s.held = append(s.held, rec)
			s.rows += rec.NumRows()
			return nil
		}
		if err := s.toSpool(); err != nil {
			return err
		}
		s.rows += rec.NumRows()
		return s.spool.Add(rec)
	})
	if err != nil {
		s.Close()
		return nil, tooLarge(err)
	}
	if !GlobalsOf(c).Quiet {
		st.Report.WriteKinds(c.App.ErrWriter)
	}
	s.setups = st.Setups
	return s, nil
}

// toSpool moves the held records into a spool (a no-op once spooled).
func (s *spooled) toSpool() error {
	if s.spool != nil {
		return nil
	}
	sp, err := table.NewSpool("", nil)
	if err != nil {
		return err
	}
	sp.GroupBy(s.group)
	if s.maxRows < math.MaxInt64 {
		sp.LimitGroups(s.maxRows, nil)
	}
	for _, r := range s.held {
		if err := sp.Add(r); err != nil {
			sp.Close()
			return err
		}
	}
	s.spool = sp
	for _, r := range s.held {
		r.Release()
	}
	s.held = nil
	return nil
}

// table returns the held records as a table (the caller releases it;
// the Spooled gives them up). Only before ToSpool.
func (s *spooled) table() *table.Table {
	t := &table.Table{Records: s.held, Setups: s.setups}
	s.held = nil
	return t
}

// Close releases the held records and the spool.
func (s *spooled) Close() {
	for _, r := range s.held {
		r.Release()
	}
	s.held = nil
	if s.spool != nil {
		s.spool.Close()
	}
}
