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
		for i := range cfg.Providers {
			cfg.Providers[i].Model = "sim:gpu"
		}
		m := raceAt(Options{Config: cfg}, updates, time.Hour, c.w, 24)
		m = update(m, raceDoneMsg{race: m.s.id, results: results})
		title := strings.Split(m.View(), "\n")[0]
		if !strings.Contains(title, c.want) || strings.Contains(title, "API keys") {
			t.Errorf("%d columns: title %q, want %q in it and no reason", c.w, title, c.want)
		}
	}
}

// A providers file that races sim: models beside real ones is a simulated
// race in part, and the banner says how much of it.
func TestSimulatedBannerCountsAMixedRace(t *testing.T) {
	for _, c := range []struct {
		w    int
		want string
	}{
		{240, " 2 of 4 SIMULATED — not real measurements "},
		{100, " 2 of 4 SIMULATED "},
		{60, " 2 of 4 SIMULATED "},
		{40, " 2 of 4 SIMULATED "},
	} {
		cfg, updates, results := recordedRace()
		cfg.Providers[1].Model, cfg.Providers[2].Model = "sim:lpu", "sim:laptop"
		m := raceAt(Options{Config: cfg}, updates, time.Hour, c.w, 24)
		m = update(m, raceDoneMsg{race: m.s.id, results: results})
		if title := strings.Split(m.View(), "\n")[0]; !strings.Contains(title, c.want) {
			t.Errorf("%d columns: title %q, want %q in it", c.w, title, c.want)
		}
	}
}
