// Package report renders: a bench document (package benchdoc) as a table,
// Markdown, CSV or JSON; history files and bench JSON read back as the
// `tpsrace report` overview (Markdown, CSV, HTML); and --compare. It
// computes no figure: the document's are metrics', and the overview's
// statistics are metrics.DistOf's.
package report

import "tpsrace/benchdoc"

// Bench is a bench document (package benchdoc) with this package's
// renderers: Write, WriteJSON, WriteCSV.
type Bench struct{ *benchdoc.Bench }

// Of gives document b the renderers.
func Of(b *benchdoc.Bench) *Bench { return &Bench{b} }

// The document's types, as the renderers name them.
type (
	Provider = benchdoc.Provider
	Stream   = benchdoc.Stream
	Record   = benchdoc.Record
)

func ptr[T any](v T) *T { return &v }
