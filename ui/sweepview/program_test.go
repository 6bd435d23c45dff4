package sweepview

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/ui/theme"
)

// The real program climbs a sweep against the simulator over loopback:
// every level raced, each race recorded, the curves, the knee and the
// verdict on screen when it is done. Two full-speed slots at 800 tok/s
// gain nothing past C=2, whose doubling is read at C=4: its knee is at 2
// unless tpsrace was itself saturated (a level then marked ○ and left
// out, or the sweep stopped), which the test accepts and says.
func TestProgramClimbsTheSweep(t *testing.T) {
	srv := simtest.Start(t, sim.Options{})
	// Streams of 80 tokens (100 ms at 800 tok/s): at 20 (25 ms) a few
	// milliseconds of a loaded box's scheduling read as an 11% gain from
	// C=2 to C=4, and a clean CI run saw no knee.
	cfg := &config.Config{Prompt: "hi", MaxTokens: 80}
	for _, p := range []struct{ name, model string }{{"slots", "sim:ttft=0s,tps=800,tokens=80,batch=2"}, {"wide", "sim:ttft=5ms,tps=400,tokens=80"}} {
		cfg.Providers = append(cfg.Providers, config.Provider{Name: p.name, Kind: config.KindOpenAI, BaseURL: srv.URL(), Model: p.model, Timeout: config.DefaultTimeouts})
	}
	clients := &probes.Clients{}
	defer clients.Close()
	var recorded int
	opts := Options{Config: cfg, Levels: []int{1, 2, 4}, Runs: 2, Palette: theme.New(theme.Auto, true, termenv.Ascii),
		Race:   probes.Race{Providers: cfg.Providers, Request: probes.Request{Prompt: cfg.Prompt, MaxTokens: cfg.MaxTokens}, Clients: clients},
		Record: func([][]probes.Result) { recorded++ }}
	tm := teatest.NewTestModel(t, New(context.Background(), opts), teatest.WithInitialTermSize(120, 40))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("· done")) },
		teatest.WithDuration(60*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Type("q")
	m := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(Model)
	m.stop()

	s := m.Sweep()
	if !m.Finished() || len(s.Levels) == 0 || len(s.Curves) != 2 {
		t.Fatalf("finished %v, levels %v, %d curves", m.Finished(), s.Levels, len(s.Curves))
	}
	if s.Stopped == "" && (len(s.Levels) != 3 || recorded != 6) {
		t.Errorf("levels %v, %d races recorded: want 1, 2, 4 at 2 races each", s.Levels, recorded)
	}
	view := m.View()
	for _, want := range []string{"SIMULATED", "C=1", "C=2", s.Verdict()[:20], "slots", "wide"} {
		if !strings.Contains(strings.Join(strings.Fields(view), " "), want) {
			t.Errorf("no %q on the screen:\n%s", want, view)
		}
	}
	slots := s.Curves[0]
	bent := len(slots.Points) < 3 // the sweep stopped where tpsrace saturated
	for _, p := range slots.Points {
		bent = bent || p.ClientBent
	}
	switch {
	case bent:
		t.Logf("tpsrace was saturated on this machine: the knee is not read past it (%s)", s.Verdict())
	case !slots.Knee.Found || slots.Knee.At != 2 || !strings.Contains(view, "◆"):
		t.Errorf("knee %+v, want at C=2 and drawn ◆:\n%s", slots.Knee, view)
	}
}
