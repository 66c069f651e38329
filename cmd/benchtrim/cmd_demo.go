package main

import (
	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/demo"
)

func demoCommand() *cli.Command {
	return command("demo", "", "generate a realistic synthetic suite and run every analyzer on it", runDemo,
		cliapp.Group("Demo",
			&cli.StringFlag{Name: "dir", Value: "demo", Usage: "directory for generated data and outputs (made if absent; its files are overwritten)"},
			&cli.StringFlag{Name: "only", Usage: "run only the steps whose names contain this (e.g. optimize)"},
		),
	)
}

func runDemo(c *cli.Context) error {
	return demo.Main(demo.Config{Stdout: c.App.Writer, Stderr: c.App.ErrWriter, Exec: run,
		Globals: cliapp.GlobalsOf(c), Dir: c.String("dir"), Only: c.String("only")})
}
