package main

import (
	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
)

// mergeCommand combines the partials of the commands that write them, in
// help order.
func mergeCommand() *cli.Command {
	return cliapp.MergeCommand(help("merge"),
		[]*cli.Command{optimizeCommand(), reconfigureCommand(), steadyCommand(), trimCommand(), duetCommand()},
		optimizeAnalyzer, reconfigureAnalyzer, steadyAnalyzer, trimAnalyzer, duetAnalyzer)
}
