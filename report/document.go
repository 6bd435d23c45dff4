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
	Run      = benchdoc.Run
	Record   = benchdoc.Record
)

func ptr[T any](v T) *T { return &v }
