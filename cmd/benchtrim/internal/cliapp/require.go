package cliapp

import "github.com/urfave/cli/v2"

// requireFlags turns cmd's required string flags into a check at the
// start of its action: a missing one is a usage error (exit status 2,
// with the help hint) naming the flag, where urfave/cli's own check
// returns a plain error (exit status 1).
func requireFlags(cmd *cli.Command) {
	var names []string
	for _, f := range cmd.Flags {
		if sf, ok := f.(*cli.StringFlag); ok && sf.Required {
			sf.Required = false
			names = append(names, sf.Name)
		}
	}
	if len(names) == 0 || cmd.Action == nil {
		return
	}
	action := cmd.Action
	cmd.Action = func(c *cli.Context) error {
		for _, n := range names {
			if !c.IsSet(n) {
				return Usagef(cmd.Name, "--%s is required", n)
			}
		}
		return action(c)
	}
}
