// Package gcstart sets the benchtrim process's start heap
// (startheap.Set(startheap.Goal)) while packages are initialised. The
// command imports it for that side effect alone: set in main, the setting
// came after the dependencies' initialisers had allocated 3.6 MB (most of
// it go-json's tables), which the runtime's first heap goal of 4 MB
// answered with a collection; set here (after runtime/debug, about 2.6 MB
// into them), a command that does little collects no garbage at all and
// starts in about 18 instead of 28 ms of CPU (docs/development.md).
// TestStartupCollectsNoGarbage checks that it stays so.
package gcstart

import "github.com/benchtrim/benchtrim/cmd/benchtrim/internal/startheap"

func init() { startheap.Set(startheap.Goal) }
