package report

import (
	"strings"

	"tpsrace/format"
	"tpsrace/metrics"
)

// serverNotes are the table's lines on what each llama.cpp server measured
// of itself, in ranking order: "laptop: prefill 12,748 tok/s · decode 38.0
// tok/s · 71% of this box's memory limit (53.0 tok/s)."
func (b *Bench) serverNotes() []string {
	var notes []string
	for _, p := range b.Ranked() {
		s := p.Summary
		var parts []string
		if s.ServerPromptTPS != nil {
			parts = append(parts, "prefill "+format.TPS(*s.ServerPromptTPS)+" tok/s")
		}
		if s.ServerTPS != nil {
			parts = append(parts, "decode "+format.TPS(*s.ServerTPS)+" tok/s")
		}
		if r := s.MemoryRoofline; r != nil {
			// The one definition again, from the figures the document holds.
			if roof, ok := metrics.MemoryRoofline(deref(s.ServerTPS), s.ServerTPS != nil, &r.Box); ok {
				parts = append(parts, roof.Phrase())
			}
		}
		if len(parts) > 0 {
			notes = append(notes, p.Name+" (the server's own): "+strings.Join(parts, " · ")+".")
		}
	}
	return notes
}
