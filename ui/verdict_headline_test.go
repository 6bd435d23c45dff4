package ui

import (
	"regexp"
	"strings"
	"testing"

	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// At 120×40, with real-looking provider names, the settled verdict and
// the verdict over --heats 3 are whole (both names, both figures) on lines
// of their own under the chart and the table, never beside the key help.
func TestVerdictIsTheHeadline(t *testing.T) {
	srv := simtest.Start(t, sim.Options{})
	cfg := simConfig(srv, "Hi.", 120, "sim:ttft=20ms,tps=900,tokens=120", "sim:ttft=20ms,tps=400,tokens=120")
	cfg.Providers[0].Name, cfg.Providers[1].Name = "cerebras-llama-3.3-70b", "groq-llama-3.3-70b-versatile"
	tm := startProgram(t, Options{Config: cfg, Heats: 3})
	waitFor(t, tm, "heat 3/3: ")
	m := quit(t, tm)
	m = update(m, struct{}{}) // a frame after the last heat
	race := regexp.MustCompile(`▶ this race: cerebras-llama-3\.3-70b is [0-9.]+× faster than groq-llama-3\.3-70b-versatile \([0-9,]+ vs [0-9,]+ tok/s\)`)
	// On a busy machine bench's sentence may add a note ("; cold first
	// run…"): the names shorten for it, the figures stay.
	heats := regexp.MustCompile(`▶ heat 3/3: cerebra\S* is faster than groq\S* in 3/3 runs; output speed ratio [0-9.]+× \(95% CI [0-9.]+–[0-9.]+, bootstrap\)`)
	view := m.View()
	if !race.MatchString(view) || !heats.MatchString(view) {
		t.Errorf("the verdicts are not whole at 120×40:\n%s", view)
	}
	for _, line := range strings.Split(view, "\n") {
		if strings.Contains(line, "▶") && strings.Contains(line, "? help") {
			t.Errorf("a verdict shares the key help's line: %q", line)
		}
	}
}
