package report

import (
	"strconv"

	"tpsrace/format"
	"tpsrace/metrics"
)

// flagNotes say each raised flag with its evidence, each cause once: a
// race's flag (start skew) in one note naming the races it touched, then
// each provider's flag in one note naming, in rank order, the lanes it
// touched (a merged race's provider@probe lanes are many: one note per
// lane said one cause a dozen times). A flag the races' notes say is not
// said again for each lane: it touched them all.
func (b *Bench) flagNotes() []string {
	var notes []string
	ofRaces := map[string]bool{}
	for _, flag := range metrics.FlagOrder {
		var where, evidence []string
		for _, r := range b.Races {
			if ev, ok := r.Evidence[flag]; ok {
				where, evidence = append(where, b.raceName(r.Run)), append(evidence, ev)
			}
		}
		if len(where) > 0 {
			ofRaces[flag] = true
			notes = append(notes, causeNote(flag, where, evidence))
		}
	}
	ranked := b.Ranked()
	for _, flag := range metrics.FlagOrder {
		if ofRaces[flag] {
			continue
		}
		var lanes, evidence []string
		for _, p := range ranked {
			if ev, ok := p.Summary.Evidence[flag]; ok {
				lanes, evidence = append(lanes, p.Name), append(evidence, ev)
			}
		}
		if len(lanes) > 0 {
			notes = append(notes, causeNote(flag, lanes, evidence))
		}
	}
	return notes
}

// raceName is how a note names race index run: "run 2", or "run 2 · race
// 3" when a run is several races (a workload's steps).
func (b *Bench) raceName(run int) string {
	if per := b.RacesPerRun; per > 1 { // run indexes races
		return "run " + strconv.Itoa(run/per+1) + " · race " + strconv.Itoa(run%per+1)
	}
	return "run " + strconv.Itoa(run+1)
}

// causeNote is one flag's note over the places it touched (lanes or
// races), each with its evidence: "⚑ sim-lpu short_answer: …" for one;
// "⚑ start_skew on run 1 and run 2: …" where the evidence is the same;
// else each place's own after the list.
func causeNote(flag string, where, evidence []string) string {
	if len(where) == 1 {
		return "⚑ " + where[0] + " " + flag + ": " + evidence[0]
	}
	note := "⚑ " + flag + " on " + format.List(where) + ": "
	same := true
	for _, ev := range evidence {
		same = same && ev == evidence[0]
	}
	if same {
		return note + evidence[0]
	}
	for i := range where {
		if i > 0 {
			note += "; "
		}
		note += where[i] + " " + evidence[i]
	}
	return note
}
