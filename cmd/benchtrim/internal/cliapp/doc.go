// Package cliapp is the machinery benchtrim's command line shares across
// its commands, kept out of cmd/benchtrim so that the command files only
// map flags to an analyzer's options, call its Run and hand the result to
// WriteResult:
//
//   - NormalizeArgs lets flags stand before or after the files and moves
//     global flags before the command; unknown commands and flags are a
//     UsageError with a did-you-mean suggestion (exit status 2);
//   - AddRangeChecks checks numeric flags against their Range before any
//     work; GlobalsOf reads --seed, --workers and --quiet;
//   - Output and CheckOutputs validate every output path before any work
//     (internal/outpath);
//   - WriteResult prints an analyzer's text and writes its data tables
//     (CSV, Arrow, Parquet) and documents atomically;
//   - WrapFlagHelp, FitLines, BuildVersion shape help and --version.
package cliapp
