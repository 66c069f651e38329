package cliapp

import (
	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/ingest/chunk"
	"github.com/benchtrim/benchtrim/table"
)

// spooled is one set of input files read for an analysis that chunks
// several inputs jointly (compare's two sides): a chunk.Input holding
// its records in memory while they total at most a row limit, else in a
// table.Spool grouped by a given function.
type spooled struct {
	*chunk.Input
	setups []table.Setup
}

// readSpooled streams paths (streamAllInputs, printing the input summary as
// LoadInputs does) keeping up to maxRows rows in memory and spooling all
// of them once there are more; group is the spool's GroupBy.
func readSpooled(c *cli.Context, paths []string, maxRows int64, group func(table.Key) table.Key) (*spooled, error) {
	s := &spooled{Input: chunk.NewInput(chunk.Options{MaxRows: maxRows, Group: group})}
	st, err := streamAllInputs(c, paths, s.Input)
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
