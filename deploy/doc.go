// Package deploy holds the files that run `tpsrace watch` in production
// (docs/WATCH.md); its tests check them with the tools that will read them.
// It has no Go code of its own.
package deploy
