// Package layers holds the module-wide checks of benchtrim's structure; it
// has no code of its own. Its tests keep the imports going down the layers
// of docs/development.md (TestImportsGoDown), every exported name's type
// exported (TestNoHiddenTypesInAPI), every function reachable from a
// program, test or Example (TestNoUnreachableFunctions), the CLI thin, and
// the Go identifiers docs/ names existing (TestDocIdentifiers).
package layers
