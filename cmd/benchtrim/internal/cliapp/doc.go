// Package cliapp is the machinery benchtrim's command line shares across
// its commands, kept out of cmd/benchtrim so that the command files only
// map flags to an analyzer's options and say what it writes:
//
//   - NewApp builds the app: help with EXAMPLES and flags by Group, flag
//     range checks (flagRanges) before any work, required flags;
//     NormalizeArgs lets flags stand before or after the files and moves
//     global flags before the command; unknown commands and flags are a
//     usageError with a did-you-mean suggestion, ExitCode its status 2;
//   - GlobalsOf reads --seed, --workers, --quiet and --max-rows, Selected
//     what every analyzer's options take;
//   - Outputs is the body of a command benchtrim merge combines: output
//     checks (Output, CheckOutputs, cmd/benchtrim/internal/outpath) before any work, the
//     run chunk by chunk (runChunked), the shard's partial file or the
//     text and outputs written as one set (WriteResult); MergeCommand is
//     benchtrim merge over the same Outputs;
//   - wrapFlagHelpOnce, fitLines, buildVersion shape help and --version.
package cliapp
