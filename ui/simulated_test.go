package ui

import (
	"strings"
	"testing"
	"time"
)

// The SIMULATED banner says what is true of every simulated race, never a
// reason that may be false (keys can be set and --simulated given, or the
// race a replay): its longest words where they fit, shorter where not.
func TestSimulatedBannerClaimsNoReason(t *testing.T) {
	for _, c := range []struct {
		w    int
		want string
	}{
		{240, " SIMULATED providers — not real measurements "},
		{100, " SIMULATED — not real "},
		{80, " SIMULATED "},
		{40, " SIMULATED "},
	} {
		cfg, updates, results := recordedRace()
		cfg.Simulated = true
		m := raceAt(Options{Config: cfg}, updates, time.Hour, c.w, 24)
		m = update(m, raceDoneMsg{race: m.s.id, results: results})
		title := strings.Split(m.View(), "\n")[0]
		if !strings.Contains(title, c.want) || strings.Contains(title, "API keys") {
			t.Errorf("%d columns: title %q, want %q in it and no reason", c.w, title, c.want)
		}
	}
}
