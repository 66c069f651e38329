// Package layers holds the test that keeps benchtrim's imports going down
// the layers of docs/development.md; it has no code of its own.
package layers
