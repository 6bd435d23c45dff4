package ui

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"tpsrace/config"
	"tpsrace/probes"
)

// BenchmarkFrame is one frame of the dashboard at 160×48 mid-race: every
// figure, lane, the leaderboard and the chart. At 20 frames a second it
// must stay far under 50ms (the target is 0.5ms), so drawing never competes with the streams.
func BenchmarkFrame(b *testing.B) {
	cfg, updates, _ := recordedRace()
	m := New(Options{Config: cfg})
	m = update(m, tea.WindowSizeMsg{Width: 160, Height: 48})
	m = playTo(m, updates, time.Second) // mid-race: some ended, some streaming
	b.ResetTimer()
	for range b.N {
		m.refresh()
	}
}

// BenchmarkRaceFrame is one frame of the race scripts/dashboard-cpu.sh
// draws: 8 providers at 2000 tok/s, one token per event, at 240×60, in
// races of 10 s (200 frames). Each iteration is what 50 ms brings: 100
// events a provider appended to its stream's record, the batch the relay
// makes of them (a view a record), which draws the frame, and the rows
// that changed written to a terminal (here /dev/null), as onTerminal does.
// Its time × 20 frames a second is the dashboard's own share of a core.
func BenchmarkRaceFrame(b *testing.B) {
	const providers, perFrame, frames = 8, 100, 200
	cfg := &config.Config{Prompt: "Explain how a CPU cache works.", MaxTokens: 20000}
	for i := range providers {
		cfg.Providers = append(cfg.Providers, config.Provider{Name: fmt.Sprintf("sim-%d", i+1), Model: "sim:wafer"})
	}
	words := strings.Fields("a cache keeps the data a core will need next close to it so most loads finish in a few cycles")
	for k := range words {
		words[k] = " " + words[k]
	}
	var m Model
	var clock *benchClock
	var shared [providers]*probes.SharedEvents // each provider's stream's record, as its probe writes it
	var followed records                       // the relay's
	var batch []probes.Update
	n := 0
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer null.Close()
	term := &terminal{out: null}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if i%frames == 0 { // a new race
			b.StopTimer()
			clock = &benchClock{}
			m = New(Options{Config: cfg})
			m = update(m, tea.WindowSizeMsg{Width: 240, Height: 60})
			m.s.phase = phaseRacing
			m = update(m, releasedMsg{race: m.s.id, clock: clock})
			followed = records{}
			for p := range providers {
				shared[p] = probes.NewSharedEvents()
				followed.add(nil, probes.Update{Provider: p, Shared: shared[p]})
			}
			b.StartTimer()
		}
		for k := range perFrame {
			at := clock.now + time.Duration(k)*FrameInterval/perFrame
			for p := range providers {
				shared[p].Append(probes.Event{At: at + time.Duration(p)*time.Microsecond, Content: words[n%len(words)], Tokens: 1})
			}
			n++
		}
		clock.now += FrameInterval
		batch = followed.views(batch[:0])
		m = update(m, batchMsg{race: m.s.id, updates: batch})
		term.draw(m.drawn.rows)
	}
}

// benchClock is a race clock the benchmark moves a frame at a time.
type benchClock struct{ now time.Duration }

func (c *benchClock) Now() time.Duration { return c.now }
