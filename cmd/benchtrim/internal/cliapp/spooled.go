package cliapp

import (
	"github.com/apache/arrow/go/v15/arrow"
	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/table"
)

// Spooled is one set of input files read for an analysis that chunks
// several inputs jointly (compare's two sides): its records held in
// memory while they total at most a row limit, else a table.Spool
// grouped by a given function.
type Spooled struct {
	Held   []arrow.Record
	Rows   int64
	Spool  *table.Spool
	Setups []table.Setup
	group  func(table.Key) table.Key
}

// ReadSpooled streams paths (StreamInputs, printing the input summary as
// LoadInputs does) keeping up to maxRows rows in memory and spooling all
// of them once there are more; group is the spool's GroupBy.
func ReadSpooled(c *cli.Context, paths []string, maxRows int64, group func(table.Key) table.Key) (*Spooled, error) {
	s := &Spooled{group: group}
	st, err := StreamInputs(c, paths, func(rec arrow.Record) error {
		if s.Spool == nil && s.Rows+rec.NumRows() <= maxRows {
			rec.Retain()
			s.Held = append(s.Held, rec)
			s.Rows += rec.NumRows()
			return nil
		}
		if err := s.ToSpool(); err != nil {
			return err
		}
		s.Rows += rec.NumRows()
		return s.Spool.Add(rec)
	})
	if err != nil {
		s.Close()
		return nil, err
	}
	if !GlobalsOf(c).Quiet {
		st.Report.WriteKinds(c.App.ErrWriter)
	}
	s.Setups = st.Setups
	return s, nil
}

// ToSpool moves the held records into a spool (a no-op once spooled).
func (s *Spooled) ToSpool() error {
	if s.Spool != nil {
		return nil
	}
	sp, err := table.NewSpool("", nil)
	if err != nil {
		return err
	}
	sp.GroupBy(s.group)
	for _, r := range s.Held {
		if err := sp.Add(r); err != nil {
			sp.Close()
			return err
		}
	}
	s.Spool = sp
	for _, r := range s.Held {
		r.Release()
	}
	s.Held = nil
	return nil
}

// Table returns the held records as a table (the caller releases it;
// the Spooled gives them up). Only before ToSpool.
func (s *Spooled) Table() *table.Table {
	t := &table.Table{Records: s.Held, Setups: s.Setups}
	s.Held = nil
	return t
}

// Close releases the held records and the spool.
func (s *Spooled) Close() {
	for _, r := range s.Held {
		r.Release()
	}
	s.Held = nil
	if s.Spool != nil {
		s.Spool.Close()
	}
}
